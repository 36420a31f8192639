// Spawning a daemon process in a home and waiting until it answers /healthz: shared by
// `svc sandbox start` (detached or in the foreground) and the scenario runner (an isolated daemon per
// scenario file, in a fresh temporary home). The wait itself is cli/healthz.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator } from './context.js';
import { healthy, waitForHealthy } from './healthz.js';

export { healthy };

export const READY_TIMEOUT_MS = 20_000;

export function daemonEntry(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'dist', 'daemon', 'main.js');
    if (existsSync(candidate)) return candidate;
    const sibling = join(dir, 'daemon', 'main.js');
    if (existsSync(sibling) && dir.endsWith('dist')) return sibling;
    dir = dirname(dir);
  }
  throw new Error('dist/daemon/main.js not found; run npm run build');
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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
  /** Detach from this process group (a daemon that outlives the CLI). */
  detached: boolean;
}

export interface SpawnedDaemon {
  child: ChildProcess;
  locator: Locator;
  logFile: string;
}

/** The daemon did not become healthy; the message carries the exit code and the tail of its log. */
export class DaemonStartFailed extends Error {}

/** Spawns dist/daemon/main.js for `home` and resolves once its locator names it and /healthz answers. */
export async function spawnDaemon(opts: SpawnOptions): Promise<SpawnedDaemon> {
  const args = [daemonEntry(), '--home', opts.home, '--port', String(opts.port), '--seed', String(opts.seed), '--clock', opts.clock, '--speed', String(opts.speed ?? 1), '--ai', opts.ai ?? 'none', '--log-level', opts.logLevel ?? 'info'];
  if (opts.start) args.push('--start', opts.start);
  const logFile = join(opts.home, 'daemon.out');
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, {
    detached: opts.detached,
    stdio: opts.foreground ? ['ignore', 'inherit', 'inherit'] : ['ignore', out, out],
  });
  closeSync(out);
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? 1;
  });
  const ready = await waitForHealthy({ home: opts.home, child, timeoutMs: READY_TIMEOUT_MS });
  if (ready.ok) return { child, locator: ready.locator, logFile };
  const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
  if (exited === null) child.kill('SIGTERM');
  throw new DaemonStartFailed(`the daemon did not become healthy${exited !== null ? ` (exit code ${exited})` : ''}.\n${tail}`);
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
