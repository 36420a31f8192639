// `svc desk funding`: funding approvals (cli/commands/desk-funding.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(desk: Command): void {
  const deskFunding = desk
    .command('funding')
    .description('funding approvals (transfers wait only while manual approval is on)')
    .addHelpText('after', examples('svc desk funding list', 'svc desk funding approve trf_0123456789'));
  deskFunding
    .command('list')
    .description('transfers waiting for a funding decision, newest first')
    .option('--approval <a>', 'pending (default), approved, rejected, automatic or any')
    .option('--state <state>', 'received, pending_rail, at_broker, completed or failed')
    .option('--limit <n>', '1-200 (default 100)')
    .addHelpText('after', examples('svc desk funding list', 'svc desk funding list --approval any --json'))
    .action(lazy(async () => (await import('./desk-funding.js')).list));
  deskFunding
    .command('approve <transfer_id>')
    .description('approve a waiting transfer; its rail steps start one simulated minute later')
    .addHelpText('after', examples('svc desk funding approve trf_0123456789'))
    .action(lazy(async () => (await import('./desk-funding.js')).approve));
  deskFunding
    .command('reject <transfer_id>')
    .description('reject a waiting transfer: it fails with the reason and a withdrawal hold is released')
    .option('--reason <code>', 'SOURCE_OF_FUNDS_UNVERIFIED, NAME_MISMATCH, AML_REVIEW, LIMIT_POLICY or DEALER_REJECTED')
    .addHelpText('after', examples('svc desk funding reject trf_0123456789 --reason AML_REVIEW'))
    .action(lazy(async () => (await import('./desk-funding.js')).reject));
}
