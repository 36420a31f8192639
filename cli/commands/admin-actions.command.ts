// `svc admin actions`, `propose`, `approve` and `reject`: maker-checker (cli/commands/admin-actions.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(admin: Command): void {
  admin
    .command('actions')
    .description('maker-checker proposals, newest first (default --as admin)')
    .option('--state <state>', 'proposed, approved, rejected or expired')
    .option('--limit <n>', '1-200 (default 50)')
    .addHelpText('after', examples('svc admin actions', 'svc admin actions --state proposed --json'))
    .action(lazy(async () => (await import('./admin-actions.js')).actions));
  admin
    .command('propose <base>')
    .description(
      'propose a privileged change, the maker side (default --as security): BASE is a strict-split base such ' +
        'as ledger:adjust',
    )
    .option(
      '--param <key=value>',
      'a param of the base; repeatable. *_micros, *_bps, qty, minutes and ratio are integers; a.b=v nests; ' +
        'key:=JSON takes JSON',
      (v: string, acc?: string[]) => [...(acc ?? []), v],
    )
    .option('--reason <text>', 'why (stored with the payload; required)')
    .addHelpText(
      'after',
      `
Bases and their params: docs/backoffice.md. The whole payload is stored and cannot change; ` +
        `another identity decides it.${examples(
          'svc admin propose ledger:adjust --param tenant_id=tnt_0123456789 --param investor_id=inv_0123456789 ' +
            '--param amount_micros=-250000 --reason "duplicate fee"',
          'svc admin propose break-glass --param identity_id=opr_0123456789 --param minutes=30 --reason "incident 42"',
        )}`,
    )
    .action(lazy(async () => (await import('./admin-actions.js')).propose));
  admin
    .command('approve <action_id>')
    .description(
      'approve a proposal, the checker side (default --as approver): it runs at once; svc steps up when the ' +
        'daemon asks (one code keeps the key fresh for 5 minutes)',
    )
    .option('--reason <text>', 'an optional note of the decision')
    .addHelpText('after', examples('svc admin approve act_0123456789', 'svc admin approve act_0123456789 --json'))
    .action(lazy(async () => (await import('./admin-actions.js')).approve));
  admin
    .command('reject <action_id>')
    .description('reject a proposal (default --as approver); svc steps up when the daemon asks')
    .option('--reason <text>', 'why (required)')
    .addHelpText('after', examples('svc admin reject act_0123456789 --reason "wrong investor"'))
    .action(lazy(async () => (await import('./admin-actions.js')).reject));
}
