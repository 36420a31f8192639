import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { applicant } from '../helpers/onboarding.js';
import { cash, creditCash, creditShares, EGP, order, position, priceNow, trader } from '../helpers/trading.js';
import { band } from '../../daemon/market/ticks.js';
import { feeCeiling, loadFeeSchedule } from '../../daemon/trading/fees.js';

const FEES = loadFeeSchedule();
const SUNDAY_OPEN = '2026-11-22T10:00:00+02:00';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const at = (iso: string) => advance(t, { until: iso });
const get = async (id: string) => (await t.req('GET', `/v1/orders/${id}`)).body;
const expectInvariants = () => expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
const orderCount = () => (t.deps.db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
const fills = (orderId: string) =>
  t.deps.db.prepare('SELECT * FROM fills WHERE order_id = ? ORDER BY seq').all(orderId) as any[];
const setQuote = async (symbol: string, price: number) => {
  const r = await t.req('POST', '/admin/sandbox/quote', { body: { symbol, price_micros: price } });
  expect(r.status).toBe(200);
};
const bandOf = (symbol: string) => band(t.deps.market.tape.referencePriceAt(symbol, t.deps.clock.now()));

describe('POST /v1/orders validation returns the first failing code in the documented precedence', () => {
  it('fixing one field at a time walks the whole chain, and no refusal books anything', async () => {
    const inv = await trader(t, 0);
    const other = await trader(t, 1_000);
    // before the open: a queued day order takes the client_order_id "taken"
    const first = await order(t, {
      investor_id: other,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 1,
      limit_price_micros: bandOf('COMI').lowerMicros,
      client_order_id: 'taken',
    });
    expect(first.status).toBe(201);
    expect(first.body.status).toBe('accepted');
    const db = t.deps.db;
    db.prepare(
      "UPDATE investors SET suitability_recorded = 0, risk_acknowledged = 0, status = 'restricted', " +
        'shariah_only = 1 WHERE id = ?',
    ).run(inv);
    t.deps.market.setHalt('EGTB28NOV', true);
    const bondBand = bandOf('EGTB28NOV');
    const body: Record<string, unknown> = {
      investor_id: 'inv_unknown',
      symbol: 'NOPE',
      side: 'hold',
      type: 'stop',
      qty: 0,
      limit_price_micros: 1.5,
      time_in_force: 'gtd',
      client_order_id: 'taken',
    };
    const steps: Array<[() => unknown, number, string]> = [
      [() => {}, 422, 'INVALID_SIDE'],
      [() => (body.side = 'buy'), 422, 'INVALID_TYPE'],
      [() => (body.type = 'limit'), 422, 'INVALID_QTY'],
      [() => (body.qty = 3), 422, 'INVALID_PRICE'],
      [() => (body.limit_price_micros = bondBand.upperMicros + 15_000), 422, 'INVALID_TIME_IN_FORCE'],
      [() => (body.time_in_force = 'ioc'), 404, 'UNKNOWN_SYMBOL'],
      [() => (body.symbol = 'EGTB28NOV'), 422, 'TICK_VIOLATION'],
      [() => (body.limit_price_micros = bondBand.upperMicros + 10_000), 422, 'PRICE_BAND_EXCEEDED'],
      [() => (body.limit_price_micros = bondBand.upperMicros), 404, 'NOT_FOUND'],
      [() => (body.investor_id = inv), 422, 'SUITABILITY_REQUIRED'],
      [
        () => db.prepare('UPDATE investors SET suitability_recorded = 1 WHERE id = ?').run(inv),
        422,
        'RISK_ACK_REQUIRED',
      ],
      [
        () => db.prepare('UPDATE investors SET risk_acknowledged = 1 WHERE id = ?').run(inv),
        422,
        'INVESTOR_RESTRICTED',
      ],
      [() => db.prepare("UPDATE investors SET status = 'active' WHERE id = ?").run(inv), 422, 'SHARIAH_RESTRICTED'],
      [() => db.prepare('UPDATE investors SET shariah_only = 0 WHERE id = ?').run(inv), 422, 'INSTRUMENT_HALTED'],
      [() => t.deps.market.setHalt('EGTB28NOV', false), 422, 'INSTRUMENT_NOT_ORDERABLE'],
      // a sell of one OIH share (0.85 EGP) cannot pay its own 5 EGP commission: it needs cash too
      [
        () =>
          Object.assign(body, { symbol: 'OIH', side: 'sell', qty: 1, limit_price_micros: bandOf('OIH').lowerMicros }),
        422,
        'MARKET_CLOSED',
      ],
      [() => (body.time_in_force = 'day'), 422, 'INSUFFICIENT_SETTLED_CASH'],
      [() => creditCash(t, inv, 10 * EGP), 422, 'INSUFFICIENT_SETTLED_SECURITIES'],
      [() => creditShares(t, inv, 'OIH', 1), 422, 'CLIENT_ORDER_ID_EXISTS'],
      [() => (body.client_order_id = 'fresh'), 201, ''],
    ];
    let ordersBefore = orderCount();
    for (const [fix, status, code] of steps) {
      fix();
      const before = { cash: cash(t, inv), oih: position(t, inv, 'OIH') };
      const res = await order(t, body);
      expect({ status: res.status, code: res.body.error?.code ?? '' }, JSON.stringify(body)).toEqual({ status, code });
      if (status !== 201) {
        expect(orderCount()).toBe(ordersBefore);
        expect({ cash: cash(t, inv), oih: position(t, inv, 'OIH') }).toEqual(before);
      } else {
        expect(res.body).toMatchObject({ status: 'accepted', side: 'sell', symbol: 'OIH', client_order_id: 'fresh' });
        expect(position(t, inv, 'OIH')).toEqual({ settled: 0, reserved: 1, unsettled: 0 });
      }
      ordersBefore = orderCount();
    }
    expectInvariants();
  });

  it('field rules: whole positive qty, integer price on limit orders only, time_in_force spelled exactly', async () => {
    const inv = await trader(t);
    const pending = (await t.req('POST', '/v1/kyc/applications', { body: applicant() })).body.application_id as string;
    const base = {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: bandOf('COMI').lowerMicros,
    };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ qty: '10' }, 'INVALID_QTY'],
      [{ qty: 1.5 }, 'INVALID_QTY'],
      [{ qty: -1 }, 'INVALID_QTY'],
      [{ qty: 1_000_000_001 }, 'INVALID_QTY'],
      [{ side: 'BUY' }, 'INVALID_SIDE'],
      [{ side: undefined }, 'INVALID_SIDE'],
      [{ type: 'stop_limit' }, 'INVALID_TYPE'],
      [{ limit_price_micros: undefined }, 'INVALID_PRICE'],
      [{ limit_price_micros: '85000000' }, 'INVALID_PRICE'],
      [{ limit_price_micros: 0 }, 'INVALID_PRICE'],
      [{ type: 'market' }, 'INVALID_PRICE'],
      [{ time_in_force: 'GTC' }, 'INVALID_TIME_IN_FORCE'],
      [{ limit_price_micros: bandOf('COMI').lowerMicros + 5_000 }, 'TICK_VIOLATION'],
      [{ limit_price_micros: bandOf('COMI').lowerMicros - 10_000 }, 'PRICE_BAND_EXCEEDED'],
      [{ limit_price_micros: bandOf('COMI').upperMicros + 10_000 }, 'PRICE_BAND_EXCEEDED'],
      [{ symbol: 'EGSK28NOV', limit_price_micros: bandOf('EGSK28NOV').lowerMicros }, 'INSTRUMENT_NOT_ORDERABLE'],
      [{ time_in_force: 'fok' }, 'MARKET_CLOSED'],
      [{ investor_id: pending }, 'INVESTOR_NOT_APPROVED'],
      [{ investor_id: 'kyc_0000000000' }, 'NOT_FOUND'],
      [{ qty: 1_000_000_000, limit_price_micros: bandOf('COMI').upperMicros }, 'INSUFFICIENT_SETTLED_CASH'],
    ];
    for (const [over, code] of cases) {
      const res = await order(t, { ...base, ...over });
      expect(res.body.error?.code, JSON.stringify(over)).toBe(code);
    }
    // below 2 EGP the tick is 0.001 EGP: 1,000 micros steps are on the grid
    const low = bandOf('OIH');
    const onGrid = low.lowerMicros + 1_000;
    expect((await order(t, { ...base, symbol: 'OIH', limit_price_micros: onGrid })).status).toBe(201);
    expect((await order(t, { ...base, symbol: 'OIH', limit_price_micros: onGrid + 500 })).body.error.code).toBe(
      'TICK_VIOLATION',
    );
    // the body's shape: unknown fields and a missing investor_id or symbol are VALIDATION_FAILED
    expect((await order(t, { ...base, notional: 5 })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await order(t, { ...base, investor_id: undefined })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await order(t, { ...base, symbol: 7 })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await order(t, { ...base, client_order_id: 'x'.repeat(129) })).body.error.code).toBe('VALIDATION_FAILED');
    expect(orderCount()).toBe(1);
  });

  it('failing several rules, a body answers the first: unknown field, side, type, qty, price, tif', async () => {
    const inv = await trader(t);
    const base = { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'limit', qty: 10 };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ side: 'hold', notional: 5 }, 'VALIDATION_FAILED', 'body'],
      [{ side: 'hold', qty: 0, time_in_force: 'week' }, 'INVALID_SIDE', 'body.side'],
      [{ type: 'stop', qty: 1.5 }, 'INVALID_TYPE', 'body.type'],
      [{ qty: -1, limit_price_micros: 0 }, 'INVALID_QTY', 'body.qty'],
      // a limit order without a price and a bad time_in_force: the price comes first
      [{ time_in_force: 'week' }, 'INVALID_PRICE', 'body.limit_price_micros'],
      [
        { type: 'market', limit_price_micros: 80_000_000, time_in_force: 'week' },
        'INVALID_PRICE',
        'body.limit_price_micros',
      ],
      [{ limit_price_micros: 80_000_000, time_in_force: 'week' }, 'INVALID_TIME_IN_FORCE', 'body.time_in_force'],
    ];
    for (const [over, code, field] of cases) {
      const res = await order(t, { ...base, ...over });
      expect({ status: res.status, code: res.body.error?.code }, JSON.stringify(over)).toEqual({ status: 422, code });
      expect(res.body.error.message.startsWith(`${field}:`), res.body.error.message).toBe(true);
    }
    expect(orderCount()).toBe(0);
  });

  it("an unapproved or closed investor is refused with a stable code; another tenant's investor is unknown", async () => {
    const inv = await trader(t);
    const base = { symbol: 'COMI', side: 'buy', type: 'market', qty: 1 };
    t.deps.db.prepare("UPDATE investors SET status = 'closed' WHERE id = ?").run(inv);
    expect((await order(t, { ...base, investor_id: inv })).body.error.code).toBe('INVESTOR_CLOSED');
    const app = (
      await t.req('POST', '/v1/kyc/applications', { body: (await import('../helpers/onboarding.js')).applicant() })
    ).body.application_id;
    expect((await order(t, { ...base, investor_id: app })).body.error.code).toBe('INVESTOR_NOT_APPROVED');
    const tenant = (await t.req('POST', '/admin/tenants', { body: { name: 'other-app' } })).body;
    const foreign = await trader(t, 1_000, { tenant });
    const res = await order(t, { ...base, investor_id: foreign });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('a restricted investor may sell holdings but not buy (INVESTOR_RESTRICTED)', async () => {
    const inv = await trader(t);
    creditShares(t, inv, 'COMI', 10);
    t.deps.db.prepare("UPDATE investors SET status = 'restricted' WHERE id = ?").run(inv);
    expect(
      (await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 })).body.error.code,
    ).toBe('INVESTOR_RESTRICTED');
    expect((await order(t, { investor_id: inv, symbol: 'COMI', side: 'sell', type: 'market', qty: 10 })).status).toBe(
      201,
    );
  });

  it('a shariah-only investor may not buy a non-compliant instrument but may sell one it holds (SHARIAH_RESTRICTED)', async () => {
    const inv = await trader(t);
    creditShares(t, inv, 'COMI', 10);
    t.deps.db.prepare('UPDATE investors SET shariah_only = 1 WHERE id = ?').run(inv);
    expect(
      (await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 })).body.error.code,
    ).toBe('SHARIAH_RESTRICTED');
    expect((await order(t, { investor_id: inv, symbol: 'COMI', side: 'sell', type: 'market', qty: 10 })).status).toBe(
      201,
    );
    expect((await order(t, { investor_id: inv, symbol: 'ETEL', side: 'buy', type: 'market', qty: 1 })).status).toBe(
      201,
    );
  });
});

/** A symbol and limit whose first reaching tick today is a later minute (the natural tape). */
function restingBuy(fromMinute: number): { symbol: string; limit: number; minute: number } {
  const date = t.deps.market.calendar.localDate(t.deps.clock.now());
  for (const inst of t.deps.market.catalog.equities) {
    const p = t.deps.market.tape.minutePrices(inst.symbol, date);
    const rest = p.slice(fromMinute + 1);
    const limit = Math.min(...rest);
    if (limit < p[fromMinute]) return { symbol: inst.symbol, limit, minute: fromMinute + 1 + rest.indexOf(limit) };
  }
  throw new Error('no symbol dips today');
}

describe('order lifecycle: market, marketable and resting limits, queueing, expiry (spec "Fill behaviour")', () => {
  it('a market order fills immediately in session at the tape price; fees per the EGX schedule (docs/trading.md) against hand-computed figures', async () => {
    const inv = await trader(t, 100_000);
    await at('2026-11-22T10:05:00+02:00');
    await setQuote('COMI', 85_000_000);
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 100 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      state: 'filled',
      status: 'filled',
      filled_qty: 100,
      avg_price_micros: 85_000_000,
      market_id: 'XCAI',
      asset_class: 'egx_equity',
      order_class: 'simple',
      time_in_force: 'day',
      limit_price_micros: null,
      reason_code: null,
      created_at: '2026-11-22T10:05:00+02:00',
      submitted_at: '2026-11-22T10:05:00+02:00',
      filled_at: '2026-11-22T10:05:00+02:00',
      canceled_at: null,
      expired_at: null,
    });
    // gross 8,500; commission 8.50; EGX 0.85; MCDR 0.85; IPF 0.425; FRA 0.425; stamp duty 10.625
    expect(cash(t, inv)).toEqual({ settled: 100_000 * EGP - 8_521_675_000, reserved: 0, unsettled: 0 });
    expect(position(t, inv, 'COMI')).toEqual({ settled: 0, reserved: 0, unsettled: 100 });
    const note = await t.req('GET', `/v1/orders/${res.body.order_id}/contract-note`);
    expect(note.status).toBe(200);
    expect(note.body).toMatchObject({
      trade_date: '2026-11-22',
      settlement_date: '2026-11-24',
      currency: 'EGP',
      filled_qty: 100,
      avg_price_micros: 85_000_000,
      gross_consideration_micros: 8_500_000_000,
      fees: {
        commission_micros: 8_500_000,
        egx_micros: 850_000,
        mcdr_micros: 850_000,
        ipf_micros: 425_000,
        fra_micros: 425_000,
        total_micros: 11_050_000,
      },
      withholding: { stamp_duty_micros: 10_625_000, total_micros: 10_625_000 },
      net_consideration_micros: 8_521_675_000,
      net_direction: 'debit',
    });
    expect(note.body.fills).toHaveLength(1);
    expect(note.body.fills[0]).toMatchObject({
      qty: 100,
      price_micros: 85_000_000,
      gross_micros: 8_500_000_000,
      executed_at: '2026-11-22T10:05:00+02:00',
      venue: 'tape',
    });
    const acts = (await t.req('GET', `/v1/investors/${inv}/activities`)).body.activities.filter(
      (a: any) => a.ref_id === res.body.order_id,
    );
    expect(acts.map((a: any) => [a.activity_type, a.net_amount_micros])).toEqual([
      ['TAX', -10_625_000],
      ['FEE', -11_050_000],
      ['FILL', -8_500_000_000],
    ]);
    expect(acts[2]).toMatchObject({ symbol: 'COMI', side: 'buy', qty: 100, price_micros: 85_000_000 });
    expectInvariants();
  });

  it('the commission minimum of 5 EGP applies to a small order', async () => {
    const inv = await trader(t, 1_000);
    await at('2026-11-22T10:05:00+02:00');
    await setQuote('COMI', 85_000_000);
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 2 });
    const note = (await t.req('GET', `/v1/orders/${res.body.order_id}/contract-note`)).body;
    // 170 EGP: commission 5.00 (10 bp would be 0.17); EGX/MCDR 0.017; IPF/FRA 0.0085; stamp 0.2125
    expect(note.fees).toEqual({
      commission_micros: 5_000_000,
      egx_micros: 17_000,
      mcdr_micros: 17_000,
      ipf_micros: 8_500,
      fra_micros: 8_500,
      total_micros: 5_051_000,
    });
    expect(note.withholding.stamp_duty_micros).toBe(212_500);
    expect(note.net_consideration_micros).toBe(170_000_000 + 5_051_000 + 212_500);
  });

  it('a marketable limit fills at the tape price, never worse than the limit', async () => {
    const inv = await trader(t);
    await at('2026-11-22T10:30:00+02:00');
    const p = priceNow(t, 'ETEL');
    const limit = bandOf('ETEL').upperMicros;
    const buy = await order(t, {
      investor_id: inv,
      symbol: 'ETEL',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: limit,
    });
    expect(buy.body).toMatchObject({ status: 'filled', avg_price_micros: p });
    expect(p).toBeLessThan(limit);
    creditShares(t, inv, 'ETEL', 10);
    const sell = await order(t, {
      investor_id: inv,
      symbol: 'ETEL',
      side: 'sell',
      type: 'limit',
      qty: 10,
      limit_price_micros: bandOf('ETEL').lowerMicros,
    });
    expect(sell.body).toMatchObject({ status: 'filled', avg_price_micros: p });
  });

  it("a limit away from the market rests (acked, status new) and fills at the first minute tick that reaches it, at that tick's price", async () => {
    const inv = await trader(t);
    await at('2026-11-22T10:05:00+02:00');
    const r = restingBuy(5);
    const res = await order(t, {
      investor_id: inv,
      symbol: r.symbol,
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: r.limit,
    });
    expect(res.body).toMatchObject({ state: 'acked', status: 'new', filled_qty: 0, avg_price_micros: null });
    const reservation = 10 * r.limit + feeCeiling(10 * r.limit, FEES);
    expect(cash(t, inv).reserved).toBe(reservation);
    await at(t.deps.market.calendar.toIso(t.deps.market.calendar.tickMs('2026-11-22', r.minute) - 1_000));
    expect((await get(res.body.order_id)).status).toBe('new');
    await advance(t, { minutes: 1 });
    const done = await get(res.body.order_id);
    expect(done).toMatchObject({
      status: 'filled',
      avg_price_micros: r.limit,
      filled_at: t.deps.market.calendar.toIso(t.deps.market.calendar.tickMs('2026-11-22', r.minute)),
    });
    expect(cash(t, inv).reserved).toBe(0);
    expectInvariants();
  });

  it('outside the session an order is queued (accepted, reserved at the band ceiling) and transmits at the next open', async () => {
    const inv = await trader(t);
    const b = bandOf('COMI');
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    expect(res.body).toMatchObject({ state: 'validated', status: 'accepted', submitted_at: null, filled_qty: 0 });
    expect(cash(t, inv).reserved).toBe(10 * b.upperMicros + feeCeiling(10 * b.upperMicros, FEES));
    await at(SUNDAY_OPEN);
    const open = t.deps.market.tape.minutePrices('COMI', '2026-11-22')[0];
    expect(await get(res.body.order_id)).toMatchObject({
      status: 'filled',
      avg_price_micros: open,
      submitted_at: SUNDAY_OPEN,
      filled_at: SUNDAY_OPEN,
    });
    expect(cash(t, inv).reserved).toBe(0);
  });

  it('a resting day order expires at the session close; its reservation is released', async () => {
    const inv = await trader(t, 50_000);
    await at('2026-11-22T13:00:00+02:00');
    const res = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: bandOf('COMI').lowerMicros,
    });
    expect(res.body.status).toBe('new');
    await at('2026-11-22T14:29:59+02:00');
    expect((await get(res.body.order_id)).status).toBe('new');
    await at('2026-11-22T14:30:00+02:00');
    expect(await get(res.body.order_id)).toMatchObject({
      state: 'expired',
      status: 'expired',
      expired_at: '2026-11-22T14:30:00+02:00',
      reason_code: null,
    });
    expect(cash(t, inv)).toEqual({ settled: 50_000 * EGP, reserved: 0, unsettled: 0 });
    expectInvariants();
  });

  it('gtc persists across sessions: placed on Thursday, still open over the weekend, fills on Sunday', async () => {
    const inv = await trader(t);
    await at('2026-11-26T14:00:00+02:00');
    const thursday = t.deps.market.tape.minutePrices('COMI', '2026-11-26');
    const limit = Math.min(...thursday.slice(240)) - 100_000;
    const res = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 5,
      limit_price_micros: limit,
      time_in_force: 'gtc',
    });
    expect(res.body.status).toBe('new');
    await at('2026-11-28T12:00:00+02:00');
    expect((await get(res.body.order_id)).status).toBe('new');
    await setQuote('COMI', limit - 2_000_000); // Saturday: the tape opens from here on Sunday
    await at('2026-11-29T12:00:00+02:00');
    const done = await get(res.body.order_id);
    expect(done.status).toBe('filled');
    expect(done.filled_at.startsWith('2026-11-29T10:')).toBe(true);
    expect(done.avg_price_micros).toBeLessThanOrEqual(limit);
  });

  it("sandbox qty 13 fills in two partial executions, the second one simulated minute later at that minute's price", async () => {
    const inv = await trader(t);
    await at('2026-11-22T10:05:00+02:00');
    const p = t.deps.market.tape.minutePrices('SWDY', '2026-11-22');
    const res = await order(t, { investor_id: inv, symbol: 'SWDY', side: 'buy', type: 'market', qty: 13 });
    expect(res.body).toMatchObject({
      state: 'partially_filled',
      status: 'partially_filled',
      filled_qty: 7,
      avg_price_micros: p[5],
    });
    await advance(t, { minutes: 1 });
    const done = await get(res.body.order_id);
    expect(done).toMatchObject({ status: 'filled', filled_qty: 13, filled_at: '2026-11-22T10:06:00+02:00' });
    expect(fills(res.body.order_id).map((f) => [f.qty, f.price_micros, f.at])).toEqual([
      [7, p[5], '2026-11-22T10:05:00+02:00'],
      [6, p[6], '2026-11-22T10:06:00+02:00'],
    ]);
    expect(done.avg_price_micros).toBe(Math.floor((7 * p[5] + 6 * p[6]) / 13 + 0.5));
    const note = (await t.req('GET', `/v1/orders/${res.body.order_id}/contract-note`)).body;
    // the commission minimum is charged once per order: on the first execution
    expect(note.fills.map((f: any) => f.fees.commission_micros)).toEqual([5_000_000, 0]);
    expect(note.fees.commission_micros).toBe(5_000_000);
    expectInvariants();
  });
});

describe('time in force: ioc and fok never rest', () => {
  it('ioc fills what it can now and cancels the rest; not marketable it is canceled at once', async () => {
    const inv = await trader(t, 20_000);
    await at('2026-11-22T11:00:00+02:00');
    const miss = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: bandOf('COMI').lowerMicros,
      time_in_force: 'ioc',
    });
    expect(miss.body).toMatchObject({
      state: 'cancelled',
      status: 'canceled',
      filled_qty: 0,
      reason_code: 'IOC_REMAINDER_CANCELED',
      canceled_at: '2026-11-22T11:00:00+02:00',
    });
    expect(cash(t, inv)).toEqual({ settled: 20_000 * EGP, reserved: 0, unsettled: 0 });
    const partial = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'market',
      qty: 13,
      time_in_force: 'ioc',
    });
    expect(partial.body).toMatchObject({ status: 'canceled', filled_qty: 7, reason_code: 'IOC_REMAINDER_CANCELED' });
    expect(cash(t, inv).reserved).toBe(0);
    const hit = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'market',
      qty: 2,
      time_in_force: 'ioc',
    });
    expect(hit.body.status).toBe('filled');
  });

  it('fok fills the whole quantity now or cancels with nothing executed', async () => {
    const inv = await trader(t, 20_000);
    await at('2026-11-22T11:00:00+02:00');
    const miss = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 13,
      limit_price_micros: bandOf('COMI').lowerMicros,
      time_in_force: 'fok',
    });
    expect(miss.body).toMatchObject({ status: 'canceled', filled_qty: 0, reason_code: 'FOK_NOT_FILLED' });
    const all = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 13,
      limit_price_micros: bandOf('COMI').upperMicros,
      time_in_force: 'fok',
    });
    expect(all.body).toMatchObject({ status: 'filled', filled_qty: 13 });
    expect(fills(all.body.order_id)).toHaveLength(1);
  });

  it('ioc and fok outside the session cannot be queued: 422 MARKET_CLOSED; day and gtc are queued', async () => {
    const inv = await trader(t);
    for (const tif of ['ioc', 'fok']) {
      expect(
        (await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1, time_in_force: tif }))
          .body.error.code,
      ).toBe('MARKET_CLOSED');
    }
    for (const tif of ['day', 'gtc']) {
      expect(
        (await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1, time_in_force: tif }))
          .body.status,
      ).toBe('accepted');
    }
  });
});

describe('DELETE /v1/orders/{id}: pending_cancel, then canceled asynchronously; a fill that wins the race stays the truth', () => {
  it('a resting order: 202 pending_cancel, canceled at the next simulated minute, reservation released', async () => {
    const inv = await trader(t, 50_000);
    await at('2026-11-22T10:05:30+02:00');
    const res = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: bandOf('COMI').lowerMicros,
    });
    const del = await t.req('DELETE', `/v1/orders/${res.body.order_id}`);
    expect(del.status).toBe(202);
    expect(del.body).toMatchObject({ state: 'cancel_requested', status: 'pending_cancel' });
    expect((await get(res.body.order_id)).status).toBe('pending_cancel');
    await at('2026-11-22T10:06:00+02:00');
    expect(await get(res.body.order_id)).toMatchObject({
      state: 'cancelled',
      status: 'canceled',
      reason_code: 'CANCELED_BY_CLIENT',
      canceled_at: '2026-11-22T10:06:00+02:00',
    });
    expect(cash(t, inv)).toEqual({ settled: 50_000 * EGP, reserved: 0, unsettled: 0 });
    const again = await t.req('DELETE', `/v1/orders/${res.body.order_id}`);
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('ORDER_NOT_CANCELLABLE');
  });

  it('a fill due on the same tick as the cancel wins: the order stays filled, the cancel changes nothing', async () => {
    const inv = await trader(t);
    await at('2026-11-22T10:05:30+02:00');
    const limit = priceNow(t, 'COMI') - 500_000;
    const res = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: limit,
    });
    expect(res.body.status).toBe('new');
    await setQuote('COMI', limit - 1_500_000); // the 10:06 tick will reach the limit
    const del = await t.req('DELETE', `/v1/orders/${res.body.order_id}`); // due at 10:06 as well
    expect(del.body.status).toBe('pending_cancel');
    await advance(t, { minutes: 1 });
    const done = await get(res.body.order_id);
    expect(done).toMatchObject({
      state: 'filled',
      status: 'filled',
      filled_qty: 10,
      canceled_at: null,
      reason_code: null,
    });
    expect(done.avg_price_micros).toBeLessThanOrEqual(limit);
    expect(fills(res.body.order_id)).toHaveLength(1);
    expect(cash(t, inv).reserved).toBe(0);
    expect((await t.req('DELETE', `/v1/orders/${res.body.order_id}`)).body.error.code).toBe('ORDER_NOT_CANCELLABLE');
    expectInvariants();
  });

  it('a queued order canceled before the open never transmits', async () => {
    const inv = await trader(t, 10_000);
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    await t.req('DELETE', `/v1/orders/${res.body.order_id}`);
    await at(SUNDAY_OPEN);
    expect(await get(res.body.order_id)).toMatchObject({
      status: 'canceled',
      submitted_at: null,
      filled_qty: 0,
      canceled_at: '2026-11-22T09:01:00+02:00',
    });
    expect(cash(t, inv)).toEqual({ settled: 10_000 * EGP, reserved: 0, unsettled: 0 });
  });
});

describe('money: reservations, T+2 settlement on the business-day calendar', () => {
  it("a buy's shares and a sell's proceeds sit unsettled until T+2, across a holiday (Thu 7 Jan 2027) and a weekend", async () => {
    await t.close();
    t = await makeApp({ start: '2027-01-05T10:05:00+02:00' });
    const inv = await trader(t);
    creditShares(t, inv, 'ETEL', 20);
    const buy = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    const sell = await order(t, { investor_id: inv, symbol: 'ETEL', side: 'sell', type: 'market', qty: 20 });
    expect(position(t, inv, 'COMI')).toEqual({ settled: 0, reserved: 0, unsettled: 10 });
    expect(position(t, inv, 'ETEL')).toEqual({ settled: 0, reserved: 0, unsettled: 0 });
    const proceeds = fills(sell.body.order_id)[0].net_micros;
    expect(cash(t, inv).unsettled).toBe(proceeds);
    const note = (await t.req('GET', `/v1/orders/${buy.body.order_id}/contract-note`)).body;
    expect(note).toMatchObject({ trade_date: '2027-01-05', settlement_date: '2027-01-10' });
    await at('2027-01-07T12:00:00+02:00');
    expect(position(t, inv, 'COMI').unsettled).toBe(10);
    await at('2027-01-10T09:59:00+02:00');
    expect(position(t, inv, 'COMI').unsettled).toBe(10);
    await at('2027-01-10T10:00:00+02:00');
    expect(position(t, inv, 'COMI')).toEqual({ settled: 10, reserved: 0, unsettled: 0 });
    expect(cash(t, inv).unsettled).toBe(0);
    const settledCash = cash(t, inv).settled;
    const sellAgain = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'sell',
      type: 'limit',
      qty: 10,
      limit_price_micros: bandOf('COMI').upperMicros,
    });
    expect(sellAgain.body.status).toBe('new');
    expect(position(t, inv, 'COMI')).toEqual({ settled: 0, reserved: 10, unsettled: 0 });
    expect(cash(t, inv).settled).toBe(settledCash);
    expectInvariants();
  });

  it('the contract note is 422 NO_EXECUTIONS before the first fill', async () => {
    const inv = await trader(t);
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    const note = await t.req('GET', `/v1/orders/${res.body.order_id}/contract-note`);
    expect(note.status).toBe(422);
    expect(note.body.error.code).toBe('NO_EXECUTIONS');
  });

  it('a sell reserves settled shares; unsettled shares cannot be sold', async () => {
    const inv = await trader(t);
    await at('2026-11-22T10:05:00+02:00');
    await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'sell', type: 'market', qty: 10 });
    expect(res.body.error.code).toBe('INSUFFICIENT_SETTLED_SECURITIES');
  });

  it('100 concurrent orders for one investor competing for the same cash never overdraw it', async () => {
    const inv = await trader(t, 0);
    const limit = bandOf('COMI').lowerMicros;
    const each = limit + feeCeiling(limit, FEES);
    creditCash(t, inv, 37 * each + each - 1);
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        order(t, {
          investor_id: inv,
          symbol: 'COMI',
          side: 'buy',
          type: 'limit',
          qty: 1,
          limit_price_micros: limit,
          time_in_force: 'gtc',
        }),
      ),
    );
    const codes = results.map((r) => (r.status === 201 ? 'ok' : r.body.error.code));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(37);
    expect(codes.filter((c) => c === 'INSUFFICIENT_SETTLED_CASH')).toHaveLength(63);
    expect(cash(t, inv)).toEqual({ settled: each - 1, reserved: 37 * each, unsettled: 0 });
    expectInvariants();
  });
});

describe('execution beyond the reservation', () => {
  it('a later execution the reservation cannot pay is rejected with INSUFFICIENT_BUYING_POWER; earlier fills stand, the rest is released', async () => {
    const inv = await trader(t, 10_000);
    await at('2026-11-22T14:00:00+02:00');
    const sunday = bandOf('COMI');
    await setQuote('COMI', sunday.upperMicros); // Sunday closes at its band ceiling: Monday's band is higher
    await at('2026-11-22T14:29:10+02:00');
    const res = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'market',
      qty: 13,
      time_in_force: 'gtc',
    });
    expect(res.body).toMatchObject({ status: 'partially_filled', filled_qty: 7 });
    await at('2026-11-23T09:00:00+02:00');
    const monday = bandOf('COMI');
    expect(monday.upperMicros).toBeGreaterThan(sunday.upperMicros);
    await setQuote('COMI', monday.upperMicros); // Monday opens above what Sunday reserved per share
    await at('2026-11-23T10:00:00+02:00');
    const done = await get(res.body.order_id);
    expect(done).toMatchObject({
      state: 'rejected',
      status: 'rejected',
      reason_code: 'INSUFFICIENT_BUYING_POWER',
      filled_qty: 7,
    });
    expect(fills(res.body.order_id)).toHaveLength(1);
    expect(cash(t, inv).reserved).toBe(0);
    expectInvariants();
  });
});

describe('idempotency, client_order_id and tenant scoping', () => {
  it('replaying the same Idempotency-Key never books twice', async () => {
    const inv = await trader(t, 10_000);
    await at('2026-11-22T10:05:00+02:00');
    const body = { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 3 };
    const a = await order(t, body, { idempotencyKey: 'order-1' });
    const after = cash(t, inv);
    await advance(t, { minutes: 3 });
    const b = await order(t, body, { idempotencyKey: 'order-1' });
    expect(b.status).toBe(a.status);
    expect(b.text).toBe(a.text);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(orderCount()).toBe(1);
    expect(fills(a.body.order_id)).toHaveLength(1);
    expect(cash(t, inv)).toEqual(after);
    const changed = await order(t, { ...body, qty: 4 }, { idempotencyKey: 'order-1' });
    expect(changed.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a schema refusal (INVALID_SIDE) stores nothing under its key: the corrected body is placed', async () => {
    const inv = await trader(t, 10_000);
    const body = { investor_id: inv, symbol: 'COMI', side: 'hold', type: 'market', qty: 1, time_in_force: 'gtc' };
    const refused = await order(t, body, { idempotencyKey: 'order-2' });
    expect(refused.body.error.code).toBe('INVALID_SIDE');
    const placed = await order(t, { ...body, side: 'buy' }, { idempotencyKey: 'order-2' });
    expect(placed.status).toBe(201);
    expect(placed.headers['idempotent-replayed']).toBeUndefined();
    expect(orderCount()).toBe(1);
  });

  it('a repeated client_order_id is 422 CLIENT_ORDER_ID_EXISTS whatever the key, even after the first is cancelled', async () => {
    const inv = await trader(t);
    const body = {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'market',
      qty: 1,
      client_order_id: 'my-order-1',
    };
    const first = await order(t, body);
    expect(first.body.client_order_id).toBe('my-order-1');
    await t.req('DELETE', `/v1/orders/${first.body.order_id}`);
    await advance(t, { minutes: 2 });
    const dup = await order(t, { ...body, qty: 2 });
    expect(dup.body.error.code).toBe('CLIENT_ORDER_ID_EXISTS');
  });

  it("another tenant's order behaves as unknown: 404 on read, cancel and contract note; lists are tenant-scoped", async () => {
    const inv = await trader(t);
    const mine = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    const tenant = (await t.req('POST', '/admin/tenants', { body: { name: 'other-app' } })).body;
    for (const [method, path] of [
      ['GET', ''],
      ['DELETE', ''],
      ['GET', '/contract-note'],
    ]) {
      const res = await t.req(method, `/v1/orders/${mine.body.order_id}${path}`, { tenant });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await t.req('GET', '/v1/orders', { tenant })).body.orders).toEqual([]);
    expect((await t.req('GET', `/v1/orders?investor_id=${inv}`, { tenant })).status).toBe(404);
    expect((await get(mine.body.order_id)).status).toBe('accepted');
  });

  it('GET /v1/orders filters by investor_id and status open | closed, newest first, limit 1-200', async () => {
    const a = await trader(t);
    const b = await trader(t);
    await at('2026-11-22T10:05:00+02:00');
    const filled = await order(t, { investor_id: a, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    const open = await order(t, {
      investor_id: a,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 1,
      limit_price_micros: bandOf('COMI').lowerMicros,
    });
    const other = await order(t, { investor_id: b, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    const ids = async (q: string) => (await t.req('GET', `/v1/orders${q}`)).body.orders.map((o: any) => o.order_id);
    expect(await ids('')).toEqual([other.body.order_id, open.body.order_id, filled.body.order_id]);
    expect(await ids(`?investor_id=${a}`)).toEqual([open.body.order_id, filled.body.order_id]);
    expect(await ids(`?investor_id=${a}&status=open`)).toEqual([open.body.order_id]);
    expect(await ids('?status=closed')).toEqual([other.body.order_id, filled.body.order_id]);
    expect(await ids('?limit=1')).toEqual([other.body.order_id]);
    expect((await t.req('GET', '/v1/orders?status=done')).body.error.code).toBe('VALIDATION_FAILED');
    expect((await t.req('GET', '/v1/orders?limit=201')).body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('halts and quote overrides move resting orders', () => {
  it('a halted symbol does not fill; after the halt is lifted the next reaching tick fills it', async () => {
    const inv = await trader(t);
    await at('2026-11-22T10:05:30+02:00');
    const limit = priceNow(t, 'COMI') - 500_000;
    const res = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: limit,
      time_in_force: 'gtc',
    });
    await t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: true } });
    await setQuote('COMI', limit - 1_500_000);
    await advance(t, { minutes: 30 });
    expect((await get(res.body.order_id)).status).toBe('new');
    await t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: false } });
    await advance(t, { minutes: 1 });
    const done = await get(res.body.order_id);
    expect(done.status).toBe('filled');
    expect(done.filled_at).toBe('2026-11-22T10:36:00+02:00');
  });
});

describe('restart', () => {
  it('open orders survive a daemon restart: the order source rebuilds its schedule from the database', async () => {
    const inv = await trader(t);
    await at('2026-11-22T10:05:30+02:00');
    const limit = priceNow(t, 'COMI') - 500_000;
    const res = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: limit,
      time_in_force: 'gtc',
    });
    const queued = await order(t, {
      investor_id: inv,
      symbol: 'ETEL',
      side: 'buy',
      type: 'limit',
      qty: 1,
      limit_price_micros: bandOf('ETEL').lowerMicros,
    });
    await setQuote('COMI', limit - 1_500_000);
    const { dir, kek } = t;
    await t.close({ keepDir: true });
    t = await makeApp({ dir, kek });
    t.deps.scheduler.advanceTo(Date.parse('2026-11-22T14:30:00+02:00'));
    const row = (id: string) => t.deps.db.prepare('SELECT state, filled_qty FROM orders WHERE id = ?').get(id);
    expect(row(res.body.order_id)).toEqual({ state: 'filled', filled_qty: 10 });
    expect(row(queued.body.order_id)).toEqual({ state: 'expired', filled_qty: 0 });
    expect(t.deps.ledger.checkInvariants().ok).toBe(true);
    await t.close();
    rmSync(dir, { recursive: true, force: true });
    t = await makeApp();
  });
});
