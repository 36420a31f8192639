// `svc desk queue`, `execute` and `reject`: the orders at the dealer desk (cli/commands/desk-orders.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(desk: Command): void {
  desk
    .command('queue')
    .description('orders waiting at the dealer desk (placed while auto-fill was off), oldest first')
    .option('--limit <n>', '1-200 (default 100)')
    .addHelpText('after', examples('svc desk queue', 'svc desk queue --json'))
    .action(lazy(async () => (await import('./desk-orders.js')).queue));
  desk
    .command('execute <order_id>')
    .description(
      'execute a desk order in session, at --price (default the tape price; inside the band, never worse than ' +
        'the limit) for --qty (default all)',
    )
    .option('--price <price_egp>', 'execution price in EGP')
    .option('--qty <n>', 'shares to execute (default the whole remaining quantity)')
    .addHelpText(
      'after',
      examples('svc desk execute ord_0123456789', 'svc desk execute ord_0123456789 --price 85.10 --qty 5'),
    )
    .action(lazy(async () => (await import('./desk-orders.js')).execute));
  desk
    .command('reject <order_id>')
    .description('reject a desk order; its reservation is released')
    .option(
      '--reason <code>',
      'DEALER_REJECTED, COMPLIANCE_REVIEW, PRICE_AWAY_FROM_MARKET, DUPLICATE_ORDER_SUSPECTED, ' +
        'INSTRUMENT_HALTED or INSUFFICIENT_BUYING_POWER',
    )
    .addHelpText('after', examples('svc desk reject ord_0123456789 --reason PRICE_AWAY_FROM_MARKET'))
    .action(lazy(async () => (await import('./desk-orders.js')).reject));
}
