// Calendar-date arithmetic on YYYY-MM-DD strings, with no zone involved: a date is a day number since
// 1970-01-01, so stepping and comparing dates is integer arithmetic.

import { civilDay } from '../../contract/dates.js';
import { isRealDate } from '../../contract/kyc.js';

const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

// The dates a sandbox asks about are few (today, the settlement dates, a report's range) and asked
// often (every quote, every order): the valid ones are remembered, up to a bound.
const KNOWN_DAYS = new Map<string, number>();
const KNOWN_DAYS_MAX = 4096;

/** Days since 1970-01-01 of a YYYY-MM-DD date (a calendar date, no zone involved). */
export function epochDay(date: string): number {
  const known = KNOWN_DAYS.get(date);
  if (known !== undefined) return known;
  const day = parseEpochDay(date);
  if (KNOWN_DAYS.size < KNOWN_DAYS_MAX) KNOWN_DAYS.set(date, day);
  return day;
}

function parseEpochDay(date: string): number {
  const m = DATE_RE.exec(date);
  if (!m) throw new Error(`not a YYYY-MM-DD date: ${date}`);
  if (!isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) throw new Error(`not a calendar date: ${date}`);
  // Pure arithmetic: Date.UTC would read the years 0-99 as 1900-1999 (0001-01-01 came after 1899).
  return civilDay(date);
}

export function dateOfEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, n: number): string {
  return dateOfEpochDay(epochDay(date) + n);
}

/** ISO weekday of an epoch day: 1970-01-01 was a Thursday (4). */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}
