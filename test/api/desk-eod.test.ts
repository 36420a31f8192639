// GET /broker/v1/eod: the dealer's end of day, from real orders, deposits and settlements of two
// investors of the dealer's broker, beside a third investor of another broker who must never appear.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addConsoleOperator, advance, makeApp, type TestApp } from '../helpers/app.js';
import { creditShares, EGP, order, trader } from '../helpers/trading.js';
import { EodSchema } from '../../daemon/contract/schemas/desk-reports.js';

const OTHER = 'brk_other000001';
let t: TestApp;
let a: string;
let b: string;
let c: string;

beforeEach(async () => {
  t = await makeApp();
  t.deps.db
    .prepare(
      "INSERT INTO brokers (id, name, name_ar, fra_license_no, contact_email, contact_phone) VALUES (?, 'Delta " +
        "Brokerage', 'دلتا', '999/2020', 'ops@delta.example', '+20221234567')",
    )
    .run(OTHER);
  a = await trader(t, 100_000);
  b = await trader(t, 100_000);
  c = await trader(t, 100_000);
  // c's broker of record is the other broker (what a binding update does)
  t.deps.db.prepare('UPDATE investors SET broker_id = ? WHERE id = ?').run(OTHER, c);
  creditShares(t, b, 'COMI', 50);
});
afterEach(async () => t.close());

const deposit = (investorId: string, egp: number) =>
  t.req('POST', '/v1/transfers', { body: { investor_id: investorId, direction: 'deposit', amount_micros: egp * EGP } });
const eod = (query = '', key?: string) =>
  t.req('GET', `/broker/v1/eod${query}`, key ? { headers: { 'x-console-key': key } } : {});

/** Sunday 22 November's trading: a deposit each for a and c before the open, then a buys, b sells, c buys. */
async function tradeSunday(): Promise<{ buy: string; sell: string; other: string }> {
  expect((await deposit(a, 1_500)).status).toBe(201);
  expect((await deposit(c, 700)).status).toBe(201);
  await advance(t, { until: '2026-11-22T10:05:00+02:00' });
  const buy = await order(t, { investor_id: a, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
  const sell = await order(t, { investor_id: b, symbol: 'COMI', side: 'sell', type: 'market', qty: 20 });
  const other = await order(t, { investor_id: c, symbol: 'COMI', side: 'buy', type: 'market', qty: 5 });
  for (const o of [buy, sell, other]) expect(o.body.status, o.text).toBe('filled');
  return { buy: buy.body.order_id, sell: sell.body.order_id, other: other.body.order_id };
}

describe("the end of day lists the day's trades of the dealer's broker with every fee line", () => {
  it("each fill of the two investors, with gross, fee lines and net that match the contract notes; the other broker's fill is absent", async () => {
    const ids = await tradeSunday();
    const res = await eod();
    expect(res.status, res.text).toBe(200);
    const r = res.body;
    // the reply is exactly what /openapi.json documents: the schema drops no field and misses none
    expect(EodSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({ date: '2026-11-22', broker_id: t.creds.broker_id, trading_day: true });
    expect(r.trades.map((x: any) => [x.order_id, x.investor_id, x.side])).toEqual([
      [ids.buy, a, 'buy'],
      [ids.sell, b, 'sell'],
    ]);
    for (const trade of r.trades) {
      const note = (await t.req('GET', `/v1/orders/${trade.order_id}/contract-note`)).body;
      expect(note.fills).toHaveLength(1);
      const f = note.fills[0];
      expect(trade).toMatchObject({
        symbol: 'COMI',
        qty: f.qty,
        price_micros: f.price_micros,
        gross_micros: f.qty * f.price_micros,
        settlement_date: '2026-11-24',
      });
      expect(trade.fees).toMatchObject({
        commission_micros: f.fees.commission_micros,
        egx_micros: f.fees.egx_micros,
        mcdr_micros: f.fees.mcdr_micros,
        ipf_micros: f.fees.ipf_micros,
        fra_micros: f.fees.fra_micros,
      });
      const charges = trade.fees_micros + trade.fees.stamp_duty_micros;
      expect(trade.net_micros).toBe(trade.side === 'buy' ? trade.gross_micros + charges : trade.gross_micros - charges);
      expect(trade.fees.commission_micros).toBeGreaterThanOrEqual(5 * EGP);
    }
    const lines = ['commission_micros', 'egx_micros', 'mcdr_micros', 'ipf_micros', 'fra_micros', 'stamp_duty_micros'];
    for (const k of lines) expect(r.fees_by_line[k], k).toBe(r.trades[0].fees[k] + r.trades[1].fees[k]);
    expect(r.fees_by_line.total_micros).toBe(r.fees_by_line.fees_micros + r.fees_by_line.stamp_duty_micros);
    expect(JSON.stringify(r)).not.toContain(c);
    expect(JSON.stringify(r)).not.toContain(ids.other);
  });

  it("a dealer of the other broker sees only that broker's investor, its trade and its deposit", async () => {
    const ids = await tradeSunday();
    const other = addConsoleOperator(t, 'delta', ['eod:read'], OTHER);
    const r = (await eod('', other)).body;
    expect(r.broker_id).toBe(OTHER);
    expect(r.trades.map((x: any) => x.order_id)).toEqual([ids.other]);
    expect(new Set(r.cash.movements.map((m: any) => m.investor_id))).toEqual(new Set([c]));
    expect(JSON.stringify(r)).not.toContain(a);
    expect(JSON.stringify(r)).not.toContain(b);
  });
});

describe("the end of day sums the day's cash movements from the ledger", () => {
  it('deposits, trade consideration, fees and stamp duty of the day, each movement and the totals by type', async () => {
    await tradeSunday();
    const r = (await eod('?date=2026-11-22')).body;
    const types = r.cash.movements.map(
      (m: any) => `${m.investor_id === a ? 'a' : m.investor_id === b ? 'b' : '?'}:${m.activity_type}`,
    );
    expect(types).toEqual(['a:CSD', 'a:FILL', 'a:FEE', 'a:TAX', 'b:FILL', 'b:FEE', 'b:TAX']);
    const dep = r.cash.movements[0];
    expect(dep).toMatchObject({ amount_micros: 1_500 * EGP, ref_type: 'transfer', account_number: expect.any(String) });
    const buy = r.trades[0];
    const sell = r.trades[1];
    expect(r.cash.movements[1].amount_micros).toBe(-buy.gross_micros);
    expect(r.cash.movements[4].amount_micros).toBe(sell.gross_micros);
    const byType = Object.fromEntries(r.cash.totals.map((x: any) => [x.activity_type, x]));
    expect(Object.keys(byType)).toEqual(['CSD', 'FEE', 'FILL', 'TAX']);
    expect(byType.CSD).toEqual({
      activity_type: 'CSD',
      count: 1,
      in_micros: 1_500 * EGP,
      out_micros: 0,
      net_micros: 1_500 * EGP,
    });
    expect(byType.FILL).toEqual({
      activity_type: 'FILL',
      count: 2,
      in_micros: sell.gross_micros,
      out_micros: buy.gross_micros,
      net_micros: sell.gross_micros - buy.gross_micros,
    });
    expect(byType.FEE.out_micros).toBe(r.fees_by_line.fees_micros);
    expect(byType.TAX.out_micros).toBe(r.fees_by_line.stamp_duty_micros);
  });

  it('another date shows that date only: the day before is empty, and the report of a past day stays the same later', async () => {
    await tradeSunday();
    const sunday = (await eod()).body;
    const before = (await eod('?date=2026-11-21')).body;
    expect(before).toMatchObject({
      date: '2026-11-21',
      trading_day: false,
      trades: [],
      cash: { movements: [], totals: [] },
    });
    await advance(t, { days: 1 });
    const later = (await eod('?date=2026-11-22')).body;
    expect({ ...later, as_of: null }).toEqual({ ...sunday, as_of: null });
    expect((await eod()).body.date).toBe('2026-11-23');
  });
});

describe('the end of day shows the settlement obligations falling due that date', () => {
  it("on T+2: per investor what they pay and receive, and the broker's net; pending before the settlement runs, settled after", async () => {
    await tradeSunday();
    const today = (await eod()).body;
    expect(today.settlements_due).toEqual({
      investors: [],
      broker: {
        buy: { fills: 0, gross_micros: 0, net_micros: 0 },
        sell: { fills: 0, gross_micros: 0, net_micros: 0 },
        pending_fills: 0,
        net_cash_micros: 0,
        market_net_micros: 0,
      },
    });
    const [buy, sell] = today.trades;

    await advance(t, { until: '2026-11-24T09:00:00+02:00' });
    const due = (await eod()).body;
    expect(EodSchema.parse(due)).toEqual(due);
    expect(due.date).toBe('2026-11-24');
    expect(due.trades).toEqual([]);
    const per = Object.fromEntries(due.settlements_due.investors.map((i: any) => [i.investor_id, i]));
    expect(Object.keys(per).sort()).toEqual([a, b].sort());
    expect(per[a]).toMatchObject({
      buy: { fills: 1, gross_micros: buy.gross_micros, net_micros: buy.net_micros },
      sell: { fills: 0, gross_micros: 0, net_micros: 0 },
      net_cash_micros: -buy.net_micros,
    });
    expect(per[b]).toMatchObject({
      sell: { fills: 1, gross_micros: sell.gross_micros, net_micros: sell.net_micros },
      net_cash_micros: sell.net_micros,
    });
    expect(due.settlements_due.broker).toEqual({
      buy: { fills: 1, gross_micros: buy.gross_micros, net_micros: buy.net_micros },
      sell: { fills: 1, gross_micros: sell.gross_micros, net_micros: sell.net_micros },
      pending_fills: 2,
      net_cash_micros: sell.net_micros - buy.net_micros,
      market_net_micros: sell.gross_micros - buy.gross_micros,
    });
    await advance(t, { until: '2026-11-24T16:00:00+02:00' });
    expect((await eod()).body.settlements_due.broker.pending_fills).toBe(0);
    expect(JSON.stringify(due)).not.toContain(c);
  });
});

describe('GET /broker/v1/eod refuses what it cannot report', () => {
  it('a future date is 422 DATE_IN_FUTURE; a non-date is 422 INVALID_DATE; nothing else is accepted in the query', async () => {
    const future = await eod('?date=2026-11-23');
    expect([future.status, future.body.error.code]).toEqual([422, 'DATE_IN_FUTURE']);
    for (const bad of ['2026-13-01', '2026-02-30', 'yesterday', '22-11-2026']) {
      const res = await eod(`?date=${bad}`);
      expect([res.status, res.body.error.code], bad).toEqual([422, 'INVALID_DATE']);
    }
    expect((await eod('?when=today')).body.error.code).toBe('VALIDATION_FAILED');
  });

  it('needs eod:read: 403 FORBIDDEN naming the grant without it, 401 without a console key or with an admin key', async () => {
    const none = addConsoleOperator(t, 'blotter-only', ['blotter:read', 'reference:read']);
    const forbidden = await eod('', none);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('eod:read') });
    expect((await t.req('GET', '/broker/v1/eod', { as: 'none' })).status).toBe(401);
    expect((await t.req('GET', '/broker/v1/eod', { as: 'admin' })).status).toBe(401);
    expect((await eod('', addConsoleOperator(t, 'eod-only', ['eod:read']))).status).toBe(200);
  });
});
