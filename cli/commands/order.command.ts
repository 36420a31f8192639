// `svc order` (cli/commands/order.ts; the questions of buy and sell are cli/commands/order-wizard.ts).
import { type Command, Option } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const order = program
    .command('order')
    .description('equity orders on XCAI: place (signed, idempotent), cancel, list, show, contract note')
    .addHelpText(
      'after',
      examples(
        'svc order buy',
        'svc order buy COMI 10 --limit 84.50 --investor inv_0123456789',
        'svc order list --status open',
      ),
    );
  declarePlace(order);
  declareOthers(order);
}

/** buy and sell: one declaration, two sides. */
function declarePlace(order: Command): void {
  for (const side of ['buy', 'sell'] as const) {
    order
      .command(`${side} [symbol] [qty]`)
      .description(
        `${side} QTY whole shares of SYMBOL: a market order, or a limit order with --limit (EGP); on a ` +
          `terminal, asks for what is missing and shows the fees and reservation first`,
      )
      .option('--limit <price_egp>', 'limit price in EGP (on the tick grid, inside the +/-20% band)')
      .addOption(new Option('--tif <tif>', 'time in force').choices(['day', 'gtc', 'ioc', 'fok']))
      .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
      .option('--client-order-id <id>', 'your own tenant-unique id for the order')
      .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
      .option(
        '--wait',
        'running clock: follow the order until filled, canceled, rejected or expired; frozen clock: say how to ' +
          'advance it',
      )
      .option('--timeout <s>', 'with --wait: give up after this many seconds', '300')
      .addOption(
        new Option('--lang <lang>', "language of the assistant's remedy under a rejection").choices(['en', 'ar']),
      )
      .addHelpText(
        'after',
        `\nOutside the session day and gtc orders queue for the next open; ioc and fok are refused. Sandbox: ` +
          `qty 13 fills in two executions.\nExamples:\n  $ svc order ${side}                     asks for the ` +
          `symbol, quantity, type and time in force\n  $ svc order ${side} COMI 10 --investor inv_0123456789\n  ` +
          `$ svc order ${side} COMI 10 --limit 84.50 --tif gtc --wait --json`,
      )
      .action(lazy(async () => (await import('./order.js'))[side]));
  }
}

/** cancel, list, show, note. */
function declareOthers(order: Command): void {
  order
    .command('cancel <order_id>')
    .description(
      'request cancellation: pending_cancel at once, canceled at the next simulated minute unless a fill ' +
        'completes it first',
    )
    .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
    .option('--wait', 'running clock: follow the order to its final state')
    .option('--timeout <s>', 'with --wait: give up after this many seconds', '300')
    .addHelpText('after', examples('svc order cancel ord_0123456789', 'svc order cancel ord_0123456789 --wait --json'))
    .action(lazy(async () => (await import('./order.js')).cancel));
  order
    .command('list')
    .description('orders, newest first (of --investor or $SVC_INVESTOR_ID when given)')
    .option('--investor <id>', 'investor id')
    .addOption(new Option('--status <status>', 'open or closed').choices(['open', 'closed']))
    .option('--limit <n>', '1-200 (default 100)')
    .addHelpText(
      'after',
      examples('svc order list --investor inv_0123456789 --status open', 'svc order list --limit 10 --json'),
    )
    .action(lazy(async () => (await import('./order.js')).list));
  order
    .command('show <order_id>')
    .description('one order: status, fills so far, timestamps')
    .addHelpText('after', examples('svc order show ord_0123456789', 'svc order show ord_0123456789 --json'))
    .action(lazy(async () => (await import('./order.js')).show));
  order
    .command('note <order_id>')
    .description('the contract note: trade and settlement dates, each fill, each fee, stamp duty, net consideration')
    .addHelpText('after', examples('svc order note ord_0123456789', 'svc order note ord_0123456789 --json'))
    .action(lazy(async () => (await import('./order.js')).note));
}
