// No tenant can stop the clock for everyone (docs/reliability.md, "No tenant can stop the clock"), on
// the real app and a real SQLite file. The attack of issue 26: a report asked for "0001-01-01" was
// accepted, and from then on every clock advance answered 500 (after a restart too), or blocked the
// daemon's thread for 39 s ("0100-01-01"). Two fixes, both tested here: every date a caller sends is
// bounded by one validator (422 with a stable code, nothing created), and a due event that fails,
// fails alone (its savepoint rolled back, its report failed with a code, audited) while the advance
// goes on. A report still rendering when one advance also passes its seven-year expiry is stored
// ready and purged, not a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { trader } from '../helpers/trading.js';
import { createReport, downloadReport, getReport, settle } from '../helpers/reports.js';
import { HOSTILE_PERIODS, insertHostileReport } from '../helpers/hostile-reports.js';

let t: TestApp;
let inv: string;

const reportCount = () => t.deps.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM reports').get()!.n;
const reportRow = (id: string) =>
  t.deps.db
    .prepare<[string], { state: string; reason_code: string | null; purged_at: string | null; sealed: number }>(
      'SELECT state, reason_code, purged_at, pdf_sealed IS NOT NULL AS sealed FROM reports WHERE id = ?',
    )
    .get(id)!;
const audited = (action: string) =>
  t.deps.db
    .prepare<[string], { subject: string; detail: string }>(
      'SELECT subject, detail FROM audit_log WHERE action = ? ORDER BY seq',
    )
    .all(action);

beforeAll(async () => {
  t = await makeApp();
  inv = await trader(t, 50_000, { fullName: 'Hana Mostafa' });
});
afterAll(() => t.close());

describe('Every date a caller sends is bounded by one validator: 422 with a stable code, nothing created', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['year 1', { period_start: '0001-01-01', period_end: '2026-11-22' }, 'DATE_OUT_OF_RANGE'],
    ['year 100', { period_start: '0100-01-01', period_end: '2026-11-22' }, 'DATE_OUT_OF_RANGE'],
    ['1899-12-31', { period_start: '1899-12-31', period_end: '2026-11-22' }, 'DATE_OUT_OF_RANGE'],
    [
      'a period inside the window but before the month the account was opened',
      { period_start: '2026-10-31', period_end: '2026-11-22' },
      'PERIOD_BEFORE_ACCOUNT',
    ],
    ['period_end in year 9999', { period_start: '2026-11-01', period_end: '9999-12-31' }, 'DATE_OUT_OF_RANGE'],
  ];
  for (const [name, period, code] of cases) {
    it(`a report over ${name} is refused 422 ${code}`, async () => {
      const before = reportCount();
      const res = await createReport(t, { investor_id: inv, ...period });
      expect(res.status, res.text).toBe(422);
      expect(res.body.error.code).toBe(code);
      expect(reportCount()).toBe(before);
    });
  }

  it('the first day of the account opening month is accepted (the earliest statement that means anything)', async () => {
    const res = await createReport(t, { investor_id: inv, period_start: '2026-11-01', period_end: '2026-11-22' });
    expect(res.status, res.text).toBe(201);
  });

  it('GET /v1/calendar refuses a start in year 1 with DATE_OUT_OF_RANGE, and the admin and desk dates the same way', async () => {
    const cal = await t.req('GET', '/v1/calendar?start=0001-01-01&end=0001-01-31');
    expect([cal.status, cal.body.error?.code]).toEqual([422, 'DATE_OUT_OF_RANGE']);
    const ref = await t.req('GET', '/broker/v1/reference/calendar?year=0001');
    expect([ref.status, ref.body.error?.code]).toEqual([422, 'DATE_OUT_OF_RANGE']);
    const blotter = await t.req('GET', '/broker/v1/blotter?date=0001-01-01');
    expect([blotter.status, blotter.body.error?.code]).toEqual([422, 'DATE_OUT_OF_RANGE']);
    const eod = await t.req('GET', '/broker/v1/eod?date=0100-01-01');
    expect([eod.status, eod.body.error?.code]).toEqual([422, 'DATE_OUT_OF_RANGE']);
    const div = await t.req('POST', '/admin/sandbox/declare-dividend', {
      body: { symbol: 'COMI', amount_per_share_micros: 1_000_000, ex_date: '2026-12-01', pay_date: '9999-12-31' },
    });
    expect([div.status, div.body.error?.code]).toEqual([422, 'DATE_OUT_OF_RANGE']);
  });
});

describe('A due event that fails, fails alone: the advance answers 200 and every other event runs', () => {
  it('hostile reports already stored (years 1, 100, 1899, ...) fail with their code and are audited; a good report becomes ready in the same advance', async () => {
    const now = t.deps.clock.now();
    const tenantId = t.creds.tenant.tenant_id;
    const ids = HOSTILE_PERIODS.map((_, i) => `rpt_hostile000${i}`);
    HOSTILE_PERIODS.forEach(([start, end], i) => {
      insertHostileReport(t.deps.db, {
        id: ids[i],
        tenantId,
        investorId: inv,
        periodStart: start,
        periodEnd: end,
        createdMs: now,
      });
    });
    t.deps.scheduler.changed();
    const good = await createReport(t, { investor_id: inv, period_start: '2026-11-01', period_end: '2026-11-22' });
    expect(good.status).toBe(201);

    const res = await t.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 2 } });
    expect(res.status, res.text).toBe(200);
    expect((await settle(t, good.body.report_id)).state).toBe('ready');
    for (const id of ids) {
      const row = reportRow(id);
      expect(row.state, id).toBe('failed');
      expect(['DATE_OUT_OF_RANGE', 'PERIOD_BEFORE_ACCOUNT']).toContain(row.reason_code);
      const view = await getReport(t, id);
      expect(view.body).toMatchObject({ state: 'failed', reason_code: row.reason_code });
    }
    const failedAudits = audited('report.failed').map((a) => a.subject);
    for (const id of ids) expect(failedAudits).toContain(id);
    expect((await t.req('GET', '/admin/audit/verify')).body.ok).toBe(true);
    // and the clock keeps moving
    expect((await t.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 1 } })).status).toBe(200);
  });

  it('an event whose handler throws is rolled back alone, marked done, audited as scheduler.event_failed; the events around it run', async () => {
    const seen: string[] = [];
    t.deps.scheduler.on('test.boom', (p: { n: string }) => {
      t.deps.db.prepare("INSERT INTO events (due_ms, kind, payload) VALUES (0, 'test.never', '{}')").run();
      seen.push(`boom ${p.n}`);
      throw new Error(`boom ${p.n}`);
    });
    t.deps.scheduler.on('test.ok', (p: { n: string }) => void seen.push(`ok ${p.n}`));
    const at = t.deps.clock.now() + 60_000;
    t.deps.db.transaction(() => {
      t.deps.scheduler.schedule('test.ok', at, { n: '1' });
      t.deps.scheduler.schedule('test.boom', at, { n: '2' });
      t.deps.scheduler.schedule('test.ok', at, { n: '3' });
    })();
    const res = await t.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 1 } });
    expect(res.status, res.text).toBe(200);
    expect(seen).toEqual(['ok 1', 'boom 2', 'ok 3']);
    expect(t.deps.db.prepare("SELECT COUNT(*) AS n FROM events WHERE kind = 'test.never'").get()).toEqual({ n: 0 });
    expect(t.deps.db.prepare("SELECT COUNT(*) AS n FROM events WHERE kind LIKE 'test.%' AND done = 0").get()).toEqual({
      n: 0,
    });
    const failures = audited('scheduler.event_failed');
    expect(failures.at(-1)!.subject).toMatch(/^test\.boom#\d+$/);
    expect(JSON.parse(failures.at(-1)!.detail)).toMatchObject({ kind: 'test.boom', error: 'boom 2' });
    // never retried: the next advance does not see it again
    await advance(t, { minutes: 1 });
    expect(seen).toEqual(['ok 1', 'boom 2', 'ok 3']);
  });
});

describe("One advance that passes a report's ready minute and its seven-year expiry answers 200", () => {
  it('the report is ready with its size and digest, its PDF already purged (410); failed reports pass their expiry too', async () => {
    const today = t.deps.market.calendar.localDate(t.deps.clock.now());
    const created = await createReport(t, { investor_id: inv, period_start: '2026-11-01', period_end: today });
    expect(created.status, created.text).toBe(201);
    const id = created.body.report_id;
    const res = await t.req('POST', '/admin/sandbox/clock-advance', { body: { days: 7 * 366 } });
    expect(res.status, res.text).toBe(200);
    const report = await settle(t, id);
    expect(report).toMatchObject({
      state: 'ready',
      bytes: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(reportRow(id)).toMatchObject({ sealed: 0, purged_at: report.expires_at });
    expect((await downloadReport(t, id)).status).toBe(410);
    // the hostile reports of the test above failed and have expired on the way: nothing to purge, no 500
    expect(reportRow('rpt_hostile0000')).toMatchObject({ state: 'failed', purged_at: null });
    expect((await t.req('GET', '/admin/audit/verify')).body.ok).toBe(true);
  });
});

describe('A hostile report left generating by an older daemon fails at the next start, and the clock advances', () => {
  it('after a restart on the same file (its ready minute passed) the report is failed with its code and the advance answers 200', async () => {
    const dir = t.dir;
    const adminKey = t.creds.operators.admin_key;
    const now = t.deps.clock.now();
    insertHostileReport(t.deps.db, {
      id: 'rpt_hostilegen0',
      tenantId: t.creds.tenant.tenant_id,
      investorId: inv,
      periodStart: '0001-01-01',
      periodEnd: '2026-11-22',
      state: 'generating',
      createdMs: now - 180_000,
    });
    await t.close({ keepDir: true });
    t = await makeApp({ dir });
    expect(reportRow('rpt_hostilegen0')).toMatchObject({ state: 'failed', reason_code: 'DATE_OUT_OF_RANGE' });
    // the reopened app hands out no credentials (they were minted at the first start)
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/sandbox/clock-advance',
      headers: { 'x-admin-key': adminKey, 'content-type': 'application/json' },
      payload: '{"minutes":5}',
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
