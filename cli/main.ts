// svc: the command-line front of the sandbox. Commands are declared here; each group's code is
// imported only when one of its commands runs, so `svc clock show` never loads Ink or inquirer.
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { handleFatal, type CliExit } from './output.js';
import { invokedName, useHome, useProgram } from './hints.js';
import type { GlobalOptions } from './context.js';
import { AI_PROVIDER_USAGE, parseAiProvider } from '../daemon/contract/ai-provider.js';
import { register as registerFaults } from './commands/faults.command.js';
import { parseRateLimit, RATE_LIMIT_USAGE } from '../daemon/contract/rate-limit.js';

export const VERSION = '0.1.0';

// `svc ... | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

/** A command's action: its own options (an interface per command), the global ones, the arguments. */
type Action<Options> = (opts: Options, global: GlobalOptions, args: string[]) => Promise<void>;

/** The help's closing "Examples:" block (every command has one; a test walks the tree). */
function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
}

/** Wraps a lazily imported action: merges global options, maps failures to exit codes. */
function lazy<Options>(load: () => Promise<Action<Options>>) {
  return async (...received: unknown[]) => {
    const cmd = received[received.length - 1] as Command;
    // What commander parsed for the options the command declares below, as its interface names them.
    const opts = received[received.length - 2] as Options;
    const args = received.slice(0, -2).flat() as string[];
    const global = cmd.optsWithGlobals() as GlobalOptions;
    // Hints name svc commands with the --home in use (cli/hints.ts).
    useHome(global.home);
    const action = await load();
    await action(opts, global, args);
  };
}

/** --ai <provider>: none, registry or openai:<base_url>; anything else is a usage error (exit 2). */
function aiOption(description: string): Option {
  return new Option('--ai <provider>', `${description}: ${AI_PROVIDER_USAGE}`).argParser((v: string) => {
    if (parseAiProvider(v) === null) throw new InvalidArgumentError(`must be ${AI_PROVIDER_USAGE}`);
    return v;
  });
}

/** --rate-limit <n/window>: "200/min" (docs/faults.md); reset also takes off. */
function rateLimitOption(description: string): Option {
  return new Option('--rate-limit <n/window>', `${description}: ${RATE_LIMIT_USAGE}`).argParser((v: string) => {
    if (v !== 'off' && parseRateLimit(v) === null) throw new InvalidArgumentError(`must be ${RATE_LIMIT_USAGE}`);
    return v;
  });
}

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

const sandbox = program
  .command('sandbox')
  .description('start, stop and inspect the local sandbox daemon')
  .addHelpText('after', examples('svc sandbox start', 'svc sandbox status', 'svc sandbox list', 'svc sandbox stop'));
sandbox
  .command('start')
  .description('start the sandbox daemon (detached) and print base_url, keys and secrets')
  .option('--foreground', 'stay attached; Ctrl-C stops the daemon')
  .option(
    '--port <port>',
    'port to listen on; 0 picks a free one (default: 0 if this home was started with --port 0, else 4710, or a free port when 4710 is taken)',
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
    'vouch for the audit chain as svc.db holds it: sign its end and checkpoint it beside kek.key (a home from before checkpoints, or restored by hand; docs/reliability.md)',
  )
  .addHelpText(
    'after',
    '\nExamples:\n  $ svc sandbox start --port 0 --home /tmp/sbx --json\n  $ svc sandbox start --clock running --speed 60\n  $ svc sandbox start --ai registry',
  )
  .action(lazy(async () => (await import('./commands/sandbox.js')).start));
sandbox
  .command('stop')
  .description('stop the running daemon gracefully')
  .addHelpText('after', examples('svc sandbox stop', 'svc sandbox stop --home /tmp/sbx'))
  .action(lazy(async () => (await import('./commands/sandbox.js')).stop));
sandbox
  .command('list')
  .description('every sandbox on this machine: home, port, pid, clock, seed, up or down')
  .addHelpText('after', examples('svc sandbox list', 'svc sandbox list --json'))
  .action(lazy(async () => (await import('./commands/sandbox.js')).list));
sandbox
  .command('status')
  .description('is the daemon running; its clock and seed')
  .addHelpText('after', examples('svc sandbox status', 'svc sandbox status --json'))
  .action(lazy(async () => (await import('./commands/sandbox.js')).status));
sandbox
  .command('logs')
  .description("print the daemon's log")
  .option('-f, --follow', 'keep printing new lines')
  .option('-n, --lines <n>', 'how many recent lines', '50')
  .addHelpText('after', examples('svc sandbox logs -n 100', 'svc sandbox logs --follow'))
  .action(lazy(async () => (await import('./commands/sandbox.js')).logs));
sandbox
  .command('env')
  .description('print the connection as export SVC_...= lines')
  .addHelpText('after', examples('eval "$(svc sandbox env)"', 'svc sandbox env > .env.sandbox'))
  .action(lazy(async () => (await import('./commands/sandbox.js')).env));
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
  .action(lazy(async () => (await import('./commands/sandbox.js')).reset));
sandbox
  .command('export [file]')
  .description('save the whole sandbox (state, clock, seed, credentials) to one snapshot file; it holds secrets')
  .option(
    '--redact',
    'rebuild the sandbox from its journal with personal data replaced by fakes (in an isolated sandbox) and export that: no personal data and none of these keys',
  )
  .addHelpText(
    'after',
    `
The file holds the database, the key-encryption key and the credentials: keep it as secret as the keys.
With --redact it holds neither this sandbox's personal data nor its keys, and every journal entry must
replay to its recorded answer, or nothing is written.
Examples:
  $ svc sandbox export                      writes svc-<seed>-<date>.svcsnap here
  $ svc sandbox export --redact support-1234.svcsnap
  $ svc sandbox export /tmp/bug-1234.svcsnap --json`,
  )
  .action(
    lazy<{ redact?: boolean }>(
      async () => async (opts, g, args) =>
        (opts.redact
          ? (await import('./commands/export-redacted.js')).exportRedactedCmd
          : (await import('./commands/snapshot.js')).exportCmd)(opts, g, args),
    ),
  );
sandbox
  .command('import <file>')
  .description(
    'replace the sandbox of this home with a snapshot (checked first; a bad file changes nothing), then start it',
  )
  .option(
    '--port <port>',
    "port of the imported sandbox (default: the replaced daemon's, else 4710; 0 picks a free one)",
  )
  .addOption(aiOption("assistant provider (default: the replaced daemon's, else none)"))
  .addHelpText(
    'after',
    `
Exit codes: 0 imported and running, 1 the imported sandbox did not start (the previous one is put back), 2 a bad file.
Examples:
  $ svc sandbox import bug-1234.svcsnap
  $ svc --home /tmp/repro sandbox import bug-1234.svcsnap --port 0 --json`,
  )
  .action(lazy(async () => (await import('./commands/snapshot.js')).importCmd));
sandbox
  .command('journal [file]')
  .description('save the request journal (every committed state-changing request) as NDJSON; stdout without FILE')
  .option('--after <seq>', 'only entries after this seq')
  .option(
    '--redact',
    'replace national ids, names, emails, phones, addresses and ID images with consistent fakes; the file still replays to the same answers',
  )
  .addHelpText(
    'after',
    `
The journal holds request bodies (national ids, ID images), never keys or signatures; --redact makes one
you can share (docs/snapshots.md, "Redaction").
Examples:
  $ svc sandbox journal journal.ndjson
  $ svc sandbox journal --redact support-1234.ndjson
  $ svc sandbox journal | tail -n 3`,
  )
  .action(lazy(async () => (await import('./commands/snapshot.js')).journalCmd));
sandbox
  .command('replay <journal>')
  .description(
    "rebuild a sandbox from a journal, offline: a new sandbox with the journal's seed and start, built in a process of its own that listens on nothing, re-runs every entry as its principal and must answer each as recorded",
  )
  .option('--port <port>', 'port of the rebuilt sandbox once it starts (with --home; default 0: a free one)')
  .addHelpText(
    'after',
    `
Without --home the sandbox is rebuilt in a temporary home that is removed afterwards; with --home DIR (a
new directory) the rebuilt sandbox is started there once the replay is over, to reproduce and inspect
the issue. A journal is never replayed into a running sandbox: replayed entries act as their recorded
principals, which only the owner of a new home may have them do. Secrets a replayed answer shows once
(keys, enrolment codes) are not handed back.
Exit codes: 0 every entry answered as recorded, 1 some differ (listed) or the replay stopped, 2 a bad journal or a home that holds a sandbox.
Examples:
  $ svc sandbox replay journal.ndjson
  $ svc --home ./repro sandbox replay journal.ndjson
  $ svc sandbox replay journal.ndjson --json`,
  )
  .action(lazy(async () => (await import('./commands/replay.js')).replayCmd));

const clock = program
  .command('clock')
  .description('the simulated clock')
  .addHelpText(
    'after',
    examples('svc clock show', 'svc clock advance --hours 1', 'svc clock advance --until next_close'),
  );
clock
  .command('show')
  .description('current simulated time and session state')
  .addHelpText('after', examples('svc clock show', 'svc clock show --json'))
  .action(lazy(async () => (await import('./commands/clock.js')).show));
clock
  .command('advance')
  .description('advance the clock, running every due event (fills, settlement, rail steps)')
  .option('--minutes <n>', 'simulated minutes')
  .option('--hours <n>', 'simulated hours')
  .option('--days <n>', 'simulated days')
  .option('--until <when>', 'RFC 3339 instant, next_open or next_close')
  .addHelpText(
    'after',
    '\nDue fills, expiries and settlements run in order; long advances show progress on stderr.\nExamples:\n  $ svc clock advance --until next_open\n  $ svc clock advance --days 30',
  )
  .action(lazy(async () => (await import('./commands/clock.js')).advance));

const market = program
  .command('market')
  .description('market data: quotes, a live quote strip and the trading calendar')
  .addHelpText(
    'after',
    examples(
      'svc market quotes COMI TMGH',
      'svc market watch COMI TMGH',
      'svc market calendar --start 2026-12-01 --end 2026-12-31',
    ),
  );
market
  .command('quotes [symbols...]')
  .description('live quotes (all equities when no symbol is given)')
  .addHelpText('after', examples('svc market quotes', 'svc market quotes COMI FWRY --json'))
  .action(lazy(async () => (await import('./commands/market.js')).quotes));
market
  .command('calendar')
  .description('trading days with their T+2 settlement dates')
  .option('--start <date>', 'YYYY-MM-DD')
  .option('--end <date>', 'YYYY-MM-DD')
  .addHelpText(
    'after',
    examples('svc market calendar --start 2026-12-01 --end 2026-12-31', 'svc market calendar --json'),
  )
  .action(lazy(async () => (await import('./commands/market.js')).calendar));
market
  .command('watch <symbols...>')
  .description(
    'a live quote strip: redrawn on a terminal, one line per refresh otherwise (--json: one JSON object per line)',
  )
  .option('--interval <s>', 'seconds between refreshes', '1')
  .option('--count <n>', 'stop after N refreshes (for scripts)')
  .addHelpText(
    'after',
    `\nOn a frozen clock prices move only when the clock is advanced (svc clock advance).${examples('svc market watch COMI TMGH FWRY', 'svc market watch COMI --count 5 --json', 'svc market watch COMI --interval 5 > quotes.log')}`,
  )
  .action(lazy(async () => (await import('./commands/market.js')).watch));

const kyc = program
  .command('kyc')
  .description('open an account: KYC application, ID images, submission')
  .addHelpText('after', examples('svc kyc apply', 'svc kyc status kyc_0123456789'));
kyc
  .command('apply')
  .description(
    'apply for an account: a wizard with a terminal, flags otherwise; uploads both ID sides, submits, shows the outcome',
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
  .action(lazy(async () => (await import('./commands/kyc.js')).apply));
kyc
  .command('status <application_id>')
  .description('state of an application; investor_id once approved')
  .addHelpText('after', examples('svc kyc status kyc_0123456789', 'svc kyc status kyc_0123456789 --json'))
  .action(lazy(async () => (await import('./commands/kyc.js')).status));

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
  .action(lazy(async () => (await import('./commands/investor.js')).show));
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
    '\nExamples:\n  $ svc investor suitability inv_0123456789\n  $ svc investor suitability --experience moderate --horizon 3_5y --risk medium --income 300k_1m --net-worth 1m_5m --objectives growth --ack-risk',
  )
  .action(lazy(async () => (await import('./commands/investor.js')).suitability));

const transfer = program
  .command('transfer')
  .description('move cash between the bank and an investor account (signed, idempotent)')
  .addHelpText(
    'after',
    examples(
      'svc transfer deposit 50000 --investor inv_0123456789 --wait',
      'svc transfer list --investor inv_0123456789',
    ),
  );
for (const [verb, what] of [
  ['deposit', 'deposit cash into'],
  ['withdraw', 'withdraw settled cash from'],
] as const) {
  transfer
    .command(`${verb} <amount_egp>`)
    .description(`${what} an investor account; the amount is in EGP with up to 6 decimals`)
    .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
    .option('--wait', 'running clock: poll until completed or failed; frozen clock: say how to advance it')
    .option('--timeout <s>', 'with --wait: give up after this many seconds', '300')
    .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
    .addHelpText(
      'after',
      `\nEach rail step takes one simulated minute; exactly 666 EGP fails at the rail (sandbox).\nExamples:\n  $ svc transfer ${verb} 1500.25 --investor inv_0123456789 --wait\n  $ SVC_INVESTOR_ID=inv_0123456789 svc transfer ${verb} 70000 --json`,
    )
    .action(lazy(async () => (await import('./commands/transfer.js'))[verb]));
}
transfer
  .command('list')
  .description('transfers, newest first (of --investor or $SVC_INVESTOR_ID when given)')
  .option('--investor <id>', 'investor id')
  .option('--state <state>', 'received, pending_rail, at_broker, completed or failed')
  .option('--limit <n>', '1-200 (default 100)')
  .addHelpText(
    'after',
    examples('svc transfer list --investor inv_0123456789', 'svc transfer list --state failed --json'),
  )
  .action(lazy(async () => (await import('./commands/transfer.js')).list));

const order = program
  .command('order')
  .description('equity orders on XCAI: place (signed, idempotent), cancel, list, show, contract note')
  .addHelpText(
    'after',
    examples(
      'svc order buy',
      'svc order buy COMI 10 --limit 84.50 --investor inv_0123456789',
      'svc order list --status open',
    ),
  );
for (const side of ['buy', 'sell'] as const) {
  order
    .command(`${side} [symbol] [qty]`)
    .description(
      `${side} QTY whole shares of SYMBOL: a market order, or a limit order with --limit (EGP); on a terminal, asks for what is missing and shows the fees and reservation first`,
    )
    .option('--limit <price_egp>', 'limit price in EGP (on the tick grid, inside the +/-20% band)')
    .addOption(new Option('--tif <tif>', 'time in force').choices(['day', 'gtc', 'ioc', 'fok']))
    .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
    .option('--client-order-id <id>', 'your own tenant-unique id for the order')
    .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
    .option(
      '--wait',
      'running clock: follow the order until filled, canceled, rejected or expired; frozen clock: say how to advance it',
    )
    .option('--timeout <s>', 'with --wait: give up after this many seconds', '300')
    .addOption(
      new Option('--lang <lang>', "language of the assistant's remedy under a rejection").choices(['en', 'ar']),
    )
    .addHelpText(
      'after',
      `\nOutside the session day and gtc orders queue for the next open; ioc and fok are refused. Sandbox: qty 13 fills in two executions.\nExamples:\n  $ svc order ${side}                     asks for the symbol, quantity, type and time in force\n  $ svc order ${side} COMI 10 --investor inv_0123456789\n  $ svc order ${side} COMI 10 --limit 84.50 --tif gtc --wait --json`,
    )
    .action(lazy(async () => (await import('./commands/order.js'))[side]));
}
order
  .command('cancel <order_id>')
  .description(
    'request cancellation: pending_cancel at once, canceled at the next simulated minute unless a fill completes it first',
  )
  .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
  .option('--wait', 'running clock: follow the order to its final state')
  .option('--timeout <s>', 'with --wait: give up after this many seconds', '300')
  .addHelpText('after', examples('svc order cancel ord_0123456789', 'svc order cancel ord_0123456789 --wait --json'))
  .action(lazy(async () => (await import('./commands/order.js')).cancel));
order
  .command('list')
  .description('orders, newest first (of --investor or $SVC_INVESTOR_ID when given)')
  .option('--investor <id>', 'investor id')
  .addOption(new Option('--status <status>', 'open or closed').choices(['open', 'closed']))
  .option('--limit <n>', '1-200 (default 100)')
  .addHelpText(
    'after',
    examples('svc order list --investor inv_0123456789 --status open', 'svc order list --limit 10 --json'),
  )
  .action(lazy(async () => (await import('./commands/order.js')).list));
order
  .command('show <order_id>')
  .description('one order: status, fills so far, timestamps')
  .addHelpText('after', examples('svc order show ord_0123456789', 'svc order show ord_0123456789 --json'))
  .action(lazy(async () => (await import('./commands/order.js')).show));
order
  .command('note <order_id>')
  .description('the contract note: trade and settlement dates, each fill, each fee, stamp duty, net consideration')
  .addHelpText('after', examples('svc order note ord_0123456789', 'svc order note ord_0123456789 --json'))
  .action(lazy(async () => (await import('./commands/order.js')).note));

const fund = program
  .command('fund')
  .description(
    'money-market funds: list at the current NAV, subscribe and redeem (signed, idempotent, executed at once)',
  )
  .addHelpText(
    'after',
    '\nExamples:\n  $ svc fund list\n  $ svc fund subscribe BMYBY 10000 --investor inv_0123456789\n  $ svc fund redeem BMYBY 250.5',
  );
fund
  .command('list')
  .description(
    'the funds, alphabetical, with NAV, NAV date, indicative yield, minimum first subscription, shariah flag and cut-off',
  )
  .option('--shariah', 'shariah-compliant funds only')
  .addHelpText('after', '\nExamples:\n  $ svc fund list\n  $ svc fund list --shariah --json')
  .action(lazy(async () => (await import('./commands/fund.js')).list));
fund
  .command('subscribe <code> <amount_egp>')
  .description(
    'invest AMOUNT_EGP (up to 6 decimals) in fund CODE at the current NAV; the units bought are floored, the remainder stays cash',
  )
  .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
  .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
  .addHelpText(
    'after',
    "\nUnits executed before the 12:00 Cairo cut-off earn that day's accrual.\nExamples:\n  $ svc fund subscribe BMYBY 10000 --investor inv_0123456789\n  $ SVC_INVESTOR_ID=inv_0123456789 svc fund subscribe NILSK 500.25 --json",
  )
  .action(lazy(async () => (await import('./commands/fund.js')).subscribe));
fund
  .command('redeem <code> <units>')
  .description(
    'redeem UNITS (a decimal with up to 6 places) of fund CODE at the current NAV; the amount paid is floored to the micro',
  )
  .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
  .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
  .addHelpText(
    'after',
    '\nExamples:\n  $ svc fund redeem BMYBY 250.5 --investor inv_0123456789\n  $ svc fund redeem UBRKH 29.301847 --json',
  )
  .action(lazy(async () => (await import('./commands/fund.js')).redeem));

const branding = program
  .command('branding')
  .description("the tenant's branding for its reports: display name, colours, font, footer and logo")
  .addHelpText(
    'after',
    examples(
      'svc branding show',
      'svc branding set --primary-color "#0A7E8C" --font "Noto Serif"',
      'svc branding logo ./logo.png',
    ),
  );
branding
  .command('show')
  .description('every branding field (the defaults until one is set)')
  .addHelpText('after', examples('svc branding show', 'svc branding show --json'))
  .action(lazy(async () => (await import('./commands/branding.js')).show));
branding
  .command('set')
  .description(
    'change the fields given (the others stay): colours #rrggbb, a font of the embedded set (Noto Sans, Noto Serif, Amiri)',
  )
  .option('--display-name <name>', 'the name reports show, 1-80 characters')
  .option('--primary-color <#rrggbb>', 'headings and rules')
  .option('--accent-color <#rrggbb>', 'highlights')
  .option('--font <name>', 'Noto Sans, Noto Serif or Amiri')
  .option('--footer-text <text>', 'printed at the foot of every report page, 0-300 characters ("" for none)')
  .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
  .addHelpText(
    'after',
    examples(
      'svc branding set --display-name "Nile Wealth" --primary-color "#0A7E8C"',
      'svc branding set --font Amiri --footer-text "Licensed by the FRA" --json',
    ),
  )
  .action(lazy(async () => (await import('./commands/branding.js')).set));
branding
  .command('logo <file>')
  .description('upload the logo: a PNG or JPEG file (judged by its bytes; SVG is refused), at most 512 KiB')
  .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
  .addHelpText('after', examples('svc branding logo ./logo.png', 'svc branding logo ./logo.jpg --json'))
  .action(lazy(async () => (await import('./commands/branding.js')).logo));

const report = program
  .command('report')
  .description(
    "client statements: a PDF of an investor over a period, in English or Arabic, under the tenant's branding",
  )
  .addHelpText(
    'after',
    examples(
      'svc report create --investor inv_0123456789 --wait',
      'svc report status rpt_0123456789',
      'svc report download rpt_0123456789 --open',
    ),
  );
report
  .command('create')
  .description('ask for a statement; ready two simulated minutes later (pending, generating, ready or failed)')
  .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
  .option('--from <date>', 'first day, YYYY-MM-DD (default the first of the month of --to)')
  .option('--to <date>', 'last day, YYYY-MM-DD, not after today (default today on the sandbox clock)')
  .option(
    '--sections <list>',
    'comma-separated: summary, performance, holdings, trades (default all four); the disclosures are always last',
  )
  .option('--locale <locale>', 'en or ar (default en)')
  .option('--wait', 'running clock: poll until ready or failed; frozen clock: say how to advance it')
  .option('--timeout <s>', 'with --wait: give up after this many seconds', '300')
  .option('--idempotency-key <key>', 'retry safely: the same key replays the first answer')
  .addHelpText(
    'after',
    `\n--json prints the report as svc report status --json does.${examples('svc report create --investor inv_0123456789 --wait', 'svc report create --from 2026-01-01 --to 2026-06-30 --locale ar --sections summary,holdings --json', 'svc report create && svc clock advance --minutes 2')}`,
  )
  .action(lazy(async () => (await import('./commands/report.js')).create));
report
  .command('status <report_id>')
  .description('every field of a report: period, sections, locale, state, times, size and sha256 of the PDF')
  .addHelpText('after', examples('svc report status rpt_0123456789', 'svc report status rpt_0123456789 --json'))
  .action(lazy(async () => (await import('./commands/report.js')).status));
report
  .command('download <report_id>')
  .description('write the PDF of a ready report (mode 0600) and print its path, size and sha256')
  .option(
    '-o, --output <file>',
    "write here (a directory: the daemon's file name in it); default the daemon's file name in the working directory",
  )
  .option('--force', 'replace an existing file')
  .option('--open', 'then open it with xdg-open (open on macOS) when the machine has it')
  .addHelpText(
    'after',
    `\nExit codes: 0 written, 1 refused by the daemon (REPORT_NOT_READY, REPORT_PURGED, NOT_FOUND),\n2 the file exists (without --force): nothing is written.${examples('svc report download rpt_0123456789', 'svc report download rpt_0123456789 -o statement.pdf --force', 'svc report download rpt_0123456789 --open --json')}`,
  )
  .action(lazy(async () => (await import('./commands/report.js')).download));

program
  .command('portfolio')
  .description(
    'positions, exposures, performance with a chart of the value series, and risk (Ink with a terminal, plain text otherwise, --json the raw responses)',
  )
  .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
  .option('--days <n>', 'trading days of the performance series and daily returns of the risk figures, 1-365', '90')
  .addHelpText(
    'after',
    "\nDescriptive only: percentages are of the portfolio's own history, never a forecast.\nExamples:\n  $ svc portfolio --investor inv_0123456789\n  $ svc portfolio --days 30 --json",
  )
  .action(lazy(async () => (await import('./commands/portfolio.js')).show));

program
  .command('balances')
  .description(
    'cash, shares and fund units of an investor: settled (available), reserved and unsettled (EGP with two decimals, --json the raw micros)',
  )
  .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
  .addHelpText(
    'after',
    examples('svc balances --investor inv_0123456789', 'SVC_INVESTOR_ID=inv_0123456789 svc balances --json'),
  )
  .action(lazy(async () => (await import('./commands/balances.js')).show));

program
  .command('activities')
  .description(
    'the activity feed of an investor, newest first: deposits, withdrawals, fills, fees, taxes, dividends, interest, fund orders',
  )
  .option('--investor <id>', 'investor id (default $SVC_INVESTOR_ID)')
  .option('--limit <n>', '1-200 (default 100)')
  .option('--before <activity_id>', 'the page older than this activity (the next_before of the previous page)')
  .addHelpText(
    'after',
    examples(
      'svc activities --investor inv_0123456789',
      'svc activities --limit 10 --json',
      'svc activities --before act_0123456789',
    ),
  )
  .action(lazy(async () => (await import('./commands/activities.js')).list));

// The browser console (docs/console.md).
const consoleCmd = program
  .command('console')
  .description('the browser console: passkey enrolment')
  .addHelpText('after', examples('svc console enroll --as dealer'));
consoleCmd
  .command('enroll')
  .description('print a one-time link that registers a passkey for an operator identity in the browser console')
  .option('--as <role>', 'dealer (default), security, approver, admin, auditor or compliance')
  .addHelpText('after', examples('svc console enroll --as dealer', 'svc console enroll --as approver --json'))
  .action(lazy(async () => (await import('./commands/console.js')).enroll));

// The dealer desk: each capability adds its subgroup to the one `desk` command.
const desk =
  program.commands.find((c) => c.name() === 'desk') ??
  program
    .command('desk')
    .description('the dealer desk (X-Console-Key): reviews and approvals')
    .addHelpText('after', examples('svc desk kyc list', 'svc desk funding list', 'svc desk queue'));
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
  .action(lazy(async () => (await import('./commands/desk-kyc.js')).list));
deskKyc
  .command('clear <application_id>')
  .description('clear a referral: the application is approved and gets an investor_id')
  .addHelpText('after', examples('svc desk kyc clear kyc_0123456789'))
  .action(lazy(async () => (await import('./commands/desk-kyc.js')).clear));
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
  .action(lazy(async () => (await import('./commands/desk-kyc.js')).decline));
const deskFunding = desk
  .command('funding')
  .description('funding approvals (transfers wait only while manual approval is on)')
  .addHelpText('after', examples('svc desk funding list', 'svc desk funding approve trf_0123456789'));
deskFunding
  .command('list')
  .description('transfers waiting for a funding decision, newest first')
  .option('--approval <a>', 'pending (default), approved, rejected, automatic or any')
  .option('--state <state>', 'received, pending_rail, at_broker, completed or failed')
  .option('--limit <n>', '1-200 (default 100)')
  .addHelpText('after', examples('svc desk funding list', 'svc desk funding list --approval any --json'))
  .action(lazy(async () => (await import('./commands/desk-funding.js')).list));
deskFunding
  .command('approve <transfer_id>')
  .description('approve a waiting transfer; its rail steps start one simulated minute later')
  .addHelpText('after', examples('svc desk funding approve trf_0123456789'))
  .action(lazy(async () => (await import('./commands/desk-funding.js')).approve));
deskFunding
  .command('reject <transfer_id>')
  .description('reject a waiting transfer: it fails with the reason and a withdrawal hold is released')
  .option('--reason <code>', 'SOURCE_OF_FUNDS_UNVERIFIED, NAME_MISMATCH, AML_REVIEW, LIMIT_POLICY or DEALER_REJECTED')
  .addHelpText('after', examples('svc desk funding reject trf_0123456789 --reason AML_REVIEW'))
  .action(lazy(async () => (await import('./commands/desk-funding.js')).reject));
desk
  .command('queue')
  .description('orders waiting at the dealer desk (placed while auto-fill was off), oldest first')
  .option('--limit <n>', '1-200 (default 100)')
  .addHelpText('after', examples('svc desk queue', 'svc desk queue --json'))
  .action(lazy(async () => (await import('./commands/desk-orders.js')).queue));
desk
  .command('execute <order_id>')
  .description(
    'execute a desk order in session, at --price (default the tape price; inside the band, never worse than the limit) for --qty (default all)',
  )
  .option('--price <price_egp>', 'execution price in EGP')
  .option('--qty <n>', 'shares to execute (default the whole remaining quantity)')
  .addHelpText(
    'after',
    examples('svc desk execute ord_0123456789', 'svc desk execute ord_0123456789 --price 85.10 --qty 5'),
  )
  .action(lazy(async () => (await import('./commands/desk-orders.js')).execute));
desk
  .command('reject <order_id>')
  .description('reject a desk order; its reservation is released')
  .option(
    '--reason <code>',
    'DEALER_REJECTED, COMPLIANCE_REVIEW, PRICE_AWAY_FROM_MARKET, DUPLICATE_ORDER_SUSPECTED, INSTRUMENT_HALTED or INSUFFICIENT_BUYING_POWER',
  )
  .addHelpText('after', examples('svc desk reject ord_0123456789 --reason PRICE_AWAY_FROM_MARKET'))
  .action(lazy(async () => (await import('./commands/desk-orders.js')).reject));
desk
  .command('eod')
  .description(
    "end of day for the dealer's broker: the date's trades with their charges, fees by line, cash movements, settlement obligations due",
  )
  .option('--date <YYYY-MM-DD>', 'exchange date (default today on the sandbox clock)')
  .addHelpText('after', examples('svc desk eod', 'svc desk eod --date 2026-11-22 --json'))
  .action(lazy(async () => (await import('./commands/desk-eod.js')).eod));
desk
  .command('reference <kind>')
  .description('reference data the daemon applies: instruments, calendar, fees, ticks or holidays')
  .option('--year <YYYY>', 'calendar or holidays of one year')
  .option('--start <YYYY-MM-DD>', 'calendar from this date (default today)')
  .option('--end <YYYY-MM-DD>', 'calendar to this date (default start + 30 days)')
  .addHelpText(
    'after',
    examples(
      'svc desk reference fees',
      'svc desk reference calendar --year 2027',
      'svc desk reference holidays --json',
    ),
  )
  .action(lazy(async () => (await import('./commands/desk-reference.js')).reference));

// The back office and oversight (X-Admin-Key): each capability adds its subcommands to the one `admin`
// group. --as picks the identity from the sandbox's credentials; each command has its own default.
const admin =
  program.commands.find((c) => c.name() === 'admin') ??
  program
    .command('admin')
    .description('the back office (X-Admin-Key): maker-checker, audit, reconciliation, surveillance alerts, complaints')
    .addOption(
      new Option(
        '--as <identity>',
        "act as this identity of the sandbox's credentials (default: each command's own)",
      ).choices(['security', 'approver', 'admin', 'dealer', 'compliance', 'auditor']),
    )
    .addHelpText(
      'after',
      examples(
        'svc admin actions --state proposed',
        'svc admin propose ledger:adjust --param tenant_id=tnt_0123456789 --param investor_id=inv_0123456789 --param amount_micros=1500000 --reason "fee refund"',
        'svc admin approve act_0123456789',
        'svc admin audit --verify',
      ),
    );
admin
  .command('actions')
  .description('maker-checker proposals, newest first (default --as admin)')
  .option('--state <state>', 'proposed, approved, rejected or expired')
  .option('--limit <n>', '1-200 (default 50)')
  .addHelpText('after', examples('svc admin actions', 'svc admin actions --state proposed --json'))
  .action(lazy(async () => (await import('./commands/admin-actions.js')).actions));
admin
  .command('propose <base>')
  .description(
    'propose a privileged change, the maker side (default --as security): BASE is a strict-split base such as ledger:adjust',
  )
  .option(
    '--param <key=value>',
    'a param of the base; repeatable. *_micros, *_bps, qty, minutes and ratio are integers; a.b=v nests; key:=JSON takes JSON',
    (v: string, acc?: string[]) => [...(acc ?? []), v],
  )
  .option('--reason <text>', 'why (stored with the payload; required)')
  .addHelpText(
    'after',
    `
Bases and their params: docs/backoffice.md. The whole payload is stored and cannot change; another identity decides it.${examples(
      'svc admin propose ledger:adjust --param tenant_id=tnt_0123456789 --param investor_id=inv_0123456789 --param amount_micros=-250000 --reason "duplicate fee"',
      'svc admin propose break-glass --param identity_id=opr_0123456789 --param minutes=30 --reason "incident 42"',
    )}`,
  )
  .action(lazy(async () => (await import('./commands/admin-actions.js')).propose));
admin
  .command('approve <action_id>')
  .description(
    'approve a proposal, the checker side (default --as approver): it runs at once; svc steps up when the daemon asks (one code keeps the key fresh for 5 minutes)',
  )
  .option('--reason <text>', 'an optional note of the decision')
  .addHelpText('after', examples('svc admin approve act_0123456789', 'svc admin approve act_0123456789 --json'))
  .action(lazy(async () => (await import('./commands/admin-actions.js')).approve));
admin
  .command('reject <action_id>')
  .description('reject a proposal (default --as approver); svc steps up when the daemon asks')
  .option('--reason <text>', 'why (required)')
  .addHelpText('after', examples('svc admin reject act_0123456789 --reason "wrong investor"'))
  .action(lazy(async () => (await import('./commands/admin-actions.js')).reject));
admin
  .command('audit')
  .description(
    'the hash-chained audit log, newest first, times in Cairo (default --as admin); --verify checks the chain',
  )
  .option('--actor <actor>', 'entries by this actor (or on its behalf), e.g. operator:approver')
  .option('--action <action>', 'entries of this action, e.g. admin_action.approved')
  .option('--from <when>', 'at or after: YYYY-MM-DD (Cairo) or RFC 3339')
  .option('--to <when>', 'at or before: YYYY-MM-DD (Cairo, the whole day) or RFC 3339')
  .option('--limit <n>', '1-200 (default 100)')
  .option('--before <seq>', 'the page older than this seq')
  .option('--verify', 'recompute every hash and check the signed head (exit 1 when broken)')
  .addHelpText(
    'after',
    examples(
      'svc admin audit --action admin_action.approved',
      'svc admin audit --from 2026-11-22 --to 2026-11-23 --json',
      'svc admin audit --verify',
    ),
  )
  .action(lazy(async () => (await import('./commands/admin-audit.js')).audit));
// Identity hygiene: access reviews, console sessions, operator keys (cli/commands/admin-access.ts).
const accessReview = admin
  .command('access-review')
  .description(
    'who holds what: every identity with its roles, grants, creation and last use, and the open access reviews (default --as compliance)',
  )
  .addHelpText(
    'after',
    examples(
      'svc admin access-review',
      'svc admin access-review open',
      'svc admin access-review decide ari_0123456789 --revoke --note "left the desk"',
    ),
  );
accessReview
  .command('show', { isDefault: true })
  .description('the access snapshot and the open campaigns')
  .addHelpText('after', examples('svc admin access-review show', 'svc admin access-review show --json'))
  .action(lazy(async () => (await import('./commands/admin-access.js')).accessReview));
accessReview
  .command('open')
  .description('open a campaign: one item per identity-grant held now')
  .addHelpText('after', examples('svc admin access-review open', 'svc admin --as compliance access-review open --json'))
  .action(lazy(async () => (await import('./commands/admin-access.js')).openReview));
accessReview
  .command('decide <item_id>')
  .description(
    'certify or revoke one item (revoke removes the grant at once); not an item about your own access (then --as security)',
  )
  .option('--certify', 'the grant stays')
  .option('--revoke', "the grant goes, from the identity's next request")
  .option('--note <text>', 'why, for the audit log')
  .addHelpText(
    'after',
    examples(
      'svc admin access-review decide ari_0123456789 --certify',
      'svc admin --as security access-review decide ari_0123456789 --revoke --note "not needed"',
    ),
  )
  .action(lazy(async () => (await import('./commands/admin-access.js')).decideItem));
const sessions = admin
  .command('sessions')
  .description('console sessions: identity, sign-in, last seen, step-up (default --as security)')
  .addHelpText(
    'after',
    examples(
      'svc admin sessions',
      'svc admin sessions revoke --identity dealer',
      'svc admin sessions revoke --session ses_0123456789',
    ),
  );
sessions
  .command('list', { isDefault: true })
  .description('every console session, newest first')
  .addHelpText('after', examples('svc admin sessions list', 'svc admin sessions list --json'))
  .action(lazy(async () => (await import('./commands/admin-access.js')).sessions));
sessions
  .command('revoke')
  .description('end console sessions at once: their next request is refused')
  .option('--session <id...>', 'these sessions')
  .option('--identity <name_or_id>', 'every session of this identity')
  .addHelpText(
    'after',
    examples('svc admin sessions revoke --session ses_0123456789', 'svc admin sessions revoke --identity dealer'),
  )
  .action(lazy(async () => (await import('./commands/admin-access.js')).revokeSessions));
const keys = admin
  .command('keys')
  .description(
    'operator keys: rotate (new key shown once, saved to credentials.json) or revoke for good (default --as security)',
  )
  .addHelpText('after', examples('svc admin keys rotate dealer', 'svc admin keys revoke compliance'));
keys
  .command('rotate <identity>')
  .description('give an identity (name or id) a new key; the old one is refused from now on')
  .addHelpText('after', examples('svc admin keys rotate dealer', 'svc admin keys rotate security --json'))
  .action(lazy(async () => (await import('./commands/admin-access.js')).rotateKey));
keys
  .command('revoke <identity>')
  .description("revoke an identity's key for good and end its console sessions")
  .addHelpText('after', examples('svc admin keys revoke dealer'))
  .action(lazy(async () => (await import('./commands/admin-access.js')).revokeKey));

const recon = admin
  .command('recon')
  .description('reconciliation of the book against the custodian (shares) and the bank (cash)')
  .addHelpText(
    'after',
    examples(
      'svc admin recon run',
      'svc admin recon breaks --state open',
      'svc admin recon resolve rbk_0123456789 --adjust',
    ),
  );
recon
  .command('run')
  .description(
    'reconcile one business day: open breaks for new differences, resolve those that match again (default --as admin)',
  )
  .option('--date <YYYY-MM-DD>', 'a business day up to today (default the latest one)')
  .addHelpText('after', examples('svc admin recon run', 'svc admin recon run --date 2026-11-24 --json'))
  .action(lazy(async () => (await import('./commands/admin-recon.js')).run));
recon
  .command('breaks')
  .description(
    'reconciliation breaks, newest first: book, statement and difference in EGP (cash) or shares (default --as admin)',
  )
  .option('--state <state>', 'open, acknowledged or resolved')
  .option('--kind <kind>', 'position, cash, missing or duplicate')
  .option('--investor <id>', 'only this investor')
  .option('--asset <asset>', 'only this asset: cash:EGP or a symbol')
  .option('--run <run_id>', 'breaks a run found')
  .option('--limit <n>', '1-1000 (default 200)')
  .addHelpText('after', examples('svc admin recon breaks --state open', 'svc admin recon breaks --kind cash --json'))
  .action(lazy(async () => (await import('./commands/admin-recon.js')).breaks));
recon
  .command('ack <break_id>')
  .description('acknowledge an open break: someone is on it (default --as admin)')
  .option('--note <text>', 'an optional note')
  .addHelpText('after', examples('svc admin recon ack rbk_0123456789 --note "asked the bank for the statement line"'))
  .action(lazy(async () => (await import('./commands/admin-recon.js')).ack));
recon
  .command('resolve <break_id>')
  .description(
    'resolve a break: --accept keeps the difference with a note (default --as admin); --adjust proposes the ledger:adjust that makes the book equal the statement (default --as security), resolved adjusted when approved',
  )
  .option('--accept', 'the difference is explained and kept (needs --note)')
  .option('--adjust', 'propose a ledger:adjust of -difference naming the break (cash breaks)')
  .option('--note <text>', "why (required with --accept; with --adjust the proposal's reason)")
  .addHelpText(
    'after',
    examples(
      'svc admin recon resolve rbk_0123456789 --accept --note "bank timing difference"',
      'svc admin recon resolve rbk_0123456789 --adjust && svc admin approve act_0123456789',
    ),
  )
  .action(lazy(async () => (await import('./commands/admin-recon.js')).resolve));

const alerts = admin
  .command('alerts')
  .description('trade surveillance alerts: list (default), show, run, escalate, close (default --as admin)')
  .addHelpText(
    'after',
    examples(
      'svc admin alerts --state open',
      'svc admin alerts escalate alr_0123456789 --note "pattern repeats"',
      'svc admin alerts close alr_0123456789 --note "client rebalanced"',
    ),
  );
alerts
  .command('list', { isDefault: true })
  .description('alerts, oldest first')
  .option('--state <state>', 'open, escalated or closed')
  .option('--rule <rule>', 'wash_trade, layering or concentration')
  .option('--investor <id>', 'only this investor')
  .option('--symbol <symbol>', 'only this symbol')
  .option('--session <YYYY-MM-DD>', 'only this session')
  .option('--limit <n>', '1-500 (default 100)')
  .addHelpText('after', examples('svc admin alerts', 'svc admin alerts list --state open --json'))
  .action(lazy(async () => (await import('./commands/admin-alerts.js')).list));
alerts
  .command('show <alert_id>')
  .description('one alert with its evidence: window, orders, fills, measured values')
  .addHelpText('after', examples('svc admin alerts show alr_0123456789'))
  .action(lazy(async () => (await import('./commands/admin-alerts.js')).show));
alerts
  .command('run')
  .description('run the rules now over a session (they also run at every session close)')
  .option('--date <YYYY-MM-DD>', 'a trading day up to today (default the latest session that has opened)')
  .addHelpText('after', examples('svc admin alerts run', 'svc admin alerts run --date 2026-11-24 --json'))
  .action(lazy(async () => (await import('./commands/admin-alerts.js')).run));
alerts
  .command('escalate <alert_id>')
  .description('escalate an open alert')
  .option('--note <text>', 'an optional note')
  .addHelpText('after', examples('svc admin alerts escalate alr_0123456789 --note "third time this month"'))
  .action(lazy(async () => (await import('./commands/admin-alerts.js')).escalate));
alerts
  .command('close <alert_id>')
  .description('close an open or escalated alert; final')
  .option('--note <text>', 'why (required)')
  .addHelpText(
    'after',
    examples('svc admin alerts close alr_0123456789 --note "client rebalanced; no intent to mislead"'),
  )
  .action(lazy(async () => (await import('./commands/admin-alerts.js')).close));

const complaints = admin
  .command('complaints')
  .description(
    'the complaints register: list (default), new, show, move; due 15 EGX business days after receipt (default --as admin)',
  )
  .addHelpText(
    'after',
    examples(
      'svc admin complaints --overdue',
      'svc admin complaints new --investor inv_0123456789 --category fees --summary "charged twice"',
      'svc admin complaints move cmp_0123456789 --to investigating',
    ),
  );
complaints
  .command('list', { isDefault: true })
  .description('complaints, oldest first, with their due dates; overdue ones flagged')
  .option('--state <state>', 'received, investigating, resolved or rejected')
  .option('--investor <id>', 'only this investor')
  .option('--tenant <id>', 'only this tenant')
  .option('--overdue', 'only complaints past their due date')
  .option('--limit <n>', '1-500 (default 100)')
  .addHelpText('after', examples('svc admin complaints', 'svc admin complaints list --state investigating --json'))
  .action(lazy(async () => (await import('./commands/admin-complaints.js')).list));
complaints
  .command('new')
  .description('record a complaint: state received, due 15 business days later')
  .option('--investor <id>', 'the investor who complains')
  .option('--category <c>', 'execution, fees, statement, account, service or other')
  .option('--channel <c>', 'email (default), phone, branch, app or letter')
  .option('--summary <text>', 'what the investor says, 1-2000 characters')
  .addHelpText(
    'after',
    examples(
      'svc admin complaints new --investor inv_0123456789 --category fees --channel phone --summary "charged commission twice"',
    ),
  )
  .action(lazy(async () => (await import('./commands/admin-complaints.js')).create));
complaints
  .command('show <complaint_id>')
  .description('one complaint with its history')
  .addHelpText('after', examples('svc admin complaints show cmp_0123456789'))
  .action(lazy(async () => (await import('./commands/admin-complaints.js')).show));
complaints
  .command('move <complaint_id>')
  .description('move a complaint one step: received -> investigating -> resolved or rejected (those need --note)')
  .option('--to <state>', 'investigating, resolved or rejected')
  .option('--note <text>', 'the resolution (required for resolved and rejected)')
  .addHelpText(
    'after',
    examples(
      'svc admin complaints move cmp_0123456789 --to investigating',
      'svc admin complaints move cmp_0123456789 --to resolved --note "refunded the duplicate commission"',
    ),
  )
  .action(lazy(async () => (await import('./commands/admin-complaints.js')).move));

const scenario = program
  .command('scenario')
  .description('scripted walkthroughs (YAML): requests, clock advances, controls, assertions')
  .addHelpText('after', examples('svc scenario run scenarios/*.yaml', 'svc scenario run my-flow.yaml --json'));
scenario
  .command('run <files...>')
  .description(
    'run scenario files, each against an isolated sandbox of its own (seed, start and clock from the file); exits non-zero if a step fails',
  )
  .option('--keep-going', 'run the remaining steps after a failed one (default: a failed step skips the rest)')
  .option('--junit <file>', 'also write a JUnit XML report (a testsuite per file, a testcase per step)')
  .option(
    '--against <url>',
    'run against this already running sandbox (credentials from the profile) instead of an isolated one',
  )
  .option('--reset', "with --against: reset that sandbox to the file's seed, start and clock first")
  .option('--timings', 'include durations in the --json report (left out by default so reports compare byte for byte)')
  .option(
    '--env <name=value>',
    "set ${env.NAME} (overrides the file's env); repeatable",
    (v: string, acc?: string[]) => [...(acc ?? []), v],
  )
  .addHelpText(
    'after',
    `
A FILE may be a directory (its *.yaml files, sorted) or a pattern such as scenarios/*.yaml.
Exit codes: 0 all passed, 1 a step failed, 2 an invalid file, 3 the --against sandbox does not answer.
Examples:
  $ svc scenario run scenarios/*.yaml
  $ svc scenario run scenarios/onboarding.yaml --json
  $ svc scenario run scenarios --junit out.xml
  $ svc scenario run my-flow.yaml --against http://127.0.0.1:4710 --reset`,
  )
  .action(lazy(async () => (await import('./commands/scenario.js')).run));

const logs = program
  .command('logs')
  .description(
    "the request inspector: the daemon's last requests, with bodies redacted (svc sandbox logs prints the daemon's log file)",
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
inspector reads, the event stream or /healthz. With --json and --follow: one JSON document a line.${examples('svc logs tail --status 4xx', 'svc logs tail -f --path /v1/orders', 'svc logs tail --code SIGNATURE_INVALID --json')}`,
  )
  .action(lazy(async () => (await import('./commands/logs.js')).tail));
logs
  .command('show <request_id>')
  .description(
    'one request: headers, request and response bodies (secrets and personal data redacted); for a refused signature, the string the daemon signed',
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
  .action(lazy(async () => (await import('./commands/logs.js')).show));

const events = program
  .command('events')
  .description(
    'push events of the sandbox (order fills, transfer and fund order steps, KYC decisions) for local development',
  )
  .addHelpText(
    'after',
    examples(
      'svc events tail',
      'svc events tail --types order.filled,transfer.completed',
      'svc events tail --forward http://127.0.0.1:3000/hook',
    ),
  );
events
  .command('tail')
  .description('print each event on a line as it happens, or forward each as a POST to a local URL')
  .option('--types <list>', 'comma-separated event types; order.* takes a family (default: all)')
  .option('--forward <url>', 'POST each event (JSON body, Svc-Event-Type header) to this URL and print its status')
  .option('--after <id>', 'start after this event id (replays what the daemon still keeps)')
  .addHelpText(
    'after',
    `
Types: order.partially_filled, order.filled, order.canceled, order.expired, order.rejected, transfer.received,
transfer.approved, transfer.pending_rail, transfer.at_broker, transfer.completed, transfer.failed, kyc.referred,
kyc.approved, kyc.rejected, fund_order.received, fund_order.validated, fund_order.processed, fund_order.settled,
fund_order.rejected, report.ready (reserved). A sandbox tool: the tenant API itself stays polling-only.
Runs until Ctrl-C; reconnects with Last-Event-ID if the stream drops.${examples('svc events tail --types order.*', 'svc events tail --forward http://127.0.0.1:3000/webhooks/svc', 'svc events tail --json | jq .type')}`,
  )
  .action(lazy(async () => (await import('./commands/events.js')).tail));

program
  .command('api <method> <path>')
  .description('send any request; signs it and adds an Idempotency-Key when the route needs one')
  .option('-d, --data <json>', 'JSON body')
  .option('--idempotency-key <key>', 'use this Idempotency-Key instead of a fresh one')
  .option('--as <identity>', 'admin identity for /admin routes: admin, security or approver')
  .addHelpText(
    'after',
    `\nExamples:\n  $ svc api GET /v1/instruments\n  $ svc api POST /admin/sandbox/quote -d '{"symbol":"COMI","price_micros":85500000}'`,
  )
  .action(lazy(async () => (await import('./commands/api.js')).api));

const ai = program
  .command('ai')
  .description(
    'the information-only assistant: explains orders, terms and error codes from the registries; never advice',
  )
  .addHelpText(
    'after',
    examples(
      'svc ai explain ord_0123456789',
      'svc ai glossary t-plus-2 --lang ar',
      'svc ai error INSUFFICIENT_SETTLED_CASH',
      'svc ai disclosure --json',
    ),
  );
const langOption = () => new Option('--lang <lang>', 'language of the answer').choices(['ar', 'en']).default('en');
ai.command('explain <order_id>')
  .description(
    "why an order is where it is: a rejection's cause and remedy, or the order's facts (needs --ai registry or openai: for orders that were not rejected)",
  )
  .addOption(langOption())
  .addHelpText('after', examples('svc ai explain ord_0123456789', 'svc ai explain ord_0123456789 --lang ar --json'))
  .action(lazy(async () => (await import('./commands/ai.js')).explain));
ai.command('glossary [term]')
  .description('the glossary of this market: every term, or one article by its exact slug')
  .addOption(langOption())
  .addHelpText('after', examples('svc ai glossary', 'svc ai glossary t-plus-2', 'svc ai glossary stamp-duty --lang ar'))
  .action(lazy(async () => (await import('./commands/ai.js')).glossary));
ai.command('disclosure')
  .description('the canonical disclosures: the assistant is not advice, and the risk of investing')
  .addOption(langOption())
  .addHelpText('after', examples('svc ai disclosure', 'svc ai disclosure --lang ar'))
  .action(lazy(async () => (await import('./commands/ai.js')).disclosure));
ai.command('error <code>')
  .description('cause and remedy of an API error code or an order reject code')
  .addOption(langOption())
  .addHelpText('after', examples('svc ai error TICK_VIOLATION', 'svc ai error INSUFFICIENT_SETTLED_CASH --lang ar'))
  .action(lazy(async () => (await import('./commands/ai.js')).error));

program
  .command('dashboard')
  .description(
    "the live screen: clock, quote board, an investor's orders and positions; keys to advance, trade and cancel",
  )
  .option('--investor <id>', 'investor to show (default $SVC_INVESTOR_ID, else the first account)')
  .option(
    '--symbols <list>',
    'quote board symbols, comma-separated (default COMI,TMGH,FWRY,EAST,HRHO,ETEL,SWDY,ABUK,EFIH,ORAS; holdings and open orders are added)',
  )
  .option('--interval <s>', 'seconds between refreshes', '1')
  .addHelpText(
    'after',
    `
Keys: a advance the clock · i switch investor · b buy · s sell · c cancel the selected order · ↑↓ select · r refresh · q quit.
Needs a terminal; scripts use svc order list, svc market quotes --json or svc market watch --json.${examples('svc dashboard', 'svc dashboard --investor inv_0123456789 --symbols COMI,TMGH,FWRY')}`,
  )
  .action(lazy(async () => (await import('./commands/dashboard.js')).dashboard));

program
  .command('completion')
  .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
  .description('print a shell completion script (bash, zsh or fish) for the commands, subcommands and options')
  .addHelpText(
    'after',
    examples(
      'source <(svc completion bash)        # add to ~/.bashrc',
      'source <(svc completion zsh)         # add to ~/.zshrc, after compinit',
      'svc completion fish > ~/.config/fish/completions/svc.fish',
    ),
  )
  .action(lazy(async () => (await import('./commands/completion.js')).completion(program)));

registerFaults(program);

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
