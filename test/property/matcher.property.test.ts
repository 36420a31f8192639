// The fast matcher (tape.firstTickReaching, calendar jumps, windows) against a naive reference model
// that walks every simulated minute and applies the order rules directly.
// Each run prints its fast-check seed; FC_SEED=<seed> replays it (test/helpers/fc.ts).
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { fcParams } from '../helpers/fc.js';
import { createTape, type TapeOverride } from '../../daemon/market/tape.js';
import { roundToTick } from '../../daemon/market/ticks.js';
import { readFixture } from '../../daemon/fixtures.js';
import {
  nextStep,
  requestCancel,
  submit,
  nextMinute,
  type MatchOrder,
  type OrderEvent,
  type Side,
  type TimeInForce,
  type OrderType,
} from '../../daemon/trading/matcher.js';
import { createMarketView } from '../../daemon/trading/view.js';
import { fixtureCalendar } from '../helpers/market.js';

const MIN = 60_000;
const DAY = 86_400_000;
const cal = fixtureCalendar();
const equities = readFixture<Array<{ symbol: string; security_type: string; ref_price_micros: number }>>(
  'instruments.json',
).filter((i) => i.security_type === 'equity');
const START = Date.parse('2026-11-22T08:00:00+02:00');

interface Case {
  symbol: string;
  side: Side;
  type: OrderType;
  tif: TimeInForce;
  qty: number;
  limitOffsetBps: number;
  t0: number;
  cancelAfterMs: number | null;
  windowMs: number;
  chunkMs: number;
  overrides: TapeOverride[];
}

type Timeline = Array<{ atMs: number; events: OrderEvent[] }>;

/** The reference: minute by minute, the rules of docs/trading.md applied literally. */
function reference(c: Case, limit: number | null, priceAt: (ms: number) => number, end: number): Timeline {
  const out: Timeline = [];
  const reaches = (p: number) => limit === null || (c.side === 'buy' ? p <= limit : p >= limit);
  let filled = 0;
  let done = false;
  let transmitted = false;
  let eligibleFrom = c.t0;
  let cancelDue: number | null = null;
  const legQty = () => (c.qty === 13 && filled === 0 && c.tif !== 'fok' ? 7 : c.qty - filled);
  const fill = (evs: OrderEvent[], t: number, p: number) => {
    const q = legQty();
    filled += q;
    done = filled === c.qty;
    evs.push({ type: done ? 'filled' : 'partially_filled', qty: q, priceMicros: p });
    // the qty-13 second leg: at least one simulated minute after the first
    eligibleFrom = t + MIN;
  };
  const first: OrderEvent[] = [];
  if (cal.isOpen(c.t0)) {
    transmitted = true;
    first.push({ type: 'transmitted' }, { type: 'acked' });
    if (reaches(priceAt(c.t0))) fill(first, c.t0, priceAt(c.t0));
    if ((c.tif === 'ioc' || c.tif === 'fok') && !done) {
      first.push({ type: 'canceled', reasonCode: c.tif === 'ioc' ? 'IOC_REMAINDER_CANCELED' : 'FOK_NOT_FILLED' });
      done = true;
    }
  } else first.push({ type: 'accepted' });
  out.push({ atMs: c.t0, events: first });
  const tc = c.cancelAfterMs === null ? null : c.t0 + c.cancelAfterMs;
  for (let t = Math.floor(c.t0 / MIN) * MIN + MIN; t <= end && !done; t += MIN) {
    if (tc !== null && cancelDue === null && tc < t) cancelDue = Math.floor(tc / MIN) * MIN + MIN;
    const evs: OrderEvent[] = [];
    const opening = cal.isOpen(t) && !cal.isOpen(t - MIN);
    if (!transmitted && opening) {
      transmitted = true;
      evs.push({ type: 'transmitted' }, { type: 'acked' });
    }
    if (transmitted && cal.isOpen(t) && t >= eligibleFrom && reaches(priceAt(t))) fill(evs, t, priceAt(t));
    if (!done && cancelDue !== null && t >= cancelDue) {
      evs.push({ type: 'canceled', reasonCode: 'CANCELED_BY_CLIENT' });
      done = true;
    }
    if (!done && transmitted && c.tif === 'day' && !cal.isOpen(t) && cal.isOpen(t - MIN)) {
      evs.push({ type: 'expired' });
      done = true;
    }
    if (evs.length) out.push({ atMs: t, events: evs });
  }
  return out;
}

/** The fast matcher as the service drives it: windows of chunkMs, the cancel request at its instant. */
function fast(c: Case, o0: MatchOrder, view: ReturnType<typeof createMarketView>, end: number): Timeline {
  const s0 = submit(o0, c.t0, view);
  const out: Timeline = [{ atMs: c.t0, events: s0.events }];
  let o = s0.order;
  let after = c.t0;
  const tc = c.cancelAfterMs === null ? null : c.t0 + c.cancelAfterMs;
  let cancelPending = tc !== null;
  while (after < end) {
    const stop = cancelPending && tc! < end ? Math.min(tc!, after + c.chunkMs, end) : Math.min(after + c.chunkMs, end);
    const s = nextStep(o, after, stop, view);
    if (s) {
      out.push({ atMs: s.atMs, events: s.events });
      o = s.order;
      after = s.atMs;
    } else after = stop;
    if (cancelPending && after >= tc!) {
      cancelPending = false;
      if (o.state !== 'filled' && o.state !== 'cancelled' && o.state !== 'expired')
        o = requestCancel(o, nextMinute(tc!));
    }
  }
  return out;
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    symbol: fc.constantFrom(...equities.map((e) => e.symbol)),
    side: fc.constantFrom<Side>('buy', 'sell'),
    type: fc.constantFrom<OrderType>('market', 'limit', 'limit', 'limit'),
    tif: fc.constantFrom<TimeInForce>('day', 'gtc', 'gtc', 'ioc', 'fok'),
    qty: fc.oneof(fc.constant(13), fc.integer({ min: 1, max: 50 })),
    limitOffsetBps: fc.integer({ min: -400, max: 200 }),
    t0: fc.integer({ min: START, max: START + 60 * DAY }),
    cancelAfterMs: fc.option(fc.integer({ min: 0, max: 3 * DAY }), { nil: null }),
    windowMs: fc.integer({ min: MIN, max: 8 * DAY }),
    chunkMs: fc.integer({ min: 10 * MIN, max: 4 * DAY }),
    overrides: fc
      .array(
        fc.record({
          dayOffset: fc.integer({ min: 0, max: 60 }),
          minute: fc.integer({ min: 0, max: 300 }),
          bps: fc.integer({ min: -500, max: 500 }),
        }),
        { maxLength: 2 },
      )
      .map((xs) =>
        xs.map((x) => ({
          symbol: '',
          atMs: START + x.dayOffset * DAY + 2 * 3_600_000 + x.minute * MIN,
          priceMicros: x.bps,
        })),
      ),
  })
  .map((c) => ({ ...c, overrides: c.overrides.map((o) => ({ ...o, symbol: c.symbol })) }));

describe('the fast matcher agrees with a minute-by-minute reference model', () => {
  it('same events at the same instants for random orders, cancels, windows and quote overrides', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const ref = equities.find((e) => e.symbol === c.symbol)!.ref_price_micros;
        // overrides carry an offset in bps of the reference; turn them into prices on the grid
        const overrides = c.overrides.map((o) => ({
          ...o,
          priceMicros: roundToTick(Math.max(1_000, Math.round((ref * (10_000 + o.priceMicros)) / 10_000)), 'nearest'),
        }));
        const tape = createTape({
          seed: 42,
          calendar: cal,
          instruments: equities.map((e) => ({ symbol: e.symbol, refPriceMicros: e.ref_price_micros })),
          overrides: () => overrides,
        });
        const view = createMarketView({ calendar: cal, tape, isHalted: () => false });
        if ((c.tif === 'ioc' || c.tif === 'fok') && !cal.isOpen(c.t0)) return; // refused by validation
        const limit =
          c.type === 'market'
            ? null
            : roundToTick(
                Math.round(
                  (tape.priceAt(c.symbol, c.t0) *
                    (10_000 + (c.side === 'buy' ? c.limitOffsetBps : -c.limitOffsetBps))) /
                    10_000,
                ),
                'nearest',
              );
        const o0: MatchOrder = {
          symbol: c.symbol,
          side: c.side,
          type: c.type,
          tif: c.tif,
          qty: c.qty,
          limitPriceMicros: limit,
          routing: 'auto',
          state: 'received',
          filledQty: 0,
          transmitted: false,
          eligibleFromMs: c.t0,
          cancelDueMs: null,
          reasonCode: null,
        };
        const end = c.t0 + c.windowMs;
        const expected = reference(c, limit, (ms) => tape.priceAt(c.symbol, ms), end);
        expect(fast(c, o0, view, end)).toEqual(expected);
      }),
      fcParams({ numRuns: 150 }),
    );
  });
});
