// svc sandbox start|stop|status|list|logs|env|reset
import { existsSync, readFileSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { api as apiFn } from '../client/http.js';
import type { ApiResponse } from '../client/answers.js';
import {
  alive,
  commandOf,
  DaemonStartFailed,
  describeHolder,
  portHolder,
  spawnDaemon,
  type SpawnedDaemon,
} from '../daemon-process.js';
import { answersAs, probeHealth } from '../healthz.js';
import {
  DEFAULT_PORT,
  privateHome,
  readJson,
  readLocator,
  resolveHome,
  resolveProfile,
  preloadProfileStore,
  saveProfile,
  type GlobalOptions,
  type Locator,
  type Profile,
} from '../context.js';
import {
  EXIT_HOME_ALTERED,
  EXIT_PORT_IN_USE,
  LOCATOR_FILE,
  readSandboxId,
  registeredHomes,
} from '../../daemon/contract/home-files.js';
import { CliExit, EXIT, chalk, egp, info, ok, pct, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import type { LiveQuote } from '../../daemon/contract/schemas/market.js';
import type { SandboxState } from '../../daemon/contract/schemas/sandbox.js';
import { BANNER_SYMBOLS, type ReadyBanner } from '../../daemon/contract/ready.js';

// The HTTP client (and the TOTP code under it) loads on the first request: a start sends none, and spawns
// the daemon sooner without loading it (docs/bench.md, "Start-up").
async function api<T = unknown>(...args: Parameters<typeof apiFn>): Promise<ApiResponse<T>> {
  return (await import('../client/http.js')).api<T>(...args);
}

export interface StartOptions {
  foreground?: boolean;
  /** undefined: not asked for (the home's remembered request, else 4710, else a free port). */
  port?: string;
  seed: string;
  start?: string;
  clock?: 'frozen' | 'running';
  speed: string;
  /** none, registry or openai:<base_url> (checked by cli/main.ts). */
  ai: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** The owner vouches for the audit chain as the database holds it (docs/reliability.md). */
  adoptAuditHead?: boolean;
  /** Each API key's rate limit, "200/min" (checked by cli/main.ts; docs/faults.md). */
  rateLimit?: string;
}

export interface LogsOptions {
  follow?: boolean;
  lines: string;
}

export interface ResetOptions {
  seed?: string;
  start?: string;
  clock?: 'frozen' | 'running';
  /** none, registry or openai:<base_url> (checked by cli/main.ts). */
  ai?: string;
  /** Each API key's rate limit from now on, or off (docs/faults.md). */
  rateLimit?: string;
}

/** The running daemon of this home, or null (a stale locator, of a dead process or of a port another sandbox now holds,
 * counts as none). */
export async function running(home: string): Promise<Locator | null> {
  const loc = readLocator(home);
  if (!loc || !alive(loc.pid)) return null;
  return (await answersAs(loc)) ? loc : null;
}

/** Removes a locator that names no daemon of this home: its process is gone, or another sandbox answers at its port. */
async function dropStaleLocator(home: string): Promise<void> {
  const loc = readLocator(home);
  if (!loc) return;
  const h = alive(loc.pid) ? await probeHealth(loc.base_url) : null;
  const other = h !== null && loc.sandbox_id !== undefined && h.sandbox_id !== loc.sandbox_id;
  if (!alive(loc.pid) || other) rmSync(join(home, LOCATOR_FILE), { force: true });
}

/** The home's last asked-for port (`start.json`), so that a home started on --port 0 restarts on a free port. */
const START_FILE = 'start.json';

/** A port that is taken and was asked for: who holds it, what to do instead; nothing was started. */
function portTaken(port: number, holder: string): never {
  info(`${chalk.red('error')} port ${port} is in use by ${holder}; nothing was started.`);
  info(`  Start on a free port with: ${svc('sandbox start --port 0')}`);
  throw new CliExit(EXIT.apiError);
}

/**
 * The port to start on: the one asked for (refused, naming its holder, when taken); else the home's
 * remembered request (0 for a home started on --port 0), else 4710, or a free port when 4710 is taken.
 */
async function choosePort(home: string, asked: string | undefined): Promise<string> {
  const remembered = readJson<{ port?: string }>(join(home, START_FILE))?.port;
  const port = asked ?? (remembered === '0' ? '0' : String(DEFAULT_PORT));
  const n = Number(port);
  if (!/^\d+$/.test(port) || n > 65535) usage(`--port ${port} is not a port number (0 picks a free one)`);
  if (n === 0) return '0';
  const holder = await portHolder(n);
  if (!holder) return port;
  if (asked !== undefined) portTaken(n, describeHolder(holder));
  info(`port ${n} is in use by ${describeHolder(holder)}; starting on a free port instead (as with --port 0).`);
  return '0';
}

function credentialsOf(home: string): Omit<Profile, 'base_url'> {
  return readJson<Omit<Profile, 'base_url'>>(join(home, 'credentials.json')) ?? {};
}

/** The state and the quotes the banner shows, asked at once: one round trip's wait instead of two. */
async function askBanner(profile: Profile, json: boolean): Promise<ReadyBanner> {
  const [stateRes, ...quoteRes] = await Promise.all([
    api<SandboxState>(profile, 'GET', '/admin/sandbox/state'),
    ...BANNER_SYMBOLS.map((s) => api<LiveQuote>(profile, 'GET', `/v1/markets/XCAI/instruments/${s}/quote`)),
  ]);
  return { state: ok(stateRes, json), quotes: quoteRes.map((r) => r.body as LiveQuote) };
}

/**
 * Saves the default profile of `home` and prints its connection, keys, clock and a few quotes: those the
 * daemon sent on its ready pipe when it was just started (`ready`), else asked of it.
 */
export async function banner(
  home: string,
  loc: Locator,
  json: boolean,
  note?: string,
  extra: Record<string, unknown> = {},
  ready?: ReadyBanner,
): Promise<void> {
  const creds = credentialsOf(home);
  const profile: Profile = { ...creds, base_url: loc.base_url, console_url: loc.console_url };
  await saveProfile(home, 'default', profile);
  const { state, quotes } = ready ?? (await askBanner(profile, json));
  if (json) {
    printJson({
      ...profile,
      home,
      pid: loc.pid,
      version: loc.version,
      seed: state.seed,
      clock: state.clock,
      note,
      ...extra,
    });
    return;
  }
  const line = (k: string, v: string | undefined) => `  ${k.padEnd(15)} ${v ?? '-'}`;
  const out = [
    chalk.green(note ?? 'svc sandbox is running') + chalk.dim(` (pid ${loc.pid}, home ${home})`),
    line('base_url', loc.base_url),
    line('console_url', loc.console_url),
    line('tenant_id', creds.tenant_id),
    line('api_key', creds.api_key),
    line('signing_secret', creds.signing_secret),
    line('admin_key', creds.admin_key),
    line('dealer_key', creds.dealer_key),
    line('security_key', creds.security_key),
    line('approver_key', creds.approver_key),
    line('compliance_key', creds.compliance_key),
    line('auditor_key', creds.auditor_key),
    '',
    `  clock ${state.clock.timestamp} (${state.clock.mode}), market ` +
      `${state.clock.is_open ? chalk.green('open') : 'closed'}, next open ${state.clock.next_open}, seed ` +
      `${state.seed}`,
    ...quotes.map((q) => `  ${q.symbol.padEnd(6)} ${egp(q.price_micros).padStart(10)} EGP  ${pct(q.change_pct)}`),
    '',
    chalk.dim(
      `  Next: ${svc('market quotes')} · ${svc('clock advance --until next_open')} · ` +
        `${svc('sandbox env')} · svc --help`,
    ),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

export async function start(opts: StartOptions, g: GlobalOptions): Promise<void> {
  const home = resolveHome(g);
  privateHome(home);
  const existing = await running(home);
  if (existing) {
    await banner(home, existing, Boolean(g.json), 'svc sandbox is already running');
    return;
  }
  await dropStaleLocator(home);
  const clockMode = opts.clock ?? (opts.foreground && !process.env.CI ? 'running' : 'frozen');
  const spawnOn = (port: string) =>
    spawnDaemon({
      home,
      port,
      seed: opts.seed,
      start: opts.start,
      clock: clockMode,
      speed: opts.speed,
      ai: opts.ai,
      logLevel: opts.logLevel,
      foreground: Boolean(opts.foreground),
      detached: !opts.foreground,
      adoptAuditHead: opts.adoptAuditHead,
      rateLimit: opts.rateLimit,
    });
  const port = await choosePort(home, opts.port);
  let spawned: SpawnedDaemon;
  try {
    const first = spawnOn(port);
    // the daemon starts on another core meanwhile: load what saving the profile needs now
    void preloadProfileStore();
    spawned = await first.catch(async (err: unknown) => {
      // Taken between the check and the daemon's listen: the same answer as a port found taken.
      if (!(err instanceof DaemonStartFailed) || err.exitCode !== EXIT_PORT_IN_USE || port === '0') throw err;
      const holder = describeHolder((await portHolder(Number(port))) ?? {});
      if (opts.port !== undefined) portTaken(Number(port), holder);
      info(`port ${port} is in use by ${holder}; starting on a free port instead (as with --port 0).`);
      return spawnOn('0');
    });
  } catch (err) {
    if (!(err instanceof DaemonStartFailed)) throw err;
    info(`${chalk.red('error')} ${err.message}`);
    // A home whose guards were altered: the daemon's own exit code (2), so a script can tell it apart.
    throw new CliExit(err.exitCode === EXIT_HOME_ALTERED ? EXIT_HOME_ALTERED : EXIT.apiError);
  }
  if (opts.port !== undefined)
    writeFileSync(join(home, START_FILE), `${JSON.stringify({ port: opts.port })}\n`, { mode: 0o600 });
  const { child, locator: loc } = spawned;
  await banner(home, loc, Boolean(g.json), undefined, {}, spawned.banner);
  if (!opts.foreground) {
    child.unref();
    return;
  }
  info(chalk.dim('Running in the foreground; Ctrl-C stops the daemon.'));
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  await new Promise<void>((resolve) => child.on('exit', () => resolve()));
}

export async function stop(_opts: unknown, g: GlobalOptions): Promise<void> {
  const home = resolveHome(g);
  await dropStaleLocator(home);
  const loc = readLocator(home);
  // A live pid that neither answers as this sandbox nor runs a daemon is a recycled pid: never signalled.
  if (!loc || !alive(loc.pid) || !((await answersAs(loc)) || commandOf(loc.pid)?.includes('daemon/main.js'))) {
    if (g.json) printJson({ stopped: false, reason: 'not running' });
    else info('svc sandbox is not running.');
    return;
  }
  await stopDaemon(home, loc);
  if (g.json) printJson({ stopped: true, pid: loc.pid });
  else info(`svc sandbox stopped (pid ${loc.pid}).`);
}

/** Stops the daemon of `home` gracefully (SIGTERM; SIGKILL after 10 s) and waits until it is gone. */
export async function stopDaemon(home: string, loc: Locator): Promise<void> {
  process.kill(loc.pid, 'SIGTERM');
  // The daemon removes its locator as the last step of a graceful close. (A detached daemon whose
  // parent is gone can linger as a zombie until reaped, so `kill -0` alone would wait for nothing.)
  const locatorFile = join(home, 'daemon.json');
  const deadline = Date.now() + 10_000;
  while (alive(loc.pid) && existsSync(locatorFile) && Date.now() < deadline) await sleep(10);
  if (existsSync(locatorFile) && alive(loc.pid)) {
    process.kill(loc.pid, 'SIGKILL');
    rmSync(locatorFile, { force: true });
  }
}

export async function status(_opts: unknown, g: GlobalOptions): Promise<void> {
  const home = resolveHome(g);
  const loc = await running(home);
  if (!loc) {
    if (g.json) printJson({ running: false, home });
    else info(`svc sandbox is not running (home ${home}).`);
    throw new CliExit(EXIT.unreachable);
  }
  const profile = resolveProfile(g);
  const state = ok(await api<SandboxState>(profile, 'GET', '/admin/sandbox/state'), Boolean(g.json));
  if (g.json) {
    printJson({ running: true, home, pid: loc.pid, base_url: loc.base_url, ...state });
    return;
  }
  process.stdout.write(
    `${[
      `${chalk.green('running')}  pid ${loc.pid}  ${loc.base_url}  version ${loc.version}`,
      `clock    ${state.clock.timestamp} (${state.clock.mode}` +
        `${state.clock.mode === 'running' ? ` x${state.clock.speed}` : ''}), ` +
        `market ${state.clock.is_open ? 'open' : 'closed'}`,
      `seed     ${state.seed} (start ${state.start}, generation ${state.generation})`,
      `home     ${home}`,
    ].join('\n')}\n`,
  );
}

function formatLogLine(line: string): string | null {
  if (!line.trim()) return null;
  try {
    const r = JSON.parse(line);
    const level =
      ({ 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' } as Record<number, string>)[
        r.level
      ] ?? String(r.level);
    const { time, msg, method, url, status, ms, reqId } = r;
    const detail = method ? `${method} ${url} ${status} ${ms}ms ${reqId ?? ''}` : '';
    return `${new Date(time).toISOString()} ${level.padEnd(5)} ${msg}${detail ? ` ${detail}` : ''}`;
  } catch {
    return line;
  }
}

export async function logs(opts: LogsOptions, g: GlobalOptions): Promise<void> {
  const file = join(resolveHome(g), 'daemon.log');
  if (!existsSync(file)) usage(`no log at ${file}; has the sandbox been started with this --home?`);
  const emit = (text: string) => {
    for (const l of text.split('\n')) {
      const f = g.json ? (l.trim() ? l : null) : formatLogLine(l);
      if (f) process.stdout.write(`${f}\n`);
    }
  };
  const n = Number(opts.lines);
  if (!Number.isInteger(n) || n < 0) usage(`--lines ${opts.lines} must be a whole number`);
  if (n > 0) emit(readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(-n).join('\n'));
  if (!opts.follow) return;
  let offset = statSync(file).size;
  await new Promise<void>(() => {
    watch(file, () => {
      const size = statSync(file).size;
      if (size <= offset) return;
      const buf = readFileSync(file).subarray(offset, size);
      offset = size;
      emit(buf.toString('utf8'));
    });
  });
}

export async function env(_opts: unknown, g: GlobalOptions): Promise<void> {
  const p = resolveProfile(g);
  const vars: Record<string, string | undefined> = {
    SVC_HOME: p.home,
    SVC_SANDBOX_ID: p.expect?.sandbox_id ?? undefined,
    SVC_BASE_URL: p.base_url,
    SVC_CONSOLE_URL: p.console_url ?? `${p.base_url}/broker/v1`,
    SVC_TENANT_ID: p.tenant_id,
    SVC_API_KEY: p.api_key,
    SVC_SIGNING_SECRET: p.signing_secret,
    SVC_ADMIN_KEY: p.admin_key,
    SVC_DEALER_KEY: p.dealer_key,
    SVC_SECURITY_KEY: p.security_key,
    SVC_APPROVER_KEY: p.approver_key,
    SVC_COMPLIANCE_KEY: p.compliance_key,
    SVC_AUDITOR_KEY: p.auditor_key,
  };
  if (g.json) {
    printJson(vars);
    return;
  }
  for (const [k, v] of Object.entries(vars))
    if (v !== undefined)
      process.stdout.write(
        `export ${k}=${JSON.stringify(v).slice(1, -1).includes("'") ? JSON.stringify(v) : `'${v}'`}\n`,
      );
}

export async function reset(opts: ResetOptions, g: GlobalOptions): Promise<void> {
  const body: Record<string, unknown> = {};
  if (opts.seed !== undefined) {
    const n = Number(opts.seed);
    if (!Number.isInteger(n) || n < 0) usage(`--seed ${opts.seed} must be a non-negative integer`);
    body.seed = n;
  }
  if (opts.start) body.start = opts.start;
  if (opts.clock) body.clock = opts.clock;
  if (opts.ai) body.ai = opts.ai;
  if (opts.rateLimit) body.rate_limit = opts.rateLimit;
  const state = ok(
    await api<SandboxState>(resolveProfile(g), 'POST', '/admin/sandbox/reset', { body }),
    Boolean(g.json),
  );
  if (g.json) printJson(state);
  else
    process.stdout.write(
      `sandbox reset: seed ${state.seed}, clock ${state.clock.timestamp} (${state.clock.mode}), assistant ` +
        `${state.ai}\n`,
    );
}

/** One row of `svc sandbox list`. */
interface ListedSandbox {
  home: string;
  sandbox_id: string;
  status: 'up' | 'down';
  port: number | null;
  pid: number | null;
  base_url: string | null;
  clock: string | null;
  clock_mode: string | null;
  seed: number | null;
}

/** Probes a registered home: up when its locator's daemon answers /healthz with the home's sandbox id. */
async function probeHome(home: string, sandboxId: string): Promise<ListedSandbox> {
  const row: ListedSandbox = {
    home,
    sandbox_id: sandboxId,
    status: 'down',
    port: null,
    pid: null,
    base_url: null,
    clock: null,
    clock_mode: null,
    seed: null,
  };
  const loc = readLocator(home);
  if (!loc || !alive(loc.pid)) return row;
  const h = await probeHealth(loc.base_url);
  if (!h || h.sandbox_id !== sandboxId) return row;
  Object.assign(row, { status: 'up', port: loc.port, pid: loc.pid, base_url: loc.base_url, clock: h.sim_time });
  const res = await api<SandboxState>(
    { ...credentialsOf(home), base_url: loc.base_url },
    'GET',
    '/admin/sandbox/state',
    { timeoutMs: 5_000 },
  ).catch(() => null);
  if (res && res.status === 200)
    Object.assign(row, { clock: res.body.clock.timestamp, clock_mode: res.body.clock.mode, seed: res.body.seed });
  return row;
}

/** Every sandbox of the per-user registry (and this home, if it has one), up or down. */
export async function list(_opts: unknown, g: GlobalOptions): Promise<void> {
  const homes = registeredHomes().map((r) => ({ home: r.home, id: r.sandbox_id }));
  const here = resolveHome(g);
  const hereId = readSandboxId(here);
  if (hereId && !homes.some((h) => h.home === here)) homes.push({ home: here, id: hereId });
  const rows = await Promise.all(homes.map((h) => probeHome(h.home, h.id)));
  if (g.json) {
    printJson({ sandboxes: rows });
    return;
  }
  if (rows.length === 0) {
    info(`No sandbox has been started on this machine yet (${svc('sandbox start')}).`);
    return;
  }
  const table = [['STATUS', 'PORT', 'PID', 'CLOCK', 'SEED', 'HOME']].concat(
    rows.map((r) => [
      r.status === 'up' ? 'up' : 'down',
      String(r.port ?? '-'),
      String(r.pid ?? '-'),
      r.clock ? `${r.clock}${r.clock_mode ? ` (${r.clock_mode})` : ''}` : '-',
      String(r.seed ?? '-'),
      r.home,
    ]),
  );
  const widths = table[0].map((_, i) => Math.max(...table.map((line) => line[i].length)));
  const text = table.map((line) =>
    line
      .map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
  process.stdout.write(`${text.join('\n')}\n`);
}
