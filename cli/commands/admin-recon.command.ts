// `svc admin recon`: reconciliation (cli/commands/admin-recon.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(admin: Command): void {
  const recon = admin
    .command('recon')
    .description('reconciliation of the book against the custodian (shares) and the bank (cash)')
    .addHelpText(
      'after',
      examples(
        'svc admin recon run',
        'svc admin recon breaks --state open',
        'svc admin recon resolve rbk_0123456789 --adjust',
      ),
    );
  recon
    .command('run')
    .description(
      'reconcile one business day: open breaks for new differences, ' +
        'resolve those that match again (default --as admin)',
    )
    .option('--date <YYYY-MM-DD>', 'a business day up to today (default the latest one)')
    .addHelpText('after', examples('svc admin recon run', 'svc admin recon run --date 2026-11-24 --json'))
    .action(lazy(async () => (await import('./admin-recon.js')).run));
  recon
    .command('breaks')
    .description(
      'reconciliation breaks, newest first: book, statement and difference in EGP (cash) ' +
        'or shares (default --as admin)',
    )
    .option('--state <state>', 'open, acknowledged or resolved')
    .option('--kind <kind>', 'position, cash, missing or duplicate')
    .option('--investor <id>', 'only this investor')
    .option('--asset <asset>', 'only this asset: cash:EGP or a symbol')
    .option('--run <run_id>', 'breaks a run found')
    .option('--limit <n>', '1-1000 (default 200)')
    .addHelpText('after', examples('svc admin recon breaks --state open', 'svc admin recon breaks --kind cash --json'))
    .action(lazy(async () => (await import('./admin-recon.js')).breaks));
  recon
    .command('ack <break_id>')
    .description('acknowledge an open break: someone is on it (default --as admin)')
    .option('--note <text>', 'an optional note')
    .addHelpText('after', examples('svc admin recon ack rbk_0123456789 --note "asked the bank for the statement line"'))
    .action(lazy(async () => (await import('./admin-recon.js')).ack));
  recon
    .command('resolve <break_id>')
    .description(
      'resolve a break: --accept keeps the difference with a note (default --as admin); --adjust proposes the ' +
        'ledger:adjust that makes the book equal the statement (default --as security), resolved adjusted when ' +
        'approved',
    )
    .option('--accept', 'the difference is explained and kept (needs --note)')
    .option('--adjust', 'propose a ledger:adjust of -difference naming the break (cash breaks)')
    .option('--note <text>', "why (required with --accept; with --adjust the proposal's reason)")
    .addHelpText(
      'after',
      examples(
        'svc admin recon resolve rbk_0123456789 --accept --note "bank timing difference"',
        'svc admin recon resolve rbk_0123456789 --adjust && svc admin approve act_0123456789',
      ),
    )
    .action(lazy(async () => (await import('./admin-recon.js')).resolve));
}
