import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { cash, EGP, order, trader } from '../helpers/trading.js';
import {
  annualizedVolatility,
  beta,
  dailyReturns,
  historicalVaR95,
  maxDrawdown,
  pairByDate,
  timeWeightedReturn,
  type ValuePoint,
} from '../../daemon/portfolio/analytics.js';

// Sunday 2026-11-22 09:00 Cairo. COMI buys settle T+2 (Tuesday 10:00); BMYBY (24.50%, NAV 10.000000)
// sweeps daily at 12:00.
let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const at = (iso: string) => advance(t, { until: iso });
const get = async (path: string) => {
  const res = await t.req('GET', path);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const setQuote = async (symbol: string, price: number) =>
  expect((await t.req('POST', '/admin/sandbox/quote', { body: { symbol, price_micros: price } })).status).toBe(200);

/** Deposits, a buy, a fund subscription, a dividend, a sale and a fund redemption; read on Wednesday 11:30. */
async function journey(): Promise<string> {
  const inv = await trader(t, 0);
  const dep = await t.req('POST', '/v1/transfers', {
    body: { investor_id: inv, direction: 'deposit', amount_micros: 50_000 * EGP },
  });
  expect(dep.status).toBe(201);
  // 1.00 EGP a share on COMI, ex Monday, paid Wednesday
  expect(
    (
      await t.req('POST', '/admin/sandbox/declare-dividend', {
        body: { symbol: 'COMI', amount_per_share_micros: EGP, ex_date: '2026-11-23', pay_date: '2026-11-25' },
      })
    ).status,
  ).toBe(201);
  await at('2026-11-22T10:05:00+02:00');
  expect(cash(t, inv).settled).toBe(50_000 * EGP);
  await setQuote('COMI', 85_000_000);
  // 100 x 85.00 + fees 11.05 + stamp duty 10.625 = 8,521.675 EGP
  expect(
    (await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 100 })).body.status,
  ).toBe('filled');
  // 10,000 EGP into BMYBY at 10.000000 before the cut-off: 1,000 units
  expect(
    (
      await t.req('POST', '/v1/fund-orders', {
        body: { investor_id: inv, fund_code: 'BMYBY', side: 'subscribe', amount_micros: 10_000 * EGP },
      })
    ).body.result_units_micros,
  ).toBe(1_000_000_000);
  // Tuesday: the shares settled at 10:00; sell 40 at 90.00: 3,600 - fees 6.08 - stamp duty 4.50 = 3,589.42 EGP
  // (unsettled until Thursday)
  await at('2026-11-24T10:05:00+02:00');
  await setQuote('COMI', 90_000_000);
  expect(
    (await order(t, { investor_id: inv, symbol: 'COMI', side: 'sell', type: 'market', qty: 40 })).body.status,
  ).toBe('filled');
  // Wednesday 00:00: the dividend, 100 EGP gross, 10 EGP withheld. 11:00: redeem 400 units at Tuesday's NAV
  await at('2026-11-25T11:00:00+02:00');
  const red = await t.req('POST', '/v1/fund-orders', {
    body: { investor_id: inv, fund_code: 'BMYBY', side: 'redeem', units_micros: 400_000_000 },
  });
  expect(red.body).toMatchObject({
    nav_micros: 10_020_150,
    nav_date: '2026-11-24',
    result_amount_micros: 4_008_060_000,
  });
  await at('2026-11-25T11:30:00+02:00');
  await setQuote('COMI', 88_000_000);
  return inv;
}

describe('GET /v1/investors/{id}/portfolio: total value, cash and positions with every field of the spec', () => {
  it('a portfolio test across deposits, fills, a dividend and a fund redemption checks every position field', async () => {
    const inv = await journey();
    const p = await get(`/v1/investors/${inv}/portfolio`);
    // cash: 50,000 - 8,521.675 - 10,000 + 3,589.42 (unsettled) + 90 (dividend net) + 4,008.06 = 39,165.805 EGP
    const cashMicros = 39_165_805_000;
    // BMYBY after the sweeps of Sunday, Monday and Tuesday: 10.006712, 10.013429, 10.020150
    const total = cashMicros + 60 * 88_000_000 + 600 * 10_020_150;
    expect(total).toBe(50_457_895_000);
    expect(p).toEqual({
      investor_id: inv,
      as_of: '2026-11-25T11:30:00+02:00',
      currency: 'EGP',
      total_value_micros: total,
      cash_micros: cashMicros,
      ordering: 'kind_then_symbol',
      positions: [
        {
          // average cost: 8,521.675 for 100; the sale of 40 released 40% (3,408.67), 5,113.005 remains
          asset: 'COMI',
          symbol: 'COMI',
          name: expect.any(String),
          kind: 'equity',
          qty: 60,
          price_micros: 88_000_000,
          value_micros: 5_280_000_000,
          cost_micros: 5_113_005_000,
          unrealized_micros: 166_995_000,
          unrealized_pct: 0.032661,
          weight_pct: 0.104642,
        },
        {
          // 1,000 units cost 10,000 EGP; redeeming 400 released 4,000
          asset: 'fund:BMYBY',
          symbol: 'BMYBY',
          name: 'Banque Misr Youm b Youm EGP Money Market Fund',
          kind: 'fund',
          qty: 600_000_000,
          price_micros: 10_020_150,
          value_micros: 6_012_090_000,
          cost_micros: 6_000_000_000,
          unrealized_micros: 12_090_000,
          unrealized_pct: 0.002015,
          weight_pct: 0.119151,
        },
        {
          asset: 'cash:EGP',
          symbol: 'EGP',
          name: 'Egyptian pound',
          kind: 'cash',
          qty: cashMicros,
          price_micros: 1_000_000,
          value_micros: cashMicros,
          cost_micros: cashMicros,
          unrealized_micros: 0,
          unrealized_pct: 0,
          weight_pct: 0.776208,
        },
      ],
    });
    expect(cash(t, inv)).toEqual({ settled: cashMicros - 3_589_420_000, reserved: 0, unsettled: 3_589_420_000 });

    const x = await get(`/v1/investors/${inv}/portfolio/exposures`);
    expect(x).toEqual({
      investor_id: inv,
      as_of: '2026-11-25T11:30:00+02:00',
      total_value_micros: total,
      ordering: 'alphabetical',
      sectors: [
        { sector: 'Banks', value_micros: 5_280_000_000, weight_pct: 0.104642 },
        { sector: 'Money market funds', value_micros: 6_012_090_000, weight_pct: 0.119151 },
      ],
      asset_classes: [
        { kind: 'cash', value_micros: cashMicros, weight_pct: 0.776208 },
        { kind: 'equity', value_micros: 5_280_000_000, weight_pct: 0.104642 },
        { kind: 'fund', value_micros: 6_012_090_000, weight_pct: 0.119151 },
      ],
      // (5.28^2 + 6.01209^2) / (5.28 + 6.01209)^2
      hhi: 0.502102,
      top_holding: { asset: 'fund:BMYBY', symbol: 'BMYBY', value_micros: 6_012_090_000, weight_pct: 0.119151 },
      top_holding_pct: 0.119151,
    });
  });

  it('an investor with nothing: cash 0, weights and ratios null, not 0', async () => {
    const inv = await trader(t, 0);
    const p = await get(`/v1/investors/${inv}/portfolio`);
    expect(p).toMatchObject({
      total_value_micros: 0,
      cash_micros: 0,
      positions: [{ kind: 'cash', qty: 0, value_micros: 0, cost_micros: 0, unrealized_pct: null, weight_pct: null }],
    });
    expect(await get(`/v1/investors/${inv}/portfolio/exposures`)).toMatchObject({
      sectors: [],
      hhi: null,
      top_holding: null,
      top_holding_pct: null,
    });
    expect(await get(`/v1/investors/${inv}/portfolio/performance`)).toMatchObject({
      twr_pct: null,
      start_value_micros: 0,
      end_value_micros: 0,
    });
    expect(await get(`/v1/investors/${inv}/portfolio/risk`)).toMatchObject({
      observations: 0,
      annualized_volatility_pct: null,
      var95_pct: null,
      var95_micros: null,
      beta: null,
      max_drawdown_pct: 0,
    });
  });
});

describe('GET .../performance: a daily value series and a time-weighted return that neutralises deposits and withdrawals', () => {
  it('values each trading day at its close (now for today), counts the deposit as a flow, and chain-links the daily returns', async () => {
    const inv = await journey();
    const perf = await get(`/v1/investors/${inv}/portfolio/performance?days=5`);
    expect(perf.series.map((s: any) => s.date)).toEqual([
      '2026-11-19',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
    ]);
    // Thursday before the sandbox: nothing; Sunday: the 50,000 EGP deposit is capital, not a gain
    expect(perf.series[0]).toEqual({ date: '2026-11-19', value_micros: 0, net_flow_micros: 0, return_pct: null });
    expect(perf.series.map((s: any) => s.net_flow_micros)).toEqual([0, 50_000 * EGP, 0, 0, 0]);
    // Sunday's close by hand: cash 31,478.325 + 100 COMI at the close + 1,000 units at Sunday's NAV (10.006712)
    const comiClose = (await get('/v1/markets/XCAI/instruments/COMI/ohlcv?days=4')).candles.find(
      (c: any) => c.date === '2026-11-22',
    ).close_micros;
    expect(perf.series[1].value_micros).toBe(31_478_325_000 + 100 * comiClose + 1_000 * 10_006_712);
    // today: valued now, at the live quote
    expect(perf.series[4].value_micros).toBe(50_457_895_000);
    expect(perf).toMatchObject({
      days: 5,
      start_date: '2026-11-19',
      end_date: '2026-11-25',
      start_value_micros: 0,
      end_value_micros: 50_457_895_000,
      net_flow_micros: 50_000 * EGP,
    });
    const points: ValuePoint[] = perf.series.map((s: any) => ({
      date: s.date,
      valueMicros: s.value_micros,
      netFlowMicros: s.net_flow_micros,
    }));
    expect(perf.twr_pct).toBe(timeWeightedReturn(points));
    // the naive end / start - 1 would count the deposit as a gain; the TWR is small
    expect(Math.abs(perf.twr_pct)).toBeLessThan(0.05);
    const sundayReturn = perf.series[1].value_micros / (50_000 * EGP) - 1;
    expect(perf.series[1].return_pct).toBeCloseTo(sundayReturn, 6);
    expect((await get(`/v1/investors/${inv}/portfolio/performance`)).series).toHaveLength(90);
  });

  it("days out of range, an unknown investor and another tenant's investor are refused with a stable code", async () => {
    const inv = await trader(t, 1_000);
    for (const path of ['performance', 'risk']) {
      for (const days of ['0', '366', '1.5', 'x', '-1']) {
        const res = await t.req('GET', `/v1/investors/${inv}/portfolio/${path}?days=${days}`);
        expect({ path, days, status: res.status, code: res.body.error.code }).toEqual({
          path,
          days,
          status: 422,
          code: 'VALIDATION_FAILED',
        });
      }
      expect((await t.req('GET', `/v1/investors/${inv}/portfolio/${path}?days=30&extra=1`)).body.error.code).toBe(
        'VALIDATION_FAILED',
      );
    }
    const other = (await t.req('POST', '/admin/tenants', { body: { name: 'other-app' } })).body;
    for (const path of ['portfolio', 'portfolio/exposures', 'portfolio/performance', 'portfolio/risk']) {
      expect((await t.req('GET', `/v1/investors/inv_unknown/${path}`)).body.error.code).toBe('NOT_FOUND');
      const foreign = await t.req('GET', `/v1/investors/${inv}/${path}`, { tenant: other });
      expect({ path, status: foreign.status, code: foreign.body.error.code }).toEqual({
        path,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
  });
});

describe('GET .../risk: annualized volatility, maximum drawdown, 1-day historical VaR(95) and beta against EGX30 from the tape', () => {
  it('computes each statistic from the flow-neutral daily returns of the value series and the EGX30 closes', async () => {
    const inv = await journey();
    // a few more days so there are returns to describe
    await at('2026-12-03T15:00:00+02:00');
    const risk = await get(`/v1/investors/${inv}/portfolio/risk?days=8`);
    const perf = await get(`/v1/investors/${inv}/portfolio/performance?days=9`);
    const points: ValuePoint[] = perf.series.map((s: any) => ({
      date: s.date,
      valueMicros: s.value_micros,
      netFlowMicros: s.net_flow_micros,
    }));
    const returns = dailyReturns(points);
    const index = (await get('/v1/markets/XCAI/index/EGX30/ohlcv?days=9')).candles;
    expect(index.map((c: any) => c.date)).toEqual(perf.series.map((s: any) => s.date));
    const indexReturns = index.slice(1).map((c: any, i: number) => ({
      date: c.date,
      dailyReturn: (c.close_micros - index[i].close_micros) / index[i].close_micros,
    }));
    const paired = pairByDate(returns, indexReturns);
    const value = perf.end_value_micros;
    const v = historicalVaR95(
      returns.map((r) => r.dailyReturn),
      value,
    )!;
    expect(risk).toEqual({
      investor_id: inv,
      as_of: '2026-12-03T15:00:00+02:00',
      days: 8,
      benchmark: 'EGX30',
      start_date: perf.start_date,
      end_date: '2026-12-03',
      observations: 8,
      value_micros: value,
      periods_per_year: 252,
      annualized_volatility_pct: annualizedVolatility(returns.map((r) => r.dailyReturn)),
      max_drawdown_pct: maxDrawdown(points),
      var95_pct: v.var95_pct,
      var95_micros: v.var95_micros,
      beta: beta(paired.asset, paired.index),
      beta_observations: 8,
    });
    // 8 returns: the VaR is the worst day, as a loss
    const worst = Math.min(...returns.map((r) => r.dailyReturn));
    expect(risk.var95_pct).toBe(Math.max(0, Math.round(-worst * 1e6) / 1e6));
    expect(risk.annualized_volatility_pct).toBeGreaterThan(0);
    expect(risk.beta).not.toBeNull();
    expect((await get(`/v1/investors/${inv}/portfolio/risk`)).days).toBe(60);
  });
});
