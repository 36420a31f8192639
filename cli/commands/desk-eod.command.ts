// `svc desk eod`: the broker's end of day (cli/commands/desk-eod.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(desk: Command): void {
  desk
    .command('eod')
    .description(
      "end of day for the dealer's broker: the date's trades with their charges, fees by line, cash movements, " +
        'settlement obligations due',
    )
    .option('--date <YYYY-MM-DD>', 'exchange date (default today on the sandbox clock)')
    .addHelpText('after', examples('svc desk eod', 'svc desk eod --date 2026-11-22 --json'))
    .action(lazy(async () => (await import('./desk-eod.js')).eod));
}
