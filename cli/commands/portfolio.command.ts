// `svc portfolio` (cli/commands/portfolio.ts).
import type { Command } from 'commander';
import { lazy } from './declare.js';

export function register(program: Command): void {
  program
    .command('portfolio')
    .description(
      'positions, exposures, performance with a chart of the value series, and risk (Ink with a terminal, ' +
        'plain text otherwise, --json the raw responses)',
    )
    .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
    .option('--days <n>', 'trading days of the performance series and daily returns of the risk figures, 1-365', '90')
    .addHelpText(
      'after',
      "\nDescriptive only: percentages are of the portfolio's own history, never a forecast.\nExamples:\n  $ " +
        'svc portfolio --investor inv_0123456789\n  $ svc portfolio --days 30 --json',
    )
    .action(lazy(async () => (await import('./portfolio.js')).show));
}
