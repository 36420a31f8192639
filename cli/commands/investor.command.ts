// `svc investor` (cli/commands/investor.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const investor = program
    .command('investor')
    .description('the investor (= account): profile, suitability')
    .addHelpText('after', examples('svc investor show inv_0123456789', 'svc investor suitability inv_0123456789'));
  investor
    .command('show [investor_id]')
    .description('the investor: status, account, gating flags, broker of record (default $SVC_INVESTOR_ID)')
    .addHelpText(
      'after',
      examples('svc investor show inv_0123456789', 'SVC_INVESTOR_ID=inv_0123456789 svc investor show --json'),
    )
    .action(lazy(async () => (await import('./investor.js')).show));
  investor
    .command('suitability [investor_id]')
    .description(
      'record the suitability questionnaire and the risk acknowledgment: a wizard with a terminal, flags otherwise',
    )
    .option('--experience <level>', 'none, limited, moderate or extensive')
    .option('--horizon <band>', 'under_1y, 1_3y, 3_5y or over_5y')
    .option('--risk <tolerance>', 'low, medium or high')
    .option('--income <band>', 'annual income in EGP: under_120k, 120k_300k, 300k_1m or over_1m')
    .option('--net-worth <band>', 'net worth in EGP: under_250k, 250k_1m, 1m_5m or over_5m')
    .option('--objectives <list>', 'comma-separated: capital_preservation, income, growth, speculation')
    .option('--shariah-only', 'elect the shariah-only screen')
    .option('--ack-risk', 'accept the risk disclosure (needed for equity trading)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc investor suitability inv_0123456789\n  $ svc investor suitability --experience ' +
        'moderate --horizon 3_5y --risk medium --income 300k_1m --net-worth 1m_5m --objectives growth --ack-risk',
    )
    .action(lazy(async () => (await import('./investor.js')).suitability));
}
