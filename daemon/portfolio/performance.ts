// GET .../portfolio/performance and .../portfolio/risk: the daily value series with its time-weighted
// return, and descriptive risk statistics against EGX30 (docs/portfolio.md "Performance" and "Risk").
import { ok } from '../contract/outcome.js';
import type { Calendar } from '../market/calendar.js';
import {
  annualizedVolatility,
  beta,
  dailyReturns,
  historicalVaR95,
  maxDrawdown,
  pairByDate,
  PERIODS_PER_YEAR,
  round6,
  timeWeightedReturn,
  type DailyReturn,
  type ValuePoint,
} from './analytics.js';
import type { PortfolioCtx } from './context.js';
import type { SeriesPoint } from './valuation.js';

/** The last `count` trading days up to today whose session has opened, valued at the close (or now while today's
 * session is open). */
function seriesPoints(cal: Calendar, count: number, nowMs: number): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  let date = cal.localDate(nowMs);
  if (!cal.isTradingDay(date) || nowMs < cal.session(date)!.openMs) date = cal.prevTradingDay(date);
  for (; out.length < count; date = cal.prevTradingDay(date))
    out.push({ date, atMs: Math.min(cal.session(date)!.closeMs, nowMs) });
  return out.reverse();
}

function seriesView(values: readonly ValuePoint[]) {
  const returns = new Map(dailyReturns(values).map((r) => [r.date, r.dailyReturn]));
  return values.map((v) => {
    const r = returns.get(v.date);
    return {
      date: v.date,
      value_micros: v.valueMicros,
      net_flow_micros: v.netFlowMicros,
      return_pct: r === undefined ? null : round6(r),
    };
  });
}

export function performanceReport(ctx: PortfolioCtx, tenantId: string, investorId: string, days: number) {
  const found = ctx.investors.lookup(tenantId, investorId);
  if (!found.ok) return found;
  const inv = found.value;
  const now = ctx.clock.now();
  const values = ctx.valuer.series(
    ctx.history.movements(tenantId, inv.id),
    seriesPoints(ctx.market.calendar, days, now),
  );
  return ok({
    investor_id: inv.id,
    as_of: ctx.nowIso(),
    days,
    start_date: values[0].date,
    end_date: values[values.length - 1].date,
    start_value_micros: values[0].valueMicros,
    end_value_micros: values[values.length - 1].valueMicros,
    net_flow_micros: values.slice(1).reduce((a, v) => a + v.netFlowMicros, 0),
    twr_pct: timeWeightedReturn(values),
    series: seriesView(values),
  });
}

/** EGX30's daily returns at the same instants: a day's close, or now while today's session is open. */
function indexReturns(ctx: PortfolioCtx, points: readonly SeriesPoint[]): DailyReturn[] {
  const { calendar: cal, tape } = ctx.market;
  const levels = points.map((p) =>
    p.atMs < cal.session(p.date)!.closeMs ? tape.indexLevelAt(p.atMs) : tape.indexLevel(p.date),
  );
  return points.slice(1).map((p, i) => ({ date: p.date, dailyReturn: (levels[i + 1] - levels[i]) / levels[i] }));
}

export function riskReport(ctx: PortfolioCtx, tenantId: string, investorId: string, days: number) {
  const found = ctx.investors.lookup(tenantId, investorId);
  if (!found.ok) return found;
  const inv = found.value;
  const points = seriesPoints(ctx.market.calendar, days + 1, ctx.clock.now());
  const values = ctx.valuer.series(ctx.history.movements(tenantId, inv.id), points);
  const returns = dailyReturns(values);
  const paired = pairByDate(returns, indexReturns(ctx, points));
  const value = values[values.length - 1].valueMicros;
  const r = returns.map((x) => x.dailyReturn);
  const v = historicalVaR95(r, value);
  return ok({
    investor_id: inv.id,
    as_of: ctx.nowIso(),
    days,
    benchmark: 'EGX30' as const,
    start_date: values[0].date,
    end_date: values[values.length - 1].date,
    observations: r.length,
    value_micros: value,
    annualized_volatility_pct: annualizedVolatility(r),
    max_drawdown_pct: maxDrawdown(values),
    var95_pct: v?.var95_pct ?? null,
    var95_micros: v?.var95_micros ?? null,
    beta: beta(paired.asset, paired.index),
    beta_observations: paired.asset.length,
    periods_per_year: PERIODS_PER_YEAR,
  });
}
