// A warm start (docs/architecture.md, "A start spawns the daemon first"). bin/svc calls warmDaemon() for a
// command line that may be `svc sandbox start`, before it loads the rest of the CLI: the daemon restores its heap
// on the other core while this process loads its commands and decides. spawnDaemon (cli/daemon-process.ts) then
// takes the warm daemon and sends it its flags; anything else leaves it, and it exits when this process does (its
// descriptor closes) without having touched a home. The orders are daemon/contract/warm-start.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { WARM_FD_FLAG } from '../daemon/contract/warm-start.js';
import { daemonEntry, daemonEnv, daemonSnapshot } from './daemon-entry.js';

export interface WarmDaemon {
  child: ChildProcess;
  /** Its descriptor 3: the orders go out on it, the ready line comes back. */
  pipe: Socket;
}

const KEY = Symbol.for('svc.warmDaemon');
type Holder = Record<symbol, WarmDaemon | undefined>;

/** Spawns a daemon that waits for its orders (SVC_DAEMON_WARM=off: none); this process may exit without it. */
export function warmDaemon(): void {
  if (process.env.SVC_DAEMON_WARM === 'off') return;
  const entry = daemonEntry();
  const blob = daemonSnapshot(entry);
  const child = spawn(process.execPath, [...(blob ? ['--snapshot-blob', blob] : []), entry, WARM_FD_FLAG, '3'], {
    env: daemonEnv(process.env),
    detached: true,
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  // a spawn that fails (no process) is only a daemon that will be spawned cold
  child.on('error', () => undefined);
  const pipe = child.stdio[3] as Socket | null;
  if (!pipe || child.pid === undefined) return;
  pipe.on('error', () => undefined);
  child.unref();
  pipe.unref();
  (globalThis as unknown as Holder)[KEY] = { child, pipe };
}

/** The warm daemon, once: the caller sends it orders or lets it go (`releaseWarmDaemon`). */
export function takeWarmDaemon(): WarmDaemon | null {
  const holder = globalThis as unknown as Holder;
  const warm = holder[KEY];
  delete holder[KEY];
  return warm && warm.child.exitCode === null && warm.child.signalCode === null ? warm : null;
}

/** Lets a warm daemon go now: its descriptor closes and it exits. */
export function releaseWarmDaemon(warm: WarmDaemon | null): void {
  warm?.pipe.destroy();
}
