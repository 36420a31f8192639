// Calendar-date arithmetic on YYYY-MM-DD strings, with no zone involved: a date is a day number since
// 1970-01-01, so stepping and comparing dates is integer arithmetic.

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
  const month = Number(m[2]);
  const dayOfMonth = Number(m[3]);
  const at = new Date(Date.UTC(Number(m[1]), month - 1, dayOfMonth));
  // Date.UTC rolls 2026-02-30 over into March; a date that rolled over does not exist.
  if (at.getUTCMonth() + 1 !== month || at.getUTCDate() !== dayOfMonth) throw new Error(`not a calendar date: ${date}`);
  return at.getTime() / DAY_MS;
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
