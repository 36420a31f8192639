// `svc events` (cli/commands/events.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const events = program
    .command('events')
    .description(
      'push events of the sandbox (order fills, transfer and fund order steps, KYC decisions) for local development',
    )
    .addHelpText(
      'after',
      examples(
        'svc events tail',
        'svc events tail --types order.filled,transfer.completed',
        'svc events tail --forward http://127.0.0.1:3000/hook',
      ),
    );
  events
    .command('tail')
    .description('print each event on a line as it happens, or forward each as a POST to a local URL')
    .option('--types <list>', 'comma-separated event types; order.* takes a family (default: all)')
    .option('--forward <url>', 'POST each event (JSON body, Svc-Event-Type header) to this URL and print its status')
    .option('--after <id>', 'start after this event id (replays what the daemon still keeps)')
    .addHelpText(
      'after',
      `
Types: order.partially_filled, order.filled, order.canceled, order.expired, order.rejected, transfer.received,
transfer.approved, transfer.pending_rail, transfer.at_broker, transfer.completed, transfer.failed, kyc.referred,
kyc.approved, kyc.rejected, fund_order.received, fund_order.validated, fund_order.processed, fund_order.settled,
fund_order.rejected, report.ready (reserved). A sandbox tool: the tenant API itself stays polling-only.
Runs until Ctrl-C; reconnects with Last-Event-ID if the stream drops.` +
        examples(
          'svc events tail --types order.*',
          'svc events tail --forward http://127.0.0.1:3000/webhooks/svc',
          'svc events tail --json | jq .type',
        ),
    )
    .action(lazy(async () => (await import('./events.js')).tail));
}
