import { describe, it, expect } from 'vitest';
import {
  deskExecute,
  deskReject,
  nextStep,
  requestCancel,
  STATUS_OF,
  submit,
  type MatchOrder,
  type MarketView,
  type Step,
} from '../../daemon/trading/matcher.js';
import { fixtureCalendar, naiveView } from '../helpers/market.js';

const cal = fixtureCalendar();
const T = (iso: string) => Date.parse(iso);
const SUN = '2026-11-22'; // a Sunday, winter time (+02:00): session 10:00-14:30
const OPEN = T('2026-11-22T10:00:00+02:00');
const CLOSE = T('2026-11-22T14:30:00+02:00');
const MIN = 60_000;

/** 20.00 EGP everywhere except the listed ticks ("date|minute" -> price). */
function view(ticks: Record<string, number> = {}): MarketView & { halts: Set<string> } {
  return naiveView(cal, (_s, date, minute) => ticks[`${date}|${minute}`] ?? 20_000_000);
}

function order(p: Partial<MatchOrder> = {}): MatchOrder {
  return {
    symbol: 'TEST',
    side: 'buy',
    type: 'market',
    tif: 'day',
    qty: 10,
    limitPriceMicros: null,
    routing: 'auto',
    state: 'received',
    filledQty: 0,
    transmitted: false,
    eligibleFromMs: 0,
    cancelDueMs: null,
    reasonCode: null,
    ...p,
  };
}

/** Every step of the order from afterMs up to untilMs. */
function run(o: MatchOrder, afterMs: number, untilMs: number, v: MarketView): Step[] {
  const steps: Step[] = [];
  for (let s = nextStep(o, afterMs, untilMs, v); s; s = nextStep(s.order, s.atMs, untilMs, v)) steps.push(s);
  return steps;
}

const types = (s: Step) => s.events.map((e) => e.type);

describe('market orders fill immediately when the session is open, at the tape price', () => {
  it('a buy in session: transmitted, acked, filled at the price now', () => {
    const s = submit(order(), OPEN + 5 * MIN + 30_000, view({ [`${SUN}|5`]: 20_110_000 }));
    expect(types(s)).toEqual(['transmitted', 'acked', 'filled']);
    expect(s.events[2]).toMatchObject({ qty: 10, priceMicros: 20_110_000 });
    expect(s.order.state).toBe('filled');
    expect(STATUS_OF[s.order.state]).toBe('filled');
  });

  it('outside the session a day or gtc order is queued (accepted) and transmits at the next open', () => {
    const v = view({ [`${SUN}|0`]: 19_900_000 });
    const s = submit(order(), OPEN - 3_600_000, v);
    expect(types(s)).toEqual(['accepted']);
    expect(STATUS_OF[s.order.state]).toBe('accepted');
    const steps = run(s.order, s.atMs, CLOSE, v);
    expect(steps).toHaveLength(1);
    expect(steps[0].atMs).toBe(OPEN);
    expect(types(steps[0])).toEqual(['transmitted', 'acked', 'filled']);
    expect(steps[0].events[2]).toMatchObject({ priceMicros: 19_900_000 });
  });
});

describe('a marketable limit fills at the tape price, never worse than the limit', () => {
  it('a buy limit above the tape fills at the (lower) tape price', () => {
    const s = submit(order({ type: 'limit', limitPriceMicros: 21_000_000 }), OPEN + 60 * MIN, view());
    expect(s.events.at(-1)).toMatchObject({ type: 'filled', priceMicros: 20_000_000 });
  });
  it('a sell limit below the tape fills at the (higher) tape price', () => {
    const s = submit(order({ side: 'sell', type: 'limit', limitPriceMicros: 19_000_000 }), OPEN + 60 * MIN, view());
    expect(s.events.at(-1)).toMatchObject({ type: 'filled', priceMicros: 20_000_000 });
  });
});

describe('a limit away from the market rests until a minute tick reaches it', () => {
  it("acked (status new), then filled at the first reaching tick, at that tick's price", () => {
    const v = view({ [`${SUN}|100`]: 19_520_000, [`${SUN}|130`]: 19_480_000, [`${SUN}|131`]: 19_400_000 });
    const s = submit(order({ type: 'limit', limitPriceMicros: 19_500_000 }), OPEN + 10 * MIN, v);
    expect(types(s)).toEqual(['transmitted', 'acked']);
    expect(STATUS_OF[s.order.state]).toBe('new');
    const steps = run(s.order, s.atMs, CLOSE, v);
    expect(steps).toHaveLength(1);
    expect(steps[0].atMs).toBe(OPEN + 130 * MIN);
    expect(steps[0].events).toEqual([{ type: 'filled', qty: 10, priceMicros: 19_480_000 }]);
  });

  it('a resting day order expires at the session close', () => {
    const v = view();
    const s = submit(order({ type: 'limit', limitPriceMicros: 19_000_000 }), OPEN + 10 * MIN, v);
    const steps = run(s.order, s.atMs, CLOSE + 86_400_000, v);
    expect(steps).toHaveLength(1);
    expect(steps[0].atMs).toBe(CLOSE);
    expect(types(steps[0])).toEqual(['expired']);
    expect(steps[0].order.reasonCode).toBeNull();
  });

  it('gtc persists across sessions: across the Friday-Saturday weekend it fills on Sunday', () => {
    // Thursday 2026-11-26, then Sunday 2026-11-29 minute 3
    const thu = T('2026-11-26T13:00:00+02:00');
    const v = view({ '2026-11-29|3': 18_990_000 });
    const s = submit(order({ type: 'limit', tif: 'gtc', limitPriceMicros: 19_000_000 }), thu, v);
    const steps = run(s.order, s.atMs, T('2026-12-03T00:00:00+02:00'), v);
    expect(steps).toHaveLength(1);
    expect(steps[0].atMs).toBe(T('2026-11-29T10:03:00+02:00'));
    expect(steps[0].events[0]).toMatchObject({ type: 'filled', priceMicros: 18_990_000 });
  });

  it('a halted symbol does not fill while halted', () => {
    const v = view({ [`${SUN}|50`]: 18_000_000 });
    v.halts.add('TEST');
    const s = submit(order({ type: 'limit', limitPriceMicros: 19_000_000 }), OPEN + 10 * MIN, v);
    expect(run(s.order, s.atMs, CLOSE, v).map(types)).toEqual([['expired']]);
  });
});

describe('time in force: ioc and fok never rest', () => {
  it('ioc not marketable now is canceled at once', () => {
    const s = submit(order({ type: 'limit', tif: 'ioc', limitPriceMicros: 19_000_000 }), OPEN + 10 * MIN, view());
    expect(types(s)).toEqual(['transmitted', 'acked', 'canceled']);
    expect(s.order.reasonCode).toBe('IOC_REMAINDER_CANCELED');
    expect(run(s.order, s.atMs, CLOSE, view())).toEqual([]);
  });
  it('ioc marketable fills now', () => {
    const s = submit(order({ type: 'limit', tif: 'ioc', limitPriceMicros: 21_000_000 }), OPEN + 10 * MIN, view());
    expect(s.order.state).toBe('filled');
  });
  it('fok fills the whole quantity now or cancels', () => {
    expect(
      submit(order({ type: 'limit', tif: 'fok', limitPriceMicros: 21_000_000 }), OPEN + 10 * MIN, view()).order.state,
    ).toBe('filled');
    const no = submit(order({ type: 'limit', tif: 'fok', limitPriceMicros: 19_000_000 }), OPEN + 10 * MIN, view());
    expect(no.order).toMatchObject({ state: 'cancelled', filledQty: 0, reasonCode: 'FOK_NOT_FILLED' });
  });
  it('sandbox qty 13: ioc fills 7 and cancels 6; fok fills 13 at once', () => {
    const ioc = submit(order({ qty: 13, tif: 'ioc' }), OPEN + 10 * MIN, view());
    expect(types(ioc)).toEqual(['transmitted', 'acked', 'partially_filled', 'canceled']);
    expect(ioc.order).toMatchObject({ filledQty: 7, state: 'cancelled' });
    const fok = submit(order({ qty: 13, tif: 'fok' }), OPEN + 10 * MIN, view());
    expect(fok.events[2]).toMatchObject({ type: 'filled', qty: 13 });
  });
});

describe('sandbox: qty 13 fills in two partial executions, the second one simulated minute later', () => {
  it("market: 7 now, 6 at the first minute tick at least a simulated minute later, at that minute's price", () => {
    const v = view({ [`${SUN}|10`]: 20_000_000, [`${SUN}|11`]: 20_050_000, [`${SUN}|12`]: 20_070_000 });
    const s = submit(order({ qty: 13 }), OPEN + 10 * MIN + 20_000, v);
    expect(s.events.at(-1)).toEqual({ type: 'partially_filled', qty: 7, priceMicros: 20_000_000 });
    expect(STATUS_OF[s.order.state]).toBe('partially_filled');
    const steps = run(s.order, s.atMs, CLOSE, v);
    expect(steps).toHaveLength(1);
    // placed 20 s into the minute: the 11th-minute tick is only 40 s later, so the 12th
    expect(steps[0].atMs).toBe(OPEN + 12 * MIN);
    expect(steps[0].events).toEqual([{ type: 'filled', qty: 6, priceMicros: 20_070_000 }]);
    // placed on the minute, the next tick is exactly a minute later
    const onTheMinute = submit(order({ qty: 13 }), OPEN + 10 * MIN, v);
    expect(run(onTheMinute.order, onTheMinute.atMs, CLOSE, v).map((x) => x.atMs)).toEqual([OPEN + 11 * MIN]);
  });
  it('limit: the second leg is never worse than the limit; it waits for a tick that reaches it', () => {
    const v = view({ [`${SUN}|11`]: 20_100_000, [`${SUN}|12`]: 20_060_000 });
    const s = submit(order({ qty: 13, type: 'limit', limitPriceMicros: 20_050_000 }), OPEN + 10 * MIN, v);
    const steps = run(s.order, s.atMs, CLOSE, v);
    expect(steps.map((x) => x.atMs)).toEqual([OPEN + 13 * MIN]);
    expect(steps[0].events[0]).toEqual({ type: 'filled', qty: 6, priceMicros: 20_000_000 });
  });
});

describe('cancel: pending_cancel, then canceled asynchronously; a fill that wins the race stays the truth', () => {
  it('a resting order is canceled at the next minute', () => {
    const v = view();
    const s = submit(order({ type: 'limit', limitPriceMicros: 19_000_000 }), OPEN + 10 * MIN, v);
    const c = requestCancel(s.order, OPEN + 12 * MIN);
    expect(STATUS_OF[c.state]).toBe('pending_cancel');
    const steps = run(c, OPEN + 11 * MIN + 5_000, CLOSE, v);
    expect(steps.map((x) => [x.atMs, types(x)])).toEqual([[OPEN + 12 * MIN, ['canceled']]]);
    expect(steps[0].order).toMatchObject({ state: 'cancelled', reasonCode: 'CANCELED_BY_CLIENT' });
  });
  it('a fill on the tick the cancel was due wins: the order stays filled', () => {
    const v = view({ [`${SUN}|12`]: 18_900_000 });
    const s = submit(order({ type: 'limit', limitPriceMicros: 19_000_000 }), OPEN + 10 * MIN, v);
    const steps = run(requestCancel(s.order, OPEN + 12 * MIN), OPEN + 11 * MIN + 5_000, CLOSE, v);
    expect(steps).toHaveLength(1);
    expect(types(steps[0])).toEqual(['filled']);
    expect(steps[0].order.state).toBe('filled');
  });
  it('a queued order canceled before the open never transmits', () => {
    const v = view();
    const s = submit(order(), OPEN - 600_000, v);
    const steps = run(requestCancel(s.order, OPEN - 540_000), OPEN - 580_000, CLOSE, v);
    expect(steps.map(types)).toEqual([['canceled']]);
  });
});

describe('the dealer desk: orders wait in received until executed or rejected', () => {
  it('no events from the tape; a day order expires at the close; ioc is canceled at the close', () => {
    const v = view({ [`${SUN}|50`]: 10_000_000 });
    const d = submit(order({ routing: 'desk' }), OPEN + 10 * MIN, v);
    expect(d.events).toEqual([]);
    expect(STATUS_OF[d.order.state]).toBe('pending_new');
    expect(run(d.order, d.atMs, CLOSE + 1, v).map((x) => [x.atMs, types(x)])).toEqual([[CLOSE, ['expired']]]);
    const ioc = submit(order({ routing: 'desk', tif: 'ioc' }), OPEN + 10 * MIN, v);
    expect(run(ioc.order, ioc.atMs, CLOSE + 1, v)[0].order).toMatchObject({
      state: 'cancelled',
      reasonCode: 'DESK_NOT_EXECUTED',
    });
    const gtc = submit(order({ routing: 'desk', tif: 'gtc' }), OPEN + 10 * MIN, v);
    expect(run(gtc.order, gtc.atMs, CLOSE + 7 * 86_400_000, v)).toEqual([]);
  });
  it("execute fills at the dealer's price and quantity; reject sets the reason code", () => {
    const d = submit(order({ routing: 'desk', qty: 10 }), OPEN + 10 * MIN, view()).order;
    const part = deskExecute(d, 4, 20_010_000, OPEN + 20 * MIN);
    expect(types(part)).toEqual(['transmitted', 'acked', 'partially_filled']);
    expect(part.order.filledQty).toBe(4);
    const rest = deskExecute(part.order, 6, 20_020_000, OPEN + 21 * MIN);
    expect(rest.order.state).toBe('filled');
    expect(deskReject(d, 'DEALER_REJECTED', OPEN + 20 * MIN).order).toMatchObject({
      state: 'rejected',
      reasonCode: 'DEALER_REJECTED',
    });
  });
});

describe('the horizon: stepping in windows gives the same events as one long look', () => {
  it('a gtc limit found after several empty windows', () => {
    const v = view({ '2026-12-10|77': 18_000_000 });
    const s = submit(order({ type: 'limit', tif: 'gtc', limitPriceMicros: 18_500_000 }), OPEN + 10 * MIN, v);
    const end = T('2026-12-20T00:00:00+02:00');
    const whole = run(s.order, s.atMs, end, v);
    let after = s.atMs;
    let found: Step | null = null;
    while (!found && after < end) {
      const until = Math.min(after + 2 * 86_400_000, end);
      found = nextStep(s.order, after, until, v);
      after = until;
    }
    expect(whole).toHaveLength(1);
    expect(found).toEqual(whole[0]);
    expect(whole[0].atMs).toBe(T('2026-12-10T11:17:00+02:00'));
  });
});
