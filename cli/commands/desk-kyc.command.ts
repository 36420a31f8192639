// `svc desk kyc`: the KYC review queue (cli/commands/desk-kyc.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(desk: Command): void {
  const deskKyc = desk
    .command('kyc')
    .description('the KYC review queue')
    .addHelpText('after', examples('svc desk kyc list', 'svc desk kyc clear kyc_0123456789'));
  deskKyc
    .command('list')
    .description('applications waiting for review (screening_referred), oldest first')
    .option('--state <state>', 'screening_referred (default), screened, approved, rejected, received or all')
    .option('--tenant <tenant_id>', 'only this tenant')
    .option('--limit <n>', '1-200 (default 100)')
    .addHelpText('after', examples('svc desk kyc list', 'svc desk kyc list --state all --json'))
    .action(lazy(async () => (await import('./desk-kyc.js')).list));
  deskKyc
    .command('clear <application_id>')
    .description('clear a referral: the application is approved and gets an investor_id')
    .addHelpText('after', examples('svc desk kyc clear kyc_0123456789'))
    .action(lazy(async () => (await import('./desk-kyc.js')).clear));
  deskKyc
    .command('decline <application_id>')
    .description('decline a referral: the application is rejected')
    .option(
      '--reason <code>',
      'SCREENING_MATCH, IDENTITY_NOT_VERIFIED, DOCUMENTS_ILLEGIBLE, DOCUMENTS_MISMATCH, DUPLICATE_INVESTOR or OTHER',
    )
    .option('--note <text>', 'a note for the audit log')
    .addHelpText(
      'after',
      examples('svc desk kyc decline kyc_0123456789 --reason SCREENING_MATCH --note "matched a sanctions list entry"'),
    )
    .action(lazy(async () => (await import('./desk-kyc.js')).decline));
}
