import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  annualizedVolatility,
  averageCostAfterBuy,
  averageCostAfterSell,
  beta,
  dailyReturns,
  hhi,
  historicalVaR95,
  maxDrawdown,
  MAX_SERIES_POINTS,
  pairByDate,
  positionView,
  round6,
  sectorExposures,
  timeWeightedReturn,
  topHoldingPct,
  type ValuePoint,
} from '../../daemon/portfolio/analytics.js';

const EGP = 1_000_000;

/** A daily series from [EGP value, EGP net flow] pairs, one calendar day apart from 2026-06-01. */
function series(...days: Array<[number, number?]>): ValuePoint[] {
  return days.map(([value, flow = 0], i) => ({
    date: `2026-06-${String(i + 1).padStart(2, '0')}`,
    valueMicros: Math.round(value * EGP),
    netFlowMicros: Math.round(flow * EGP),
  }));
}

describe('time-weighted return: daily sub-periods with flows at the start of the day, chain-linked', () => {
  // d0 1,000 (base); d1 1,100: 1100/1000 = 1.1
  // d2 deposit 500 at the start, closes 1,540: 1540/(1100+500) = 0.9625
  // d3 1,694: 1694/1540 = 1.1
  // TWR = 1.1 x 0.9625 x 1.1 - 1 = 1.164625 - 1 = 0.164625
  const withDeposit = series([1_000], [1_100], [1_540, 500], [1_694]);

  it('by hand across a mid-series deposit', () => {
    expect(timeWeightedReturn(withDeposit)).toBe(0.164625);
    expect(dailyReturns(withDeposit)).toEqual([
      { date: '2026-06-02', dailyReturn: 0.1 },
      { date: '2026-06-03', dailyReturn: -0.0375 },
      { date: '2026-06-04', dailyReturn: 0.1 },
    ]);
  });
  it('a deposit mid-series does not look like a return (the naive end/start ratio would say 69.4%)', () => {
    // value unchanged except for the flows: every factor is exactly 1
    expect(timeWeightedReturn(series([1_000], [1_000], [1_500, 500], [1_500]))).toBe(0);
    expect(timeWeightedReturn(series([1_000], [600, -400], [600]))).toBe(0);
    expect(1_694 / 1_000 - 1).toBeCloseTo(0.694, 12);
  });
  it('the first point is the base: its own flow is already in its value', () => {
    expect(timeWeightedReturn(series([1_000, 1_000], [1_100]))).toBe(0.1);
  });
  it('an account funded mid-series: days with no capital have no return', () => {
    // d0 0; d1 0 (no capital, left out); d2 deposit 1,000 closes 1,000: 1000/1000; d3 1,100: 1.1
    const s = series([0], [0], [1_000, 1_000], [1_100]);
    expect(timeWeightedReturn(s)).toBe(0.1);
    expect(dailyReturns(s).map((r) => r.date)).toEqual(['2026-06-03', '2026-06-04']);
  });
  it('edge cases: empty, one point, no capital at all give null', () => {
    expect(timeWeightedReturn([])).toBeNull();
    expect(timeWeightedReturn(series([1_000]))).toBeNull();
    expect(timeWeightedReturn(series([0], [0]))).toBeNull();
    expect(timeWeightedReturn(series([1_000], [0, -1_000]))).toBeNull(); // everything withdrawn at the start of d1
    expect(dailyReturns([])).toEqual([]);
  });
  it('is exact and rounds to 6 decimals half away from zero', () => {
    expect(timeWeightedReturn(series([3], [4]))).toBe(0.333333); // 1/3
    expect(timeWeightedReturn(series([3], [5]))).toBe(0.666667); // 2/3
    expect(timeWeightedReturn(series([3], [2]))).toBe(-0.333333);
    // 2,000,001 / 2,000,000 - 1 = 0.0000005 exactly: half goes away from zero
    const up: ValuePoint[] = [
      { date: '2026-06-01', valueMicros: 2_000_000, netFlowMicros: 0 },
      { date: '2026-06-02', valueMicros: 2_000_001, netFlowMicros: 0 },
    ];
    const down: ValuePoint[] = [up[0], { ...up[1], valueMicros: 1_999_999 }];
    expect(timeWeightedReturn(up)).toBe(0.000001);
    expect(timeWeightedReturn(down)).toBe(-0.000001);
  });
  it('dates must be strictly ascending and amounts integers', () => {
    expect(() => timeWeightedReturn([...series([1_000], [1_100])].reverse())).toThrow(RangeError);
    expect(() => timeWeightedReturn([{ date: '2026-06-01', valueMicros: 1.5, netFlowMicros: 0 }])).toThrow(RangeError);
  });
});

describe('annualized volatility: sample standard deviation x sqrt(252)', () => {
  it('by hand', () => {
    // [0.01, -0.01, 0.02, 0]: mean 0.005; deviations 0.005, -0.015, 0.015, -0.005
    // squares 0.000025 + 0.000225 + 0.000225 + 0.000025 = 0.0005; / (4 - 1) = 0.000166667
    // x 252 = 0.042; sqrt(0.042) = 0.2049390153 -> 0.204939
    expect(annualizedVolatility([0.01, -0.01, 0.02, 0])).toBe(0.204939);
    // [0.02, -0.02]: mean 0, squares 0.0008 / 1 x 252 = 0.2016, sqrt = 0.4489988864 -> 0.448999
    expect(annualizedVolatility([0.02, -0.02])).toBe(0.448999);
    // periodsPerYear 1: the daily sample deviation itself, sqrt(0.000166667) = 0.0129099445 -> 0.01291
    expect(annualizedVolatility([0.01, -0.01, 0.02, 0], 1)).toBe(0.01291);
  });
  it('is 0 for a constant series and null below two returns', () => {
    expect(annualizedVolatility([0.001, 0.001, 0.001])).toBe(0);
    expect(annualizedVolatility([0.01])).toBeNull();
    expect(annualizedVolatility([])).toBeNull();
  });
});

describe('maximum drawdown of the flow-neutral wealth index, a positive fraction', () => {
  it('by hand: the worst of two falls', () => {
    // 100 -> 120 (peak) -> 90: (120 - 90) / 120 = 0.25; then 110 -> 130 (new peak) -> 104: 26 / 130 = 0.2
    expect(maxDrawdown(series([100], [120], [90], [110], [130], [104]))).toBe(0.25);
  });
  it('a withdrawal is not a drawdown, and a deposit does not hide one', () => {
    // 100 -> 120, then 60 withdrawn at the start of d2 and it closes at 60: factor 60/60 = 1, no fall
    expect(maxDrawdown(series([100], [120], [60, -60]))).toBe(0);
    // 100 -> 80 (index 0.8), then 100 deposited, closes 180: factor 180/180 = 1, the index stays 0.8
    expect(maxDrawdown(series([100], [80], [180, 100]))).toBe(0.2);
  });
  it('rounds exactly: 300 -> 200 is 1/3', () => {
    expect(maxDrawdown(series([300], [200]))).toBe(0.333333);
  });
  it('edge cases: empty null, one point 0, a rising series 0', () => {
    expect(maxDrawdown([])).toBeNull();
    expect(maxDrawdown(series([100]))).toBe(0);
    expect(maxDrawdown(series([100], [101], [102]))).toBe(0);
  });
  it('a fall recovered to exactly the old peak starts a new run from there', () => {
    // 100 -> 90 (0.1) -> 100 (peak again) -> 85: 15 / 100 = 0.15
    expect(maxDrawdown(series([100], [90], [100], [85]))).toBe(0.15);
    // two equal troughs (the doubles tie, the exact comparison decides): 0.2 either way
    expect(maxDrawdown(series([100], [80], [100], [80]))).toBe(0.2);
  });
});

describe('1-day historical VaR(95): the nearest-rank 5th percentile of daily returns, as a loss', () => {
  it('40 returns: rank ceil(0.05 x 40) = 2, the second-worst day', () => {
    const returns = [-0.05, -0.03, -0.02, ...Array<number>(37).fill(0.01)];
    // value EGP 1,234,567.891234 x 0.03 = 37,037,036,737.02 micros -> 37,037,036,737
    expect(historicalVaR95(returns, 1_234_567_891_234)).toEqual({ var95_pct: 0.03, var95_micros: 37_037_036_737 });
  });
  it('60 returns: rank ceil(0.05 x 60) = 3, whatever the order of the input', () => {
    const returns = [0.005, -0.01, -0.04, -0.02, -0.03, ...Array<number>(55).fill(0.005)];
    // sorted: -0.04, -0.03, -0.02 (third), -0.01, ... -> 0.02 of EGP 100,000 = EGP 2,000
    expect(historicalVaR95(returns, 100_000 * EGP)).toEqual({ var95_pct: 0.02, var95_micros: 2_000 * EGP });
  });
  it('below 20 returns the 5th percentile is the worst day; 21 returns take the second', () => {
    expect(historicalVaR95([0.01, -0.012345, 0.003], 1_000 * EGP)).toEqual({
      var95_pct: 0.012345,
      var95_micros: 12_345_000,
    });
    const r21 = [-0.05, -0.04, ...Array<number>(19).fill(0)];
    expect(historicalVaR95(r21, EGP)?.var95_pct).toBe(0.04);
  });
  it('no loss at the 5th percentile is a VaR of 0; no returns is null', () => {
    expect(historicalVaR95([0.01, 0.02, 0], 1_000 * EGP)).toEqual({ var95_pct: 0, var95_micros: 0 });
    expect(historicalVaR95([], 1_000 * EGP)).toBeNull();
  });
  it('the money figure is the rounded fraction x value, half up to the micro', () => {
    // 0.5 x 3 micros = 1.5 -> 2; 0.123457 (rounded from 0.12345678) x EGP 1 = 123,457 micros
    expect(historicalVaR95([-0.5], 3)).toEqual({ var95_pct: 0.5, var95_micros: 2 });
    expect(historicalVaR95([-0.12345678], EGP)).toEqual({ var95_pct: 0.123457, var95_micros: 123_457 });
  });
});

describe('beta against the index: sample covariance / sample variance', () => {
  it('by hand', () => {
    // index [0.01, 0.02, -0.01, 0]: mean 0.005; deviations 0.005, 0.015, -0.015, -0.005
    // asset [0.02, 0.01, -0.02, 0.03]: mean 0.01; deviations 0.01, 0, -0.03, 0.02
    // covariance sum 0.00005 + 0 + 0.00045 - 0.0001 = 0.0004; variance sum 0.0005; beta = 0.8
    expect(beta([0.02, 0.01, -0.02, 0.03], [0.01, 0.02, -0.01, 0])).toBe(0.8);
    expect(beta([0.01, 0.02, -0.01, 0], [0.01, 0.02, -0.01, 0])).toBe(1);
    expect(beta([-0.02, -0.04, 0.02, 0], [0.01, 0.02, -0.01, 0])).toBe(-2);
  });
  it('is null when the index never moved (zero variance), even where a float mean is inexact', () => {
    // mean of [0.1, 0.1, 0.1] in doubles is 0.10000000000000002: the deviations would not be 0
    expect(beta([0.01, 0.02, 0.03], [0.1, 0.1, 0.1])).toBeNull();
    expect(beta([0.01], [0.02])).toBeNull();
    expect(beta([], [])).toBeNull();
  });
  it('needs aligned series', () => {
    expect(() => beta([0.01, 0.02], [0.01])).toThrow(RangeError);
    const paired = pairByDate(
      [
        { date: '2026-06-02', dailyReturn: 0.01 },
        { date: '2026-06-03', dailyReturn: 0.02 },
        { date: '2026-06-04', dailyReturn: 0.03 },
      ],
      [
        { date: '2026-06-03', dailyReturn: -0.01 },
        { date: '2026-06-04', dailyReturn: 0.05 },
        { date: '2026-06-05', dailyReturn: 0.07 },
      ],
    );
    expect(paired).toEqual({ asset: [0.02, 0.03], index: [-0.01, 0.05] });
  });
});

describe('exposures: HHI, top holding, sectors', () => {
  it('HHI = sum of squared weights, a fraction in (0, 1]', () => {
    // weights 0.5, 0.3, 0.2: 0.25 + 0.09 + 0.04 = 0.38
    expect(hhi([50 * EGP, 30 * EGP, 20 * EGP])).toBe(0.38);
    expect(hhi([7 * EGP])).toBe(1);
    expect(hhi([1, 1, 1, 1])).toBe(0.25);
    expect(hhi([1, 1, 1])).toBe(0.333333);
    expect(hhi([])).toBeNull();
    expect(hhi([0, 0])).toBeNull();
  });
  it('top holding = largest value / total portfolio value, cash included', () => {
    // holdings 50, 30, 20 plus 25 cash: 50 / 125 = 0.4
    expect(topHoldingPct([50 * EGP, 30 * EGP, 20 * EGP], 125 * EGP)).toBe(0.4);
    expect(topHoldingPct([], 125 * EGP)).toBeNull();
    expect(topHoldingPct([0], 0)).toBeNull();
  });
  it('sector exposures are summed per sector and ordered alphabetically, never by size', () => {
    const out = sectorExposures(
      [
        { sector: 'Real estate', valueMicros: 25 * EGP },
        { sector: 'Healthcare', valueMicros: 30 * EGP },
        { sector: 'Banks', valueMicros: 10 * EGP },
        { sector: 'Healthcare', valueMicros: 10 * EGP },
      ],
      100 * EGP, // 75 invested + 25 cash
    );
    expect(out).toEqual([
      { sector: 'Banks', value_micros: 10 * EGP, weight_pct: 0.1 },
      { sector: 'Healthcare', value_micros: 40 * EGP, weight_pct: 0.4 },
      { sector: 'Real estate', value_micros: 25 * EGP, weight_pct: 0.25 },
    ]);
    expect(sectorExposures([], 0)).toEqual([]);
    expect(sectorExposures([{ sector: 'Banks', valueMicros: 0 }], 0)).toEqual([
      { sector: 'Banks', value_micros: 0, weight_pct: null },
    ]);
  });
});

describe('average cost: buys add quantity and cost with fees, sells release cost proportionally', () => {
  it('two buys and two sells by hand', () => {
    // buy 100 @ 80.00 + fees 21.50: cost 8,021.50
    let b = averageCostAfterBuy(
      { qty: 0, costMicros: 0 },
      { qty: 100, considerationMicros: 8_000 * EGP, feesMicros: 21_500_000 },
    );
    expect(b).toEqual({ qty: 100, costMicros: 8_021_500_000 });
    // buy 50 @ 90.00 + fees 12.375: cost 12,533.875 for 150
    b = averageCostAfterBuy(b, { qty: 50, considerationMicros: 4_500 * EGP, feesMicros: 12_375_000 });
    expect(b).toEqual({ qty: 150, costMicros: 12_533_875_000 });
    // sell 40 @ 95.00, fees 10.45: released 12,533,875,000 x 40 / 150 = 3,342,366,666.67 -> 3,342,366,667
    // realized 3,800,000,000 - 10,450,000 - 3,342,366,667 = 447,183,333
    const s1 = averageCostAfterSell(b, { qty: 40, proceedsMicros: 3_800 * EGP, feesMicros: 10_450_000 });
    expect(s1).toEqual({
      qty: 110,
      costMicros: 9_191_508_333,
      releasedCostMicros: 3_342_366_667,
      realizedMicros: 447_183_333,
    });
    // selling the rest releases all of the remaining cost: nothing is left behind
    const s2 = averageCostAfterSell(s1, { qty: 110, proceedsMicros: 9_000 * EGP, feesMicros: 0 });
    expect(s2).toEqual({ qty: 0, costMicros: 0, releasedCostMicros: 9_191_508_333, realizedMicros: -191_508_333 });
  });
  it('released cost rounds half up and the pieces always add up to the cost', () => {
    const s = averageCostAfterSell({ qty: 2, costMicros: 5 }, { qty: 1, proceedsMicros: 0, feesMicros: 0 }); // 2.5 -> 3
    expect(s).toMatchObject({ qty: 1, costMicros: 2, releasedCostMicros: 3 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000_000_000 }),
        fc.array(fc.integer({ min: 1, max: 1_000 }), { maxLength: 20 }),
        (qty, cost, sells) => {
          let basis = { qty, costMicros: cost };
          let released = 0;
          for (const n of sells) {
            if (n > basis.qty) break;
            const r = averageCostAfterSell(basis, { qty: n, proceedsMicros: 0, feesMicros: 0 });
            released += r.releasedCostMicros;
            basis = { qty: r.qty, costMicros: r.costMicros };
          }
          expect(released + basis.costMicros).toBe(cost);
          expect(basis.costMicros).toBeGreaterThanOrEqual(0);
          if (basis.qty === 0) expect(basis.costMicros).toBe(0);
        },
      ),
    );
  });
  it('selling more than is held is a bug', () => {
    expect(() => averageCostAfterSell({ qty: 1, costMicros: 1 }, { qty: 2, proceedsMicros: 0, feesMicros: 0 })).toThrow(
      RangeError,
    );
  });
});

describe('position view: value, unrealized P/L and weight (fractions)', () => {
  it('an equity by hand', () => {
    // 110 x 97.50 = 10,725.00; unrealized 10,725,000,000 - 9,191,508,333 = 1,533,491,667
    // / 9,191,508,333 = 0.166837869 -> 0.166838; weight 10,725 / 20,000 = 0.53625
    expect(
      positionView({
        kind: 'equity',
        qty: 110,
        costMicros: 9_191_508_333,
        priceMicros: 97_500_000,
        totalValueMicros: 20_000 * EGP,
      }),
    ).toEqual({
      value_micros: 10_725 * EGP,
      unrealized_micros: 1_533_491_667,
      unrealized_pct: 0.166838,
      weight_pct: 0.53625,
    });
  });
  it('a fund: unit-micros x NAV / 1,000,000, floored like a redemption', () => {
    // 1,000 units after one sweep at NAV 10.006712: 10,006.712; gain 6.712 on 10,000 = 0.0006712 -> 0.000671
    expect(
      positionView({
        kind: 'fund',
        qty: 1_000_000_000,
        costMicros: 10_000 * EGP,
        priceMicros: 10_006_712,
        totalValueMicros: 40_000 * EGP,
      }),
    ).toEqual({
      value_micros: 10_006_712_000,
      unrealized_micros: 6_712_000,
      unrealized_pct: 0.000671,
      weight_pct: 0.250168,
    });
    // 29,301,847 unit-micros at 341.275413: 9,999,999,936.59 -> 9,999,999,936
    expect(
      positionView({
        kind: 'fund',
        qty: 29_301_847,
        costMicros: 9_999_999_937,
        priceMicros: 341_275_413,
        totalValueMicros: 9_999_999_936,
      }),
    ).toEqual({ value_micros: 9_999_999_936, unrealized_micros: -1, unrealized_pct: 0, weight_pct: 1 });
  });
  it('cash at price 1,000,000 is worth its amount; zero cost or zero total give null ratios', () => {
    expect(
      positionView({
        kind: 'cash',
        qty: 5_000 * EGP,
        costMicros: 5_000 * EGP,
        priceMicros: EGP,
        totalValueMicros: 20_000 * EGP,
      }),
    ).toEqual({
      value_micros: 5_000 * EGP,
      unrealized_micros: 0,
      unrealized_pct: 0,
      weight_pct: 0.25,
    });
    expect(
      positionView({ kind: 'equity', qty: 10, costMicros: 0, priceMicros: EGP, totalValueMicros: 0 }),
    ).toMatchObject({ unrealized_pct: null, weight_pct: null });
  });
});

describe('round6', () => {
  it('rounds half away from zero and never returns -0', () => {
    expect(round6(0.12345678)).toBe(0.123457);
    expect(round6(-0.12345678)).toBe(-0.123457);
    expect(round6(0.5)).toBe(0.5);
    expect(round6(-0.0000004)).toBe(0);
    expect(Object.is(round6(-0.0000004), 0)).toBe(true);
    expect(() => round6(Number.NaN)).toThrow(RangeError);
  });
});

describe('the exact statistics are bounded: a series longer than MAX_SERIES_POINTS is refused, never a stall', () => {
  it('4,001 points is a RangeError for the time-weighted return and the drawdown', () => {
    const points = Array.from({ length: MAX_SERIES_POINTS + 1 }, (_, i) => ({
      date: new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
      valueMicros: 1_000_000_000 + i,
      netFlowMicros: 0,
    }));
    expect(() => timeWeightedReturn(points)).toThrow(RangeError);
    expect(() => maxDrawdown(points)).toThrow(RangeError);
    expect(timeWeightedReturn(points.slice(0, MAX_SERIES_POINTS))).toBeTypeOf('number');
  });
});
