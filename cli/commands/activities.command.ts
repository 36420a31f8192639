// `svc activities` (cli/commands/activities.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  program
    .command('activities')
    .description(
      'the activity feed of an investor, newest first: deposits, withdrawals, fills, fees, taxes, dividends, ' +
        'interest, fund orders',
    )
    .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
    .option('--limit <n>', '1-200 (default 100)')
    .option('--before <activity_id>', 'the page older than this activity (the next_before of the previous page)')
    .addHelpText(
      'after',
      examples(
        'svc activities --investor inv_0123456789',
        'svc activities --limit 10 --json',
        'svc activities --before act_0123456789',
      ),
    )
    .action(lazy(async () => (await import('./activities.js')).list));
}
