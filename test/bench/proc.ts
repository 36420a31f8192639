// Child processes of the bench: every server it starts is tracked here and killed when the bench ends,
// however it ends (normal exit, an exception, Ctrl-C, the global watchdog). Temp homes are removed too.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pids = new Set<number>();
const dirs = new Set<string>();
const homes = new Set<string>();

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    /* already gone */
  }
}

/** Remembers a pid the bench is responsible for (e.g. a detached daemon started by `svc sandbox start`). */
export function trackPid(pid: number): void {
  pids.add(pid);
}

export function untrackPid(pid: number): void {
  pids.delete(pid);
}

/** A fresh temp directory, removed at exit. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `svc-bench-${prefix}-`));
  dirs.add(dir);
  return dir;
}

/** A fresh sandbox home; at exit any daemon still named by its daemon.json is killed and the home removed. */
export function tempHome(prefix: string): string {
  const dir = tempDir(prefix);
  homes.add(dir);
  return dir;
}

export function spawnTracked(command: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], ...opts });
  if (child.pid !== undefined) {
    pids.add(child.pid);
    child.once('exit', () => pids.delete(child.pid!));
  }
  return child;
}

/** Sends SIGTERM, waits up to graceMs for the exit, then SIGKILL. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  if ((await Promise.race([exited, timer])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Synchronous last-resort cleanup: safe inside process.on('exit'). */
export function cleanupSync(): void {
  for (const home of homes) {
    try {
      const loc = JSON.parse(readFileSync(join(home, 'daemon.json'), 'utf8')) as { pid?: number };
      if (typeof loc.pid === 'number') killPid(loc.pid, 'SIGKILL');
    } catch {
      /* no locator: nothing running there */
    }
  }
  for (const pid of pids) killPid(pid, 'SIGKILL');
  pids.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
  homes.clear();
}

let installed = false;
/** Installs the exit hooks and a watchdog that ends a bench run that exceeds totalMs. */
export function installCleanup(totalMs: number): void {
  if (installed) return;
  installed = true;
  process.on('exit', cleanupSync);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      process.stderr.write(`\nbench: ${sig}, stopping children\n`);
      cleanupSync();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (err) => {
    process.stderr.write(`bench: uncaught ${err?.stack ?? err}\n`);
    cleanupSync();
    process.exit(1);
  });
  setTimeout(() => {
    process.stderr.write(`bench: watchdog: the run exceeded ${Math.round(totalMs / 1000)} s, aborting\n`);
    cleanupSync();
    process.exit(1);
  }, totalMs).unref();
}

/** Rejects when p has not settled within ms. */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves with the first stdout line of child that parses as JSON (rejects if it exits first). */
export function firstJsonLine<T>(child: ChildProcess): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let buf = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    const onData = (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        try {
          const v = JSON.parse(line) as T;
          child.stdout?.off('data', onData);
          resolve(v);
          return;
        } catch {
          /* not the ready line */
        }
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code, sig) =>
      reject(new Error(`process exited (${code ?? sig}) before it was ready: ${err.trim()}`)),
    );
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs a command to completion with a time limit; resolves with its exit code, output and wall time. */
export function runCommand(
  command: string,
  args: string[],
  opts: SpawnOptions & { timeoutMs: number },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawnTracked(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} timed out after ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    // The wall time ends at 'exit'; the output is complete at 'close' (bounded, in case a detached
    // grandchild were to hold an inherited pipe open).
    let ms = 0;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ code: exitCode, signal: exitSignal, stdout, stderr, ms });
    };
    child.once('exit', (code, signal) => {
      ms = Number(process.hrtime.bigint() - t0) / 1e6;
      exitCode = code;
      exitSignal = signal;
      setTimeout(finish, 1000).unref();
    });
    child.once('close', finish);
  });
}
