// Waiting for a freshly spawned daemon: it writes its locator (daemon.json) once it listens, and is
// ready when /healthz answers 200. One loop for `svc sandbox start`, the scenario runner, the crash
// tests and the bench, so that all of them wait the same way. `probeHealth` is also how the CLI learns
// which sandbox answers at an address (its sandbox id) before it sends anything there.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Health } from '../daemon/contract/schemas/health.js';
import { DATE_TIME } from '../daemon/contract/date-shapes.js';
import { readLocator, type Locator } from './context.js';

/**
 * The body as a health answer (daemon/contract/schemas/health.ts), or null. Checked by hand, not by the
 * schema: zod is a fifth of the CLI's start, and this check runs before nearly every command.
 */
export function healthOf(body: unknown): Health | null {
  if (body === null || typeof body !== 'object') return null;
  const b = { sandbox_id: null, ...body } as Record<string, unknown>;
  const { status, version, sim_time: simTime, sandbox_id: id } = b;
  if (status !== 'ok' || typeof version !== 'string' || typeof simTime !== 'string') return null;
  if (!DATE_TIME.test(simTime)) return null;
  if (id !== null && typeof id !== 'string') return null;
  return { status, version, sim_time: simTime, sandbox_id: id };
}

/**
 * One probe of GET /healthz (2 s to answer): the answer when it is a daemon's 200, else null (nothing
 * answers, another status, or a body that is not a health answer). An older daemon's answer has no
 * sandbox id: it reads as null.
 */
export async function probeHealth(baseUrl: string): Promise<Health | null> {
  try {
    // Node's own fetch: a probe before nearly every command, where loading undici would cost more than it
    const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) });
    if (res.status !== 200) {
      await res.body?.cancel();
      return null;
    }
    return healthOf(await res.json());
  } catch {
    return null;
  }
}

/** Whether a daemon answers GET /healthz at `baseUrl` (2 s to answer). */
export async function healthy(baseUrl: string): Promise<boolean> {
  return (await probeHealth(baseUrl)) !== null;
}

/** Whether `loc`'s daemon answers at its address as the sandbox the locator names. */
export async function answersAs(loc: Locator): Promise<boolean> {
  const h = await probeHealth(loc.base_url);
  return h !== null && (loc.sandbox_id === undefined || h.sandbox_id === loc.sandbox_id);
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
    if (l && l.pid === opts.child.pid && (await answersAs(l))) return { ok: true, locator: l };
    await sleep(opts.intervalMs ?? 25);
  }
  return { ok: false, reason: gone(opts.child) ? 'exited' : 'timeout' };
}
