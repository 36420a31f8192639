// `svc admin`, the back office and oversight (X-Admin-Key): each capability adds its subcommands to the
// one `admin` group, each declared beside its code (cli/commands/admin-*.command.ts). --as picks the
// identity from the sandbox's credentials; each command has its own default.
import { type Command, Option } from 'commander';
import { examples } from './declare.js';
import { register as actionCommands } from './admin-actions.command.js';
import { register as auditCommand } from './admin-audit.command.js';
import { register as accessCommands } from './admin-access.command.js';
import { register as reconCommands } from './admin-recon.command.js';
import { register as alertCommands } from './admin-alerts.command.js';
import { register as complaintCommands } from './admin-complaints.command.js';

export function register(program: Command): void {
  const admin = program
    .command('admin')
    .description('the back office (X-Admin-Key): maker-checker, audit, reconciliation, surveillance alerts, complaints')
    .addOption(
      new Option(
        '--as <identity>',
        "act as this identity of the sandbox's credentials (default: each command's own)",
      ).choices(['security', 'approver', 'admin', 'dealer', 'compliance', 'auditor']),
    )
    .addHelpText(
      'after',
      examples(
        'svc admin actions --state proposed',
        'svc admin propose ledger:adjust --param tenant_id=tnt_0123456789 --param investor_id=inv_0123456789 ' +
          '--param amount_micros=1500000 --reason "fee refund"',
        'svc admin approve act_0123456789',
        'svc admin audit --verify',
      ),
    );
  const capabilities = [actionCommands, auditCommand, accessCommands, reconCommands, alertCommands, complaintCommands];
  for (const capability of capabilities) capability(admin);
}
