// `svc api` (cli/commands/api.ts).
import type { Command } from 'commander';
import { lazy } from './declare.js';

export function register(program: Command): void {
  program
    .command('api <method> <path>')
    .description('send any request; signs it and adds an Idempotency-Key when the route needs one')
    .option('-d, --data <json>', 'JSON body')
    .option('--idempotency-key <key>', 'use this Idempotency-Key instead of a fresh one')
    .option('--as <identity>', 'admin identity for /admin routes: admin, security or approver')
    .addHelpText(
      'after',
      `\nExamples:\n  $ svc api GET /v1/instruments\n  $ svc api POST /admin/sandbox/quote -d ` +
        `'{"symbol":"COMI","price_micros":85500000}'`,
    )
    .action(lazy(async () => (await import('./api.js')).api));
}
