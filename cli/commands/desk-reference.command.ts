// `svc desk reference` (cli/commands/desk-reference.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(desk: Command): void {
  desk
    .command('reference <kind>')
    .description('reference data the daemon applies: instruments, calendar, fees, ticks or holidays')
    .option('--year <YYYY>', 'calendar or holidays of one year')
    .option('--start <YYYY-MM-DD>', 'calendar from this date (default today)')
    .option('--end <YYYY-MM-DD>', 'calendar to this date (default start + 30 days)')
    .addHelpText(
      'after',
      examples(
        'svc desk reference fees',
        'svc desk reference calendar --year 2027',
        'svc desk reference holidays --json',
      ),
    )
    .action(lazy(async () => (await import('./desk-reference.js')).reference));
}
