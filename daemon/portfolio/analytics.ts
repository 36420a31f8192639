// Descriptive portfolio statistics and average-cost positions. Pure: the portfolio service reads the
// ledger and the tape, then calls these. docs/portfolio.md gives every formula, unit and convention.
//
// - Money stays integer micros (BigInt inside, safe integers out). Returns and ratios are not money:
//   they are numbers rounded to RATIO_DECIMALS (6) decimals, half away from zero, and every `_pct` is a
//   fraction (0.05 = 5%).
// - Ratios of money amounts (TWR, drawdown, HHI, weights, unrealized_pct) are computed exactly as
//   BigInt fractions and rounded once. Statistics that need a square root or a mean of returns
//   (volatility, VaR, beta) use doubles and are rounded once at the end.
// - Flows (deposits, withdrawals) count at the START of the day they settle: the day's return is
//   V_t / (V_{t-1} + F_t) - 1, so a deposit is capital, never a gain.
// - Statistics that are undefined (too few points, no capital at risk, an index that never moved) are
//   null, never 0.

/** Decimals kept on every return and ratio. */
export const RATIO_DECIMALS = 6;
/** Trading days per year used to annualize volatility (the usual convention; EGX trades ~245). */
export const PERIODS_PER_YEAR = 252;

/**
 * The longest value series the exact statistics take. Their BigInt products grow with every factor,
 * so the work is quadratic in the length (measured: 2,600 points 15 ms, 10,000 points 390 ms); a
 * statement's ten years are about 2,620 trading days. Longer is a RangeError, never a long stall.
 */
export const MAX_SERIES_POINTS = 4_000;

const SCALE = 1_000_000n;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

// ---- rounding ----------------------------------------------------------------------------------------

/** num/den rounded to 6 decimals, half away from zero, exactly. */
function ratio(num: bigint, den: bigint): number {
  if (den === 0n) throw new RangeError('ratio with a zero denominator');
  if (den < 0n) return ratio(-num, -den);
  const negative = num < 0n;
  const abs = negative ? -num : num;
  const q = (2n * abs * SCALE + den) / (2n * den);
  return q === 0n ? 0 : Number(negative ? -q : q) / 1e6;
}

/** A double rounded to 6 decimals, half away from zero (never -0). */
export function round6(x: number): number {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  return (Math.sign(x) * Math.round(Math.abs(x) * 1e6)) / 1e6 || 0;
}

function roundHalfUp(num: bigint, den: bigint): bigint {
  return (2n * num + den) / (2n * den);
}

function micros(name: string, value: number, min = -Number.MAX_SAFE_INTEGER): bigint {
  if (!Number.isSafeInteger(value) || value < min)
    throw new RangeError(`${name} must be an integer of micros >= ${min}, got ${value}`);
  return BigInt(value);
}

function safe(name: string, value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`${name} overflows a safe integer: ${value}`);
  return Number(value);
}

// ---- daily value series ------------------------------------------------------------------------------

/** One day of the portfolio: its closing value and the net external flow (deposits - withdrawals) of that day. */
export interface ValuePoint {
  date: string;
  valueMicros: number;
  netFlowMicros: number;
}

export interface DailyReturn {
  date: string;
  dailyReturn: number;
}

/**
 * Sub-period factors V_t / (V_{t-1} + F_t) for t = 1..n-1. The first point is the base (its flow is
 * already in its value). A day that starts with no capital (V_{t-1} + F_t <= 0) has no return and is
 * left out (null).
 */
function subPeriods(values: readonly ValuePoint[]): Array<{ date: string; num: bigint; den: bigint } | null> {
  if (values.length > MAX_SERIES_POINTS)
    throw new RangeError(`a value series of ${values.length} points is longer than ${MAX_SERIES_POINTS}`);
  let prevDate = '';
  const points = values.map((p) => {
    if (!DATE_RE.test(p.date) || p.date <= prevDate)
      throw new RangeError(`dates must be YYYY-MM-DD and strictly ascending, got ${p.date} after ${prevDate}`);
    prevDate = p.date;
    return {
      date: p.date,
      value: micros('valueMicros', p.valueMicros, 0),
      flow: micros('netFlowMicros', p.netFlowMicros),
    };
  });
  return points.slice(1).map((p, i) => {
    const start = points[i].value + p.flow;
    return start > 0n ? { date: p.date, num: p.value, den: start } : null;
  });
}

/**
 * Flow-neutral daily returns V_t / (V_{t-1} + F_t) - 1 as doubles (the exact fraction, rounded once to
 * a double, not to 6 decimals: they feed volatility, VaR and beta). Days without capital are omitted.
 */
export function dailyReturns(values: readonly ValuePoint[]): DailyReturn[] {
  const out: DailyReturn[] = [];
  for (const s of subPeriods(values)) {
    if (s) out.push({ date: s.date, dailyReturn: Number(s.num - s.den) / Number(s.den) });
  }
  return out;
}

/**
 * Time-weighted return over the series: the chain-linked product of the daily factors, minus 1, exact
 * and rounded to 6 decimals. Null with fewer than two points or when no day had capital.
 */
export function timeWeightedReturn(values: readonly ValuePoint[]): number | null {
  let num = 1n;
  let den = 1n;
  let any = false;
  for (const s of subPeriods(values)) {
    if (!s) continue;
    num *= s.num;
    den *= s.den;
    any = true;
  }
  return any ? ratio(num - den, den) : null;
}

/**
 * Largest peak-to-trough fall of the flow-neutral wealth index (the running product of the daily
 * factors), as a positive fraction: 0.25 = the index fell 25% below its previous peak. A withdrawal is
 * not a drawdown. 0 when it never fell; null for an empty series. Exact, rounded to 6 decimals.
 */
export function maxDrawdown(values: readonly ValuePoint[]): number | null {
  if (values.length === 0) return null;
  // The index relative to the last peak is a/b (approx in a double); the drawdown is 1 - a/b at its lowest.
  let run = { a: 1n, b: 1n, approx: 1 };
  let worst = run;
  for (const s of subPeriods(values)) {
    if (!s) continue;
    run = { a: run.a * s.num, b: run.b * s.den, approx: (run.approx * Number(s.num)) / Number(s.den) };
    if (run.a >= run.b) run = { a: 1n, b: 1n, approx: 1 };
    else if (lower(run, worst)) worst = run;
  }
  return ratio(worst.b - worst.a, worst.b);
}

/**
 * x.a/x.b < y.a/y.b, exactly. The doubles decide when they are far apart (their relative error is
 * below 1e-13 after a few thousand factors); only near-ties pay for the cross-multiplication.
 */
function lower(x: { a: bigint; b: bigint; approx: number }, y: { a: bigint; b: bigint; approx: number }): boolean {
  if (x.approx < y.approx * (1 - 1e-9)) return true;
  if (x.approx > y.approx * (1 + 1e-9)) return false;
  return x.a * y.b < y.a * x.b;
}

// ---- return statistics -------------------------------------------------------------------------------

function mean(xs: readonly number[]): number {
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

function finite(name: string, xs: readonly number[]): void {
  for (const x of xs) if (!Number.isFinite(x)) throw new RangeError(`${name} holds a non-finite value: ${x}`);
}

/** Sample standard deviation (n - 1) of the daily returns x sqrt(periodsPerYear), a fraction. Null below 2 returns. */
export function annualizedVolatility(
  returns: readonly number[],
  periodsPerYear: number = PERIODS_PER_YEAR,
): number | null {
  finite('returns', returns);
  if (returns.length < 2) return null;
  const m = mean(returns);
  let ss = 0;
  for (const r of returns) ss += (r - m) * (r - m);
  return round6(Math.sqrt((ss / (returns.length - 1)) * periodsPerYear));
}

export interface ValueAtRisk {
  /** One-day loss not exceeded on 95% of the observed days, as a positive fraction of the value (0 when none). */
  var95_pct: number;
  /** var95_pct (as rounded) x the portfolio value, rounded half up to the micro. */
  var95_micros: number;
}

/**
 * One-day historical VaR at 95%: the 5th percentile of the daily returns by the nearest-rank method
 * (the k-th smallest, k = ceil(0.05 n), so the worst day below 20 returns), reported as a loss.
 * A 5th percentile at or above zero is a VaR of 0. Null with no returns.
 */
export function historicalVaR95(returns: readonly number[], portfolioValueMicros: number): ValueAtRisk | null {
  finite('returns', returns);
  const value = micros('portfolioValueMicros', portfolioValueMicros, 0);
  if (returns.length === 0) return null;
  const sorted = [...returns].sort((x, y) => x - y);
  // ceil(0.05 n), in integers so no double rounding can move it
  const rank = Math.floor((5 * sorted.length + 99) / 100);
  const lossMillionths = Math.max(0, Math.round(-sorted[rank - 1] * 1e6));
  return {
    var95_pct: lossMillionths / 1e6,
    var95_micros: safe('var95_micros', roundHalfUp(value * BigInt(lossMillionths), SCALE)),
  };
}

/**
 * Beta of the asset against the index: sample covariance / sample variance of the index (the n - 1
 * cancels). The arrays are aligned day by day (see pairByDate). Null below 2 pairs or when the index
 * returns are all equal (zero variance: beta is undefined, not 0).
 */
export function beta(assetReturns: readonly number[], indexReturns: readonly number[]): number | null {
  if (assetReturns.length !== indexReturns.length)
    throw new RangeError(`beta needs aligned series, got ${assetReturns.length} and ${indexReturns.length} returns`);
  finite('assetReturns', assetReturns);
  finite('indexReturns', indexReturns);
  if (indexReturns.length < 2 || indexReturns.every((r) => r === indexReturns[0])) return null;
  const ma = mean(assetReturns);
  const mi = mean(indexReturns);
  let cov = 0;
  let varI = 0;
  for (let k = 0; k < indexReturns.length; k++) {
    cov += (assetReturns[k] - ma) * (indexReturns[k] - mi);
    varI += (indexReturns[k] - mi) * (indexReturns[k] - mi);
  }
  return round6(cov / varI);
}

/** The daily returns of both series on the dates they share, in date order. */
export function pairByDate(
  asset: readonly DailyReturn[],
  index: readonly DailyReturn[],
): { asset: number[]; index: number[] } {
  const byDate = new Map(index.map((r) => [r.date, r.dailyReturn]));
  const out = { asset: [] as number[], index: [] as number[] };
  for (const r of asset) {
    const i = byDate.get(r.date);
    if (i === undefined) continue;
    out.asset.push(r.dailyReturn);
    out.index.push(i);
  }
  return out;
}

// ---- exposures ---------------------------------------------------------------------------------------

function sum(name: string, valuesMicros: readonly number[]): bigint {
  let total = 0n;
  for (const v of valuesMicros) total += micros(name, v, 0);
  return total;
}

/**
 * Herfindahl-Hirschman index of the holdings: sum of squared weights, weight = value / sum of the given
 * values, a fraction in (0, 1] (1 = one holding; the 0-10,000 "points" scale is not given). The
 * portfolio passes its equity and fund positions, not cash. Null when nothing is held.
 */
export function hhi(valuesMicros: readonly number[]): number | null {
  const total = sum('valuesMicros', valuesMicros);
  if (total === 0n) return null;
  let squares = 0n;
  for (const v of valuesMicros) squares += BigInt(v) * BigInt(v);
  return ratio(squares, total * total);
}

/** Largest holding / total portfolio value (cash included), a fraction: the largest weight_pct. Null when empty or the
 * total is 0. */
export function topHoldingPct(valuesMicros: readonly number[], totalValueMicros: number): number | null {
  const total = micros('totalValueMicros', totalValueMicros, 0);
  sum('valuesMicros', valuesMicros);
  if (valuesMicros.length === 0 || total === 0n) return null;
  return ratio(BigInt(Math.max(...valuesMicros)), total);
}

export interface SectorExposure<S extends string = string> {
  sector: S;
  value_micros: number;
  /** value_micros / total portfolio value, a fraction; null when the total is 0. */
  weight_pct: number | null;
}

/**
 * Value per sector and its share of the total portfolio value (cash included), ordered alphabetically by
 * sector, never by size. Rounded weights may not add up to exactly 1.
 */
export function sectorExposures<S extends string>(
  holdings: ReadonlyArray<{ sector: S; valueMicros: number }>,
  totalValueMicros: number,
): SectorExposure<S>[] {
  const total = micros('totalValueMicros', totalValueMicros, 0);
  const bySector = new Map<S, bigint>();
  for (const h of holdings)
    bySector.set(h.sector, (bySector.get(h.sector) ?? 0n) + micros('valueMicros', h.valueMicros, 0));
  return [...bySector.keys()]
    .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))
    .map((sector) => {
      const value = bySector.get(sector)!;
      return {
        sector,
        value_micros: safe('value_micros', value),
        weight_pct: total === 0n ? null : ratio(value, total),
      };
    });
}

// ---- positions (average cost) ------------------------------------------------------------------------

/** Quantity held (whole shares, or unit-micros for a fund) and its total cost basis. */
export interface CostBasis {
  qty: number;
  costMicros: number;
}

/** A buy adds its quantity and its whole cost: consideration plus the buy-side fees and stamp duty. */
export function averageCostAfterBuy(
  basis: CostBasis,
  fill: { qty: number; considerationMicros: number; feesMicros: number },
): CostBasis {
  const qty = micros('qty', basis.qty, 0) + micros('fill qty', fill.qty, 1);
  const cost =
    micros('costMicros', basis.costMicros, 0) +
    micros('considerationMicros', fill.considerationMicros, 0) +
    micros('feesMicros', fill.feesMicros, 0);
  return { qty: safe('qty', qty), costMicros: safe('costMicros', cost) };
}

export interface SellResult extends CostBasis {
  /** Cost basis taken out by the sale: cost x sold / held, rounded half up; all of it when the whole holding goes. */
  releasedCostMicros: number;
  /** Proceeds - sell-side fees - released cost. */
  realizedMicros: number;
}

/** A sell leaves the average cost unchanged: it releases a proportional share of the cost basis. */
export function averageCostAfterSell(
  basis: CostBasis,
  fill: { qty: number; proceedsMicros: number; feesMicros: number },
): SellResult {
  const held = micros('qty', basis.qty, 0);
  const cost = micros('costMicros', basis.costMicros, 0);
  const sold = micros('fill qty', fill.qty, 1);
  if (sold > held) throw new RangeError(`cannot sell ${sold} of ${held} held`);
  const released = sold === held ? cost : roundHalfUp(cost * sold, held);
  const realized =
    micros('proceedsMicros', fill.proceedsMicros, 0) - micros('feesMicros', fill.feesMicros, 0) - released;
  return {
    qty: safe('qty', held - sold),
    costMicros: safe('costMicros', cost - released),
    releasedCostMicros: safe('releasedCostMicros', released),
    realizedMicros: safe('realizedMicros', realized),
  };
}

export type PositionKind = 'equity' | 'fund' | 'cash';

export interface PositionInput {
  kind: PositionKind;
  /** Whole shares (equity); unit-micros (fund); cash micros (cash, at price_micros 1,000,000). */
  qty: number;
  costMicros: number;
  /** Last price per share (equity) or NAV per whole unit (fund); 1,000,000 for cash. */
  priceMicros: number;
  /** The portfolio's total value, cash included: the denominator of weight_pct. */
  totalValueMicros: number;
}

export interface PositionView {
  value_micros: number;
  unrealized_micros: number;
  /** unrealized / cost, a fraction; null when the cost basis is 0. */
  unrealized_pct: number | null;
  /** value / total portfolio value, a fraction; null when the total is 0. */
  weight_pct: number | null;
}

/**
 * Market value and P/L of a position. Equity: qty x price. Fund and cash: qty x price / 1,000,000
 * floored to the micro, which is what a redemption of the units would pay.
 */
export function positionView(p: PositionInput): PositionView {
  const qty = micros('qty', p.qty, 0);
  const price = micros('priceMicros', p.priceMicros, 0);
  const cost = micros('costMicros', p.costMicros, 0);
  const total = micros('totalValueMicros', p.totalValueMicros, 0);
  const value = p.kind === 'equity' ? qty * price : (qty * price) / SCALE;
  const unrealized = value - cost;
  return {
    value_micros: safe('value_micros', value),
    unrealized_micros: safe('unrealized_micros', unrealized),
    unrealized_pct: cost === 0n ? null : ratio(unrealized, cost),
    weight_pct: total === 0n ? null : ratio(value, total),
  };
}
