// What `svc portfolio` shows, as plain rows of text: the positions, exposures and performance tables
// and the value chart. The plain-text output and the Ink screen lay out the same rows.
import type { Exposures as WireExposures, Performance as WirePerformance, Portfolio as WirePortfolio } from '../../daemon/contract/schemas/portfolio.js';
import { egp, nav, price } from '../output.js';
import { unitsText } from './format.js';
import { valueChart } from './value-chart.js';

/** The portfolio read (GET /v1/investors/{id}/portfolio), as far as the screen shows it. */
export type Portfolio = Pick<WirePortfolio, 'investor_id' | 'as_of' | 'total_value_micros' | 'cash_micros' | 'positions'>;

/** GET .../portfolio/exposures, as far as the screen shows it. */
export type Exposures = Pick<WireExposures, 'sectors' | 'asset_classes' | 'hhi' | 'top_holding_pct'> & {
  top_holding: Pick<NonNullable<WireExposures['top_holding']>, 'symbol' | 'value_micros' | 'weight_pct'> | null;
};

/** GET .../portfolio/performance, as far as the screen shows it. */
export type Performance = Pick<
  WirePerformance,
  'days' | 'start_date' | 'end_date' | 'start_value_micros' | 'end_value_micros' | 'net_flow_micros' | 'twr_pct' | 'series'
>;

export interface PortfolioData {
  portfolio: Portfolio;
  exposures: Exposures;
  performance: Performance;
}

export interface TableRows {
  headers: string[];
  rows: string[][];
}

/** A fraction as a percentage with two decimals (display only); '-' for null. */
export function percent(fraction: number | null, signed = false): string {
  if (fraction === null) return '-';
  const s = (fraction * 100).toFixed(2);
  return `${signed && fraction > 0 ? '+' : ''}${s}%`;
}

export function headline(p: Portfolio): string[] {
  return [`Portfolio of ${p.investor_id} as of ${p.as_of}`, `Total ${egp(p.total_value_micros)} EGP, of which cash ${egp(p.cash_micros)} EGP`];
}

export function positionRows(p: Portfolio): TableRows {
  return {
    headers: ['kind', 'symbol', 'qty', 'price EGP', 'value EGP', 'cost EGP', 'unrealized EGP', 'unrealized', 'weight'],
    rows: p.positions.map((x) => [
      x.kind, x.symbol, x.kind === 'equity' ? String(x.qty) : x.kind === 'fund' ? unitsText(x.qty) : '-',
      x.kind === 'cash' ? '-' : x.kind === 'fund' ? nav(x.price_micros) : price(x.price_micros), egp(x.value_micros), egp(x.cost_micros), egp(x.unrealized_micros),
      percent(x.unrealized_pct, true), percent(x.weight_pct),
    ]),
  };
}

export function exposureRows(x: Exposures): TableRows {
  return {
    headers: ['sector', 'value EGP', 'weight'],
    rows: x.sectors.map((s) => [s.sector, egp(s.value_micros), percent(s.weight_pct)]),
  };
}

export function concentration(x: Exposures): string {
  const top = x.top_holding ? `top holding ${x.top_holding.symbol} ${percent(x.top_holding_pct)}` : 'no holdings';
  const classes = x.asset_classes.map((c) => `${c.kind} ${percent(c.weight_pct)}`).join(', ');
  return `HHI ${x.hhi === null ? '-' : x.hhi.toFixed(4)}  ${top}  (${classes})`;
}

export function performanceLines(perf: Performance): string[] {
  const flows = perf.net_flow_micros === 0 ? '' : `, net deposits ${egp(perf.net_flow_micros)} EGP`;
  return [
    `Time-weighted return ${percent(perf.twr_pct, true)} over ${perf.series.length} trading days, ${perf.start_date} to ${perf.end_date}`,
    `Value ${egp(perf.start_value_micros)} -> ${egp(perf.end_value_micros)} EGP${flows}`,
  ];
}

/** The chart of the value series, from the first day the account held anything. */
export function chartRows(perf: Performance, width = 60, height = 5): string[] {
  const values = perf.series.map((s) => s.value_micros);
  const first = values.findIndex((v) => v !== 0);
  return first === -1 ? [] : valueChart(values.slice(first), width, height);
}
