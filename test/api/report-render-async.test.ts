// Statements render off the daemon's event loop (docs/reports.md, "Rendering and the event loop"): while
// a large statement renders in the worker thread, other requests are answered; a frozen clock's advance
// answers with its reports already ready; the same requests give the same PDF; a dead worker fails its
// renders and the next render starts a new one.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { advance, answerCheck, DEFAULT_START, makeApp, type TestApp } from '../helpers/app.js';
import { buildApp } from '../../daemon/app.js';
import { createDeps } from '../../daemon/deps.js';
import { order, trader } from '../helpers/trading.js';
import { createRenderQueue, RenderFailed } from '../../daemon/reports/render-queue.js';
import { statementDocument } from '../../daemon/reports/document.js';
import type { StatementFigures } from '../../daemon/portfolio/statement.js';

const createReport = (t: TestApp, body: Record<string, unknown>) =>
  t.req('POST', '/v1/reports', { body: { type: 'client_statement', ...body } });
const getReport = (t: TestApp, id: string) => t.req('GET', `/v1/reports/${id}`);

/** The download's raw bytes (t.req decodes bodies as text). */
async function downloadReport(t: TestApp, id: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/reports/${id}/download`,
    headers: { authorization: `Bearer ${t.creds.tenant.api_key}` },
  });
  return { status: res.statusCode, bytes: res.rawPayload };
}

const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

async function app(): Promise<TestApp> {
  const t = await makeApp();
  apps.push(t);
  return t;
}

/** An investor with `n` filled market orders today (one share each, ten in flight at a time). */
async function investorWithTrades(t: TestApp, n: number): Promise<string> {
  const investorId = await trader(t, 1_000_000);
  await advance(t, { until: 'next_open' });
  await advance(t, { minutes: 5 });
  for (let k = 0; k < n; k += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, n - k) }, () =>
        order(t, { investor_id: investorId, symbol: 'VLMRA', side: 'buy', type: 'market', qty: 1 }),
      ),
    );
    for (const r of batch) expect(r.status, r.text).toBe(201);
  }
  return investorId;
}

async function statementOf(t: TestApp, investorId: string): Promise<string> {
  const today = (await t.req('GET', '/healthz')).body.sim_time.slice(0, 10);
  const created = await createReport(t, { investor_id: investorId, period_start: today, period_end: today });
  expect(created.status, created.text).toBe(201);
  return created.body.report_id;
}

describe('a statement renders off the event loop', () => {
  it('answers /healthz, a quote and the report itself while a 300-trade statement renders', async () => {
    const t = await app();
    const investorId = await investorWithTrades(t, 300);
    const id = await statementOf(t, investorId);

    let advanced = false;
    const advancing = advance(t, { minutes: 2 }).then((res) => {
      advanced = true;
      return res;
    });
    // (inject runs in process: yield a turn of the event loop so the advance's body is read, as a socket would)
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    while ((await getReport(t, id)).body.state === 'pending') await turn();
    // The advance has run the generating and ready minutes and now waits for the render: every other
    // answer comes while it waits, and the report reads as generating until the render is stored.
    const during: string[] = [];
    for (let i = 0; i < 5; i++) {
      const health = await t.req('GET', '/healthz');
      expect(health.status).toBe(200);
      const quote = await t.req('GET', '/v1/markets/XCAI/instruments/VLMRA/quote');
      expect(quote.status, quote.text).toBe(200);
      const report = await getReport(t, id);
      if (!advanced) during.push(report.body.state);
      await turn();
    }
    expect(advanced).toBe(false);
    expect(during).toEqual(Array(5).fill('generating'));

    await advancing;
    const ready = await getReport(t, id);
    expect(ready.body.state).toBe('ready');
  });

  it('a frozen clock advance answers with the report ready and its PDF downloadable', async () => {
    const t = await app();
    const investorId = await investorWithTrades(t, 20);
    const id = await statementOf(t, investorId);
    const adv = await advance(t, { minutes: 2 });
    expect(adv.status).toBe(200);
    const report = await getReport(t, id);
    expect(report.body).toMatchObject({ state: 'ready', ready_at: expect.any(String) });
    const created = Date.parse(report.body.created_at);
    expect(Date.parse(report.body.ready_at)).toBe(created + 120_000);
    const pdf = await downloadReport(t, id);
    expect(pdf.status).toBe(200);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(createHash('sha256').update(pdf.bytes).digest('hex')).toBe(report.body.sha256);
  });

  it('a report advanced one minute at a time is ready at its ready minute, whenever the worker answered', async () => {
    const t = await app();
    const investorId = await investorWithTrades(t, 20);
    const id = await statementOf(t, investorId);
    await advance(t, { minutes: 1 });
    expect((await getReport(t, id)).body.state).toBe('generating');
    await advance(t, { minutes: 1 });
    const report = (await getReport(t, id)).body;
    expect(report.state).toBe('ready');
    expect(Date.parse(report.ready_at)).toBe(Date.parse(report.created_at) + 120_000);
  });

  it('a statement still rendering when the daemon stops is ready at its ready minute after the restart', async () => {
    const first = await app();
    const investorId = await investorWithTrades(first, 20);
    const id = await statementOf(first, investorId);
    await advance(first, { minutes: 1 });
    expect((await getReport(first, id)).body.state).toBe('generating');
    await first.close({ keepDir: true });
    apps.splice(apps.indexOf(first), 1);

    // the same home opened again, as a daemon's restart does (the first start's keys are still valid)
    const deps = createDeps({
      dbFile: join(first.dir, 'svc.db'),
      kek: first.kek,
      sandbox: { seed: 42, startMs: Date.parse(DEFAULT_START), clockMode: 'frozen', speedMilli: 1000 },
    });
    const again = { app: buildApp(deps, answerCheck()) };
    await again.app.ready();
    const adv = await again.app.inject({
      method: 'POST',
      url: '/admin/sandbox/clock-advance',
      payload: { minutes: 1 },
      headers: { 'x-admin-key': first.creds.operators.admin_key },
    });
    expect(adv.statusCode, adv.body).toBe(200);
    const res = await again.app.inject({
      method: 'GET',
      url: `/v1/reports/${id}`,
      headers: { authorization: `Bearer ${first.creds.tenant.api_key}` },
    });
    const report = res.json();
    expect(report.state).toBe('ready');
    expect(Date.parse(report.ready_at)).toBe(Date.parse(report.created_at) + 120_000);
    expect(report.sha256).toMatch(/^[0-9a-f]{64}$/);
    await again.app.close();
    deps.db.close();
    rmSync(first.dir, { recursive: true, force: true });
  });

  it('two fresh sandboxes given the same requests produce the same PDF (same sha256)', async () => {
    const hashes: string[] = [];
    for (let i = 0; i < 2; i++) {
      const t = await app();
      const investorId = await investorWithTrades(t, 30);
      const id = await statementOf(t, investorId);
      await advance(t, { minutes: 2 });
      const pdf = await downloadReport(t, id);
      expect(pdf.status).toBe(200);
      hashes.push(createHash('sha256').update(pdf.bytes).digest('hex'));
      await t.close();
      apps.splice(apps.indexOf(t), 1);
    }
    expect(hashes[0]).toBe(hashes[1]);
  });
});

const FIGURES = {
  summary: {
    opening_value_micros: 0,
    closing_value_micros: 0,
    cash_micros: 0,
    deposits_micros: 0,
    withdrawals_micros: 0,
    dividends_micros: 0,
    fees_micros: 0,
    taxes_micros: 0,
  },
  performance: { twr_pct: null, series: [] },
  holdings: [],
  trades: [],
} as unknown as StatementFigures;

function job() {
  const document = statementDocument({
    locale: 'en',
    sections: ['summary'],
    period: { start: '2026-11-01', end: '2026-11-22' },
    generatedAt: '2026-11-22T09:02:00+02:00',
    investor: { id: 'inv_test', full_name: 'Test Investor', account_number: '1000001' },
    broker: { name: 'Broker', name_ar: 'وسيط', fra_license_no: '123' },
    branding: {
      display_name: 'Tenant',
      primary_color: '#123456',
      accent_color: '#654321',
      font: 'Noto Sans',
      footer_text: 'footer',
      logo: null,
    },
    figures: FIGURES,
  });
  return { document, atMs: Date.parse('2026-11-22T07:02:00Z'), logo: null };
}

describe('the render worker', () => {
  it('a worker that dies fails the renders it had not answered, and the next render starts a new worker', async () => {
    const queue = createRenderQueue();
    try {
      const first = expect(queue.render(job())).rejects.toBeInstanceOf(RenderFailed);
      await queue.restart();
      await first;
      expect(queue.inFlight()).toBe(0);
      const pdf = await queue.render(job());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      await queue.close();
    }
    await expect(queue.render(job())).rejects.toBeInstanceOf(RenderFailed);
  });
});
