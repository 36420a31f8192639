// `svc balances` (cli/commands/balances.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  program
    .command('balances')
    .description(
      'cash, shares and fund units of an investor: settled (available), reserved and unsettled (EGP with two ' +
        'decimals, --json the raw micros)',
    )
    .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
    .addHelpText(
      'after',
      examples('svc balances --investor inv_0123456789', 'SVC_INVESTOR_ID=inv_0123456789 svc balances --json'),
    )
    .action(lazy(async () => (await import('./balances.js')).show));
}
