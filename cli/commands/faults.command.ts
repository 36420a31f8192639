// `svc faults` (cli/commands/faults.ts): the sandbox's fault rules and their report (docs/faults.md).
import type { Command } from 'commander';
import { examples, lazy } from './declare.js';

export function register(program: Command): void {
  const faults = program
    .command('faults')
    .description(
      'fault rules on tenant routes (errors, latency, dropped connections) and the report of what the client did next',
    )
    .addHelpText(
      'after',
      examples(
        'svc faults add --route "POST /v1/transfers" --effect lost_response --times 1',
        'svc faults add --route "*" --effect status --status 503 --retry-after 2 --probability 0.2',
        'svc faults report --fail-on-findings',
      ),
    );
  faults
    .command('add')
    .description('add a rule: a tenant route (or "*"), a trigger (every, probability, times) and an effect')
    .requiredOption('--route <route>', '"METHOD /v1/template" (e.g. "GET /v1/orders/{id}") or "*"')
    .requiredOption('--effect <type>', 'status, latency, reset, lost_response or timeout')
    .option('--tenant <id>', 'only requests of this tenant')
    .option('--every <n>', 'fire on every Nth matching request')
    .option('--probability <p>', 'fire with probability p (0 < p <= 1; the seeded stream)')
    .option('--times <k>', 'fire on the next K matching requests')
    .option('--status <code>', 'status effect: 429, 500, 502 or 503')
    .option('--retry-after <s>', 'status 429 or 503: the Retry-After in seconds (default 1)')
    .option('--ms <ms>', 'latency effect: a fixed delay')
    .option('--min-ms <ms>', 'latency effect: a ranged delay, from')
    .option('--max-ms <ms>', 'latency effect: a ranged delay, to')
    .option('--seconds <s>', 'timeout effect: how long the connection is held before it drops')
    .addHelpText(
      'after',
      examples(
        'svc faults add --route "POST /v1/orders" --effect reset --every 3',
        'svc faults add --route "GET /v1/orders/{id}" --effect latency --min-ms 200 --max-ms 8000 --probability 0.5',
        'svc faults add --route "POST /v1/transfers" --effect timeout --seconds 8 --times 1',
      ),
    )
    .action(lazy(async () => (await import('./faults.js')).add));
  faults
    .command('list')
    .description('the rules, each with how many requests it matched and how often it fired')
    .addHelpText('after', examples('svc faults list', 'svc faults list --json'))
    .action(lazy(async () => (await import('./faults.js')).list));
  faults
    .command('clear [id]')
    .description('remove one rule, or every rule (the report keeps what happened)')
    .addHelpText('after', examples('svc faults clear', 'svc faults clear flt_2'))
    .action(lazy(async () => (await import('./faults.js')).clear));
  faults
    .command('report')
    .description('for every fault fired, what the client did next; and the findings, with request and resource ids')
    .option('--fail-on-findings', 'exit 1 when there is a finding (for CI)')
    .addHelpText('after', examples('svc faults report', 'svc faults report --json --fail-on-findings'))
    .action(lazy(async () => (await import('./faults.js')).report));
}
