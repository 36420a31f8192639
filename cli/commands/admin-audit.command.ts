// `svc admin audit`: the hash-chained audit log (cli/commands/admin-audit.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(admin: Command): void {
  admin
    .command('audit')
    .description(
      'the hash-chained audit log, newest first, times in Cairo (default --as admin); --verify checks the chain',
    )
    .option('--actor <actor>', 'entries by this actor (or on its behalf), e.g. operator:approver')
    .option('--action <action>', 'entries of this action, e.g. admin_action.approved')
    .option('--from <when>', 'at or after: YYYY-MM-DD (Cairo) or RFC 3339')
    .option('--to <when>', 'at or before: YYYY-MM-DD (Cairo, the whole day) or RFC 3339')
    .option('--limit <n>', '1-200 (default 100)')
    .option('--before <seq>', 'the page older than this seq')
    .option('--verify', 'recompute every hash and check the signed head (exit 1 when broken)')
    .addHelpText(
      'after',
      examples(
        'svc admin audit --action admin_action.approved',
        'svc admin audit --from 2026-11-22 --to 2026-11-23 --json',
        'svc admin audit --verify',
      ),
    )
    .action(lazy(async () => (await import('./admin-audit.js')).audit));
}
