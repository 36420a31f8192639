// Client statements on the real app and a real SQLite file (docs/reports.md): the 201 answer, the
// states pending -> generating -> ready on the sandbox clock with every field of GET, the download
// (409 before ready, the PDF with its headers, size and sha256, each one audited in the hash chain,
// 410 after the seven-year retention while GET still answers), Idempotency-Key, tenants kept apart,
// every bad input refused with its stable code and nothing created, and the sections' fixed order.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { onboardInvestor } from '../helpers/onboarding.js';
import { order, trader } from '../helpers/trading.js';
import { makePng } from '../helpers/png.js';
import { sealLogo } from '../../daemon/branding/sealed.js';
import {
  createReport,
  downloadReport,
  getReport,
  pdfText,
  readyReport,
  reportCount,
  settle,
  today,
  type Tenant,
} from '../helpers/reports.js';

// Sunday 2026-11-22 09:00 Cairo (the harness's start).
let t: TestApp;
let inv: string;
let other: Tenant & { tenant_id: string };
let otherInv: string;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const period = { period_start: '2026-11-01', period_end: '2026-11-22' };

async function downloadsAudited(id: string): Promise<any[]> {
  const res = await t.req('GET', `/admin/audit?limit=200&tenant_id=${t.creds.tenant.tenant_id}`);
  expect(res.status).toBe(200);
  return res.body.entries.filter((e: any) => e.action === 'report.downloaded' && e.subject === id);
}

beforeAll(async () => {
  t = await makeApp();
  inv = await trader(t, 50_000, { fullName: 'Salma Adel' });
  await advance(t, { until: 'next_open' });
  expect((await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 20 })).body.status).toBe(
    'filled',
  );
  const res = await t.req('POST', '/admin/tenants', { body: { name: 'Delta Capital' } });
  expect(res.status).toBe(201);
  other = res.body;
  otherInv = await trader(t, 1_000, { tenant: other });
});
afterAll(() => t.close());

describe('POST /v1/reports answers 201 {"report_id": "rpt_...", "state": "pending"}; the report is pending, generating at the next simulated minute, ready the minute after', () => {
  it('GET answers every field in each state; ready carries ready_at, bytes and sha256; expires_at is seven years after created_at', async () => {
    const created = await createReport(t, {
      investor_id: inv,
      ...period,
      sections: ['holdings', 'summary'],
      locale: 'ar',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ report_id: expect.stringMatching(/^rpt_/), state: 'pending' });
    const id = created.body.report_id;
    const createdAt = t.deps.nowIso();
    const pending = await getReport(t, id);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({
      report_id: id,
      investor_id: inv,
      type: 'client_statement',
      period_start: '2026-11-01',
      period_end: '2026-11-22',
      sections: ['summary', 'holdings'],
      locale: 'ar',
      state: 'pending',
      created_at: createdAt,
      ready_at: null,
      expires_at: createdAt.replace(/^2026/, '2033'),
      bytes: null,
      sha256: null,
      reason_code: null,
    });

    await advance(t, { minutes: 1 });
    expect((await getReport(t, id)).body).toEqual({ ...pending.body, state: 'generating' });

    await advance(t, { minutes: 1 });
    const ready = await settle(t, id);
    expect(ready).toEqual({
      ...pending.body,
      state: 'ready',
      ready_at: expect.any(String),
      bytes: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(Date.parse(ready.ready_at) - Date.parse(createdAt)).toBe(120_000);
    expect(ready.ready_at).toMatch(/\+02:00$/);
    expect(ready.bytes).toBeGreaterThan(1000);
  });

  it('a report is requested with every section by default and locale en', async () => {
    const created = await createReport(t, { investor_id: inv, ...period });
    expect(created.status).toBe(201);
    expect((await getReport(t, created.body.report_id)).body).toMatchObject({
      sections: ['summary', 'performance', 'holdings', 'trades'],
      locale: 'en',
    });
  });
});

describe('GET /v1/reports/{id}/download answers the PDF once ready', () => {
  it('before ready: 409 REPORT_NOT_READY, while pending and while generating, and no download is audited', async () => {
    const created = await createReport(t, { investor_id: inv, ...period });
    const id = created.body.report_id;
    for (const state of ['pending', 'generating']) {
      expect((await getReport(t, id)).body.state).toBe(state);
      const res = await downloadReport(t, id);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('REPORT_NOT_READY');
      await advance(t, { minutes: 1 });
    }
    expect(await downloadsAudited(id)).toEqual([]);
  });

  it("ready: Content-Type application/pdf, Content-Disposition attachment with the statement filename, and bytes whose size and SHA-256 are the report's", async () => {
    const report = await readyReport(t, { investor_id: inv, ...period, locale: 'en' });
    const res = await downloadReport(t, report.report_id);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="statement-${inv}-2026-11-01-2026-11-22-en.pdf"`,
    );
    expect(res.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(res.bytes.length).toBe(report.bytes);
    expect(sha(res.bytes)).toBe(report.sha256);
    // the same bytes on every download
    expect(sha((await downloadReport(t, report.report_id)).bytes)).toBe(report.sha256);
  });

  it('every successful download appends report.downloaded (with the sha256 and size) to the audit log, and the chain verifies', async () => {
    const report = await readyReport(t, { investor_id: inv, ...period, sections: ['summary'] });
    expect(await downloadsAudited(report.report_id)).toEqual([]);
    for (const n of [1, 2, 3]) {
      expect((await downloadReport(t, report.report_id)).status).toBe(200);
      const entries = await downloadsAudited(report.report_id);
      expect(entries).toHaveLength(n);
      expect(entries[0]).toMatchObject({
        actor: `tenant:${t.creds.tenant.tenant_id}`,
        tenant_id: t.creds.tenant.tenant_id,
      });
      expect(JSON.parse(entries[0].detail)).toEqual({ sha256: report.sha256, bytes: report.bytes });
    }
    const verify = await t.req('GET', '/admin/audit/verify');
    expect(verify.body).toMatchObject({ ok: true, first_bad_seq: null });
  });

  it('an unknown id is 404 NOT_FOUND on GET and on download', async () => {
    for (const res of [await getReport(t, 'rpt_nope000000'), await downloadReport(t, 'rpt_nope000000')]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('The sections always render in the order of the table, whatever order they were listed in; the disclosures are always last', () => {
  it('["trades", "summary"] is stored as ["summary", "trades"] and the PDF shows Summary, then Trades, then Disclosures, and no other section', async () => {
    const report = await readyReport(t, { investor_id: inv, ...period, sections: ['trades', 'summary'] });
    expect(report.sections).toEqual(['summary', 'trades']);
    const text = pdfText((await downloadReport(t, report.report_id)).bytes);
    const at = (word: string) => text.search(new RegExp(`^\\s*${word}\\s*$`, 'm'));
    expect(at('Summary')).toBeGreaterThan(0);
    expect(at('Trades')).toBeGreaterThan(at('Summary'));
    expect(at('Disclosures')).toBeGreaterThan(at('Trades'));
    expect(text).not.toMatch(/Performance|Time-weighted return|Holdings at period end/);
  });
});

describe('POST /v1/reports accepts and honours an Idempotency-Key, and never requires one (the spec does not list it)', () => {
  it('without one: 201, a report is created (a client written from the spec sends none)', async () => {
    const before = reportCount(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/reports',
      headers: { authorization: `Bearer ${t.creds.tenant.api_key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ investor_id: inv, type: 'client_statement', ...period }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(JSON.parse(res.body).report_id).toMatch(/^rpt_/);
    expect(reportCount(t)).toBe(before + 1);
  });

  it('an invalid key is still 400 IDEMPOTENCY_KEY_INVALID and nothing is created', async () => {
    const before = reportCount(t);
    const res = await createReport(t, { investor_id: inv, ...period }, { idempotencyKey: 'x'.repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(reportCount(t)).toBe(before);
  });

  it('a retry with the same key answers the same report id and creates no second report; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const before = reportCount(t);
    const body = { investor_id: inv, ...period, locale: 'ar' };
    const first = await createReport(t, body, { idempotencyKey: 'statement-salma-nov' });
    const again = await createReport(t, body, { idempotencyKey: 'statement-salma-nov' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(reportCount(t)).toBe(before + 1);
    const reused = await createReport(t, { ...body, locale: 'en' }, { idempotencyKey: 'statement-salma-nov' });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(reportCount(t)).toBe(before + 1);
  });
});

describe("Another tenant's report, or an unknown id: 404 NOT_FOUND", () => {
  it('a report of one tenant is 404 to the other on GET and on download, and each tenant reads its own', async () => {
    const mine = await readyReport(t, { investor_id: inv, ...period, sections: ['summary'] });
    const theirs = await readyReport(t, { investor_id: otherInv, ...period, sections: ['summary'] }, other);
    for (const [id, tenant] of [
      [mine.report_id, other],
      [theirs.report_id, t.creds.tenant],
    ] as const) {
      for (const res of [await getReport(t, id, tenant), await downloadReport(t, id, tenant)]) {
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    }
    expect((await downloadReport(t, theirs.report_id, other)).status).toBe(200);
    expect((await getReport(t, mine.report_id)).body.state).toBe('ready');
    expect(await downloadsAudited(mine.report_id)).toEqual([]);
  });
});

describe('The rules are checked in order and before anything is written: a refused request creates nothing', () => {
  const cases: [string, () => Record<string, unknown>, number, string][] = [
    ['an unknown investor', () => ({ investor_id: 'inv_unknown0000' }), 404, 'NOT_FOUND'],
    ["another tenant's investor", () => ({ investor_id: otherInv }), 404, 'NOT_FOUND'],
    ['period reversed', () => ({ period_start: '2026-11-20', period_end: '2026-11-10' }), 422, 'INVALID_PERIOD'],
    ['period_end in the future', () => ({ period_end: '2026-12-31' }), 422, 'INVALID_PERIOD'],
    ['period_end tomorrow', () => ({ period_end: tomorrow() }), 422, 'INVALID_PERIOD'],
    ['a non-date 2026-02-30', () => ({ period_start: '2026-02-30' }), 422, 'INVALID_DATE'],
    ['a date not in YYYY-MM-DD', () => ({ period_end: '22/11/2026' }), 422, 'INVALID_DATE'],
    ['an unknown type', () => ({ type: 'tax_certificate' }), 422, 'VALIDATION_FAILED'],
    ['an unknown section', () => ({ sections: ['summary', 'dividends'] }), 422, 'VALIDATION_FAILED'],
    ['a repeated section', () => ({ sections: ['summary', 'trades', 'summary'] }), 422, 'VALIDATION_FAILED'],
    ['an empty list of sections', () => ({ sections: [] }), 422, 'VALIDATION_FAILED'],
    ["locale 'fr'", () => ({ locale: 'fr' }), 422, 'UNSUPPORTED_LOCALE'],
    ['an unknown field', () => ({ currency: 'USD' }), 422, 'VALIDATION_FAILED'],
  ];
  const tomorrow = () => {
    const d = new Date(`${today(t)}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    return d.toISOString().slice(0, 10);
  };

  for (const [what, over, status, code] of cases) {
    it(`${what}: ${status} ${code}, no report row and no scheduled event`, async () => {
      const rows = reportCount(t);
      const events = (t.deps.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;
      const res = await createReport(t, { investor_id: inv, ...period, ...over() });
      expect(res.status, res.text).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(reportCount(t)).toBe(rows);
      expect((t.deps.db.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n).toBe(events);
    });
  }

  it('an application id that was never approved is not an investor: 404 NOT_FOUND', async () => {
    const rows = reportCount(t);
    const { applicationId } = await onboardInvestor(t, { suitability: false });
    const res = await createReport(t, { investor_id: applicationId, ...period });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(reportCount(t)).toBe(rows);
  });

  it('a period of one day, today, is accepted', async () => {
    const res = await createReport(t, {
      investor_id: inv,
      period_start: today(t),
      period_end: today(t),
      sections: ['summary'],
    });
    expect(res.status).toBe(201);
  });
});

describe('A report expires seven years after it was created: its PDF is purged, the record stays, and its download answers 410', () => {
  it('a minute before expires_at it downloads; at expires_at it is 410 REPORT_PURGED, GET still answers the record, and the sealed PDF is gone from the database', async () => {
    const app = await makeApp();
    try {
      const investor = await trader(app, 10_000);
      const created = await createReport(app, { investor_id: investor, ...period, sections: ['summary'] });
      await advance(app, { minutes: 2 });
      const report = await settle(app, created.body.report_id);
      expect(report.state).toBe('ready');
      const expiresMs = Date.parse(report.expires_at);
      expect(expiresMs - Date.parse(report.created_at)).toBeGreaterThan(7 * 365 * 86_400_000);
      // the clock control takes up to 3,660 days in one step: seven years is one request
      const started = Date.now();
      await advance(app, { until: new Date(expiresMs - 60_000).toISOString() });
      expect(Date.now() - started).toBeLessThan(20_000);
      const before = await downloadReport(app, report.report_id);
      expect(before.status).toBe(200);
      expect(sha(before.bytes)).toBe(report.sha256);

      await advance(app, { minutes: 1 });
      const gone = await downloadReport(app, report.report_id);
      expect(gone.status).toBe(410);
      expect(gone.body.error.code).toBe('REPORT_PURGED');
      const after = await getReport(app, report.report_id);
      expect(after.status).toBe(200);
      expect(after.body).toEqual(report);
      const row = app.deps.db
        .prepare('SELECT pdf_sealed, purged_at FROM reports WHERE id = ?')
        .get(report.report_id) as { pdf_sealed: Buffer | null; purged_at: string | null };
      expect(row.pdf_sealed).toBeNull();
      expect(row.purged_at).toBe(report.expires_at);
      await advance(app, { days: 30 });
      expect((await downloadReport(app, report.report_id)).status).toBe(410);
    } finally {
      await app.close();
    }
  });
});

describe('failed: instead of ready, if the renderer refuses the document (reason_code RENDER_FAILED)', () => {
  it('a stored logo that no decoder can read fails the report at its ready minute; GET answers failed with RENDER_FAILED and no bytes, download 409', async () => {
    const app = await makeApp();
    try {
      // Uploads are refused unless they decode, so the broken logo is put straight into the row (as a
      // sandbox from before that check, or a damaged database, would hold it).
      expect(
        (await app.req('PUT', '/v1/branding/logo', { raw: makePng(4, 4, () => [1, 2, 3]), contentType: 'image/png' }))
          .status,
      ).toBe(200);
      const tenant = app.creds.tenant.tenant_id;
      const broken = Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.alloc(64, 7),
      ]);
      app.deps.db
        .prepare('UPDATE brandings SET logo_sealed = ? WHERE tenant_id = ?')
        .run(sealLogo(app.deps.keys.tenantDek(tenant), tenant, broken), tenant);
      const investor = await trader(app, 1_000);
      const created = await createReport(app, { investor_id: investor, ...period, sections: ['summary'] });
      await advance(app, { minutes: 2 });
      const report = await settle(app, created.body.report_id);
      expect(report).toMatchObject({
        state: 'failed',
        reason_code: 'RENDER_FAILED',
        ready_at: null,
        bytes: null,
        sha256: null,
      });
      const res = await downloadReport(app, created.body.report_id);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('REPORT_NOT_READY');
      expect(res.body.error.message).toContain('failed (RENDER_FAILED) and will not become ready');
    } finally {
      await app.close();
    }
  });
});
