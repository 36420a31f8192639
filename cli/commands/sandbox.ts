// svc sandbox start|stop|status|logs|env|reset
import { existsSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { api } from '../client/http.js';
import { alive, DaemonStartFailed, healthy, spawnDaemon, type SpawnedDaemon } from '../daemon-process.js';
import { privateHome, readJson, readLocator, resolveHome, resolveProfile, saveProfile, type GlobalOptions, type Locator, type Profile } from '../context.js';
import { CliExit, EXIT, chalk, egp, info, ok, pct, printJson, usage } from '../output.js';
import type { LiveQuote } from '../../daemon/contract/schemas/market.js';
import type { SandboxState } from '../../daemon/contract/schemas/sandbox.js';

export interface StartOptions {
  foreground?: boolean;
  port: string;
  seed: string;
  start?: string;
  clock?: 'frozen' | 'running';
  speed: string;
  ai: 'none' | 'registry';
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

export interface LogsOptions {
  follow?: boolean;
  lines: string;
}

export interface ResetOptions {
  seed?: string;
  start?: string;
  clock?: 'frozen' | 'running';
}

/** The running daemon of this home, or null (a stale locator of a dead process counts as none). */
export async function running(home: string): Promise<Locator | null> {
  const loc = readLocator(home);
  if (!loc || !alive(loc.pid)) return null;
  return (await healthy(loc.base_url)) ? loc : null;
}

function credentialsOf(home: string): Omit<Profile, 'base_url'> {
  return readJson<Omit<Profile, 'base_url'>>(join(home, 'credentials.json')) ?? {};
}

/** Saves the default profile of `home` and prints its connection, keys, clock and a few quotes. */
export async function banner(home: string, loc: Locator, json: boolean, note?: string, extra: Record<string, unknown> = {}): Promise<void> {
  const creds = credentialsOf(home);
  const profile: Profile = { ...creds, base_url: loc.base_url, console_url: loc.console_url };
  await saveProfile(home, 'default', profile);
  const state = ok(await api<SandboxState>(profile, 'GET', '/admin/sandbox/state'), json);
  const quotes = await Promise.all(['COMI', 'TMGH', 'FWRY'].map(async (s) => (await api<LiveQuote>(profile, 'GET', `/v1/markets/XCAI/instruments/${s}/quote`)).body));
  if (json) {
    printJson({ ...profile, home, pid: loc.pid, version: loc.version, seed: state.seed, clock: state.clock, note, ...extra });
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
    '',
    `  clock ${state.clock.timestamp} (${state.clock.mode}), market ${state.clock.is_open ? chalk.green('open') : 'closed'}, next open ${state.clock.next_open}, seed ${state.seed}`,
    ...quotes.map((q) => `  ${q.symbol.padEnd(6)} ${egp(q.price_micros).padStart(10)} EGP  ${pct(q.change_pct)}`),
    '',
    chalk.dim('  Next: svc market quotes · svc clock advance --until next_open · svc sandbox env · svc --help'),
  ];
  process.stdout.write(out.join('\n') + '\n');
}

export async function start(opts: StartOptions, g: GlobalOptions): Promise<void> {
  const home = resolveHome(g);
  privateHome(home);
  const existing = await running(home);
  if (existing) {
    await banner(home, existing, Boolean(g.json), 'svc sandbox is already running');
    return;
  }
  const clockMode = opts.clock ?? (opts.foreground && !process.env.CI ? 'running' : 'frozen');
  let spawned: SpawnedDaemon;
  try {
    spawned = await spawnDaemon({
      home, port: opts.port, seed: opts.seed, start: opts.start, clock: clockMode, speed: opts.speed, ai: opts.ai, logLevel: opts.logLevel,
      foreground: Boolean(opts.foreground), detached: !opts.foreground,
    });
  } catch (err) {
    if (!(err instanceof DaemonStartFailed)) throw err;
    info(`${chalk.red('error')} ${err.message}`);
    throw new CliExit(EXIT.apiError);
  }
  const { child, locator: loc } = spawned;
  await banner(home, loc, Boolean(g.json));
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
  const loc = readLocator(home);
  if (!loc || !alive(loc.pid)) {
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
    [
      `${chalk.green('running')}  pid ${loc.pid}  ${loc.base_url}  version ${loc.version}`,
      `clock    ${state.clock.timestamp} (${state.clock.mode}${state.clock.mode === 'running' ? ` x${state.clock.speed}` : ''}), market ${state.clock.is_open ? 'open' : 'closed'}`,
      `seed     ${state.seed} (start ${state.start}, generation ${state.generation})`,
      `home     ${home}`,
    ].join('\n') + '\n',
  );
}

function formatLogLine(line: string): string | null {
  if (!line.trim()) return null;
  try {
    const r = JSON.parse(line);
    const level = ({ 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' } as Record<number, string>)[r.level] ?? String(r.level);
    const { time, msg, method, url, status, ms, reqId } = r;
    const detail = method ? `${method} ${url} ${status} ${ms}ms ${reqId ?? ''}` : '';
    return `${new Date(time).toISOString()} ${level.padEnd(5)} ${msg}${detail ? ' ' + detail : ''}`;
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
      if (f) process.stdout.write(f + '\n');
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
    SVC_BASE_URL: p.base_url,
    SVC_CONSOLE_URL: p.console_url ?? `${p.base_url}/broker/v1`,
    SVC_TENANT_ID: p.tenant_id,
    SVC_API_KEY: p.api_key,
    SVC_SIGNING_SECRET: p.signing_secret,
    SVC_ADMIN_KEY: p.admin_key,
    SVC_DEALER_KEY: p.dealer_key,
    SVC_SECURITY_KEY: p.security_key,
    SVC_APPROVER_KEY: p.approver_key,
  };
  if (g.json) {
    printJson(vars);
    return;
  }
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) process.stdout.write(`export ${k}=${JSON.stringify(v).slice(1, -1).includes("'") ? JSON.stringify(v) : `'${v}'`}\n`);
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
  const state = ok(await api<SandboxState>(resolveProfile(g), 'POST', '/admin/sandbox/reset', { body }), Boolean(g.json));
  if (g.json) printJson(state);
  else process.stdout.write(`sandbox reset: seed ${state.seed}, clock ${state.clock.timestamp} (${state.clock.mode})\n`);
}
