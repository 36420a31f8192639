// svc: the command-line front of the sandbox. Commands are declared here; each group's code is
// imported only when one of its commands runs, so `svc clock show` never loads Ink or inquirer.
import { Command, Option } from 'commander';
import { handleFatal, type CliExit } from './output.js';
import type { GlobalOptions } from './context.js';

export const VERSION = '0.1.0';

type Action = (opts: any, global: GlobalOptions, args: string[]) => Promise<void>;

/** Wraps a lazily imported action: merges global options, maps failures to exit codes. */
function lazy(load: () => Promise<Action>) {
  return async (...received: unknown[]) => {
    const cmd = received[received.length - 1] as Command;
    const opts = received[received.length - 2] as Record<string, unknown>;
    const args = received.slice(0, -2).flat() as string[];
    const global = cmd.optsWithGlobals() as GlobalOptions;
    const action = await load();
    await action(opts, global, args);
  };
}

const program = new Command('svc')
  .description('Local sandbox of the embedded brokerage API on the Egyptian Exchange (EGX).')
  .version(VERSION)
  .option('--home <dir>', 'sandbox home (default $SVC_HOME or ~/.svc)')
  .option('--profile <name>', 'connection profile to use')
  .option('--base-url <url>', 'talk to the sandbox at this URL')
  .option('--json', 'machine-readable JSON on stdout')
  .showHelpAfterError()
  .addHelpText('after', `
Examples:
  $ svc sandbox start                 start a sandbox and print its credentials
  $ svc market quotes COMI TMGH       live quotes from the tape
  $ svc clock advance --until next_open
  $ svc api GET /v1/clock             any request, signed when the route needs it`);

const sandbox = program.command('sandbox').description('start, stop and inspect the local sandbox daemon');
sandbox
  .command('start')
  .description('start the sandbox daemon (detached) and print base_url, keys and secrets')
  .option('--foreground', 'stay attached; Ctrl-C stops the daemon')
  .option('--port <port>', 'port to listen on (0 picks a free one)', '4710')
  .option('--seed <n>', 'seed of the simulation', '42')
  .option('--start <time>', 'simulated start time, RFC 3339 (default 2026-11-22T09:00:00+02:00)')
  .addOption(new Option('--clock <mode>', 'clock mode').choices(['frozen', 'running']))
  .option('--speed <x>', 'running clock speed factor', '1')
  .addOption(new Option('--ai <provider>', 'assistant provider').choices(['none', 'registry']).default('none'))
  .addHelpText('after', '\nExamples:\n  $ svc sandbox start --port 0 --home /tmp/sbx --json\n  $ svc sandbox start --clock running --speed 60')
  .action(lazy(async () => (await import('./commands/sandbox.js')).start));
sandbox.command('stop').description('stop the running daemon gracefully').action(lazy(async () => (await import('./commands/sandbox.js')).stop));
sandbox.command('status').description('is the daemon running; its clock and seed').action(lazy(async () => (await import('./commands/sandbox.js')).status));
sandbox
  .command('logs')
  .description("print the daemon's log")
  .option('-f, --follow', 'keep printing new lines')
  .option('-n, --lines <n>', 'how many recent lines', '50')
  .action(lazy(async () => (await import('./commands/sandbox.js')).logs));
sandbox.command('env').description('print the connection as export SVC_...= lines').action(lazy(async () => (await import('./commands/sandbox.js')).env));
sandbox
  .command('reset')
  .description('wipe simulation state (credentials stay) and restart the clock')
  .option('--seed <n>', 'new seed')
  .option('--start <time>', 'new simulated start time, RFC 3339')
  .addOption(new Option('--clock <mode>', 'clock mode').choices(['frozen', 'running']))
  .action(lazy(async () => (await import('./commands/sandbox.js')).reset));

const clock = program.command('clock').description('the simulated clock');
clock.command('show').description('current simulated time and session state').action(lazy(async () => (await import('./commands/clock.js')).show));
clock
  .command('advance')
  .description('advance the clock, running every due event (fills, settlement, rail steps)')
  .option('--minutes <n>', 'simulated minutes')
  .option('--hours <n>', 'simulated hours')
  .option('--days <n>', 'simulated days')
  .option('--until <when>', 'RFC 3339 instant, next_open or next_close')
  .addHelpText('after', '\nExamples:\n  $ svc clock advance --until next_open\n  $ svc clock advance --days 2')
  .action(lazy(async () => (await import('./commands/clock.js')).advance));

const market = program.command('market').description('market data: quotes and the trading calendar');
market
  .command('quotes [symbols...]')
  .description('live quotes (all equities when no symbol is given)')
  .addHelpText('after', '\nExample:\n  $ svc market quotes COMI FWRY --json')
  .action(lazy(async () => (await import('./commands/market.js')).quotes));
market
  .command('calendar')
  .description('trading days with their T+2 settlement dates')
  .option('--start <date>', 'YYYY-MM-DD')
  .option('--end <date>', 'YYYY-MM-DD')
  .action(lazy(async () => (await import('./commands/market.js')).calendar));

program
  .command('api <method> <path>')
  .description('send any request; signs it and adds an Idempotency-Key when the route needs one')
  .option('-d, --data <json>', 'JSON body')
  .option('--idempotency-key <key>', 'use this Idempotency-Key instead of a fresh one')
  .option('--as <identity>', 'admin identity for /admin routes: admin, security or approver')
  .addHelpText('after', `\nExamples:\n  $ svc api GET /v1/instruments\n  $ svc api POST /admin/sandbox/quote -d '{"symbol":"COMI","price_micros":85500000}'`)
  .action(lazy(async () => (await import('./commands/api.js')).api));

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.exitCode = handleFatal(err as CliExit);
}
