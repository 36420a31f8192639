// corp-action:process { kind: 'split' } through the API: an N-for-1 split approved by the approver is
// applied in the approving transaction at the sandbox clock's now: the tape quotes the symbol's prices
// divided by N from then on (history unchanged), every holding is multiplied through balanced postings,
// the open orders and pending deliveries are amended through the database's amendment path, and a raw
// UPDATE of an order's terms is still refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { cash, creditShares, order, position, trader } from '../helpers/trading.js';
import { band, roundRatioToTick } from '../../daemon/market/ticks.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const MID_SESSION = '2026-11-22T11:00:00+02:00';
const propose = (params: Record<string, unknown>) =>
  t.req('POST', '/admin/actions', {
    as: 'security',
    body: { action: 'corp-action:process', params, reason: 'COMI 2-for-1 split' },
  });
const approve = (id: string) => t.req('POST', `/admin/actions/${id}/approve`, { as: 'approver', body: {} });
const split = async (symbol: string, ratio: number) =>
  approve((await propose({ kind: 'split', symbol, ratio })).body.action_id);
const quote = async (symbol: string) => (await t.req('GET', `/v1/instruments/${symbol}/quote`)).body;
const getOrder = async (id: string) => (await t.req('GET', `/v1/orders/${id}`)).body;
const half = (micros: number, mode: 'nearest' | 'down' | 'up') => roundRatioToTick(BigInt(micros), 2n, mode);
const expectInvariants = () => expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
const activities = async (inv: string) =>
  (await t.req('GET', `/v1/investors/${inv}/activities`)).body.activities as Array<Record<string, unknown>>;
const comiPosition = async (inv: string) =>
  (
    (await t.req('GET', `/v1/investors/${inv}/portfolio`)).body.positions as Array<{
      symbol: string;
      qty: number;
      cost_micros: number;
    }>
  ).find((p) => p.symbol === 'COMI')!;

/** A holder, an open buy, an open sell and a buy filled today (delivered T+2), all on COMI. */
async function book() {
  await advance(t, { until: MID_SESSION });
  const holder = await trader(t, 0);
  creditShares(t, holder, 'COMI', 100);
  const b0 = band(t.deps.market.tape.referencePriceAt('COMI', t.deps.clock.now()));
  const buyer = await trader(t, 100_000);
  const buy = await order(t, {
    investor_id: buyer,
    symbol: 'COMI',
    side: 'buy',
    type: 'limit',
    qty: 10,
    limit_price_micros: b0.lowerMicros + 1_000_000,
    time_in_force: 'gtc',
  });
  const seller = await trader(t, 1_000);
  creditShares(t, seller, 'COMI', 50);
  const sell = await order(t, {
    investor_id: seller,
    symbol: 'COMI',
    side: 'sell',
    type: 'limit',
    qty: 20,
    limit_price_micros: b0.upperMicros - 10_000,
    time_in_force: 'gtc',
  });
  const filler = await trader(t, 100_000);
  const filled = await order(t, {
    investor_id: filler,
    symbol: 'COMI',
    side: 'buy',
    type: 'limit',
    qty: 7,
    limit_price_micros: b0.upperMicros,
    time_in_force: 'day',
  });
  for (const r of [buy, sell, filled]) expect(r.status).toBe(201);
  expect(filled.body.status).toBe('filled');
  expect([buy.body.status, sell.body.status]).toEqual(['new', 'new']);
  return { holder, buyer, seller, filler, buy: buy.body, sell: sell.body, b0 };
}

describe('corp-action:process, kind split', () => {
  it('divides the quote, the reference and the band from the approval on, and leaves earlier prices as they were', async () => {
    await advance(t, { until: MID_SESSION });
    const now = t.deps.clock.now();
    const before = await quote('COMI');
    const earlier = t.deps.market.tape.priceAt('COMI', now - 30 * 60_000);
    const candlesBefore = (await t.req('GET', '/v1/markets/XCAI/instruments/COMI/ohlcv?days=5')).body.candles.slice(
      0,
      4,
    );
    const a = await split('COMI', 2);
    expect(a.status).toBe(200);
    const refAfter = half(before.ref_price_micros, 'nearest');
    expect(a.body.result).toMatchObject({
      kind: 'split',
      symbol: 'COMI',
      ratio: 2,
      effective_at: MID_SESSION,
      ref_price_before_micros: before.ref_price_micros,
      ref_price_after_micros: refAfter,
    });
    const after = await quote('COMI');
    const b = band(refAfter);
    expect(after).toMatchObject({
      price_micros: half(before.price_micros, 'nearest'),
      ref_price_micros: refAfter,
      prev_close_micros: refAfter,
      band: { lower_micros: b.lowerMicros, upper_micros: b.upperMicros },
    });
    expect(t.deps.market.tape.priceAt('COMI', now - 30 * 60_000)).toBe(earlier);
    expect((await t.req('GET', '/v1/markets/XCAI/instruments/COMI/ohlcv?days=5')).body.candles.slice(0, 4)).toEqual(
      candlesBefore,
    );
    // another symbol is untouched, and so is the market index
    expect((await quote('ABUK')).price_micros).toBe(t.deps.market.tape.priceAt('ABUK', now));
    // the next day's reference is yesterday's adjusted close, inside the adjusted band
    await advance(t, { until: '2026-11-23T12:00:00+02:00' });
    const next = await quote('COMI');
    expect(next.price_micros).toBeGreaterThanOrEqual(next.band.lower_micros);
    expect(next.price_micros).toBeLessThanOrEqual(next.band.upper_micros);
    expect(Math.abs(next.ref_price_micros - refAfter)).toBeLessThan(refAfter / 10);
  });

  it('multiplies every holding through balanced postings, amends the open orders and their holds, and shows SPLIT activities', async () => {
    const s = await book();
    const filledCost = (await comiPosition(s.filler)).cost_micros;
    const buyerCash = cash(t, s.buyer);
    const a = await split('COMI', 2);
    expect(a.status).toBe(200);
    expect(a.body.result).toMatchObject({ holders: 3, shares_added: 100 + 50 + 7, settlements_amended: 1 });

    expect(position(t, s.holder, 'COMI')).toEqual({ settled: 200, reserved: 0, unsettled: 0 });
    expect(position(t, s.seller, 'COMI')).toEqual({ settled: 60, reserved: 40, unsettled: 0 });
    expect(position(t, s.filler, 'COMI')).toEqual({ settled: 0, reserved: 0, unsettled: 14 });

    const buy = await getOrder(s.buy.order_id);
    expect([buy.qty, buy.limit_price_micros, buy.status]).toEqual([20, half(s.buy.limit_price_micros, 'down'), 'new']);
    // the buy's cash hold is as it was and still covers qty x limit
    expect(cash(t, s.buyer)).toEqual(buyerCash);
    expect(buyerCash.reserved).toBeGreaterThanOrEqual(20 * buy.limit_price_micros);
    const sell = await getOrder(s.sell.order_id);
    expect([sell.qty, sell.limit_price_micros]).toEqual([40, half(s.sell.limit_price_micros, 'up')]);

    // the cost basis is the same total over twice the shares
    expect(await comiPosition(s.filler)).toMatchObject({ qty: 14, cost_micros: filledCost });
    const acts = await activities(s.holder);
    expect(acts[0]).toMatchObject({
      activity_type: 'SPLIT',
      symbol: 'COMI',
      qty: 100,
      net_amount_micros: 0,
      ref_type: 'split',
      ref_id: a.body.result.split_id,
    });
    expect((await activities(s.seller))[0]).toMatchObject({ activity_type: 'SPLIT', qty: 50 });
    const entries = t.deps.ledger.entries(t.creds.tenant.tenant_id, a.body.result.split_id);
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(157);
    expectInvariants();
    expect((await t.req('GET', '/admin/audit/verify')).body).toMatchObject({ ok: true });
  });

  it('checks an order placed after the split against the adjusted band, and fills the amended orders at adjusted prices', async () => {
    const s = await book();
    await split('COMI', 2);
    const b = band(t.deps.market.tape.referencePriceAt('COMI', t.deps.clock.now()));
    const old = await order(t, {
      investor_id: s.buyer,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 1,
      limit_price_micros: s.b0.lowerMicros,
    });
    expect([old.status, old.body.error.code]).toEqual([422, 'PRICE_BAND_EXCEEDED']);
    const fresh = await order(t, {
      investor_id: s.buyer,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 2,
      limit_price_micros: b.upperMicros,
    });
    expect([fresh.status, fresh.body.status]).toEqual([201, 'filled']);
    const fill = t.deps.db.prepare('SELECT price_micros FROM fills WHERE order_id = ?').get(fresh.body.order_id) as {
      price_micros: number;
    };
    expect(fill.price_micros).toBe(t.deps.market.tape.priceAt('COMI', t.deps.clock.now()));
    expect(fill.price_micros).toBeLessThanOrEqual(b.upperMicros);

    // a marketable sell after the split fills the amended buy at the buy's adjusted limit or better
    const q = await t.req('POST', '/admin/sandbox/quote', {
      body: { symbol: 'COMI', price_micros: (await getOrder(s.buy.order_id)).limit_price_micros },
    });
    expect(q.status).toBe(200);
    await advance(t, { until: '2026-11-22T11:05:00+02:00' });
    const buy = await getOrder(s.buy.order_id);
    expect([buy.status, buy.filled_qty]).toEqual(['filled', 20]);
    expect(position(t, s.buyer, 'COMI').unsettled).toBe(20 + 2);
    expectInvariants();
  });

  it('delivers the post-split quantity of a buy filled before the split when it settles', async () => {
    const s = await book();
    await split('COMI', 2);
    const stl = t.deps.db.prepare("SELECT amount, state FROM settlements WHERE asset = 'COMI'").get() as {
      amount: number;
      state: string;
    };
    expect(stl).toEqual({ amount: 14, state: 'pending' });
    await advance(t, { until: '2026-11-25T10:05:00+02:00' });
    expect(position(t, s.filler, 'COMI')).toEqual({ settled: 14, reserved: 0, unsettled: 0 });
    // the fill itself (and its contract note) keeps the traded quantity and price
    const fill = t.deps.db.prepare('SELECT qty FROM fills WHERE investor_id = ?').get(s.filler) as { qty: number };
    expect(fill.qty).toBe(7);
    expectInvariants();
  });

  it("still refuses a raw UPDATE of an order's terms or a settlement's amount, and an amendment that does not follow its split", async () => {
    const s = await book();
    await split('COMI', 2);
    const db = t.deps.db;
    expect(() => db.prepare('UPDATE orders SET qty = qty * 2 WHERE id = ?').run(s.buy.order_id)).toThrow(
      /terms of an order never change/,
    );
    expect(() =>
      db.prepare('UPDATE orders SET limit_price_micros = limit_price_micros + 10000 WHERE id = ?').run(s.sell.order_id),
    ).toThrow(/terms of an order never change/);
    expect(() => db.prepare("UPDATE settlements SET amount = amount * 2 WHERE asset = 'COMI'").run()).toThrow(
      /only pending -> settled/,
    );
    const splitId = (db.prepare('SELECT id FROM market_splits').get() as { id: string }).id;
    // an amendment row whose arithmetic is not the split's opens no door (an order placed after the split)
    const b = band(t.deps.market.tape.referencePriceAt('COMI', t.deps.clock.now()));
    const late = (
      await order(t, {
        investor_id: s.buyer,
        symbol: 'COMI',
        side: 'buy',
        type: 'limit',
        qty: 3,
        limit_price_micros: b.lowerMicros,
        time_in_force: 'gtc',
      })
    ).body;
    db.prepare(
      'INSERT INTO order_amendments (split_id, order_id, qty_before, qty_after, limit_before, limit_after) ' +
        'VALUES (?, ?, ?, ?, ?, ?)',
    ).run(splitId, late.order_id, 3, 9, b.lowerMicros, b.lowerMicros);
    expect(() => db.prepare('UPDATE orders SET qty = 9 WHERE id = ?').run(late.order_id)).toThrow(
      /terms of an order never change/,
    );
    // nor can the order go back to its terms before the split
    expect(() =>
      db
        .prepare('UPDATE orders SET qty = 10, limit_price_micros = ? WHERE id = ?')
        .run(s.buy.limit_price_micros, s.buy.order_id),
    ).toThrow(/terms of an order never change/);
    expect(() => db.prepare('UPDATE order_amendments SET used = 0').run()).toThrow(/only the used mark changes/);
    expect(() => db.prepare('UPDATE market_splits SET ratio = 3').run()).toThrow(/never edited/);
  });

  it('refuses an unknown symbol, a bond, a second split at the same instant, with nothing half done and the proposal kept', async () => {
    await advance(t, { until: MID_SESSION });
    const holder = await trader(t, 0);
    creditShares(t, holder, 'COMI', 10);
    const unknown = await split('NOPE1', 2);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'UNKNOWN_SYMBOL']);
    const bond = await split('EGTB28NOV', 2);
    expect([bond.status, bond.body.error.code]).toEqual([422, 'SPLIT_NOT_APPLICABLE']);
    expect(await split('COMI', 2)).toMatchObject({ status: 200 });
    const twice = await split('COMI', 5);
    expect([twice.status, twice.body.error.code]).toEqual([409, 'SPLIT_ALREADY_APPLIED']);
    expect(position(t, holder, 'COMI').settled).toBe(20);
    expect((t.deps.db.prepare('SELECT COUNT(*) AS n FROM market_splits').get() as { n: number }).n).toBe(1);
    expect((await t.req('GET', '/admin/actions?state=proposed')).body.actions).toHaveLength(3);
    // a minute later the same symbol splits again: the divisors compose (2 x 5)
    await advance(t, { until: '2026-11-22T11:01:00+02:00' });
    const ref = t.deps.market.tape.referencePriceAt('COMI', t.deps.clock.now());
    const again = await split('COMI', 5);
    expect(again.status).toBe(200);
    expect(position(t, holder, 'COMI').settled).toBe(100);
    expect(again.body.result.ref_price_after_micros).toBe(roundRatioToTick(BigInt(ref), 5n, 'nearest'));
    expectInvariants();
  });

  it('is deterministic: the same seed and requests give the same split, amendments, activities and prices', async () => {
    const run = async () => {
      const s = await book();
      const a = await split('COMI', 2);
      return {
        result: a.body.result,
        quote: await quote('COMI'),
        buy: await getOrder(s.buy.order_id),
        acts: await activities(s.holder),
      };
    };
    const first = await run();
    await t.close();
    t = await makeApp();
    expect(await run()).toEqual(first);
  });

  it('waits for a declared dividend of the symbol to be recorded: SPLIT_NOT_APPLICABLE before its ex-date, applied after', async () => {
    await advance(t, { until: MID_SESSION });
    const holder = await trader(t, 0);
    creditShares(t, holder, 'COMI', 10);
    const d = await t.req('POST', '/admin/sandbox/declare-dividend', {
      body: { symbol: 'COMI', amount_per_share_micros: 1_000_000, ex_date: '2026-11-24', pay_date: '2026-11-26' },
    });
    expect(d.status).toBe(201);
    const early = await split('COMI', 2);
    expect([early.status, early.body.error.code]).toEqual([422, 'SPLIT_NOT_APPLICABLE']);
    expect(early.body.error.message).toContain(d.body.dividend_id);
    expect(position(t, holder, 'COMI').settled).toBe(10);
    await advance(t, { until: '2026-11-24T11:00:00+02:00' });
    expect((await split('COMI', 2)).status).toBe(200);
    // the dividend pays its per-share amount on the 10 shares recorded before the split
    await advance(t, { until: '2026-11-26T12:00:00+02:00' });
    expect(position(t, holder, 'COMI').settled).toBe(20);
    expect(cash(t, holder).settled).toBe(9_000_000); // 10 x 1 EGP, 10 % withheld
    expectInvariants();
  });

  it('a rejected or expired split proposal cannot be approved, and changes nothing', async () => {
    await advance(t, { until: MID_SESSION });
    const p = await propose({ kind: 'split', symbol: 'COMI', ratio: 2 });
    expect(
      (
        await t.req('POST', `/admin/actions/${p.body.action_id}/reject`, {
          as: 'approver',
          body: { reason: 'not announced' },
        })
      ).status,
    ).toBe(200);
    const late = await approve(p.body.action_id);
    expect([late.status, late.body.error.code]).toEqual([409, 'ACTION_ALREADY_DECIDED']);
    const q = await propose({ kind: 'split', symbol: 'COMI', ratio: 2 });
    await advance(t, { until: '2026-11-23T12:00:00+02:00' });
    const expired = await approve(q.body.action_id);
    expect([expired.status, expired.body.error.code]).toEqual([409, 'ACTION_EXPIRED']);
    expect((t.deps.db.prepare('SELECT COUNT(*) AS n FROM market_splits').get() as { n: number }).n).toBe(0);
  });
});
