// Bond arithmetic on EGX's bond platform: coupon schedule and accrued interest, in integer micros.
// AI = (coupon rate x face / frequency) x days since last coupon / days in the coupon period (Actual/
// Actual on the period); some Ministry of Finance issues use face x rate x days / 365 (Actual/365).
// Worked example (docs/market-facts.md): 14.9% semi-annual, par 1,000: 92/182 x 74.50 = EGP 37.66.
import { DateTime } from 'luxon';
import { epochDay } from './calendar/dates.js';

export type DayCountConvention = 'ACT/ACT' | 'ACT/365';

export interface BondTerms {
  face_value_micros: number;
  coupon_rate_bps: number;
  /** Coupons per year: 0 (zero-coupon), 1, 2, 4 (or 12). */
  coupon_frequency: number;
  issue_date: string;
  maturity_date: string;
  day_count_convention: DayCountConvention;
  first_coupon_date: string | null;
}

/** 100_000_000 = 100.000% of par. */
export const PAR_PCT_MICROS = 100_000_000;
const BPS = 10_000n;
/** A 100-year monthly bond has 1,200 coupons; anything longer is bad data, not a schedule. */
const MAX_COUPONS = 1_200;

/** The date part of a YYYY-MM-DD or RFC 3339 value (bond dates are carried as RFC 3339 on the wire). */
function dateOnly(value: string): string {
  return value.slice(0, 10);
}

function monthsBefore(date: string, months: number): string {
  // Counted from the anchor each time, so month-end clamping (31 Aug -> 28 Feb) never drifts.
  return DateTime.fromISO(date, { zone: 'utc' }).minus({ months }).toISODate()!;
}

function daysBetween(from: string, to: string): number {
  return epochDay(to) - epochDay(from);
}

function roundHalfUp(num: bigint, den: bigint): number {
  return Number((2n * num + den) / (2n * den));
}

function pays(bond: BondTerms): boolean {
  return bond.coupon_rate_bps > 0 && bond.coupon_frequency > 0;
}

function monthsPerPeriod(bond: BondTerms): number {
  if (12 % bond.coupon_frequency !== 0)
    throw new Error(`coupon_frequency ${bond.coupon_frequency} does not divide a year`);
  return 12 / bond.coupon_frequency;
}

/**
 * Coupon payment dates, ascending, ending at maturity: regular dates step back from maturity by
 * 12/frequency months; the first is first_coupon_date when given (an odd first period), else the
 * earliest regular date after issue (a short first period when issue is off-cycle). Zero-coupon: [].
 */
export function couponSchedule(bond: BondTerms): string[] {
  if (!pays(bond)) return [];
  const step = monthsPerPeriod(bond);
  const maturity = dateOnly(bond.maturity_date);
  const first = bond.first_coupon_date ? dateOnly(bond.first_coupon_date) : null;
  const stop = first ?? dateOnly(bond.issue_date);
  const dates: string[] = [];
  for (let k = 0; k < MAX_COUPONS; k++) {
    const d = monthsBefore(maturity, k * step);
    if (d <= stop) break;
    dates.push(d);
  }
  if (first && first < maturity) dates.push(first);
  return dates.reverse();
}

/** The accrual period around `date`: its start (last coupon or issue) and the period length for ACT/ACT. */
function accrualPeriod(bond: BondTerms, schedule: string[], date: string): { start: string; periodDays: number } {
  const next = schedule.findIndex((d) => d > date);
  const nextCoupon = schedule[next];
  if (next > 0) return { start: schedule[next - 1], periodDays: daysBetween(schedule[next - 1], nextCoupon) };
  // First period: accrue from issue over the length of the regular period ending at the first coupon.
  const notionalStart = monthsBefore(nextCoupon, monthsPerPeriod(bond));
  return { start: dateOnly(bond.issue_date), periodDays: daysBetween(notionalStart, nextCoupon) };
}

/** Accrued interest per unit at the settlement date, rounded half up to the micro. */
export function accruedMicros(bond: BondTerms, settlementDate: string): number {
  const date = dateOnly(settlementDate);
  if (!pays(bond) || date <= dateOnly(bond.issue_date) || date >= dateOnly(bond.maturity_date)) return 0;
  const schedule = couponSchedule(bond);
  const { start, periodDays } = accrualPeriod(bond, schedule, date);
  const days = BigInt(daysBetween(start, date));
  const faceTimesRate = BigInt(bond.face_value_micros) * BigInt(bond.coupon_rate_bps);
  if (bond.day_count_convention === 'ACT/365') return roundHalfUp(faceTimesRate * days, BPS * 365n);
  return roundHalfUp(faceTimesRate * days, BPS * BigInt(bond.coupon_frequency) * BigInt(periodDays));
}

/** Dirty price per unit in micros: the clean price (percent of par) applied to face, plus accrued. */
export function dirtyPriceMicros(cleanPctMicros: number, accrued: number, faceValueMicros: number): number {
  const clean = roundHalfUp(BigInt(faceValueMicros) * BigInt(cleanPctMicros), BigInt(PAR_PCT_MICROS));
  return clean + accrued;
}
