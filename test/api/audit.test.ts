import { afterEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
afterEach(() => t?.close());

async function withEntries(): Promise<TestApp> {
  const app = await makeApp();
  await advance(app, { minutes: 5 });
  await app.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: true } });
  await app.req('POST', '/admin/tenants', { body: { name: 'acme' } });
  await advance(app, { hours: 1 });
  return app;
}

describe('GET /admin/audit: the hash-chained audit log', () => {
  it('every state-changing request appends an entry, newest first, with actor and action', async () => {
    t = await withEntries();
    const res = await t.req('GET', '/admin/audit');
    expect(res.status).toBe(200);
    const entries = res.body.entries;
    expect(entries.map((e: any) => e.action)).toEqual([
      'POST /admin/sandbox/clock-advance',
      'POST /admin/tenants',
      'POST /admin/sandbox/halt',
      'POST /admin/sandbox/clock-advance',
      'sandbox.bootstrap',
    ]);
    expect(entries[1].actor).toBe('operator:admin');
    for (let i = 0; i < entries.length - 1; i++) expect(entries[i].prev_hash).toBe(entries[i + 1].hash);
  });

  it('a failed request appends nothing', async () => {
    t = await makeApp();
    const before = (await t.req('GET', '/admin/audit')).body.entries.length;
    await t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'NOPE', halted: true } });
    expect((await t.req('GET', '/admin/audit')).body.entries.length).toBe(before);
  });

  it('the log is append-only in the database itself', async () => {
    t = await withEntries();
    expect(() => t.deps.db.prepare("UPDATE audit_log SET actor = 'x' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => t.deps.db.prepare('DELETE FROM audit_log WHERE seq = 1').run()).toThrow(/append-only/);
  });
});

describe('GET /admin/audit/verify detects any edited or deleted row', () => {
  function bypassTriggers(app: TestApp) {
    app.deps.db.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;');
  }

  it('an intact chain verifies', async () => {
    t = await withEntries();
    const res = await t.req('GET', '/admin/audit/verify');
    expect(res.body).toMatchObject({ ok: true, count: 5, first_bad_seq: null });
  });

  it('an edited row is detected at that row', async () => {
    t = await withEntries();
    bypassTriggers(t);
    t.deps.db.prepare('UPDATE audit_log SET detail = \'{"status":999}\' WHERE seq = 3').run();
    const res = await t.req('GET', '/admin/audit/verify');
    expect(res.body).toMatchObject({ ok: false, first_bad_seq: 3 });
  });

  it('an edit that also recomputes the row hash breaks the next link', async () => {
    t = await withEntries();
    bypassTriggers(t);
    t.deps.db.prepare("UPDATE audit_log SET hash = 'f' || substr(hash, 2) WHERE seq = 2").run();
    const res = await t.req('GET', '/admin/audit/verify');
    expect(res.body.ok).toBe(false);
    expect(res.body.first_bad_seq).toBe(2);
  });

  it('a deleted middle row is detected', async () => {
    t = await withEntries();
    bypassTriggers(t);
    t.deps.db.prepare('DELETE FROM audit_log WHERE seq = 2').run();
    const res = await t.req('GET', '/admin/audit/verify');
    expect(res.body).toMatchObject({ ok: false, first_bad_seq: 2 });
  });

  it('a deleted last row is detected against the recorded head', async () => {
    t = await withEntries();
    bypassTriggers(t);
    t.deps.db.prepare('DELETE FROM audit_log WHERE seq = (SELECT MAX(seq) FROM audit_log)').run();
    const res = await t.req('GET', '/admin/audit/verify');
    expect(res.body.ok).toBe(false);
    expect(res.body.reason).toMatch(/head/);
  });

  it('requests committed together in one batch leave the signed head naming the last entry, refusals and all', async () => {
    t = await makeApp();
    await advance(t, { minutes: 5 });
    const seal = () =>
      t.deps.db.prepare('SELECT count, head FROM audit_seal WHERE id = 1').get() as { count: number; head: string };
    const before = seal().count;
    // sent together, they share one group-commit batch: the seal is written once, at its COMMIT
    const answers = await Promise.all([
      t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: true } }),
      t.req('POST', '/admin/tenants', { body: { name: 'acme' } }),
      t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'NOPE', halted: true } }),
      t.req('POST', '/admin/tenants', { body: { name: 'zeta' } }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 201, 404, 201]);
    const last = t.deps.db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as {
      seq: number;
      hash: string;
    };
    expect(last.seq).toBe(before + 3);
    expect(seal()).toEqual({ count: last.seq, head: last.hash });
    expect((await t.req('GET', '/admin/audit/verify')).body).toMatchObject({ ok: true, count: last.seq });
  });

  it('reading the audit log needs the audit:read grant; tenants cannot', async () => {
    t = await makeApp();
    expect((await t.req('GET', '/admin/audit', { as: 'security' })).status).toBe(200);
    expect(
      (
        await t.req('GET', '/admin/audit', {
          as: 'none',
          headers: { authorization: `Bearer ${t.creds.tenant.api_key}` },
        })
      ).status,
    ).toBe(401);
  });
});
