// Crash safety (issue 7, item 1), fast variant: a real daemon serves signed orders, cancels, transfers
// and fund orders (when the route exists) from several concurrent clients plus a clock client, and is
// SIGKILLed at a random moment, three times, restarting on the same home each time. The harness
// (test/helpers/crash-workload.ts) checks after every kill that every acknowledged request is stored
// exactly once with the answer the client got, that no unacknowledged one is half-applied, that the
// ledger invariants hold and the audit chain verifies, and that retries with the same key and body
// replay (acknowledged, committed) or apply once (absent). test/soak/crash.soak.test.ts runs >= 20 cycles.
//
// SVC_CRASH_SEED=<seed> replays a run's choices (requests, bodies, kill moments); the moment a kill
// lands relative to the daemon's work is wall-clock timing and cannot be replayed exactly.
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Api,
  call,
  deposit,
  onboard,
  removeHome,
  startDaemon,
  stopDaemon,
  storeViolations,
  tempHome,
  type DaemonProc,
} from '../helpers/crash-daemon.js';
import { crashSeed, runCrashCycles } from '../helpers/crash-workload.js';

describe('crash safety: SIGKILL at random moments under load', () => {
  it('3 kill/restart cycles: acknowledged requests present once, nothing half-applied, invariants and audit chain hold, retries replay or apply once', async () => {
    const seed = crashSeed();
    console.log(`crash: seed ${seed} (SVC_CRASH_SEED=${seed} replays the choices)`);
    const r = await runCrashCycles({ cycles: 3, seed, killWindowMs: [250, 1200], log: (m) => console.log(m) });
    console.log(
      `crash: ${r.cycles.length} cycles, ${r.totalSent} requests (${r.totalAcked} acknowledged, ` +
        `${r.totalCommittedUnacked} unacknowledged but committed, ` +
        `${r.totalAbsentUnacked} unacknowledged and absent; ${r.totalLostReplies} replies dropped by the ` +
        `client; of those cut by the kill ${r.totalKillCutCommitted} committed), ${r.finalReplays} final ` +
        `replays (${r.finalExpired} older than the idempotency window left out), ${(r.ms / 1000).toFixed(1)} s`,
    );
    expect(r.cycles).toHaveLength(3);
    // the load was real: every cycle acknowledged requests before its kill
    for (const c of r.cycles) expect(c.acked).toBeGreaterThan(0);
    expect(r.totalAcked).toBeGreaterThan(50);
  }, 120_000);
});

// The checks must be able to fail: on copies of a real store, each kind of half-applied request is seen.
describe('the crash checks see a half-applied request', () => {
  let home: string;
  let d: DaemonProc;
  let tenantId: string;
  let orderId: string;
  let orderKey: string;

  beforeAll(async () => {
    home = tempHome('crash-check');
    d = await startDaemon(home);
    tenantId = d.creds.tenant_id;
    const api = Api.of(d);
    try {
      const inv = await onboard(api);
      await deposit(api, inv, 10_000);
      await api.advance({ minutes: 3 });
      await api.advance({ until: 'next_open' });
      // qty 13 fills 7 now and rests for the other 6, so the order has fills and a hold
      const c = call('POST', '/v1/orders', { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 13 });
      const o = await api.expect(c, 201);
      expect(o.status).toBe('partially_filled');
      orderId = o.order_id;
      orderKey = c.key!;
    } finally {
      await api.close();
    }
    await stopDaemon(d);
  });
  afterAll(() => removeHome(home));

  /** The violations found in an in-memory copy of the store after sql. */
  function mutated(sql: string): string[] {
    const dir = mkdtempSync(join(home, 'copy-'));
    for (const f of ['svc.db', 'svc.db-wal']) if (existsSync(join(home, f))) copyFileSync(join(home, f), join(dir, f));
    const db = new Database(join(dir, 'svc.db'));
    try {
      expect(storeViolations(db, tenantId)).toEqual([]);
      db.exec(sql);
      return storeViolations(db, tenantId);
    } finally {
      db.close();
    }
  }

  it('an order without its idempotency record', () => {
    const v = mutated(`DELETE FROM idempotency WHERE key = '${orderKey}'`);
    expect(v.join('\n')).toContain('orders row without exactly one stored 201');
    expect(v.join('\n')).toContain('audit entry of a keyed request without its stored success');
  });

  it('an order without its audit entry', () => {
    const v = mutated(
      `DROP TRIGGER audit_log_no_delete; DELETE FROM audit_log WHERE json_extract(detail, '$.idempotency_key') ` +
        `= '${orderKey}'`,
    );
    expect(v.join('\n')).toContain('stored success with 0 audit entries');
  });

  it('a fill without its activity', () => {
    const v = mutated(
      `DROP TRIGGER activities_no_delete; DELETE FROM activities WHERE ref_id = '${orderId}' AND activity_type =
        'FILL'`,
    );
    expect(v.join('\n')).toContain('fills without exactly one FILL activity each');
  });

  it('postings, holds and a stored answer of an order that is not there', () => {
    const v = mutated(
      `PRAGMA foreign_keys = OFF; DROP TRIGGER orders_no_delete; DELETE FROM orders WHERE id = '${orderId}'`,
    );
    const all = v.join('\n');
    expect(all).toContain('posting of a missing orders row');
    expect(all).toContain('hold of a missing orders row');
    expect(all).toContain('activity of a missing orders row');
    expect(all).toContain('naming a missing orders row');
  });

  it('a balance moved without its posting', () => {
    const v = mutated(
      `DROP TRIGGER IF EXISTS ledger_accounts_update; UPDATE ledger_accounts SET balance = balance - 1 WHERE ` +
        `bucket = 'settled' AND asset = 'cash:EGP'`,
    );
    expect(v.join('\n')).toContain('ledger: ');
  });
});
