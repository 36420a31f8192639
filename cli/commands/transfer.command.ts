// `svc transfer` (cli/commands/transfer.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const transfer = program
    .command('transfer')
    .description('move cash between the bank and an investor account (signed, idempotent)')
    .addHelpText(
      'after',
      examples(
        'svc transfer deposit 50000 --investor inv_0123456789 --wait',
        'svc transfer list --investor inv_0123456789',
      ),
    );
  for (const [verb, what] of [
    ['deposit', 'deposit cash into'],
    ['withdraw', 'withdraw settled cash from'],
  ] as const) {
    transfer
      .command(`${verb} <amount_egp>`)
      .description(`${what} an investor account; the amount is in EGP with up to 6 decimals`)
      .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
      .option('--wait', 'running clock: poll until completed or failed; frozen clock: say how to advance it')
      .option('--timeout <s>', 'with --wait: give up after this many seconds', '300')
      .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
      .addHelpText(
        'after',
        `\nEach rail step takes one simulated minute; exactly 666 EGP fails at the rail ` +
          `(sandbox).\nExamples:\n  $ svc transfer ${verb} 1500.25 --investor inv_0123456789 --wait\n  $ ` +
          `SVC_INVESTOR_ID=inv_0123456789 svc transfer ${verb} 70000 --json`,
      )
      .action(lazy(async () => (await import('./transfer.js'))[verb]));
  }
  transfer
    .command('list')
    .description('transfers, newest first (of --investor or $SVC_INVESTOR_ID when given)')
    .option('--investor <id>', 'investor id')
    .option('--state <state>', 'received, pending_rail, at_broker, completed or failed')
    .option('--limit <n>', '1-200 (default 100)')
    .addHelpText(
      'after',
      examples('svc transfer list --investor inv_0123456789', 'svc transfer list --state failed --json'),
    )
    .action(lazy(async () => (await import('./transfer.js')).list));
}
