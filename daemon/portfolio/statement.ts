// A client statement's figures for a period (docs/reports.md, "Contents"): the summary of flows, the
// value series with its time-weighted return, the holdings as of the period's end and every fill in
// the period. Derived from the ledger's history, the fills, the tape and the NAV book like every other
// portfolio read; integer micros throughout (the report's document formats them for people).
import { DateTime } from 'luxon';
import { CASH_EGP } from '../ledger/assets.js';
import { checkDate, daysBetween } from '../contract/dates.js';
import { MAX_PERIOD_DAYS } from '../contract/schemas/reports.js';
import type { Movement } from '../ledger/history.js';
import type { Calendar } from '../market/calendar.js';
import { positionView, round6, timeWeightedReturn, type PositionKind } from './analytics.js';
import { costBases, otherHoldingEvents, type CostEvent } from './cost-basis.js';
import type { PortfolioCtx } from './context.js';
import type { SeriesPoint } from './valuation.js';
import type { StatementFill } from './repo.js';
export type { StatementFill } from './repo.js';

export interface StatementPeriod {
  /** YYYY-MM-DD, the exchange's local dates, inclusive. */
  start: string;
  end: string;
}

/** The instant a local date begins in the exchange's zone. */
function dayStartMs(cal: Calendar, date: string): number {
  return DateTime.fromISO(date, { zone: cal.zone }).toMillis();
}

/** The statement's instants: the period's first moment and its last (never after now). */
export function periodInstants(
  cal: Calendar,
  period: StatementPeriod,
  nowMs: number,
): { startMs: number; endMs: number } {
  const next = DateTime.fromISO(period.end, { zone: cal.zone }).plus({ days: 1 }).toMillis() - 1;
  return { startMs: dayStartMs(cal, period.start), endMs: Math.min(next, nowMs) };
}

/**
 * The opening point (the last close before the period) and each trading day's close in it. The walk
 * is bounded: a period the request rules would refuse (years outside the sandbox's window, longer
 * than MAX_PERIOD_DAYS) is an error here, not a walk over centuries on the scheduler's thread.
 */
function seriesPoints(cal: Calendar, period: StatementPeriod, startMs: number, endMs: number): SeriesPoint[] {
  if (
    checkDate('period_start', period.start).ok !== true ||
    checkDate('period_end', period.end).ok !== true ||
    daysBetween(period.start, period.end) > MAX_PERIOD_DAYS
  ) {
    throw new RangeError(`statement period ${period.start}..${period.end} is outside what a statement covers`);
  }
  const before = cal.prevTradingDay(period.start);
  const out: SeriesPoint[] = [{ date: before, atMs: Math.min(cal.session(before)!.closeMs, startMs - 1) }];
  for (
    let date = cal.isTradingDay(period.start) ? period.start : cal.nextTradingDay(period.start);
    date <= period.end;
    date = cal.nextTradingDay(date)
  ) {
    const s = cal.session(date)!;
    if (s.openMs > endMs) break;
    out.push({ date, atMs: Math.min(s.closeMs, endMs) });
  }
  return out;
}

function sumWhere(movements: readonly Movement[], keep: (m: Movement) => boolean): number {
  return movements.reduce((a, m) => (keep(m) ? a + m.delta : a), 0);
}

/**
 * Deposits, withdrawals, dividends (gross), fees and taxes booked inside the period. A trade's charges
 * come from its fills: a sell's fees and stamp duty are taken out of the proceeds in clearing, so they
 * never move the investor's cash; any other fee or tax (a dividend's withholding) is a cash movement.
 */
function flows(movements: readonly Movement[], fills: readonly StatementFill[], startMs: number, endMs: number) {
  const cash = movements.filter((m) => m.asset === CASH_EGP && m.atMs >= startMs && m.atMs <= endMs);
  const orders = new Set(fills.map((f) => f.order_id));
  const notTrade = (m: Movement) => !orders.has(m.ref);
  const tradeFees = fills.reduce(
    (a, f) => a + f.commission_micros + f.egx_micros + f.mcdr_micros + f.ipf_micros + f.fra_micros,
    0,
  );
  const tradeTaxes = fills.reduce((a, f) => a + f.stamp_duty_micros, 0);
  return {
    deposits_micros: sumWhere(cash, (m) => m.counterparty === 'system:rail' && m.delta > 0),
    withdrawals_micros: -sumWhere(cash, (m) => m.counterparty === 'system:rail' && m.delta < 0),
    dividends_micros: sumWhere(cash, (m) => m.kind === 'dividend'),
    fees_micros: tradeFees - sumWhere(cash, (m) => m.counterparty === 'system:fees' && notTrade(m)),
    taxes_micros: tradeTaxes - sumWhere(cash, (m) => m.counterparty === 'system:tax' && notTrade(m)),
  };
}

/** Holdings as of endMs, each with its price then, value, average cost and unrealized result. */
function holdingsAt(
  ctx: PortfolioCtx,
  tenantId: string,
  investorId: string,
  movements: readonly Movement[],
  endMs: number,
) {
  const upTo = movements.filter((m) => m.atMs <= endMs);
  const events: CostEvent[] = otherHoldingEvents(upTo);
  for (const f of ctx.repo.fillsOf(tenantId, investorId)) {
    if (f.at_ms > endMs) continue;
    events.push({
      atMs: f.at_ms,
      seq: f.seq,
      asset: f.symbol,
      side: f.side === 'buy' ? 'in' : 'out',
      qty: f.qty,
      amountMicros: f.value_micros,
      feesMicros: f.charges_micros,
    });
  }
  for (const o of ctx.funds.repo.settledOf(tenantId, investorId)) {
    if (o.created_ms > endMs) continue;
    events.push({
      atMs: o.created_ms,
      seq: o.seq,
      asset: `fund:${o.fund_code}`,
      side: o.side === 'subscribe' ? 'in' : 'out',
      qty: o.result_units_micros!,
      amountMicros: o.result_amount_micros!,
      feesMicros: 0,
    });
  }
  const bases = costBases(events);
  const held = new Map<string, number>();
  for (const m of upTo) held.set(m.asset, (held.get(m.asset) ?? 0) + m.delta);
  const total = ctx.valuer.totalOf(held, endMs);
  const rows = [...held.entries()]
    .filter(([asset, qty]) => qty > 0 && asset !== CASH_EGP)
    .map(([asset, qty]) => {
      const kind: PositionKind = asset.startsWith('fund:') ? 'fund' : 'equity';
      const symbol = kind === 'fund' ? asset.slice('fund:'.length) : asset;
      const instrument = kind === 'equity' ? ctx.market.catalog.get(symbol) : null;
      const fund = kind === 'fund' ? ctx.funds.funds.get(symbol) : null;
      const priceMicros = ctx.valuer.priceAt(asset, endMs);
      const costMicros = bases.get(asset)?.costMicros ?? 0;
      const v = positionView({ kind, qty, costMicros, priceMicros, totalValueMicros: total });
      return {
        symbol,
        kind,
        name: instrument?.name ?? fund?.name ?? symbol,
        name_ar: instrument?.name_ar ?? fund?.name_ar ?? symbol,
        isin: instrument?.isin ?? null,
        qty,
        price_micros: priceMicros,
        value_micros: v.value_micros,
        cost_micros: costMicros,
        unrealized_micros: v.unrealized_micros,
      };
    })
    .sort((a, b) => (a.kind === b.kind ? (a.symbol < b.symbol ? -1 : 1) : a.kind === 'equity' ? -1 : 1));
  return { total, cash: held.get(CASH_EGP) ?? 0, rows };
}

export function statementFigures(ctx: PortfolioCtx, tenantId: string, investorId: string, period: StatementPeriod) {
  const cal = ctx.market.calendar;
  const { startMs, endMs } = periodInstants(cal, period, ctx.clock.now());
  const movements = ctx.history.movements(tenantId, investorId);
  const points = seriesPoints(cal, period, startMs, endMs);
  const values = ctx.valuer.series(movements, points);
  const holdings = holdingsAt(ctx, tenantId, investorId, movements, endMs);
  const opening = ctx.valuer.totalOf(balancesBefore(movements, startMs), startMs - 1);
  const twr = timeWeightedReturn(values);
  const trades = ctx.repo.statementFills(tenantId, investorId, startMs, endMs);
  return {
    as_of_ms: endMs,
    summary: {
      opening_value_micros: opening,
      closing_value_micros: holdings.total,
      cash_micros: holdings.cash,
      ...flows(movements, trades, startMs, endMs),
    },
    performance: {
      twr_pct: twr === null ? null : round6(twr),
      series: values.slice(1).map((v) => ({ date: v.date, value_micros: v.valueMicros })),
    },
    holdings: holdings.rows,
    trades,
  };
}

function balancesBefore(movements: readonly Movement[], atMs: number): Map<string, number> {
  const held = new Map<string, number>();
  for (const m of movements) if (m.atMs < atMs) held.set(m.asset, (held.get(m.asset) ?? 0) + m.delta);
  return held;
}

export type StatementFigures = ReturnType<typeof statementFigures>;
