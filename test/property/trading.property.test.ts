// Random sequences of orders (every side, type and time in force, qty 13 included), cancels, quote
// overrides, deposits and clock advances, through the real API. After every step: the ledger's
// guarantees hold, and every order agrees with its fills — filled_qty, avg_price_micros, fees equal
// to the order-level figure on the filled value, prices never worse than the limit and inside the
// band, holds posted exactly what the fills used and released at the end — and the investor's
// reserved and unsettled balances are exactly what the open orders and pending settlements explain.
// Each run prints its fast-check seed; FC_SEED=<seed> replays it (test/helpers/fc.ts).
import fc from 'fast-check';
import { fcParams } from '../helpers/fc.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { seedInvestor } from '../helpers/investors.js';
import { creditCash, creditShares, EGP } from '../helpers/trading.js';
import { band, roundToTick } from '../../daemon/market/ticks.js';
import { loadFeeSchedule, orderFees } from '../../daemon/trading/fees.js';
import { averagePrice } from '../../daemon/trading/order-view.js';
import { STATUS_OF, TERMINAL_STATES } from '../../daemon/trading/matcher.js';
import type { FillRow, OrderRow } from '../../daemon/trading/repository.js';

type NumericFillKey = { [K in keyof FillRow]: FillRow[K] extends number ? K : never }[keyof FillRow];

const FEES = loadFeeSchedule();
const SYMBOLS = ['COMI', 'OIH', 'SWDY', 'ETEL'] as const;
const INVESTORS = 2;

type Cmd =
  | {
      kind: 'order';
      who: number;
      symbol: number;
      side: 'buy' | 'sell';
      type: 'market' | 'limit';
      tif: 'day' | 'gtc' | 'ioc' | 'fok';
      qty: number;
      offsetBps: number;
    }
  | { kind: 'cancel'; pick: number }
  | { kind: 'quote'; symbol: number; bps: number }
  | { kind: 'deposit'; who: number; egp: number }
  | { kind: 'advance'; minutes: number };

const command: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      who: fc.nat(INVESTORS - 1),
      symbol: fc.nat(SYMBOLS.length - 1),
      side: fc.constantFrom('buy' as const, 'buy' as const, 'sell' as const),
      type: fc.constantFrom('market' as const, 'limit' as const, 'limit' as const),
      tif: fc.constantFrom('day' as const, 'gtc' as const, 'gtc' as const, 'ioc' as const, 'fok' as const),
      qty: fc.oneof(fc.constant(13), fc.integer({ min: 1, max: 60 }), fc.constant(3_000)),
      offsetBps: fc.integer({ min: -300, max: 150 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(20) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('quote' as const),
      symbol: fc.nat(SYMBOLS.length - 1),
      bps: fc.integer({ min: -600, max: 600 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      who: fc.nat(INVESTORS - 1),
      egp: fc.integer({ min: 100, max: 20_000 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      minutes: fc.constantFrom(1, 1, 2, 17, 90, 300, 1_440, 2 * 1_440, 3 * 1_440),
    }),
  },
);

const ALLOWED_REFUSALS = new Set([
  'INSUFFICIENT_SETTLED_CASH',
  'INSUFFICIENT_SETTLED_SECURITIES',
  'MARKET_CLOSED',
  'DAILY_TRANSFER_LIMIT_EXCEEDED',
]);

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t.close());

const now = () => t.deps.clock.now();
const bandAt = (symbol: string, ms: number) => band(t.deps.market.tape.referencePriceAt(symbol, ms));

async function run(cmd: Cmd, investors: string[]): Promise<void> {
  switch (cmd.kind) {
    case 'order': {
      const symbol = SYMBOLS[cmd.symbol];
      const b = bandAt(symbol, now());
      const p = t.deps.market.tape.priceAt(symbol, now());
      const signed = cmd.side === 'buy' ? cmd.offsetBps : -cmd.offsetBps;
      const raw = roundToTick(Math.max(1_000, Math.round((p * (10_000 + signed)) / 10_000)), 'nearest');
      const limit = Math.min(b.upperMicros, Math.max(b.lowerMicros, raw));
      const body = {
        investor_id: investors[cmd.who],
        symbol,
        side: cmd.side,
        type: cmd.type,
        qty: cmd.qty,
        time_in_force: cmd.tif,
        ...(cmd.type === 'limit' ? { limit_price_micros: limit } : {}),
      };
      const res = await t.req('POST', '/v1/orders', { body });
      if (res.status !== 201) expect(ALLOWED_REFUSALS.has(res.body.error?.code), res.text).toBe(true);
      return;
    }
    case 'cancel': {
      const orders = t.deps.db.prepare('SELECT id FROM orders ORDER BY seq').all() as Array<{ id: string }>;
      if (orders.length === 0) return;
      const res = await t.req('DELETE', `/v1/orders/${orders[cmd.pick % orders.length].id}`);
      expect([202, 422], res.text).toContain(res.status);
      if (res.status === 422) expect(res.body.error.code).toBe('ORDER_NOT_CANCELLABLE');
      return;
    }
    case 'quote': {
      const symbol = SYMBOLS[cmd.symbol];
      const b = bandAt(symbol, now());
      const p = t.deps.market.tape.priceAt(symbol, now());
      const price = Math.min(
        b.upperMicros,
        Math.max(b.lowerMicros, roundToTick(Math.round((p * (10_000 + cmd.bps)) / 10_000), 'nearest')),
      );
      expect((await t.req('POST', '/admin/sandbox/quote', { body: { symbol, price_micros: price } })).status).toBe(200);
      return;
    }
    case 'deposit': {
      const res = await t.req('POST', '/v1/transfers', {
        body: { investor_id: investors[cmd.who], direction: 'deposit', amount_micros: cmd.egp * EGP },
      });
      if (res.status !== 201) expect(ALLOWED_REFUSALS.has(res.body.error?.code), res.text).toBe(true);
      return;
    }
    case 'advance':
      await advance(t, { minutes: cmd.minutes });
  }
}

function hold(id: string | null) {
  if (!id) return null;
  return t.deps.ledger.getHold(id);
}

async function check(investors: string[]): Promise<void> {
  expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
  const tenant = t.creds.tenant.tenant_id;
  const orders = t.deps.db.prepare('SELECT * FROM orders ORDER BY seq').all() as OrderRow[];
  const reservedCash = new Map<string, number>();
  const reservedShares = new Map<string, number>();
  for (const o of orders) {
    const fills = t.deps.db.prepare('SELECT * FROM fills WHERE order_id = ? ORDER BY seq').all(o.id) as FillRow[];
    const sum = (k: NumericFillKey) => fills.reduce((a, f) => a + f[k], 0);
    const open = !TERMINAL_STATES.has(o.state);
    // the order agrees with its fills
    expect(o.filled_qty).toBe(sum('qty'));
    expect(o.filled_value_micros).toBe(sum('value_micros'));
    expect(o.state === 'filled').toBe(o.filled_qty === o.qty);
    const view = (await t.req('GET', `/v1/orders/${o.id}`)).body;
    expect(view).toMatchObject({
      filled_qty: o.filled_qty,
      status: STATUS_OF[o.state],
      avg_price_micros: averagePrice(o.filled_value_micros, o.filled_qty),
    });
    const f = orderFees(o.filled_value_micros, FEES);
    expect(o.fees_micros).toBe(f.commission_micros + f.egx_micros + f.mcdr_micros + f.ipf_micros + f.fra_micros);
    expect(o.withholding_micros).toBe(f.stamp_duty_micros);
    expect(sum('commission_micros')).toBe(f.commission_micros);
    expect(sum('stamp_duty_micros')).toBe(f.stamp_duty_micros);
    for (const x of fills) {
      if (o.limit_price_micros !== null) {
        if (o.side === 'buy') expect(x.price_micros).toBeLessThanOrEqual(o.limit_price_micros);
        else expect(x.price_micros).toBeGreaterThanOrEqual(o.limit_price_micros);
      }
      const b = bandAt(o.symbol, x.at_ms);
      expect(x.price_micros).toBeGreaterThanOrEqual(b.lowerMicros);
      expect(x.price_micros).toBeLessThanOrEqual(b.upperMicros);
    }
    // holds posted exactly what the fills used; nothing stays reserved after the end
    const cashHold = hold(o.cash_hold_id);
    const sharesHold = hold(o.shares_hold_id);
    const cashUsed = o.side === 'buy' ? sum('net_micros') : fills.reduce((a, x) => a + Math.max(0, -x.net_micros), 0);
    if (cashHold) {
      expect(cashHold.amount).toBe(o.reserved_cash_micros);
      expect(cashHold.posted).toBe(cashUsed);
      expect(cashHold.state === 'pending').toBe(open && cashHold.remaining > 0);
      if (cashHold.state === 'pending')
        reservedCash.set(o.investor_id, (reservedCash.get(o.investor_id) ?? 0) + cashHold.remaining);
    } else if (o.reserved_cash_micros > 0) {
      // completed in the request that placed it: paid from settled cash, within its reservation
      expect(open).toBe(false);
      expect(cashUsed).toBeLessThanOrEqual(o.reserved_cash_micros);
    } else expect(cashUsed).toBe(0);
    if (o.side === 'sell' && o.shares_hold_id === null) {
      expect(open).toBe(false);
    } else if (o.side === 'sell') {
      expect(sharesHold!.posted).toBe(o.filled_qty);
      expect(sharesHold!.state === 'pending').toBe(open);
      if (open) {
        expect(sharesHold!.remaining).toBe(o.qty - o.filled_qty);
        const key = `${o.investor_id}|${o.symbol}`;
        reservedShares.set(key, (reservedShares.get(key) ?? 0) + sharesHold!.remaining);
      }
    }
  }
  // balances: reserved is what open orders hold; unsettled is what pending settlements will move
  for (const inv of investors) {
    const cash = t.deps.ledger.position(tenant, inv, 'cash:EGP');
    expect(cash.reserved).toBe(reservedCash.get(inv) ?? 0);
    const pending = t.deps.db
      .prepare(
        "SELECT asset, SUM(amount) AS n FROM settlements WHERE investor_id = ? AND state = 'pending' GROUP BY asset",
      )
      .all(inv) as Array<{ asset: string; n: number }>;
    const pendingOf = (asset: string) => pending.find((p) => p.asset === asset)?.n ?? 0;
    expect(cash.unsettled).toBe(pendingOf('cash:EGP'));
    for (const symbol of SYMBOLS) {
      const pos = t.deps.ledger.position(tenant, inv, symbol);
      expect(pos.reserved).toBe(reservedShares.get(`${inv}|${symbol}`) ?? 0);
      expect(pos.unsettled).toBe(pendingOf(symbol));
    }
  }
  const overdue = t.deps.db
    .prepare("SELECT COUNT(*) AS n FROM settlements WHERE state = 'pending' AND due_ms <= ?")
    .get(now()) as { n: number };
  expect(overdue.n).toBe(0);
}

describe('Trading property: random order, cancel, quote, deposit and clock sequences', () => {
  it('keep the ledger balanced and every order, hold and balance in agreement with the fills', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 10, maxLength: 40, size: 'max' }), async (cmds) => {
        expect(
          (await t.req('POST', '/admin/sandbox/reset', { body: { seed: 42, start: '2026-11-25T13:50:00+02:00' } }))
            .status,
        ).toBe(200);
        const investors = Array.from({ length: INVESTORS }, () => seedInvestor(t));
        for (const inv of investors) {
          t.deps.db
            .prepare('UPDATE investors SET suitability_recorded = 1, risk_acknowledged = 1 WHERE id = ?')
            .run(inv);
          creditCash(t, inv, 30_000 * EGP);
          for (const s of SYMBOLS) creditShares(t, inv, s, 200);
        }
        await check(investors);
        for (const cmd of cmds) {
          await run(cmd, investors);
          await check(investors);
        }
      }),
      fcParams({ numRuns: 30 }),
    );
  });
});
