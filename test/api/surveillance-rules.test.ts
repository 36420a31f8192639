// The surveillance rules on hand-made order and fill sequences, at each threshold and just short of
// it (daemon/surveillance/rules.ts; docs/surveillance.md). The thresholds are the shipped defaults
// of fixtures/surveillance.json: a wash window of 10 minutes, 5 quick cancels within 2 minutes, and
// a concentration of more than 25% of the session volume.
import { describe, expect, it } from 'vitest';
import {
  concentration,
  layering,
  washTrades,
  type CancelFact,
  type FillFact,
} from '../../daemon/surveillance/rules.js';
import { defaultThresholds } from '../../daemon/surveillance/thresholds.js';

const T = defaultThresholds();
const MIN = 60_000;
const OPEN = Date.parse('2026-11-23T10:00:00+02:00');

let n = 0;
function fill(side: 'buy' | 'sell', atMin: number, o: Partial<FillFact> = {}): FillFact {
  n++;
  return {
    id: `fil_${n}`,
    order_id: `ord_${n}`,
    tenant_id: 'tnt_a',
    investor_id: 'inv_a',
    symbol: 'COMI',
    side,
    qty: 10,
    at_ms: OPEN + atMin * MIN,
    ...o,
  };
}

function cancel(side: 'buy' | 'sell', placedMin: number, afterMs: number, o: Partial<CancelFact> = {}): CancelFact {
  n++;
  return {
    order_id: `ord_${n}`,
    tenant_id: 'tnt_a',
    investor_id: 'inv_a',
    symbol: 'COMI',
    side,
    created_ms: OPEN + placedMin * MIN,
    canceled_ms: OPEN + placedMin * MIN + afterMs,
    ...o,
  };
}

describe('the shipped thresholds', () => {
  it('are the ones the docs state: 10 minutes, 5 cancels within 2 minutes, more than 2500 bps', () => {
    expect(T).toEqual({
      wash_window_minutes: 10,
      layering_min_cancels: 5,
      layering_cancel_within_minutes: 2,
      concentration_share_bps: 2500,
    });
  });
});

describe('wash trade: one investor buys and sells one symbol within the window', () => {
  it('a buy and a sell exactly 10 minutes apart raise one finding with both fills and orders as evidence', () => {
    const b = fill('buy', 0);
    const s = fill('sell', 10);
    const [f, ...rest] = washTrades([b, s], T);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      rule: 'wash_trade',
      investor_id: 'inv_a',
      symbol: 'COMI',
      fill_ids: [b.id, s.id],
      order_ids: [b.order_id, s.order_id],
      start_ms: b.at_ms,
      end_ms: s.at_ms,
    });
    expect(f.detail).toMatchObject({ buy_fills: 1, sell_fills: 1, min_gap_seconds: 600 });
  });

  it('a buy and a sell 10 minutes and 1 ms apart raise nothing', () => {
    expect(washTrades([fill('buy', 0), fill('sell', 10, { at_ms: OPEN + 10 * MIN + 1 })], T)).toEqual([]);
  });

  it("two buys, two sells in other symbols, or another investor's sell raise nothing", () => {
    expect(washTrades([fill('buy', 0), fill('buy', 1)], T)).toEqual([]);
    expect(washTrades([fill('buy', 0), fill('sell', 1, { symbol: 'ETEL' })], T)).toEqual([]);
    expect(washTrades([fill('buy', 0), fill('sell', 1, { investor_id: 'inv_b' })], T)).toEqual([]);
  });

  it('the evidence is only the fills that have a partner in the window', () => {
    const early = fill('buy', 0);
    const b = fill('buy', 30);
    const s = fill('sell', 35);
    expect(washTrades([early, b, s], T)[0].fill_ids).toEqual([b.id, s.id]);
  });
});

describe('layering-like cancels: >= 5 orders of one side cancelled within 2 minutes of placement', () => {
  const five = (within: number, side: 'buy' | 'sell' = 'buy') => [0, 1, 2, 3, 4].map((i) => cancel(side, i, within));

  it('5 buy orders each cancelled exactly 2 minutes after placement raise one finding naming the 5 orders', () => {
    const cs = five(2 * MIN);
    const [f, ...rest] = layering(cs, T);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      rule: 'layering',
      order_ids: cs.map((c) => c.order_id),
      fill_ids: [],
      detail: { side: 'buy', cancels: 5 },
    });
    expect([f.start_ms, f.end_ms]).toEqual([cs[0].created_ms, cs[4].canceled_ms]);
  });

  it('4 quick cancels raise nothing', () => {
    expect(layering(five(MIN).slice(0, 4), T)).toEqual([]);
  });

  it('5 cancels, one of them 2 minutes and 1 ms after placement, raise nothing', () => {
    const cs = five(MIN);
    cs[2] = cancel('buy', 2, 2 * MIN + 1);
    expect(layering(cs, T)).toEqual([]);
  });

  it('3 buys and 2 sells (5 cancels over both sides) raise nothing; 5 on each side raise one finding of both', () => {
    expect(layering([...five(MIN).slice(0, 3), ...five(MIN, 'sell').slice(0, 2)], T)).toEqual([]);
    const both = layering([...five(MIN), ...five(MIN, 'sell')], T);
    expect(both).toHaveLength(1);
    expect(both[0].detail).toMatchObject({ side: 'both', cancels: 10 });
  });
});

describe('concentration: one investor is more than 25% of the session volume', () => {
  it('2501 of 10000 shares raises a finding with the share; exactly 2500 of 10000 raises nothing', () => {
    const over = concentration([fill('buy', 0, { qty: 2501 })], () => 10_000, T);
    expect(over).toHaveLength(1);
    expect(over[0].detail).toMatchObject({
      investor_qty: 2501,
      session_volume: 10_000,
      share_bps: 2501,
      threshold_bps: 2500,
    });
    expect(concentration([fill('buy', 0, { qty: 2500 })], () => 10_000, T)).toEqual([]);
  });

  it("an investor's buys and sells add up (1300 + 1201 of 10000), fills of other investors do not", () => {
    expect(
      concentration([fill('buy', 0, { qty: 1300 }), fill('sell', 30, { qty: 1201 })], () => 10_000, T),
    ).toHaveLength(1);
    expect(
      concentration(
        [fill('buy', 0, { qty: 1300 }), fill('sell', 30, { qty: 1201, investor_id: 'inv_b' })],
        () => 10_000,
        T,
      ),
    ).toEqual([]);
  });

  it('a symbol with no volume raises nothing', () => {
    expect(concentration([fill('buy', 0)], () => 0, T)).toEqual([]);
  });
});
