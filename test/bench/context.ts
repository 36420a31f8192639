// What every bench gets: the configuration (from env), the repository paths, and shared, lazily
// started servers — the bare fastify baseline and one real daemon — so that later suites (signed
// orders, mixed workload) reuse the same baseline figure and the same daemon without restarting them.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitForHealthy } from '../../cli/healthz.js';
import { measure, type LoadConfig, type LoadStats, type LoadTarget } from './load.js';
import { firstJsonLine, spawnTracked, stopChild, tempDir, tempHome, withTimeout } from './proc.js';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const DAEMON_ENTRY = join(ROOT, 'dist', 'daemon', 'main.js');
export const SVC_BIN = join(ROOT, 'bin', 'svc');

function envNumber(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name}=${raw} must be a number >= ${min}`);
  return n;
}

export interface BenchConfig {
  load: LoadConfig;
  /** Runs of the cold-start bench (the median is reported). */
  coldRuns: number;
  /** Rounds of (baseline, route) per compared route; the median round is reported. */
  rounds: number;
  seed: number;
  start: string;
}

export function configFromEnv(): BenchConfig {
  return {
    load: {
      seconds: envNumber('BENCH_SECONDS', 5, 1),
      warmupSeconds: envNumber('BENCH_WARMUP_SECONDS', 1, 0),
      connections: envNumber('BENCH_CONNECTIONS', 10, 1),
    },
    coldRuns: envNumber('BENCH_COLD_RUNS', 5, 1),
    rounds: envNumber('BENCH_ROUNDS', 1, 1),
    seed: 42,
    start: '2026-11-22T09:00:00+02:00',
  };
}

export interface DaemonCredentials {
  tenant_id: string;
  api_key: string;
  signing_secret: string;
  admin_key: string;
  [k: string]: string;
}

export interface DaemonHandle {
  baseUrl: string;
  home: string;
  pid: number;
  creds: DaemonCredentials;
  /** Authorization header for the bootstrap tenant. */
  bearer: Record<string, string>;
  stop(): Promise<void>;
}

export interface Baseline {
  stats: LoadStats;
  pid: number;
}

export interface HelloServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** servers/floor.mjs: the minimal durable signed order (docs/bench.md, "The floor"). */
export interface FloorServer {
  baseUrl: string;
  pid: number;
  api_key: string;
  signing_secret: string;
  /** Investors the floor has funded. */
  investors: string[];
  stop(): Promise<void>;
}

/** A route measured against a baseline: rounds of (baseline run, route run), back to back. */
export interface Comparison {
  /** The median round (by throughput ratio): its route stats, the baseline run just before it, and the ratio. */
  stats: LoadStats;
  base: LoadStats;
  /** route req/s ÷ baseline req/s of the median round, %. */
  ratioPct: number;
  rounds: Array<{ base: LoadStats; stats: LoadStats; ratioPct: number }>;
}

export class BenchContext {
  readonly root = ROOT;
  readonly defaultTimeoutMs: number;
  private baselinePromise?: Promise<Baseline>;
  private helloPromise?: Promise<HelloServer>;
  private daemonPromise?: Promise<DaemonHandle>;
  private readonly servers: ChildProcess[] = [];
  /** Every measured run of this bench process, for the end-of-run sanity notes. */
  readonly runs: LoadStats[] = [];

  constructor(
    readonly config: BenchConfig,
    readonly log: (msg: string) => void,
  ) {
    const l = config.load;
    // A bench makes up to 2 * rounds measured runs (plus start-up); beyond this it is wedged.
    this.defaultTimeoutMs = Math.max(60_000, (2 * config.rounds + 2) * (l.seconds + l.warmupSeconds + 10) * 1000);
  }

  /** autocannon with the configured connections and durations. */
  async measure(target: LoadTarget, overrides: Partial<LoadConfig> = {}): Promise<LoadStats> {
    const stats = await measure(target, { ...this.config.load, ...overrides });
    this.runs.push(stats);
    return stats;
  }

  /** The shared bare fastify hello-world, started on first use and kept (idle) until the end. */
  hello(): Promise<HelloServer> {
    this.helloPromise ??= this.startHello();
    return this.helloPromise;
  }

  /** The baseline's own figures for the table: its first measured run. */
  baseline(): Promise<Baseline> {
    this.baselinePromise ??= (async () => {
      const hello = await this.hello();
      const stats = await this.measure({ url: hello.url, serverPid: hello.pid });
      return { stats, pid: hello.pid };
    })();
    return this.baselinePromise;
  }

  /**
   * Measures target as a ratio of a baseline (the hello-world unless `baseline` is given). Each round
   * runs the baseline and then the target right after it, so both see the same machine (a shared box
   * drifts by 2x within a minute); with BENCH_ROUNDS > 1 the median round is reported. Only one server
   * is under load at a time.
   */
  async compare(target: LoadTarget, baseline?: LoadTarget): Promise<Comparison> {
    const hello = baseline ? null : await this.hello();
    const baseTarget: LoadTarget = baseline ?? { url: hello!.url, serverPid: hello!.pid };
    const rounds: Comparison['rounds'] = [];
    for (let i = 0; i < this.config.rounds; i++) {
      const base = await this.measure(baseTarget);
      const stats = await this.measure(target);
      rounds.push({ base, stats, ratioPct: (100 * stats.rps) / base.rps });
    }
    const byRatio = [...rounds].sort((a, b) => a.ratioPct - b.ratioPct);
    const mid = byRatio[(byRatio.length - 1) >> 1];
    return { ...mid, rounds };
  }

  /** A bare fastify hello-world server (servers/hello.mjs) on a free loopback port. */
  async startHello(opts: { nodeArgs?: string[] } = {}): Promise<HelloServer> {
    const child = spawnTracked(
      process.execPath,
      [...(opts.nodeArgs ?? []), join(ROOT, 'test', 'bench', 'servers', 'hello.mjs')],
      { cwd: ROOT },
    );
    this.servers.push(child);
    const { port } = await withTimeout(firstJsonLine<{ port: number }>(child), 15_000, 'baseline server start');
    return { url: `http://127.0.0.1:${port}/`, pid: child.pid!, stop: () => stopChild(child) };
  }

  /** The floor server (servers/floor.mjs) on a fresh database in a temp directory. */
  async startFloor(opts: { nodeArgs?: string[]; wrap?: string[]; readyMs?: number } = {}): Promise<FloorServer> {
    const dir = tempDir('floor');
    // wrap: as for startDaemon (valgrind, test/bench/icount.ts)
    const [cmd, ...cmdArgs] = [
      ...(opts.wrap ?? []),
      process.execPath,
      ...(opts.nodeArgs ?? []),
      join(ROOT, 'test', 'bench', 'servers', 'floor.mjs'),
      '--db',
      join(dir, 'floor.db'),
    ];
    const child = spawnTracked(cmd, cmdArgs, { cwd: ROOT });
    this.servers.push(child);
    const ready = await withTimeout(
      firstJsonLine<Omit<FloorServer, 'baseUrl' | 'pid' | 'stop'> & { port: number }>(child),
      opts.readyMs ?? 15_000,
      'floor server start',
    );
    return { ...ready, baseUrl: `http://127.0.0.1:${ready.port}`, pid: child.pid!, stop: () => stopChild(child) };
  }

  /**
   * The real daemon, as `svc sandbox start` runs it (dist/daemon/main.js, frozen clock, seed 42), in a
   * child process of the bench on a free loopback port with a fresh home. Started once per run.
   */
  daemon(): Promise<DaemonHandle> {
    this.daemonPromise ??= this.startDaemon();
    return this.daemonPromise;
  }

  /** A daemon of its own (not the shared one); nodeArgs go before the script (e.g. --cpu-prof); entry: another build's
   * main.js. */
  async startDaemon(
    opts: { nodeArgs?: string[]; args?: string[]; entry?: string; wrap?: string[]; healthyMs?: number } = {},
  ): Promise<DaemonHandle> {
    const entry = opts.entry ?? DAEMON_ENTRY;
    if (!existsSync(entry)) throw new Error(`${entry} missing: run npm run build`);
    const home = tempHome('daemon');
    // BENCH_DAEMON_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof') profiles every daemon a bench starts
    const extra = (process.env.BENCH_DAEMON_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const args = [
      ...extra,
      ...(opts.nodeArgs ?? []),
      entry,
      '--home',
      home,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--seed',
      String(this.config.seed),
      '--start',
      this.config.start,
      '--clock',
      'frozen',
      '--speed',
      '1',
      '--ai',
      'none',
      ...(opts.args ?? []),
    ];
    // wrap: a command the daemon runs under (e.g. valgrind, test/bench/icount.ts)
    const [cmd, ...cmdArgs] = [...(opts.wrap ?? []), process.execPath, ...args];
    const child = spawnTracked(cmd, cmdArgs, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    this.servers.push(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const healthyMs = opts.healthyMs ?? 20_000;
    const ready = await waitForHealthy({ home, child, timeoutMs: healthyMs });
    if (!ready.ok) {
      await stopChild(child, 1000);
      throw new Error(`the daemon did not become healthy within ${healthyMs / 1000} s: ${stderr.trim()}`);
    }
    const baseUrl = ready.locator.base_url;
    const creds = JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8')) as DaemonCredentials;
    return {
      baseUrl,
      home,
      pid: child.pid!,
      creds,
      bearer: { authorization: `Bearer ${creds.api_key}` },
      stop: () => stopChild(child),
    };
  }

  /** Stops every server this context started (the process exit hooks are the backstop). */
  async close(): Promise<void> {
    await Promise.all(this.servers.map((c) => stopChild(c)));
  }
}
