// `svc logs` (cli/commands/logs.ts).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const logs = program
    .command('logs')
    .description(
      "the request inspector: the daemon's last requests, with bodies redacted (svc sandbox logs prints the " +
        "daemon's log file)",
    )
    .addHelpText(
      'after',
      examples('svc logs tail --status 4xx', 'svc logs tail -f --path /v1/orders', 'svc logs show req_0123456789'),
    );
  logs
    .command('tail')
    .description('one line per recent request: time, method, path, status, error code, latency, request id')
    .option('-f, --follow', 'keep printing new requests (polls)')
    .option('--status <status>', 'only this status (404) or class (4xx)')
    .option('--path <prefix>', 'only paths starting with this')
    .option('--method <method>', 'only this method')
    .option('--code <code>', 'only refusals with this error code')
    .option('-n, --lines <n>', 'how many recent requests', '20')
    .option('--interval <s>', 'seconds between polls with --follow', '1')
    .addHelpText(
      'after',
      `
The daemon keeps the last 1,000 requests in memory ($SVC_INSPECTOR_SIZE when it starts); not its own
inspector reads, the event stream or /healthz. With --json and --follow: one JSON document a line.` +
        examples(
          'svc logs tail --status 4xx',
          'svc logs tail -f --path /v1/orders',
          'svc logs tail --code SIGNATURE_INVALID --json',
        ),
    )
    .action(lazy(async () => (await import('./logs.js')).tail));
  logs
    .command('show <request_id>')
    .description(
      'one request: headers, request and response bodies (secrets and personal data redacted); for a refused ' +
        'signature, the string the daemon signed',
    )
    .option('--canonical', "print only a refused signature's string to sign (to diff against your client's)")
    .addHelpText(
      'after',
      examples(
        'svc logs show req_0123456789',
        'svc logs show req_0123456789 --json',
        'diff <(svc logs show req_0123456789 --canonical) my-string-to-sign.txt',
      ),
    )
    .action(lazy(async () => (await import('./logs.js')).show));
}
