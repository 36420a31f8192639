// What `svc portfolio` shows, as plain rows of text: the positions, exposures and performance tables
// and the value chart. The plain-text output and the Ink screen lay out the same rows.
import type {
  Exposures as WireExposures,
  Performance as WirePerformance,
  Portfolio as WirePortfolio,
  Risk as WireRisk,
} from '../../daemon/contract/schemas/portfolio.js';
import { egp, nav, price, wrapWords } from '../output.js';
import { unitsText } from './format.js';
import { valueChart } from './value-chart.js';

/** The portfolio read (GET /v1/investors/{id}/portfolio), as far as the screen shows it. */
export type Portfolio = Pick<
  WirePortfolio,
  'investor_id' | 'as_of' | 'total_value_micros' | 'cash_micros' | 'positions'
>;

/** GET .../portfolio/exposures, as far as the screen shows it. */
export type Exposures = Pick<WireExposures, 'sectors' | 'asset_classes' | 'hhi' | 'top_holding_pct'> & {
  top_holding: Pick<NonNullable<WireExposures['top_holding']>, 'symbol' | 'value_micros' | 'weight_pct'> | null;
};

/** GET .../portfolio/performance, as far as the screen shows it. */
export type Performance = Pick<
  WirePerformance,
  | 'days'
  | 'start_date'
  | 'end_date'
  | 'start_value_micros'
  | 'end_value_micros'
  | 'net_flow_micros'
  | 'twr_pct'
  | 'series'
>;

/** GET .../portfolio/risk, as far as the screen shows it. */
export type Risk = Pick<
  WireRisk,
  | 'start_date'
  | 'end_date'
  | 'observations'
  | 'annualized_volatility_pct'
  | 'max_drawdown_pct'
  | 'var95_pct'
  | 'var95_micros'
  | 'beta'
  | 'beta_observations'
>;

export interface PortfolioData {
  portfolio: Portfolio;
  exposures: Exposures;
  performance: Performance;
  risk: Risk;
}

/** The width the screen and the text are laid out for: the terminal's, else 80. */
export const DEFAULT_WIDTH = 80;

export interface TableRows {
  headers: string[];
  rows: string[][];
}

/** The line as it is when it fits `width`, else wrapped between words. */
function fitLine(text: string, width: number): string[] {
  return text.length <= width ? [text] : wrapWords(text, width).split('\n');
}

/** A fraction as a percentage with two decimals (display only); '-' for null. */
export function percent(fraction: number | null, signed = false): string {
  if (fraction === null) return '-';
  const s = (fraction * 100).toFixed(2);
  return `${signed && fraction > 0 ? '+' : ''}${s}%`;
}

export function headline(p: Portfolio): string[] {
  return [
    `Portfolio of ${p.investor_id} as of ${p.as_of}`,
    `Total ${egp(p.total_value_micros)} EGP, of which cash ${egp(p.cash_micros)} EGP`,
  ];
}

/** Columns of the positions table that give way, in this order, when the table is wider than the width. */
const OPTIONAL_COLUMNS = ['kind', 'cost EGP', 'P/L'];

/** The width of a table as `table()` and the Ink Table lay it out: the widest cell of each column, two spaces between.
 * */
export function tableWidth(t: TableRows): number {
  const widths = t.headers.map((h, i) => Math.max(h.length, ...t.rows.map((r) => r[i].length)));
  return widths.reduce((a, w) => a + w, 0) + 2 * (widths.length - 1);
}

/** The table without the columns that give way first, until it fits `width` columns (or none is left to drop). */
export function fitTable(t: TableRows, width: number, optional: readonly string[] = OPTIONAL_COLUMNS): TableRows {
  let fit = t;
  for (const name of optional) {
    if (tableWidth(fit) <= width) break;
    const i = fit.headers.indexOf(name);
    if (i === -1) continue;
    fit = { headers: fit.headers.filter((_h, k) => k !== i), rows: fit.rows.map((r) => r.filter((_c, k) => k !== i)) };
  }
  return fit;
}

/** Every position: price, value, cost, unrealized P/L (EGP and %) and weight; columns give way to fit `width`. */
export function positionRows(p: Portfolio, width = DEFAULT_WIDTH): TableRows {
  return fitTable(allPositionRows(p), width);
}

function allPositionRows(p: Portfolio): TableRows {
  return {
    headers: ['kind', 'symbol', 'qty', 'price EGP', 'value EGP', 'cost EGP', 'P/L EGP', 'P/L', 'weight'],
    rows: p.positions.map((x) => [
      x.kind,
      x.symbol,
      x.kind === 'equity' ? String(x.qty) : x.kind === 'fund' ? unitsText(x.qty) : '-',
      x.kind === 'cash' ? '-' : x.kind === 'fund' ? nav(x.price_micros) : price(x.price_micros),
      egp(x.value_micros),
      egp(x.cost_micros),
      egp(x.unrealized_micros),
      percent(x.unrealized_pct, true),
      percent(x.weight_pct),
    ]),
  };
}

export function exposureRows(x: Exposures): TableRows {
  return {
    headers: ['sector', 'value EGP', 'weight'],
    rows: x.sectors.map((s) => [s.sector, egp(s.value_micros), percent(s.weight_pct)]),
  };
}

export function concentration(x: Exposures, width = DEFAULT_WIDTH): string[] {
  const top = x.top_holding ? `top holding ${x.top_holding.symbol} ${percent(x.top_holding_pct)}` : 'no holdings';
  const classes = x.asset_classes.map((c) => `${c.kind} ${percent(c.weight_pct)}`).join(', ');
  return fitLine(`HHI ${x.hhi === null ? '-' : x.hhi.toFixed(4)}  ${top}  (${classes})`, width);
}

export function performanceLines(perf: Performance, width = DEFAULT_WIDTH): string[] {
  const flows = perf.net_flow_micros === 0 ? '' : `, net deposits ${egp(perf.net_flow_micros)} EGP`;
  return [
    `Time-weighted return ${percent(perf.twr_pct, true)} over ${perf.series.length} trading days, ` +
      `${perf.start_date} to ${perf.end_date}`,
    `Value ${egp(perf.start_value_micros)} -> ${egp(perf.end_value_micros)} EGP${flows}`,
  ].flatMap((l) => fitLine(l, width));
}

/** The risk statistics (docs/portfolio.md, Risk): descriptive, '-' where a statistic has no meaning yet. */
export function riskLines(r: Risk, width = DEFAULT_WIDTH): string[] {
  const varEgp = r.var95_micros === null ? '' : ` (${egp(r.var95_micros)} EGP)`;
  return [
    `Risk over ${r.observations} daily returns, ${r.start_date} to ${r.end_date}`,
    `Volatility ${percent(r.annualized_volatility_pct)} a year, max drawdown ${percent(r.max_drawdown_pct)}, ` +
      `1-day VaR(95) ${percent(r.var95_pct)}${varEgp}, beta vs EGX30 ${r.beta === null ? '-' : r.beta.toFixed(2)}` +
      ` (${r.beta_observations} days)`,
  ].flatMap((l) => fitLine(l, width));
}

/**
 * The chart of the value series from the first day the account held anything, `width` columns in all:
 * the bars are scaled from the lowest to the highest value shown, so the axis is labelled with both
 * (on the top and the bottom row) and the first and last dates are written under it.
 */
export function chartRows(perf: Performance, width = 60, height = 5): string[] {
  const values = perf.series.map((s) => s.value_micros);
  const first = values.findIndex((v) => v !== 0);
  if (first === -1) return [];
  const shown = values.slice(first);
  const hi = `${egp(Math.max(...shown))} EGP`;
  const lo = `${egp(Math.min(...shown))} EGP`;
  const label = Math.max(hi.length, lo.length);
  const bars = valueChart(shown, Math.max(8, width - label - 1), height);
  const rows = bars.map((b, i) =>
    `${b} ${i === 0 ? hi.padStart(label) : i === bars.length - 1 ? lo.padStart(label) : ''}`.trimEnd(),
  );
  const dates =
    `${perf.series[first].date}${' '.repeat(Math.max(1, bars[0].length - 20))}` +
    `${perf.series[perf.series.length - 1].date}`;
  return [...rows, dates];
}
