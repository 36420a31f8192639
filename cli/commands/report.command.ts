// `svc report` (cli/commands/report.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const report = program
    .command('report')
    .description(
      "client statements: a PDF of an investor over a period, in English or Arabic, under the tenant's branding",
    )
    .addHelpText(
      'after',
      examples(
        'svc report create --investor inv_0123456789 --wait',
        'svc report status rpt_0123456789',
        'svc report download rpt_0123456789 --open',
      ),
    );
  report
    .command('create')
    .description('ask for a statement; ready two simulated minutes later (pending, generating, ready or failed)')
    .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
    .option('--from <date>', 'first day, YYYY-MM-DD (default the first of the month of --to)')
    .option('--to <date>', 'last day, YYYY-MM-DD, not after today (default today on the sandbox clock)')
    .option(
      '--sections <list>',
      'comma-separated: summary, performance, holdings, trades (default all four); the disclosures are always last',
    )
    .option('--locale <locale>', 'en or ar (default en)')
    .option('--wait', 'running clock: poll until ready or failed; frozen clock: say how to advance it')
    .option('--timeout <s>', 'with --wait: give up after this many seconds', '300')
    .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
    .addHelpText(
      'after',
      `\n--json prints the report as svc report status --json does.` +
        examples(
          'svc report create --investor inv_0123456789 --wait',
          'svc report create --from 2026-01-01 --to 2026-06-30 --locale ar --sections summary,holdings --json',
          'svc report create && svc clock advance --minutes 2',
        ),
    )
    .action(lazy(async () => (await import('./report.js')).create));
  report
    .command('status <report_id>')
    .description('every field of a report: period, sections, locale, state, times, size and sha256 of the PDF')
    .addHelpText('after', examples('svc report status rpt_0123456789', 'svc report status rpt_0123456789 --json'))
    .action(lazy(async () => (await import('./report.js')).status));
  report
    .command('download <report_id>')
    .description('write the PDF of a ready report (mode 0600) and print its path, size and sha256')
    .option(
      '-o, --output <file>',
      "write here (a directory: the daemon's file name in it); default the daemon's file name in the working directory",
    )
    .option('--force', 'replace an existing file')
    .option('--open', 'then open it with xdg-open (open on macOS) when the machine has it')
    .addHelpText(
      'after',
      `\nExit codes: 0 written, 1 refused by the daemon (REPORT_NOT_READY, REPORT_PURGED, NOT_FOUND),\n2 the ` +
        `file exists (without --force): nothing is written.` +
        examples(
          'svc report download rpt_0123456789',
          'svc report download rpt_0123456789 -o statement.pdf --force',
          'svc report download rpt_0123456789 --open --json',
        ),
    )
    .action(lazy(async () => (await import('./report.js')).download));
}
