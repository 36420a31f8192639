// `svc kyc` (cli/commands/kyc.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const kyc = program
    .command('kyc')
    .description('open an account: KYC application, ID images, submission')
    .addHelpText('after', examples('svc kyc apply', 'svc kyc status kyc_0123456789'));
  kyc
    .command('apply')
    .description(
      'apply for an account: a wizard with a terminal, flags otherwise; uploads both ID sides, submits, shows ' +
        'the outcome',
    )
    .option('--full-name <name>', 'full name as on the national id card')
    .option('--national-id <digits>', 'the 14-digit national id')
    .option('--dob <date>', 'date of birth, YYYY-MM-DD (must match the national id)')
    .option('--email <address>', 'email address')
    .option('--phone <mobile>', 'Egyptian mobile: 01XXXXXXXXX or +201XXXXXXXXX')
    .option('--address <text>', 'residential address')
    .option('--front <file>', 'national id front image (JPEG or PNG, at most 512 KiB)')
    .option('--back <file>', 'national id back image (JPEG or PNG, at most 512 KiB)')
    .option('--sample-documents', 'upload the bundled sample ID images')
    .option('--no-documents', 'submit without images (the dossier-only path)')
    .addHelpText(
      'after',
      `
Sandbox magic values: a national id ending 0000 is rejected; ending 9999 waits for a dealer (svc desk kyc clear).
Examples:
  $ svc kyc apply
  $ svc kyc apply --full-name "Mona Hassan" --national-id 29001010112345 --dob 1990-01-01 \\
      --email mona@example.com --phone 01012345678 --address "12 Tahrir St, Cairo" --sample-documents --json`,
    )
    .action(lazy(async () => (await import('./kyc.js')).apply));
  kyc
    .command('status <application_id>')
    .description('state of an application; investor_id once approved')
    .addHelpText('after', examples('svc kyc status kyc_0123456789', 'svc kyc status kyc_0123456789 --json'))
    .action(lazy(async () => (await import('./kyc.js')).status));
}
