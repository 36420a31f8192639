// The one validator of calendar dates a caller sends (docs/reliability.md, "No tenant can stop the
// clock"): a report's period, the calendar's range, a dividend's dates, the desk's and the
// reconciliation's days. Every such date is YYYY-MM-DD, names a real day, and lies in the window the
// sandbox computes with, DATE_MIN..DATE_MAX; ranges are ordered and bounded. Refusals are values with
// stable codes (INVALID_DATE, DATE_OUT_OF_RANGE, INVALID_RANGE), so a hostile date is a 422, never a
// computation over two thousand years on the daemon's one thread.
//
// Why a window: the calendar steps day by day through any range it is asked about, and JavaScript's
// Date.UTC reads the years 0-99 as 1900-1999, so a year-1 date went backwards. Dates outside the
// window mean nothing to an exchange that opened in 1883 and a sandbox that runs today's rules.
import { ok, refuse, type Outcome } from './outcome.js';
import { isRealDate } from './kyc.js';

/** The first and last dates any request may name (inclusive). */
export const DATE_MIN = '1900-01-01';
export const DATE_MAX = '2199-12-31';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days from 1970-01-01 to a real YYYY-MM-DD date (days_from_civil: exact for every year, 0-99 too). */
export function civilDay(date: string): number {
  const m = DATE_RE.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  let y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  y -= mo <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Days from start to end (negative when end is earlier). */
export function daysBetween(start: string, end: string): number {
  return civilDay(end) - civilDay(start);
}

/**
 * A caller's date: YYYY-MM-DD naming a real day (else INVALID_DATE) inside DATE_MIN..DATE_MAX (else
 * DATE_OUT_OF_RANGE). `field` names it in the message.
 */
export function checkDate(field: string, value: string): Outcome<string> {
  const m = DATE_RE.exec(value);
  if (!m || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
    return refuse('INVALID_DATE', `${field}: ${JSON.stringify(value)} is not a calendar date (YYYY-MM-DD).`);
  }
  if (value < DATE_MIN || value > DATE_MAX) {
    return refuse(
      'DATE_OUT_OF_RANGE',
      `${field}: ${value} is outside the dates the sandbox handles (${DATE_MIN} to ${DATE_MAX}).`,
    );
  }
  return ok(value);
}

/** An optional date: absent stays absent. */
export function checkOptionalDate(field: string, value: string | undefined): Outcome<string | undefined> {
  return value === undefined ? ok(undefined) : checkDate(field, value);
}

/**
 * Two checked dates as an inclusive range: end not before start and at most maxDays apart, else
 * INVALID_RANGE (the names are the caller's fields).
 */
export function checkRange(
  names: { start: string; end: string },
  start: string,
  end: string,
  maxDays: number,
): Outcome<{ start: string; end: string }> {
  const days = daysBetween(start, end);
  if (days < 0) return refuse('INVALID_RANGE', `${names.end} ${end} is before ${names.start} ${start}.`);
  if (days > maxDays)
    return refuse(
      'INVALID_RANGE',
      `${names.start} to ${names.end}: at most ${maxDays} days per request (${start} to ${end} is ${days}).`,
    );
  return ok({ start, end });
}
