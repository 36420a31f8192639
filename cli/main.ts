// svc: the command-line front of the sandbox. This file holds the global options and the list of command
// groups; each group declares its commands, options and help beside its code, in
// cli/commands/<name>.command.ts, and imports that code only when one of its commands runs, so
// `svc clock show` never loads Ink or inquirer.
import { Command, CommanderError } from 'commander';
import { handleFatal, type CliExit } from './output.js';
import { invokedName, useProgram } from './hints.js';
import { register as sandbox } from './commands/sandbox.command.js';
import { register as clock } from './commands/clock.command.js';
import { register as market } from './commands/market.command.js';
import { register as kyc } from './commands/kyc.command.js';
import { register as investor } from './commands/investor.command.js';
import { register as transfer } from './commands/transfer.command.js';
import { register as order } from './commands/order.command.js';
import { register as fund } from './commands/fund.command.js';
import { register as branding } from './commands/branding.command.js';
import { register as report } from './commands/report.command.js';
import { register as portfolio } from './commands/portfolio.command.js';
import { register as balances } from './commands/balances.command.js';
import { register as activities } from './commands/activities.command.js';
import { register as consoleGroup } from './commands/console.command.js';
import { register as desk } from './commands/desk.command.js';
import { register as admin } from './commands/admin.command.js';
import { register as scenario } from './commands/scenario.command.js';
import { register as logs } from './commands/logs.command.js';
import { register as events } from './commands/events.command.js';
import { register as api } from './commands/api.command.js';
import { register as ai } from './commands/ai.command.js';
import { register as dashboard } from './commands/dashboard.command.js';
import { register as completion } from './commands/completion.command.js';
import { register as faults } from './commands/faults.command.js';

export const VERSION = '0.1.0';

// `svc ... | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const program = new Command('svc')
  .description('Local sandbox of the embedded brokerage API on the Egyptian Exchange (EGX).')
  .version(VERSION)
  .option('--home <dir>', 'sandbox home (default $SVC_HOME or ~/.svc)')
  .option('--profile <name>', 'connection profile to use')
  .option('--base-url <url>', 'talk to the sandbox at this URL')
  .option('--json', 'machine-readable JSON on stdout')
  .showHelpAfterError()
  .addHelpText(
    'after',
    `
Examples:
  $ svc sandbox start                 start a sandbox and print its credentials
  $ svc market quotes COMI TMGH       live quotes from the tape
  $ svc clock advance --until next_open
  $ svc dashboard                     the live screen: clock, quotes, orders, positions
  $ svc api GET /v1/clock             any request, signed when the route needs it
  $ source <(svc completion bash)     tab completion`,
  );

// The groups in the order `svc --help` lists them. Each sees the program as configured above (a
// subcommand copies settings such as showHelpAfterError when it is created).
const groups = [
  sandbox,
  clock,
  market,
  kyc,
  investor,
  transfer,
  order,
  fund,
  branding,
  report,
  portfolio,
  balances,
  activities,
  consoleGroup,
  desk,
  admin,
  scenario,
  logs,
  events,
  api,
  ai,
  dashboard,
  completion,
  faults,
];
for (const register of groups) register(program);

// An interactive command checks that its sandbox is the one answering before it asks anything.
program.hook('preAction', async (_program, action) => (await import('./preflight.js')).preflight(action));

// Usage errors commander finds itself (unknown option, missing argument) exit 2 like ours do.
function overrideExits(cmd: Command): void {
  cmd.exitOverride();
  for (const sub of cmd.commands) overrideExits(sub);
}
overrideExits(program);

try {
  // Hints name the program as it was invoked (./bin/svc in a checkout, svc on the PATH).
  if (process.argv[1]) useProgram(invokedName(process.argv[1], process.env.PATH ?? '', process.cwd()));
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exitCode = err.exitCode === 0 ? 0 : 2;
  else process.exitCode = handleFatal(err as CliExit);
}
