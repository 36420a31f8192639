// `svc dashboard` (cli/commands/dashboard.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  program
    .command('dashboard')
    .description(
      "the live screen: clock, quote board, an investor's orders and positions; keys to advance, trade and cancel",
    )
    .option('--investor <id>', 'investor to show (default $SVC_INVESTOR_ID, else the first account)')
    .option(
      '--symbols <list>',
      'quote board symbols, comma-separated (default COMI,TMGH,FWRY,EAST,HRHO,ETEL,SWDY,ABUK,EFIH,ORAS; ' +
        'holdings and open orders are added)',
    )
    .option('--interval <s>', 'seconds between refreshes', '1')
    .addHelpText(
      'after',
      `
Keys: a advance the clock · i switch investor · b buy · s sell · c cancel the selected order · ` +
        `↑↓ select · r refresh · q quit.
Needs a terminal; scripts use svc order list, svc market quotes --json or svc market watch --json.` +
        examples('svc dashboard', 'svc dashboard --investor inv_0123456789 --symbols COMI,TMGH,FWRY'),
    )
    .action(lazy(async () => (await import('./dashboard.js')).dashboard));
}
