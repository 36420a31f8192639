// Identity hygiene: `svc admin access-review`, `sessions` and `keys` (cli/commands/admin-access.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(admin: Command): void {
  declareAccessReview(admin);
  declareSessions(admin);
  declareKeys(admin);
}

function declareAccessReview(admin: Command): void {
  const accessReview = admin
    .command('access-review')
    .description(
      'who holds what: every identity with its roles, grants, creation and last use, and the open access ' +
        'reviews (default --as compliance)',
    )
    .addHelpText(
      'after',
      examples(
        'svc admin access-review',
        'svc admin access-review open',
        'svc admin access-review decide ari_0123456789 --revoke --note "left the desk"',
      ),
    );
  accessReview
    .command('show', { isDefault: true })
    .description('the access snapshot and the open campaigns')
    .addHelpText('after', examples('svc admin access-review show', 'svc admin access-review show --json'))
    .action(lazy(async () => (await import('./admin-access.js')).accessReview));
  accessReview
    .command('open')
    .description('open a campaign: one item per identity-grant held now')
    .addHelpText(
      'after',
      examples('svc admin access-review open', 'svc admin --as compliance access-review open --json'),
    )
    .action(lazy(async () => (await import('./admin-access.js')).openReview));
  accessReview
    .command('decide <item_id>')
    .description(
      'certify or revoke one item (revoke removes the grant at once); not an item about your own access (then ' +
        '--as security)',
    )
    .option('--certify', 'the grant stays')
    .option('--revoke', "the grant goes, from the identity's next request")
    .option('--note <text>', 'why, for the audit log')
    .addHelpText(
      'after',
      examples(
        'svc admin access-review decide ari_0123456789 --certify',
        'svc admin --as security access-review decide ari_0123456789 --revoke --note "not needed"',
      ),
    )
    .action(lazy(async () => (await import('./admin-access.js')).decideItem));
}

function declareSessions(admin: Command): void {
  const sessions = admin
    .command('sessions')
    .description('console sessions: identity, sign-in, last seen, step-up (default --as security)')
    .addHelpText(
      'after',
      examples(
        'svc admin sessions',
        'svc admin sessions revoke --identity dealer',
        'svc admin sessions revoke --session ses_0123456789',
      ),
    );
  sessions
    .command('list', { isDefault: true })
    .description('every console session, newest first')
    .addHelpText('after', examples('svc admin sessions list', 'svc admin sessions list --json'))
    .action(lazy(async () => (await import('./admin-access.js')).sessions));
  sessions
    .command('revoke')
    .description('end console sessions at once: their next request is refused')
    .option('--session <id...>', 'these sessions')
    .option('--identity <name_or_id>', 'every session of this identity')
    .addHelpText(
      'after',
      examples('svc admin sessions revoke --session ses_0123456789', 'svc admin sessions revoke --identity dealer'),
    )
    .action(lazy(async () => (await import('./admin-access.js')).revokeSessions));
}

function declareKeys(admin: Command): void {
  const keys = admin
    .command('keys')
    .description(
      'operator keys: rotate (new key shown once, saved to credentials.json) ' +
        'or revoke for good (default --as security)',
    )
    .addHelpText('after', examples('svc admin keys rotate dealer', 'svc admin keys revoke compliance'));
  keys
    .command('rotate <identity>')
    .description('give an identity (name or id) a new key; the old one is refused from now on')
    .addHelpText('after', examples('svc admin keys rotate dealer', 'svc admin keys rotate security --json'))
    .action(lazy(async () => (await import('./admin-access.js')).rotateKey));
  keys
    .command('revoke <identity>')
    .description("revoke an identity's key for good and end its console sessions")
    .addHelpText('after', examples('svc admin keys revoke dealer'))
    .action(lazy(async () => (await import('./admin-access.js')).revokeKey));
}
