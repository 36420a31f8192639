// `svc console`: the browser console (docs/console.md), passkey enrolment (cli/commands/console.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const consoleCmd = program
    .command('console')
    .description('the browser console: passkey enrolment')
    .addHelpText('after', examples('svc console enroll --as dealer'));
  consoleCmd
    .command('enroll')
    .description('print a one-time link that registers a passkey for an operator identity in the browser console')
    .option('--as <role>', 'dealer (default), security, approver, admin, auditor or compliance')
    .addHelpText('after', examples('svc console enroll --as dealer', 'svc console enroll --as approver --json'))
    .action(lazy(async () => (await import('./console.js')).enroll));
}
