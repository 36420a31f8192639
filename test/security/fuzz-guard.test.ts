// The fuzzer's state guard (test/helpers/fuzz.ts, StateGuard) digests again, after a request, only the
// tables written since their digest was taken (counted by TEMP triggers on the app's own connection).
// These tests hold that narrower look to the full one: whatever real requests, a sandbox reset or a
// write the app did not make change, the written tables are exactly the tables whose content differs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { StateGuard } from '../helpers/fuzz.js';

let t: TestApp;
let guard: StateGuard;
beforeAll(async () => {
  t = await makeApp();
  guard = new StateGuard(t.deps.db);
});
afterAll(() => t?.close());

describe("the fuzzer's state guard", () => {
  it('finds every table a request changed by looking only at the tables written since the baseline', async () => {
    const steps: Array<[string, () => Promise<{ status: number }>]> = [
      ['a new tenant', () => t.req('POST', '/admin/tenants', { body: { name: 'guard-a' } })],
      ['an invalid application', () => t.req('POST', '/v1/kyc/applications', { body: { __probe__: 1 } })],
      ['a clock advance', () => advance(t, { minutes: 5 })],
      ['a sandbox reset', () => t.req('POST', '/admin/sandbox/reset', { body: { seed: 7 } })],
    ];
    const changed: Record<string, string[]> = {};
    for (const [name, step] of steps) {
      await step();
      const full = guard.diff();
      changed[name] = full;
      expect(guard.diffTouched(), name).toEqual(full);
      guard.rebaselineTouched();
      expect(guard.diff(), name).toEqual([]);
      expect(guard.touched(), name).toEqual([]);
    }
    // the tenant, its keys and the audit entry; nothing for a request refused by validation
    expect(changed['a new tenant']).toEqual(expect.arrayContaining(['tenants', 'api_keys', 'audit_log']));
    expect(changed['an invalid application']).toEqual([]);
    expect(changed['a clock advance']).toContain('sandbox_state');
    expect(changed['a sandbox reset']).toContain('sandbox_state');
  });

  it('sees a row written behind the app, and a row written back to what it was is no change', () => {
    const db = t.deps.db;
    db.prepare("UPDATE tenants SET name = name || '!' WHERE rowid = (SELECT MIN(rowid) FROM tenants)").run();
    expect(guard.touched()).toEqual(['tenants']);
    expect(guard.diffTouched()).toEqual(['tenants']);
    db.prepare(
      'UPDATE tenants SET name = substr(name, 1, length(name) - 1) WHERE rowid = (SELECT MIN(rowid) FROM tenants)',
    ).run();
    expect(guard.diffTouched()).toEqual([]);
    guard.rebaselineTouched();
    expect(guard.touched()).toEqual([]);
  });

  it('leaves no trace in the database file: the triggers are in the connection, not in svc.db', () => {
    const main = t.deps.db.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE 'svc_guard_%'").pluck().get();
    const temp = t.deps.db
      .prepare("SELECT count(*) FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE 'svc_guard_%'")
      .pluck()
      .get();
    expect(main).toBe(0);
    expect(temp).toBe(guard.tableNames().length * 3);
  });
});
