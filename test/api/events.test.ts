// Push events for local development (docs/inspector.md, "Events"): GET /admin/sandbox/events streams
// server-sent events of state changes, whoever caused them: an order filled when the clock advances,
// a transfer's rail steps, a KYC decision. Ids increase; Last-Event-ID resumes; ?types= filters.
import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { order, trader, EGP } from '../helpers/trading.js';

interface Ev {
  id: number;
  type: string;
  at: string;
  subject: string;
  tenant_id: string | null;
  data: Record<string, unknown>;
  /** The SSE fields the event came with. */
  sse: { id: string; event: string };
}

interface Stream {
  status: number;
  contentType: string | null;
  events: Ev[];
  until(pred: (evs: Ev[]) => boolean, what: string): Promise<Ev[]>;
  close(): void;
}

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await makeApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

function parseFrame(frame: string): Ev | null {
  const fields: Record<string, string> = {};
  for (const line of frame.split('\n')) {
    const m = /^(id|event|data): (.*)$/.exec(line);
    if (m) fields[m[1]] = m[2];
  }
  if (!fields.data) return null;
  return { ...(JSON.parse(fields.data) as Omit<Ev, 'sse'>), sse: { id: fields.id, event: fields.event } };
}

/** One SSE connection of its own (node:http, no pooled keep-alive sockets). */
async function open(query = '', headers: Record<string, string> = {}): Promise<Stream> {
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const r = get(
      `${base}/admin/sandbox/events${query}`,
      { agent: false, headers: { 'x-admin-key': t.creds.operators.admin_key, ...headers } },
      resolve,
    );
    r.on('error', reject);
  });
  res.setEncoding('utf8');
  const events: Ev[] = [];
  let buf = '';
  let ended = false;
  res.on('data', (chunk: string) => {
    buf += chunk;
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const ev = parseFrame(buf.slice(0, i));
      buf = buf.slice(i + 2);
      if (ev) events.push(ev);
    }
  });
  res.on('end', () => (ended = true));
  res.on('error', () => (ended = true));
  return {
    status: res.statusCode ?? 0,
    contentType: res.headers['content-type'] ?? null,
    events,
    async until(pred, what) {
      const deadline = Date.now() + 10_000;
      while (!pred(events)) {
        if (ended) throw new Error(`stream ended waiting for ${what}`);
        if (Date.now() > deadline) throw new Error(`no ${what} in ${JSON.stringify(events.map((e) => e.type))}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return events;
    },
    close: () => res.destroy(),
  };
}

describe('sandbox events (server-sent events)', () => {
  let firstId = 0;

  it('streams order.filled when a clock advance fills a queued order, with the simulated time of the fill', async () => {
    const s = await open();
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/event-stream/);
    const inv = await trader(t, 100_000);
    // before the open a market order is queued; it fills at the open, when the clock gets there
    const placed = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    expect(placed.status, placed.text).toBe(201);
    await advance(t, { until: '2026-11-22T10:00:00+02:00' });
    const evs = await s.until((e) => e.some((x) => x.type === 'order.filled'), 'order.filled');
    const filled = evs.find((x) => x.type === 'order.filled')!;
    expect(filled).toMatchObject({
      subject: placed.body.order_id,
      at: '2026-11-22T10:00:00+02:00',
      tenant_id: t.creds.tenant.tenant_id,
      data: {
        order_id: placed.body.order_id,
        investor_id: inv,
        symbol: 'COMI',
        side: 'buy',
        qty: 10,
        filled_qty: 10,
        state: 'filled',
      },
    });
    expect(filled.sse).toEqual({ id: String(filled.id), event: 'order.filled' });
    // the onboarding's KYC decision came first (without personal data), and ids increase
    const kyc = evs.find((x) => x.type === 'kyc.approved')!;
    expect(kyc.id).toBeLessThan(filled.id);
    expect(kyc.data).toMatchObject({ investor_id: inv, state: 'approved' });
    expect(kyc.data).not.toHaveProperty('full_name');
    const ids = evs.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    firstId = evs[0].id;
    s.close();
  });

  it('streams each state change of a deposit as the rail moves it, filtered by ?types=transfer.*', async () => {
    const s = await open('?types=transfer.*');
    const inv = await trader(t, 0);
    const dep = await t.req('POST', '/v1/transfers', {
      body: { investor_id: inv, direction: 'deposit', amount_micros: 500 * EGP },
    });
    expect(dep.status, dep.text).toBe(201);
    await advance(t, { minutes: 3 });
    const evs = await s.until((e) => e.some((x) => x.type === 'transfer.completed'), 'transfer.completed');
    expect(evs.map((e) => e.type)).toEqual([
      'transfer.received',
      'transfer.pending_rail',
      'transfer.at_broker',
      'transfer.completed',
    ]);
    expect(evs.every((e) => e.subject === dep.body.transfer_id)).toBe(true);
    expect(evs[3].data).toMatchObject({ direction: 'deposit', amount_micros: 500 * EGP, state: 'completed' });
    s.close();
  });

  it('streams order.canceled when the clock reaches the minute a requested cancel takes effect', async () => {
    const s = await open('?types=order');
    const inv = await trader(t, 100_000);
    const quote = await t.req('GET', '/v1/instruments/COMI/quote');
    const resting = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: quote.body.band.lower_micros,
    });
    expect(resting.status, resting.text).toBe(201);
    const cancel = await t.req('DELETE', `/v1/orders/${resting.body.order_id}`);
    expect(cancel.status, cancel.text).toBeLessThan(300);
    await advance(t, { minutes: 1 });
    const evs = await s.until((e) => e.some((x) => x.type === 'order.canceled'), 'order.canceled');
    expect(evs.find((x) => x.type === 'order.canceled')).toMatchObject({
      subject: resting.body.order_id,
      data: { state: 'cancelled', filled_qty: 0 },
    });
    s.close();
  });

  it('resumes after Last-Event-ID with the events it missed, in order', async () => {
    const s = await open('?types=order.filled,transfer.completed', { 'last-event-id': String(firstId) });
    const evs = await s.until((e) => e.length >= 2, 'the missed events');
    expect(evs.map((e) => e.type)).toEqual(['order.filled', 'transfer.completed']);
    expect(evs[0].id).toBeGreaterThan(firstId);
    s.close();
  });

  it('streams report.ready when a client statement becomes ready, at its ready_at, with its size and sha256', async () => {
    const s = await open('?types=report.*');
    const inv = await trader(t, 1_000);
    const { body } = await t.req('GET', '/v1/clock');
    const today = String(body.timestamp).slice(0, 10);
    const created = await t.req('POST', '/v1/reports', {
      body: { investor_id: inv, type: 'client_statement', period_start: today, period_end: today },
    });
    expect(created.status, created.text).toBe(201);
    await advance(t, { minutes: 2 });
    const evs = await s.until((e) => e.some((x) => x.type === 'report.ready'), 'report.ready');
    const report = (await t.req('GET', `/v1/reports/${created.body.report_id}`)).body;
    expect(report.state).toBe('ready');
    expect(evs.filter((x) => x.type === 'report.ready')).toEqual([
      expect.objectContaining({
        subject: report.report_id,
        at: report.ready_at,
        tenant_id: t.creds.tenant.tenant_id,
        data: {
          report_id: report.report_id,
          investor_id: inv,
          type: 'client_statement',
          period_start: today,
          period_end: today,
          locale: 'en',
          state: 'ready',
          bytes: report.bytes,
          sha256: report.sha256,
        },
      }),
    ]);
    s.close();
  });

  it('refuses an unknown event type with 422 VALIDATION_FAILED', async () => {
    const res = await t.req('GET', '/admin/sandbox/events?types=order.filed');
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.message).toContain('order.filed');
  });

  it('needs the admin key', async () => {
    const res = await t.req('GET', '/admin/sandbox/events', { as: 'none' });
    expect(res.status).toBe(401);
  });
});
