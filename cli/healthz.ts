// Waiting for a freshly spawned daemon: it writes its locator (daemon.json) once it listens, and is
// ready when /healthz answers 200. One loop for `svc sandbox start`, the scenario runner, the crash
// tests and the bench, so that all of them wait the same way.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { readLocator, type Locator } from './context.js';

/** One probe of GET /healthz (2 s to answer); false on any error or a status other than 200. */
export async function healthy(baseUrl: string): Promise<boolean> {
  try {
    const res = await request(baseUrl + '/healthz', { headersTimeout: 2000, bodyTimeout: 2000 });
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

export interface WaitOptions {
  /** The daemon's home: its locator is read from there. */
  home: string;
  /** The spawned daemon: the locator must name its pid (a stale one of an earlier daemon does not count). */
  child: ChildProcess;
  timeoutMs: number;
  /** Pause between probes. */
  intervalMs?: number;
}

/** Why the wait ended without a healthy daemon: the child exited, or the deadline passed. */
export type WaitResult = { ok: true; locator: Locator } | { ok: false; reason: 'exited' | 'timeout' };

function gone(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Polls until the locator of `home` names `child` and its /healthz answers 200, the child exits, or
 * `timeoutMs` passes. It never kills the child: what to do with one that did not become healthy (and
 * what to tell the user) is the caller's.
 */
export async function waitForHealthy(opts: WaitOptions): Promise<WaitResult> {
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline && !gone(opts.child)) {
    const l = readLocator(opts.home);
    if (l && l.pid === opts.child.pid && (await healthy(l.base_url))) return { ok: true, locator: l };
    await sleep(opts.intervalMs ?? 25);
  }
  return { ok: false, reason: gone(opts.child) ? 'exited' : 'timeout' };
}
