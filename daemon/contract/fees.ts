// The fee and reservation rules of an equity order, pure and shared: the daemon charges and holds with
// them, and the CLI shows the same figures before an order is placed (svc order buy, svc dashboard).
// Per-side trading fees on a trade value in integer micros (docs/trading.md "Fees",
// fixtures/fees.json). Every line rounds half up to the micro, in BigInt.
//
// Fees are an ORDER-level figure: commission max(5 EGP, 10 bp) is charged once per order, and the EGX
// fee's 5,000 EGP cap applies to the order. An order that fills in several executions is charged, on
// each fill, the increase of the order-level figure computed on the cumulative executed value:
//   fill k pays  fees(value_1 + ... + value_k) - fees(value_1 + ... + value_(k-1))
// so the fills always sum to exactly the order-level fees, the commission minimum lands on the first
// fill, and no per-fill rounding accumulates. Stamp duty is a tax, shown as withholding.

export interface RateFixture {
  rate_bps_x10: number;
  cap_micros?: number;
  min_micros?: number;
}

export interface FeesFixture {
  commission: RateFixture & { min_micros: number };
  egx: RateFixture & { cap_micros: number };
  mcdr: RateFixture;
  ipf: RateFixture;
  fra: RateFixture;
  stamp_duty: RateFixture;
}

export interface FeeSchedule {
  commission: { rateBpsX10: number; minMicros: number };
  egx: { rateBpsX10: number; capMicros: number };
  mcdr: { rateBpsX10: number };
  ipf: { rateBpsX10: number };
  fra: { rateBpsX10: number };
  stampDuty: { rateBpsX10: number };
}

/** One side's charges; `stamp_duty_micros` is the withholding, the rest are fees. */
export interface FeeLines {
  commission_micros: number;
  egx_micros: number;
  mcdr_micros: number;
  ipf_micros: number;
  fra_micros: number;
  stamp_duty_micros: number;
}

export const FEE_LINE_KEYS = [
  'commission_micros',
  'egx_micros',
  'mcdr_micros',
  'ipf_micros',
  'fra_micros',
  'stamp_duty_micros',
] as const;

/** Tenths of a basis point per unit: rate_bps_x10 / 100,000. */
const BPS_X10_DEN = 100_000n;

/** The schedule of fixtures/fees.json (the daemon reads the file; the CLI bundles it). */
export function feeScheduleOf(f: FeesFixture): FeeSchedule {
  return {
    commission: { rateBpsX10: f.commission.rate_bps_x10, minMicros: f.commission.min_micros },
    egx: { rateBpsX10: f.egx.rate_bps_x10, capMicros: f.egx.cap_micros },
    mcdr: { rateBpsX10: f.mcdr.rate_bps_x10 },
    ipf: { rateBpsX10: f.ipf.rate_bps_x10 },
    fra: { rateBpsX10: f.fra.rate_bps_x10 },
    stampDuty: { rateBpsX10: f.stamp_duty.rate_bps_x10 },
  };
}

function checkValue(valueMicros: number): bigint {
  if (!Number.isSafeInteger(valueMicros) || valueMicros < 0)
    throw new Error(`trade value must be a non-negative safe integer of micros, got ${valueMicros}`);
  return BigInt(valueMicros);
}

/** value x rate, rounded half up to the micro. */
function rate(value: bigint, rateBpsX10: number): bigint {
  return (value * BigInt(rateBpsX10) * 2n + BPS_X10_DEN) / (2n * BPS_X10_DEN);
}

function toSafe(v: bigint): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new Error(`fee ${v} is not a safe integer`);
  return n;
}

/** The order-level charges on a cumulative executed value (nothing executed: nothing charged). */
export function orderFees(valueMicros: number, s: FeeSchedule): FeeLines {
  const v = checkValue(valueMicros);
  if (v === 0n)
    return { commission_micros: 0, egx_micros: 0, mcdr_micros: 0, ipf_micros: 0, fra_micros: 0, stamp_duty_micros: 0 };
  const commission = rate(v, s.commission.rateBpsX10);
  const minimum = BigInt(s.commission.minMicros);
  const egx = rate(v, s.egx.rateBpsX10);
  const cap = BigInt(s.egx.capMicros);
  return {
    commission_micros: toSafe(commission > minimum ? commission : minimum),
    egx_micros: toSafe(egx < cap ? egx : cap),
    mcdr_micros: toSafe(rate(v, s.mcdr.rateBpsX10)),
    ipf_micros: toSafe(rate(v, s.ipf.rateBpsX10)),
    fra_micros: toSafe(rate(v, s.fra.rateBpsX10)),
    stamp_duty_micros: toSafe(rate(v, s.stampDuty.rateBpsX10)),
  };
}

/** The charges of one fill: the increase of the order-level figure from the value before it. */
export function fillFees(priorValueMicros: number, fillValueMicros: number, s: FeeSchedule): FeeLines {
  const before = orderFees(priorValueMicros, s);
  const after = orderFees(priorValueMicros + fillValueMicros, s);
  return {
    commission_micros: after.commission_micros - before.commission_micros,
    egx_micros: after.egx_micros - before.egx_micros,
    mcdr_micros: after.mcdr_micros - before.mcdr_micros,
    ipf_micros: after.ipf_micros - before.ipf_micros,
    fra_micros: after.fra_micros - before.fra_micros,
    stamp_duty_micros: after.stamp_duty_micros - before.stamp_duty_micros,
  };
}

/** Several charges added line by line (an order's fills into its contract note's totals). */
export function sumFeeLines(rows: readonly FeeLines[]): FeeLines {
  const sum: FeeLines = {
    commission_micros: 0,
    egx_micros: 0,
    mcdr_micros: 0,
    ipf_micros: 0,
    fra_micros: 0,
    stamp_duty_micros: 0,
  };
  for (const row of rows) for (const k of FEE_LINE_KEYS) sum[k] += row[k];
  return sum;
}

/** Fees without the withholding (commission, EGX, MCDR, IPF, FRA). */
export function feesOnly(l: FeeLines): number {
  return l.commission_micros + l.egx_micros + l.mcdr_micros + l.ipf_micros + l.fra_micros;
}

export function totalCharges(l: FeeLines): number {
  return feesOnly(l) + l.stamp_duty_micros;
}

/**
 * The most an order of this notional can be charged: every line is non-decreasing in the value, so the
 * charges of any execution worth at most `notionalMicros` are at most this. Buys reserve it.
 */
export function feeCeiling(notionalMicros: number, s: FeeSchedule): number {
  return totalCharges(orderFees(notionalMicros, s));
}

/** What an order holds while it works. */
export interface Reservation {
  /** Settled cash held: a buy's qty x price + fee ceiling; a sell's worst-case fee shortfall. */
  cashMicros: number;
  /** Settled shares held (sells). */
  shares: number;
}

/** qty x price as a safe integer, or null when it is not one. */
export function notional(qty: number, priceMicros: number): number | null {
  const v = BigInt(qty) * BigInt(priceMicros);
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : null;
}

/**
 * Cash a buy holds: qty x (limit, or the band ceiling for a market order) + the fee ceiling on that
 * notional. A sell's proceeds pay its fees; only when the worst-case proceeds (qty x limit, or the
 * band floor) are below the fees does the sell hold the shortfall in cash. null: not representable.
 */
export function reservationFor(
  o: { side: 'buy' | 'sell'; qty: number; limitPriceMicros: number | null },
  band: { lowerMicros: number; upperMicros: number },
  fees: FeeSchedule,
): Reservation | null {
  if (o.side === 'buy') {
    const n = notional(o.qty, o.limitPriceMicros ?? band.upperMicros);
    if (n === null) return null;
    const cash = n + feeCeiling(n, fees);
    return Number.isSafeInteger(cash) ? { cashMicros: cash, shares: 0 } : null;
  }
  const n = notional(o.qty, o.limitPriceMicros ?? band.lowerMicros);
  if (n === null) return null;
  return { cashMicros: Math.max(0, feeCeiling(n, fees) - n), shares: o.qty };
}
