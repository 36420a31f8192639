// `svc sandbox`: the daemon of a home (cli/commands/sandbox.ts), its snapshots and journal
// (snapshot.command.ts) and offline replay (replay.command.ts).
import { type Command, Option } from 'commander';
import { aiOption, examples, lazy, rateLimitOption } from './declare.js';
import { register as snapshotCommands } from './snapshot.command.js';
import { register as replayCommand } from './replay.command.js';

export function register(program: Command): void {
  const sandbox = program
    .command('sandbox')
    .description('start, stop and inspect the local sandbox daemon')
    .addHelpText('after', examples('svc sandbox start', 'svc sandbox status', 'svc sandbox list', 'svc sandbox stop'));
  declareStart(sandbox);
  declareDaemonCommands(sandbox);
  declareReset(sandbox);
  snapshotCommands(sandbox);
  replayCommand(sandbox);
}

function declareStart(sandbox: Command): void {
  sandbox
    .command('start')
    .description('start the sandbox daemon (detached) and print base_url, keys and secrets')
    .option('--foreground', 'stay attached; Ctrl-C stops the daemon')
    .option(
      '--port <port>',
      'port to listen on; 0 picks a free one (default: 0 if this home was started with --port 0, else 4710, or ' +
        'a free port when 4710 is taken)',
    )
    .option('--seed <n>', 'seed of the simulation', '42')
    .option('--start <time>', 'simulated start time, RFC 3339 (default 2026-11-22T09:00:00+02:00)')
    .addOption(new Option('--clock <mode>', 'clock mode').choices(['frozen', 'running']))
    .option('--speed <x>', 'running clock speed factor', '1')
    .addOption(aiOption('assistant provider').default('none'))
    .addOption(
      new Option('--log-level <level>', 'daemon log level (debug also logs every quick successful read)')
        .choices(['debug', 'info', 'warn', 'error'])
        .default('info'),
    )
    .addOption(rateLimitOption('limit each API key (sliding window; 429 with Retry-After); off by default'))
    .option(
      '--adopt-audit-head',
      'vouch for the audit chain as svc.db holds it: sign its end and checkpoint it beside kek.key (a home ' +
        'from before checkpoints, or restored by hand; docs/reliability.md)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc sandbox start --port 0 --home /tmp/sbx --json\n  $ svc sandbox start --clock ' +
        'running --speed 60\n  $ svc sandbox start --ai registry',
    )
    .action(lazy(async () => (await import('./sandbox.js')).start));
}

/** stop, list, status, logs, env: the running daemon of the home. */
function declareDaemonCommands(sandbox: Command): void {
  sandbox
    .command('stop')
    .description('stop the running daemon gracefully')
    .addHelpText('after', examples('svc sandbox stop', 'svc sandbox stop --home /tmp/sbx'))
    .action(lazy(async () => (await import('./sandbox.js')).stop));
  sandbox
    .command('list')
    .description('every sandbox on this machine: home, port, pid, clock, seed, up or down')
    .addHelpText('after', examples('svc sandbox list', 'svc sandbox list --json'))
    .action(lazy(async () => (await import('./sandbox.js')).list));
  sandbox
    .command('status')
    .description('is the daemon running; its clock and seed')
    .addHelpText('after', examples('svc sandbox status', 'svc sandbox status --json'))
    .action(lazy(async () => (await import('./sandbox.js')).status));
  sandbox
    .command('logs')
    .description("print the daemon's log")
    .option('-f, --follow', 'keep printing new lines')
    .option('-n, --lines <n>', 'how many recent lines', '50')
    .addHelpText('after', examples('svc sandbox logs -n 100', 'svc sandbox logs --follow'))
    .action(lazy(async () => (await import('./sandbox.js')).logs));
  sandbox
    .command('env')
    .description('print the connection as export SVC_...= lines')
    .addHelpText('after', examples('eval "$(svc sandbox env)"', 'svc sandbox env > .env.sandbox'))
    .action(lazy(async () => (await import('./sandbox.js')).env));
}

function declareReset(sandbox: Command): void {
  sandbox
    .command('reset')
    .description('wipe simulation state (credentials and branding stay) and restart the clock')
    .option('--seed <n>', 'new seed')
    .option('--start <time>', 'new simulated start time, RFC 3339')
    .addOption(new Option('--clock <mode>', 'clock mode').choices(['frozen', 'running']))
    .addOption(aiOption('assistant provider from now on, until the daemon restarts'))
    .addOption(rateLimitOption('limit each API key from now on, or off'))
    .addHelpText(
      'after',
      examples(
        'svc sandbox reset',
        'svc sandbox reset --seed 7 --start 2027-01-03T09:00:00+02:00 --clock frozen',
        'svc sandbox reset --ai openai:http://127.0.0.1:8080/v1',
      ),
    )
    .action(lazy(async () => (await import('./sandbox.js')).reset));
}
