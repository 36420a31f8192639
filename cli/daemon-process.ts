// Spawning a daemon process in a home and waiting until it listens: shared by
// `svc sandbox start` (detached or in the foreground) and the scenario runner (an isolated daemon per
// scenario file, in a fresh temporary home). The daemon says when it listens, on a pipe (fd 3: its
// locator as one JSON line); nothing is polled. Before a start, who
// holds a port (`portHolder`): a sandbox of the registry, else what /proc says, else "another process".
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { registeredHomes } from '../daemon/contract/home-files.js';
import type { ReadyBanner } from '../daemon/contract/ready.js';
import { EXIT_SNAPSHOT_FAILURE } from '../daemon/contract/snapshot-blob.js';
import { EXIT_WARM_FAILED, type WarmOrders } from '../daemon/contract/warm-start.js';
import { readLocator, type Locator } from './context.js';
import type { Readable } from 'node:stream';
import { healthy } from './healthz.js';
import { daemonEntry, daemonEnv, daemonSnapshot } from './daemon-entry.js';
import { releaseWarmDaemon, takeWarmDaemon, type WarmDaemon } from './warm-daemon.js';

export { daemonEntry, healthy };

export const READY_TIMEOUT_MS = 20_000;

/** The ready pipe's one line: the locator, and the banner's data (daemon/contract/ready.ts). */
type ReadyMessage = Locator & { banner?: ReadyBanner };

/**
 * Whether the process runs: it exists and is not a zombie. A daemon that exited stays in the process table until
 * its parent reaps it; a detached daemon's parent is the machine's init, which may reap late or, in a container
 * without one, never. Counting a zombie as alive made `svc sandbox stop` wait for the reaper.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !zombie(pid);
}

/** The process's state in /proc is Z (exited, not reaped). Without /proc (not Linux), not known: false. */
function zombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "pid (name) S ...": the name may hold spaces and parentheses, the state follows the last ")"
  return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
}

export interface SpawnOptions {
  home: string;
  port: string | number;
  seed: string | number;
  start?: string;
  clock: 'frozen' | 'running';
  speed?: string | number;
  ai?: string;
  /** debug also logs every quick successful read. */
  logLevel?: string;
  /** Stay attached with the daemon's output on this terminal (`sandbox start --foreground`). */
  foreground?: boolean;
  /** Sign the audit chain as the database holds it (an import; `sandbox start --adopt-audit-head`). */
  adoptAuditHead?: boolean;
  /** Each API key's rate limit, "200/min" (docs/faults.md); off when absent. */
  rateLimit?: string;
  /** Detach from this process group (a daemon that outlives the CLI). */
  detached: boolean;
}

export interface SpawnedDaemon {
  child: ChildProcess;
  locator: Locator;
  logFile: string;
  /** What the start banner shows, as the daemon answered it when it began to listen. */
  banner?: ReadyBanner;
}

/** The daemon did not become healthy; the message carries the exit code and the tail of its log. */
export class DaemonStartFailed extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null = null,
    /** The signal that ended it (a crash), if one did. */
    readonly signal: NodeJS.Signals | null = null,
  ) {
    super(message);
  }
}

/**
 * Spawns dist/daemon/main.js for `home` and resolves once the daemon says, on its ready pipe, that it listens.
 * A detached start uses the warm daemon bin/svc spawned (cli/warm-daemon.ts), when there is one: it only needs its
 * flags. From the daemon's startup snapshot when the build left one for this node and this folder
 * (daemon/contract/snapshot-blob.ts); a start from it that dies as only a bad blob makes a process die (a
 * signal, or node's own "cannot load the snapshot") is made again without it. SVC_DAEMON_SNAPSHOT=off: never.
 */
export async function spawnDaemon(opts: SpawnOptions): Promise<SpawnedDaemon> {
  const warm = takeWarmDaemon();
  if (warm && opts.detached && !opts.foreground) {
    try {
      return await spawnWarm(warm, opts);
    } catch (err) {
      // a warm daemon that died before it could start (a bad blob, its output file) is one the cold way
      if (!diedBeforeStarting(err, EXIT_WARM_FAILED)) throw err;
    }
  } else releaseWarmDaemon(warm);
  const entry = daemonEntry();
  const blob = daemonSnapshot(entry);
  if (!blob) return spawnFrom([entry], opts);
  try {
    return await spawnFrom(['--snapshot-blob', blob, entry], opts);
  } catch (err) {
    if (!diedBeforeStarting(err)) throw err;
    return spawnFrom([entry], opts);
  }
}

/** The daemon died as only a bad blob (or, warm, a failed output file: `alsoExit`) makes it die. */
function diedBeforeStarting(err: unknown, alsoExit?: number): boolean {
  if (!(err instanceof DaemonStartFailed)) return false;
  return err.signal !== null || err.exitCode === EXIT_SNAPSHOT_FAILURE || err.exitCode === alsoExit;
}

/** The daemon's flags for `opts`. */
function daemonArgs(opts: SpawnOptions): string[] {
  const args = [
    '--home',
    opts.home,
    '--port',
    String(opts.port),
    '--seed',
    String(opts.seed),
    '--clock',
    opts.clock,
    '--speed',
    String(opts.speed ?? 1),
    '--ai',
    opts.ai ?? 'none',
    '--log-level',
    opts.logLevel ?? 'info',
  ];
  if (opts.start) args.push('--start', opts.start);
  if (opts.adoptAuditHead) args.push('--adopt-audit-head');
  // fd 3 is the ready pipe: the daemon writes its locator there once it listens, and closes it
  args.push('--ready-fd', '3');
  if (opts.rateLimit) args.push('--rate-limit', opts.rateLimit);
  return args;
}

async function spawnFrom(node: string[], opts: SpawnOptions): Promise<SpawnedDaemon> {
  const logFile = join(opts.home, 'daemon.out');
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...node, ...daemonArgs(opts)], {
    env: daemonEnv(process.env),
    detached: opts.detached,
    stdio: opts.foreground ? ['ignore', 'inherit', 'inherit', 'pipe'] : ['ignore', out, out, 'pipe'],
  });
  closeSync(out);
  return awaitReady(child, logFile);
}

/** Sends the warm daemon its flags and the file a cold spawn would give it as stdout and stderr. */
function spawnWarm(warm: WarmDaemon, opts: SpawnOptions): Promise<SpawnedDaemon> {
  const logFile = join(opts.home, 'daemon.out');
  const orders: WarmOrders = { argv: daemonArgs(opts), out: logFile };
  warm.child.ref();
  warm.pipe.ref();
  warm.pipe.write(`${JSON.stringify(orders)}\n`);
  return awaitReady(warm.child, logFile);
}

/** The spawned daemon once it says it listens; else DaemonStartFailed, with its exit code and its log's tail. */
async function awaitReady(child: ChildProcess, logFile: string): Promise<SpawnedDaemon> {
  let exited: number | null = null;
  let signal: NodeJS.Signals | null = null;
  child.on('exit', (code, killedBy) => {
    exited = code ?? 1;
    signal = killedBy;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const ready = await readyMessage(child, READY_TIMEOUT_MS);
  if (ready) {
    const { banner, ...locator } = ready;
    return { child, locator, logFile, banner };
  }
  // the pipe closed without a locator: the daemon is exiting; its exit code tells why (a taken port)
  if (Date.now() < deadline && exited === null && child.exitCode === null && child.signalCode === null)
    // an unref'd timer: once the daemon has exited, nothing keeps svc waiting for the rest of the 5 s
    await Promise.race([once(child, 'exit'), sleep(5_000, undefined, { ref: false })]);
  if (exited === null && child.exitCode !== null) exited = child.exitCode;
  if (signal === null && child.signalCode !== null) signal = child.signalCode;
  const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
  if (exited === null && signal === null) child.kill('SIGTERM');
  throw new DaemonStartFailed(
    `the daemon did not become healthy${exited !== null ? ` (exit code ${exited})` : ''}.\n${tail}`,
    exited,
    signal,
  );
}

/**
 * What the daemon wrote to its ready pipe (fd 3) before closing it: its locator and the banner's data, once it
 * listens. Null
 * when the pipe closed without one (the daemon exited) or `timeoutMs` passed. Nothing is polled: the
 * daemon says when it listens. The pipe is let go either way, so that a detached daemon does not keep
 * this process alive.
 */
function readyMessage(child: ChildProcess, timeoutMs: number): Promise<ReadyMessage | null> {
  const pipe = child.stdio[3] as Readable | null;
  if (!pipe) return Promise.resolve(null);
  return new Promise((resolvePromise) => {
    let text = '';
    const done = (loc: ReadyMessage | null) => {
      clearTimeout(timer);
      pipe.removeAllListeners();
      pipe.on('error', () => undefined);
      pipe.destroy();
      resolvePromise(loc);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    pipe.setEncoding('utf8');
    pipe.on('data', (chunk: string) => {
      text += chunk;
    });
    pipe.on('error', () => done(null));
    pipe.on('close', () => {
      try {
        const loc = JSON.parse(text) as ReadyMessage;
        done(loc.pid === child.pid ? loc : null);
      } catch {
        done(null);
      }
    });
  });
}

/** Stops a daemon this process spawned: SIGTERM (graceful close), SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Who listens on a port: an svc sandbox (its home and pid), another process (pid and command when /proc tells), or
 * unknown. */
export interface PortHolder {
  pid?: number;
  command?: string;
  /** The home of the svc sandbox that holds it. */
  home?: string;
}

/** Whether this process could listen on host:port now. */
export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const probe = createServer();
    probe.once('error', () => resolvePromise(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolvePromise(true)));
  });
}

/** Who holds `port` on the loopback, or null when it is free. */
export async function portHolder(port: number, host = '127.0.0.1'): Promise<PortHolder | null> {
  if (await portFree(port, host)) return null;
  for (const r of registeredHomes()) {
    const loc = readLocator(r.home);
    if (loc && loc.port === port && alive(loc.pid)) return { pid: loc.pid, home: r.home, command: 'svc sandbox' };
  }
  const pid = listenerPid(port);
  if (pid === null) return {};
  const command = commandOf(pid);
  const home = command?.includes('daemon/main.js') ? /--home (\S+)/.exec(command)?.[1] : undefined;
  return { pid, command, home };
}

/** "the svc sandbox of home H (pid N)", "another process (pid N: COMMAND)", or "another process". */
export function describeHolder(h: PortHolder): string {
  if (h.home) return `the svc sandbox of home ${h.home}${h.pid ? ` (pid ${h.pid})` : ''}`;
  if (h.pid)
    return (
      `another process (pid ${h.pid}` +
      `${h.command ? `: ${h.command.length > 80 ? `${h.command.slice(0, 77)}...` : h.command}` : ''})`
    );
  return 'another process';
}

/** The listening sockets' inodes for `port` in /proc/net/tcp and tcp6 (Linux; empty elsewhere). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1].endsWith(`:${hexPort}`) && f[3] === '0A') inodes.add(f[9]);
    }
  }
  return inodes;
}

/** The pid whose open files include a listening socket on `port`: best effort, only this user's processes are readable.
 * */
function listenerPid(port: number): number | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) return Number(pid);
      } catch {
        // the descriptor closed while we looked
      }
    }
  }
  return null;
}

export function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') || undefined;
  } catch {
    return undefined;
  }
}
