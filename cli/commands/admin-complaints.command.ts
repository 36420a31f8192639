// `svc admin complaints`: the complaints register (cli/commands/admin-complaints.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(admin: Command): void {
  const complaints = admin
    .command('complaints')
    .description(
      'the complaints register: list (default), new, show, move; due 15 EGX business days after receipt ' +
        '(default --as admin)',
    )
    .addHelpText(
      'after',
      examples(
        'svc admin complaints --overdue',
        'svc admin complaints new --investor inv_0123456789 --category fees --summary "charged twice"',
        'svc admin complaints move cmp_0123456789 --to investigating',
      ),
    );
  complaints
    .command('list', { isDefault: true })
    .description('complaints, oldest first, with their due dates; overdue ones flagged')
    .option('--state <state>', 'received, investigating, resolved or rejected')
    .option('--investor <id>', 'only this investor')
    .option('--tenant <id>', 'only this tenant')
    .option('--overdue', 'only complaints past their due date')
    .option('--limit <n>', '1-500 (default 100)')
    .addHelpText('after', examples('svc admin complaints', 'svc admin complaints list --state investigating --json'))
    .action(lazy(async () => (await import('./admin-complaints.js')).list));
  complaints
    .command('new')
    .description('record a complaint: state received, due 15 business days later')
    .option('--investor <id>', 'the investor who complains')
    .option('--category <c>', 'execution, fees, statement, account, service or other')
    .option('--channel <c>', 'email (default), phone, branch, app or letter')
    .option('--summary <text>', 'what the investor says, 1-2000 characters')
    .addHelpText(
      'after',
      examples(
        'svc admin complaints new --investor inv_0123456789 --category fees --channel phone --summary "charged ' +
          'commission twice"',
      ),
    )
    .action(lazy(async () => (await import('./admin-complaints.js')).create));
  complaints
    .command('show <complaint_id>')
    .description('one complaint with its history')
    .addHelpText('after', examples('svc admin complaints show cmp_0123456789'))
    .action(lazy(async () => (await import('./admin-complaints.js')).show));
  complaints
    .command('move <complaint_id>')
    .description('move a complaint one step: received -> investigating -> resolved or rejected (those need --note)')
    .option('--to <state>', 'investigating, resolved or rejected')
    .option('--note <text>', 'the resolution (required for resolved and rejected)')
    .addHelpText(
      'after',
      examples(
        'svc admin complaints move cmp_0123456789 --to investigating',
        'svc admin complaints move cmp_0123456789 --to resolved --note "refunded the duplicate commission"',
      ),
    )
    .action(lazy(async () => (await import('./admin-complaints.js')).move));
}
