import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addConsoleOperator, advance, makeApp, type TestApp } from '../helpers/app.js';
import { cash, EGP, order, priceNow, trader } from '../helpers/trading.js';
import { band } from '../../daemon/market/ticks.js';
import { rejectCodes } from '../../daemon/trading/reject-codes.js';
import { ERROR_CODES } from '../../daemon/contract/errors.js';
import { REASON } from '../../daemon/trading/matcher.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const at = (iso: string) => advance(t, { until: iso });
const bandOf = (symbol: string) => band(t.deps.market.tape.referencePriceAt(symbol, t.deps.clock.now()));
const autoFill = (enabled: boolean) => t.req('POST', '/admin/sandbox/auto-fill', { body: { enabled } });

function consoleKey(name: string, grants: string[], brokerId = t.creds.broker_id): string {
  return addConsoleOperator(t, name, grants, brokerId);
}

describe('auto-fill off: new orders go to the dealer queue instead of filling', () => {
  it('queued at the desk (pending_new, reserved); executed by the dealer at a price inside the band', async () => {
    const inv = await trader(t, 50_000);
    expect((await autoFill(false)).body).toEqual({ auto_fill: false });
    expect((await t.req('GET', '/admin/sandbox/state')).body.auto_fill).toBe(false);
    await at('2026-11-22T10:05:00+02:00');
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    expect(res.body).toMatchObject({ state: 'received', status: 'pending_new', submitted_at: null, filled_qty: 0 });
    expect(cash(t, inv).reserved).toBeGreaterThan(0);
    await advance(t, { minutes: 30 });
    expect((await t.req('GET', `/v1/orders/${res.body.order_id}`)).body.status).toBe('pending_new');

    const queue = await t.req('GET', '/broker/v1/queue');
    expect(queue.status).toBe(200);
    expect(queue.body.auto_fill).toBe(false);
    expect(queue.body.orders).toHaveLength(1);
    expect(queue.body.orders[0]).toMatchObject({
      order_id: res.body.order_id,
      investor_id: inv,
      account_number: expect.any(String),
      status: 'pending_new',
    });
    expect(queue.body.orders[0].market.price_micros).toBe(priceNow(t, 'COMI'));

    const b = bandOf('COMI');
    const outside = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/execute`, {
      body: { price_micros: b.upperMicros + 10_000 },
    });
    expect(outside.body.error.code).toBe('PRICE_BAND_EXCEEDED');
    const offTick = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/execute`, {
      body: { price_micros: b.upperMicros - 5_000 },
    });
    expect(offTick.body.error.code).toBe('TICK_VIOLATION');
    const tooMany = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/execute`, { body: { qty: 11 } });
    expect(tooMany.body.error.code).toBe('INVALID_QTY');

    const price = b.upperMicros - 10_000;
    const part = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/execute`, {
      body: { price_micros: price, qty: 4 },
    });
    expect(part.status).toBe(200);
    expect(part.body).toMatchObject({ status: 'partially_filled', filled_qty: 4, avg_price_micros: price });
    expect((await t.req('GET', '/broker/v1/queue')).body.orders).toHaveLength(1);
    const rest = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/execute`, { body: {} });
    expect(rest.body).toMatchObject({ status: 'filled', filled_qty: 10 });
    expect((await t.req('GET', '/broker/v1/queue')).body.orders).toEqual([]);
    expect(cash(t, inv).reserved).toBe(0);
    const note = (await t.req('GET', `/v1/orders/${res.body.order_id}/contract-note`)).body;
    expect(note.fills.map((f: any) => f.venue)).toEqual(['desk', 'desk']);
    const again = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/execute`, { body: {} });
    expect(again.body.error.code).toBe('ORDER_NOT_IN_QUEUE');
    expect(t.deps.ledger.checkInvariants().ok).toBe(true);
  });

  it('a limit is never executed worse than its price; the desk executes only in session', async () => {
    const inv = await trader(t);
    await autoFill(false);
    const limit = bandOf('COMI').lowerMicros + 100_000;
    const res = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 5,
      limit_price_micros: limit,
      time_in_force: 'gtc',
    });
    expect(res.body.status).toBe('pending_new');
    const closed = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/execute`, {
      body: { price_micros: limit },
    });
    expect(closed.body.error.code).toBe('MARKET_CLOSED');
    await at('2026-11-22T10:30:00+02:00');
    const worse = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/execute`, {
      body: { price_micros: limit + 10_000 },
    });
    expect(worse.body.error.code).toBe('PRICE_WORSE_THAN_LIMIT');
    const ok = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/execute`, { body: { price_micros: limit } });
    expect(ok.body).toMatchObject({ status: 'filled', avg_price_micros: limit });
  });

  it('reject with a dealer reason code: rejected, reason_code set, reservation released', async () => {
    const inv = await trader(t, 20_000);
    await autoFill(false);
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    const bad = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/reject`, {
      body: { reason_code: 'NOT_A_REASON' },
    });
    expect(bad.body.error.code).toBe('INVALID_REJECT_REASON');
    const clientOnly = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/reject`, {
      body: { reason_code: 'CANCELED_BY_CLIENT' },
    });
    expect(clientOnly.body.error.code).toBe('INVALID_REJECT_REASON');
    const rej = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/reject`, {
      body: { reason_code: 'COMPLIANCE_REVIEW' },
    });
    expect(rej.status).toBe(200);
    expect(rej.body).toMatchObject({ state: 'rejected', status: 'rejected', reason_code: 'COMPLIANCE_REVIEW' });
    expect((await t.req('GET', `/v1/orders/${res.body.order_id}`)).body.reason_code).toBe('COMPLIANCE_REVIEW');
    expect(cash(t, inv)).toEqual({ settled: 20_000 * EGP, reserved: 0, unsettled: 0 });
    const cancel = await t.req('DELETE', `/v1/orders/${res.body.order_id}`);
    expect(cancel.body.error.code).toBe('ORDER_NOT_CANCELLABLE');
  });

  it('desk orders follow time in force: a day order expires at the close; auto-fill back on does not re-route them', async () => {
    const inv = await trader(t);
    await autoFill(false);
    await at('2026-11-22T10:05:00+02:00');
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    await autoFill(true);
    await at('2026-11-22T14:30:00+02:00');
    expect((await t.req('GET', `/v1/orders/${res.body.order_id}`)).body).toMatchObject({
      status: 'expired',
      filled_qty: 0,
    });
    expect(cash(t, inv).reserved).toBe(0);
  });

  it('a client cancel of a desk order takes effect at the next minute', async () => {
    const inv = await trader(t);
    await autoFill(false);
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    expect((await t.req('DELETE', `/v1/orders/${res.body.order_id}`)).body.status).toBe('pending_cancel');
    await advance(t, { minutes: 1 });
    expect((await t.req('GET', `/v1/orders/${res.body.order_id}`)).body).toMatchObject({
      status: 'canceled',
      reason_code: 'CANCELED_BY_CLIENT',
    });
    expect((await t.req('GET', '/broker/v1/queue')).body.orders).toEqual([]);
  });
});

describe('blotter, exposure and the simulated book', () => {
  it("the blotter lists the day's executions; exposure shows open reservations, unsettled trades and traded quantity", async () => {
    const inv = await trader(t);
    await at('2026-11-22T10:05:00+02:00');
    const buy = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    const open = await order(t, {
      investor_id: inv,
      symbol: 'ETEL',
      side: 'buy',
      type: 'limit',
      qty: 5,
      limit_price_micros: bandOf('ETEL').lowerMicros,
    });
    const blotter = await t.req('GET', '/broker/v1/blotter');
    expect(blotter.status).toBe(200);
    expect(blotter.body.date).toBe('2026-11-22');
    expect(blotter.body.executions).toHaveLength(1);
    expect(blotter.body.executions[0]).toMatchObject({
      order_id: buy.body.order_id,
      symbol: 'COMI',
      side: 'buy',
      qty: 10,
      settlement_date: '2026-11-24',
      venue: 'tape',
    });
    expect((await t.req('GET', '/broker/v1/blotter?date=2026-11-23')).body.executions).toEqual([]);
    const exposure = (await t.req('GET', '/broker/v1/exposure')).body;
    expect(exposure.open_orders).toEqual([
      { side: 'buy', orders: 1, qty: 5, filled_qty: 0, reserved_cash_micros: cash(t, inv).reserved },
    ]);
    expect(exposure.unsettled).toEqual([
      {
        settlement_date: '2026-11-24',
        side: 'buy',
        fills: 1,
        gross_micros: buy.body.avg_price_micros * 10,
        net_micros: expect.any(Number),
      },
    ]);
    expect(exposure.traded_today).toEqual([
      {
        symbol: 'COMI',
        bought_qty: 10,
        sold_qty: 0,
        net_qty: 10,
        bought_value_micros: buy.body.avg_price_micros * 10,
        sold_value_micros: 0,
      },
    ]);
    void open;
  });

  it('the book is a deterministic depth around the tape: asks from the price up, bids below, inside the band', async () => {
    await at('2026-11-22T10:05:00+02:00');
    const a = await t.req('GET', '/broker/v1/markets/XCAI/instruments/COMI/book');
    const b = await t.req('GET', '/broker/v1/markets/XCAI/instruments/COMI/book');
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    const p = priceNow(t, 'COMI');
    expect(a.body.last_price_micros).toBe(p);
    expect(a.body.asks.map((l: any) => l.price_micros)).toEqual([0, 1, 2, 3, 4].map((k) => p + k * 10_000));
    expect(a.body.bids.map((l: any) => l.price_micros)).toEqual([1, 2, 3, 4, 5].map((k) => p - k * 10_000));
    for (const l of [...a.body.asks, ...a.body.bids]) expect(l.qty % 100).toBe(0);
    const deep = await t.req('GET', '/broker/v1/markets/XCAI/instruments/COMI/book?levels=20');
    expect(deep.body.asks).toHaveLength(20);
    await advance(t, { minutes: 1 });
    const later = await t.req('GET', '/broker/v1/markets/XCAI/instruments/COMI/book');
    expect(later.body.asks).not.toEqual(a.body.asks);
    // bonds expose the same book, in clean-price space
    expect((await t.req('GET', '/broker/v1/markets/XCAI/instruments/EGTB28NOV/book')).status).toBe(200);
    expect((await t.req('GET', '/broker/v1/markets/XNYS/instruments/COMI/book')).body.error.code).toBe(
      'UNKNOWN_MARKET',
    );
    expect((await t.req('GET', '/broker/v1/markets/XCAI/instruments/NOPE/book')).body.error.code).toBe(
      'UNKNOWN_SYMBOL',
    );
  });

  it('each desk route is behind its grant: 403 FORBIDDEN without it, 401 without a console key', async () => {
    const inv = await trader(t);
    await autoFill(false);
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    const routes: Array<[string, string, string, unknown?]> = [
      ['GET', '/broker/v1/queue', 'queue:read'],
      ['POST', `/broker/v1/queue/${res.body.order_id}/execute`, 'orders:execute', {}],
      ['POST', `/broker/v1/queue/${res.body.order_id}/reject`, 'orders:execute', { reason_code: 'DEALER_REJECTED' }],
      ['GET', '/broker/v1/blotter', 'blotter:read'],
      ['GET', '/broker/v1/exposure', 'exposure:read'],
      ['GET', '/broker/v1/markets/XCAI/instruments/COMI/book', 'orderbook:read'],
    ];
    const none = consoleKey('nothing', ['kyc:read']);
    for (const [method, url, g, body] of routes) {
      const forbidden = await t.req(method, url, { headers: { 'x-console-key': none }, body });
      expect(forbidden.status, url).toBe(403);
      expect(forbidden.body.error.message).toContain(g);
      expect((await t.req(method, url, { as: 'none', body })).status).toBe(401);
    }
    expect(
      (await t.req('GET', '/broker/v1/queue', { headers: { 'x-console-key': consoleKey('reader', ['queue:read']) } }))
        .status,
    ).toBe(200);
    expect((await t.req('POST', '/admin/sandbox/auto-fill', { body: { enabled: true }, as: 'security' })).status).toBe(
      403,
    );
  });

  it("a dealer of another broker sees none of this broker's orders", async () => {
    const inv = await trader(t);
    await autoFill(false);
    const res = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    t.deps.db
      .prepare(
        'INSERT INTO brokers (id, name, name_ar, fra_license_no, contact_email, contact_phone) VALUES ' +
          "('brk_other000001', 'Delta Brokerage', 'دلتا', '999/2020', 'ops@delta.example', '+20221234567')",
      )
      .run();
    const key = consoleKey('other-dealer', ['queue:read', 'orders:execute'], 'brk_other000001');
    expect((await t.req('GET', '/broker/v1/queue', { headers: { 'x-console-key': key } })).body.orders).toEqual([]);
    const exec = await t.req('POST', `/broker/v1/queue/${res.body.order_id}/reject`, {
      headers: { 'x-console-key': key },
      body: { reason_code: 'DEALER_REJECTED' },
    });
    expect(exec.status).toBe(404);
  });
});

describe('the reject-code registry maps every reason code to a neutral cause and remedy', () => {
  it('covers every order validation code, every code the matcher sets and every dealer reason', () => {
    const codes = new Map(rejectCodes().map((c) => [c.code, c]));
    const orderErrors = [
      'INVALID_SIDE',
      'INVALID_TYPE',
      'INVALID_QTY',
      'INVALID_PRICE',
      'INVALID_TIME_IN_FORCE',
      'UNKNOWN_SYMBOL',
      'TICK_VIOLATION',
      'PRICE_BAND_EXCEEDED',
      'INVESTOR_NOT_APPROVED',
      'INVESTOR_CLOSED',
      'SUITABILITY_REQUIRED',
      'RISK_ACK_REQUIRED',
      'INVESTOR_RESTRICTED',
      'SHARIAH_RESTRICTED',
      'INSTRUMENT_HALTED',
      'INSTRUMENT_NOT_ORDERABLE',
      'MARKET_CLOSED',
      'INSUFFICIENT_SETTLED_CASH',
      'INSUFFICIENT_SETTLED_SECURITIES',
      'CLIENT_ORDER_ID_EXISTS',
      'INSUFFICIENT_BUYING_POWER',
    ];
    for (const c of [...orderErrors, ...Object.values(REASON)]) expect(codes.has(c), c).toBe(true);
    for (const c of codes.values()) {
      expect(c.cause.length).toBeGreaterThan(10);
      expect(c.remedy.length).toBeGreaterThan(10);
      // neutral: no advice to buy, sell or hold anything
      expect(`${c.cause} ${c.remedy}`).not.toMatch(
        /\b(recommend|should buy|should sell|good time|undervalued|overvalued)\b/i,
      );
      if (c.origin === 'validation') expect(c.code in ERROR_CODES, c.code).toBe(true);
    }
    expect(
      rejectCodes()
        .filter((c) => c.dealer_reason)
        .map((c) => c.code)
        .sort(),
    ).toEqual([
      'COMPLIANCE_REVIEW',
      'DEALER_REJECTED',
      'DUPLICATE_ORDER_SUSPECTED',
      'INSTRUMENT_HALTED',
      'INSUFFICIENT_BUYING_POWER',
      'PRICE_AWAY_FROM_MARKET',
    ]);
  });
});
