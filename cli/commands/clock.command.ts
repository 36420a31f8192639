// `svc clock` (cli/commands/clock.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const clock = program
    .command('clock')
    .description('the simulated clock')
    .addHelpText(
      'after',
      examples('svc clock show', 'svc clock advance --hours 1', 'svc clock advance --until next_close'),
    );
  clock
    .command('show')
    .description('current simulated time and session state')
    .addHelpText('after', examples('svc clock show', 'svc clock show --json'))
    .action(lazy(async () => (await import('./clock.js')).show));
  clock
    .command('advance')
    .description('advance the clock, running every due event (fills, settlement, rail steps)')
    .option('--minutes <n>', 'simulated minutes')
    .option('--hours <n>', 'simulated hours')
    .option('--days <n>', 'simulated days')
    .option('--until <when>', 'RFC 3339 instant, next_open or next_close')
    .addHelpText(
      'after',
      '\nDue fills, expiries and settlements run in order; long advances show progress on stderr.\nExamples:\n ' +
        ' $ svc clock advance --until next_open\n  $ svc clock advance --days 30',
    )
    .action(lazy(async () => (await import('./clock.js')).advance));
}
