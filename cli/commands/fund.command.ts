// `svc fund` (cli/commands/fund.ts).
import type { Command } from 'commander';
import { lazy } from './declare.js';

export function register(program: Command): void {
  const fund = program
    .command('fund')
    .description(
      'money-market funds: list at the current NAV, subscribe and redeem (signed, idempotent, executed at once)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc fund list\n  $ svc fund subscribe BMYBY 10000 --investor inv_0123456789\n  $ svc ' +
        'fund redeem BMYBY 250.5',
    );
  fund
    .command('list')
    .description(
      'the funds, alphabetical, with NAV, NAV date, indicative yield, minimum first subscription, shariah flag ' +
        'and cut-off',
    )
    .option('--shariah', 'shariah-compliant funds only')
    .addHelpText('after', '\nExamples:\n  $ svc fund list\n  $ svc fund list --shariah --json')
    .action(lazy(async () => (await import('./fund.js')).list));
  fund
    .command('subscribe <code> <amount_egp>')
    .description(
      'invest AMOUNT_EGP (up to 6 decimals) in fund CODE at the current NAV; the units bought are floored, the ' +
        'remainder stays cash',
    )
    .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
    .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
    .addHelpText(
      'after',
      "\nUnits executed before the 12:00 Cairo cut-off earn that day's accrual.\nExamples:\n  $ svc fund " +
        'subscribe BMYBY 10000 --investor inv_0123456789\n  $ SVC_INVESTOR_ID=inv_0123456789 svc fund subscribe ' +
        'NILSK 500.25 --json',
    )
    .action(lazy(async () => (await import('./fund.js')).subscribe));
  fund
    .command('redeem <code> <units>')
    .description(
      'redeem UNITS (a decimal with up to 6 places) of fund CODE at the current NAV; the amount paid is ' +
        'floored to the micro',
    )
    .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
    .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc fund redeem BMYBY 250.5 --investor inv_0123456789\n  $ svc fund redeem UBRKH ' +
        '29.301847 --json',
    )
    .action(lazy(async () => (await import('./fund.js')).redeem));
}
