// Money-market fund arithmetic in integer micros: the daily NAV sweep, units <-> amount at a NAV, and
// which sweep first pays new units. Pure (no database, no clock); docs/portfolio.md "Funds" states the
// rules and why.
//
// - NAV is EGP micros per whole unit. Units are micros too: 1 unit = 1,000,000 unit-micros, so a holding
//   of U unit-micros is worth U x NAV / 1,000,000 EGP micros.
// - indicative_yield_bps is a nominal annual rate net of the management fee, on a fixed 365-day basis.
//   Each NAV sweep applies the simple daily rate yield/365 once: nav' = nav + nav x yield / (365 x 10,000),
//   rounded half up to the micro. One sweep per calendar day, weekends and exchange holidays included.
// - The sweep of calendar date D runs at the fund's cut-off (cutoff_local, Africa/Cairo) on D. Orders
//   execute at once at the current NAV, so units executed before the cut-off are in that day's sweep,
//   units executed at or after it first earn in the next day's sweep.
// - Rounding goes against the transacting investor and never creates money: a subscription buys the
//   whole unit-micros its amount pays for (floor) and is charged their value rounded up (the remainder
//   stays cash); a redemption pays the units' value rounded down.
import { addDays, epochDay } from '../market/calendar.js';

/** Unit-micros in one fund unit. */
export const UNIT_MICROS = 1_000_000;
/** The day-count basis of indicative_yield_bps: a fixed 365 days, leap years included. */
export const YIELD_DAY_COUNT = 365;

const UNIT = BigInt(UNIT_MICROS);
const BPS = 10_000n;
const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?$/;

function int(name: string, value: number, min: number): bigint {
  if (!Number.isSafeInteger(value) || value < min)
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  return BigInt(value);
}

function safe(name: string, value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`${name} overflows a safe integer: ${value}`);
  return Number(value);
}

/**
 * NAV after `days` daily sweeps at `yieldBps` a year: each sweep adds nav x yieldBps / (dayCount x 10,000)
 * rounded half up to the micro, so the result compounds daily and stays within one micro per sweep of
 * the closed form nav x (1 + y/dayCount)^days.
 */
export function navAfterDays(
  navMicros: number,
  yieldBps: number,
  days: number,
  dayCount: number = YIELD_DAY_COUNT,
): number {
  let nav = int('navMicros', navMicros, 1);
  const y = int('yieldBps', yieldBps, 0);
  int('days', days, 0);
  const den = int('dayCount', dayCount, 1) * BPS;
  for (let d = 0; d < days; d++) nav += (2n * nav * y + den) / (2n * den);
  return safe('nav', nav);
}

/**
 * NAV after the sweep of `sweepDate`, given the NAV that stood after the sweep of `baseSweepDate` (the
 * fixture NAV at the sandbox start, or a `nav` control). The NAV is a function of the date, not a
 * stored running total: one sweep per calendar day between the two.
 */
export function navOnSweepDate(
  baseNavMicros: number,
  baseSweepDate: string,
  sweepDate: string,
  yieldBps: number,
): number {
  const days = epochDay(sweepDate) - epochDay(baseSweepDate);
  if (days < 0) throw new RangeError(`sweep date ${sweepDate} is before the base ${baseSweepDate}`);
  return navAfterDays(baseNavMicros, yieldBps, days);
}

/** Whole unit-micros that `amountMicros` buys at `navMicros`: floor(amount x 1,000,000 / nav). */
export function unitsForAmount(amountMicros: number, navMicros: number): number {
  const amount = int('amountMicros', amountMicros, 0);
  const nav = int('navMicros', navMicros, 1);
  return safe('units', (amount * UNIT) / nav);
}

/** Value of `unitsMicros` at `navMicros`, floored to the micro: what a redemption pays. */
export function amountForUnits(unitsMicros: number, navMicros: number): number {
  const units = int('unitsMicros', unitsMicros, 0);
  const nav = int('navMicros', navMicros, 1);
  return safe('amount', (units * nav) / UNIT);
}

export interface SubscriptionFill {
  unitsMicros: number;
  /** Cash taken: the units' value rounded up to the micro, never more than the amount asked. */
  amountMicros: number;
  /** Amount asked - amount taken: stays in the investor's cash; less than one unit-micro's value (nav / 1,000,000). */
  remainderMicros: number;
}

/** A subscription of `amountMicros` at `navMicros`: floor the units, charge their value rounded up. */
export function subscriptionAtNav(amountMicros: number, navMicros: number): SubscriptionFill {
  const unitsMicros = unitsForAmount(amountMicros, navMicros);
  const value = BigInt(unitsMicros) * BigInt(navMicros);
  const charged = Number((value + UNIT - 1n) / UNIT);
  return { unitsMicros, amountMicros: charged, remainderMicros: amountMicros - charged };
}

function secondsOfDay(name: string, hhmm: string): number {
  const m = TIME_RE.exec(hhmm);
  if (!m) throw new RangeError(`${name} must be HH:MM or HH:MM:SS[.fff], got ${hhmm}`);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
}

function isAtOrAfterCutoff(localTime: string, cutoff: string): boolean {
  // Sub-second digits never matter: the cut-off is a whole minute, so HH:MM:SS already decides.
  return secondsOfDay('local time', localTime) >= secondsOfDay('cutoff', cutoff);
}

/**
 * The date of the latest sweep that has run at a Cairo local instant: the same day from the cut-off on
 * (the cut-off instant itself included), otherwise the day before. The current NAV is the NAV after it.
 */
export function lastSweepDate(localDate: string, localTime: string, cutoff: string): string {
  epochDay(localDate);
  return isAtOrAfterCutoff(localTime, cutoff) ? localDate : addDays(localDate, -1);
}

/**
 * The date of the first sweep that pays units executed at a Cairo local instant: the execution day when
 * executed before the cut-off, the next calendar day when executed at or after it (whatever the
 * weekday: the sweep also runs on Fridays, Saturdays and holidays).
 */
export function firstAccrualDate(executedAtLocalDate: string, executedAtLocalTime: string, cutoff: string): string {
  return addDays(lastSweepDate(executedAtLocalDate, executedAtLocalTime, cutoff), 1);
}
