// Portfolio reads (docs/portfolio.md): positions with their average-cost basis, exposures, the daily
// value series with its time-weighted return, and descriptive risk statistics. Everything is derived
// on read from the ledger, the fills, the fund orders, the tape and the NAV book; nothing is stored.
import type { Deps } from '../deps.js';
import { assetKind, CASH_EGP, fundAsset } from '../ledger/assets.js';
import { createLedgerHistory } from '../ledger/history.js';
import type { FundService } from '../funds/service.js';
import {
  annualizedVolatility, beta, dailyReturns, hhi, historicalVaR95, maxDrawdown, pairByDate, PERIODS_PER_YEAR, positionView, round6,
  sectorExposures, timeWeightedReturn, topHoldingPct, type DailyReturn, type PositionKind,
} from './analytics.js';
import { costBases, otherHoldingEvents, type CostEvent } from './cost-basis.js';
import { createPortfolioRepo } from './repo.js';
import { createValuer, type SeriesPoint } from './valuation.js';

export type PortfolioDeps = Pick<Deps, 'db' | 'clock' | 'nowIso' | 'ledger' | 'investors' | 'market'>;

/** The sector of fund positions in the exposures. */
export const FUND_SECTOR = 'Money market funds';
const KIND_ORDER: Record<PositionKind, number> = { equity: 0, fund: 1, cash: 2 };

export function createPortfolioService(deps: PortfolioDeps, funds: FundService) {
  const { clock, ledger, market } = deps;
  const cal = market.calendar;
  const history = createLedgerHistory(deps.db);
  const repo = createPortfolioRepo(deps.db);
  const valuer = createValuer(market, funds.funds, funds.navBook);

  function costEvents(tenantId: string, investorId: string, movements: ReturnType<typeof history.movements>): CostEvent[] {
    const events: CostEvent[] = otherHoldingEvents(movements);
    for (const f of repo.fillsOf(tenantId, investorId)) {
      events.push(
        f.side === 'buy'
          ? { atMs: f.at_ms, seq: f.seq, asset: f.symbol, side: 'in', qty: f.qty, amountMicros: f.value_micros, feesMicros: f.charges_micros }
          : { atMs: f.at_ms, seq: f.seq, asset: f.symbol, side: 'out', qty: f.qty, amountMicros: f.value_micros, feesMicros: f.charges_micros },
      );
    }
    for (const o of funds.repo.settledOf(tenantId, investorId)) {
      events.push({
        atMs: o.created_ms, seq: o.seq, asset: fundAsset(o.fund_code), side: o.side === 'subscribe' ? 'in' : 'out',
        qty: o.result_units_micros!, amountMicros: o.result_amount_micros!, feesMicros: 0,
      });
    }
    return events;
  }

  function positions(tenantId: string, investorId: string, nowMs: number) {
    const movements = history.movements(tenantId, investorId);
    const bases = costBases(costEvents(tenantId, investorId, movements));
    const held = new Map<string, number>();
    for (const m of movements) held.set(m.asset, (held.get(m.asset) ?? 0) + m.delta);
    const cash = held.get(CASH_EGP) ?? 0;
    held.set(CASH_EGP, cash);
    const total = valuer.totalOf(held, nowMs);
    const rows = [...held.entries()]
      .filter(([asset, qty]) => qty > 0 || asset === CASH_EGP)
      .map(([asset, qty]) => {
        const kind: PositionKind = assetKind(asset) === 'cash' ? 'cash' : assetKind(asset) === 'fund' ? 'fund' : 'equity';
        const symbol = kind === 'cash' ? 'EGP' : kind === 'fund' ? asset.slice('fund:'.length) : asset;
        const priceMicros = valuer.priceAt(asset, nowMs);
        // The basis follows the events; its quantity equals the ledger's (both replay the same history).
        const costMicros = kind === 'cash' ? qty : bases.get(asset)?.costMicros ?? 0;
        const v = positionView({ kind, qty, costMicros, priceMicros, totalValueMicros: total });
        const name = kind === 'cash' ? 'Egyptian pound' : kind === 'fund' ? funds.funds.get(symbol)!.name : market.catalog.get(symbol)?.name ?? symbol;
        const sector = kind === 'cash' ? null : kind === 'fund' ? FUND_SECTOR : market.catalog.get(symbol)?.sector ?? 'Other';
        return { asset, symbol, name, kind, sector, qty, price_micros: priceMicros, value_micros: v.value_micros, cost_micros: costMicros, unrealized_micros: v.unrealized_micros, unrealized_pct: v.unrealized_pct, weight_pct: v.weight_pct };
      })
      .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
    return { total, cash, rows, movements };
  }

  /** The last `count` trading days up to today whose session has opened, valued at the close (or now while today's session is open). */
  function seriesPoints(count: number, nowMs: number): SeriesPoint[] {
    const out: SeriesPoint[] = [];
    let date = cal.localDate(nowMs);
    if (!cal.isTradingDay(date) || nowMs < cal.session(date)!.openMs) date = cal.prevTradingDay(date);
    for (; out.length < count; date = cal.prevTradingDay(date)) out.push({ date, atMs: Math.min(cal.session(date)!.closeMs, nowMs) });
    return out.reverse();
  }

  function returnsByDate(values: ReturnType<typeof valuer.series>): Map<string, number> {
    return new Map(dailyReturns(values).map((r) => [r.date, r.dailyReturn]));
  }

  return {
    portfolio(tenantId: string, investorId: string) {
      const inv = deps.investors.require(tenantId, investorId);
      const now = clock.now();
      const p = positions(tenantId, inv.id, now);
      return {
        investor_id: inv.id, as_of: deps.nowIso(), currency: 'EGP' as const,
        total_value_micros: p.total, cash_micros: p.cash,
        positions: p.rows.map(({ sector: _sector, ...row }) => row),
        ordering: 'kind_then_symbol' as const,
      };
    },

    exposures(tenantId: string, investorId: string) {
      const inv = deps.investors.require(tenantId, investorId);
      const p = positions(tenantId, inv.id, clock.now());
      const held = p.rows.filter((r) => r.kind !== 'cash');
      const top = held.reduce<(typeof held)[number] | null>((best, r) => (best === null || r.value_micros > best.value_micros ? r : best), null);
      return {
        investor_id: inv.id, as_of: deps.nowIso(), total_value_micros: p.total,
        sectors: sectorExposures(held.map((r) => ({ sector: r.sector!, valueMicros: r.value_micros })), p.total),
        asset_classes: sectorExposures(p.rows.map((r) => ({ sector: r.kind, valueMicros: r.value_micros })), p.total).map(({ sector, ...rest }) => ({ kind: sector, ...rest })),
        hhi: hhi(held.map((r) => r.value_micros)),
        top_holding: top && { asset: top.asset, symbol: top.symbol, value_micros: top.value_micros, weight_pct: top.weight_pct },
        top_holding_pct: topHoldingPct(held.map((r) => r.value_micros), p.total),
        ordering: 'alphabetical' as const,
      };
    },

    performance(tenantId: string, investorId: string, days: number) {
      const inv = deps.investors.require(tenantId, investorId);
      const now = clock.now();
      const values = valuer.series(history.movements(tenantId, inv.id), seriesPoints(days, now));
      const returns = returnsByDate(values);
      return {
        investor_id: inv.id, as_of: deps.nowIso(), days,
        start_date: values[0].date, end_date: values[values.length - 1].date,
        start_value_micros: values[0].valueMicros, end_value_micros: values[values.length - 1].valueMicros,
        net_flow_micros: values.slice(1).reduce((a, v) => a + v.netFlowMicros, 0),
        twr_pct: timeWeightedReturn(values),
        series: values.map((v) => {
          const r = returns.get(v.date);
          return { date: v.date, value_micros: v.valueMicros, net_flow_micros: v.netFlowMicros, return_pct: r === undefined ? null : round6(r) };
        }),
      };
    },

    risk(tenantId: string, investorId: string, days: number) {
      const inv = deps.investors.require(tenantId, investorId);
      const now = clock.now();
      const points = seriesPoints(days + 1, now);
      const values = valuer.series(history.movements(tenantId, inv.id), points);
      const returns = dailyReturns(values);
      // EGX30 at the same instants: a day's close, or now while today's session is open.
      const levels = points.map((p) => (p.atMs < cal.session(p.date)!.closeMs ? market.tape.indexLevelAt(p.atMs) : market.tape.indexLevel(p.date)));
      const indexReturns: DailyReturn[] = points.slice(1).map((p, i) => ({ date: p.date, dailyReturn: (levels[i + 1] - levels[i]) / levels[i] }));
      const paired = pairByDate(returns, indexReturns);
      const value = values[values.length - 1].valueMicros;
      const r = returns.map((x) => x.dailyReturn);
      const v = historicalVaR95(r, value);
      return {
        investor_id: inv.id, as_of: deps.nowIso(), days, benchmark: 'EGX30' as const,
        start_date: values[0].date, end_date: values[values.length - 1].date,
        observations: r.length, value_micros: value,
        annualized_volatility_pct: annualizedVolatility(r),
        max_drawdown_pct: maxDrawdown(values),
        var95_pct: v?.var95_pct ?? null,
        var95_micros: v?.var95_micros ?? null,
        beta: beta(paired.asset, paired.index),
        beta_observations: paired.asset.length,
        periods_per_year: PERIODS_PER_YEAR,
      };
    },
  };
}

export type PortfolioService = ReturnType<typeof createPortfolioService>;
