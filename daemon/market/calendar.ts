// The exchange calendar: trading days, session times in the exchange's IANA zone, settlement dates.
// Pure: it is built from parameters (fixtures pass them in) and never reads the clock. Times are epoch
// milliseconds; dates are YYYY-MM-DD in the exchange's zone. Per-date answers are cached because the
// tape and the scheduler ask the same questions for every simulated minute.
import { DateTime, IANAZone } from 'luxon';

export interface ShortSession {
  from: string;
  to: string;
  open: string;
  close: string;
}

export interface CalendarParams {
  zone: string;
  /** ISO weekdays that never trade (Monday = 1 ... Sunday = 7); EGX: Friday 5, Saturday 6. */
  weekend: number[];
  open: string;
  close: string;
  /** Inclusive date ranges with other session times (Ramadan). */
  shortSessions: ShortSession[];
  holidays: string[];
}

export interface Session {
  openMs: number;
  closeMs: number;
  open: string;
  close: string;
}

export interface CalendarRow {
  date: string;
  open: string;
  close: string;
  session_open: string;
  session_close: string;
  settlement_date: string;
}

export interface Calendar {
  readonly zone: string;
  localDate(ms: number): string;
  isTradingDay(date: string): boolean;
  session(date: string): Session | null;
  isOpen(ms: number): boolean;
  nextOpen(ms: number): number;
  nextClose(ms: number): number;
  /** The trading date whose session contains ms, or else the next one to open. */
  sessionDateFor(ms: number): string;
  addTradingDays(date: string, n: number): string;
  prevTradingDay(date: string): string;
  nextTradingDay(date: string): string;
  settlementDate(tradeDate: string, days?: number): string;
  /** Trading days before `date` counted from 1970-01-01 (negative earlier): consecutive trading days differ by 1. */
  tradingDayNumber(date: string): number;
  rows(start: string, end: string): CalendarRow[];
  toIso(ms: number): string;
  sessionMinutes(date: string): number;
  minuteIndex(ms: number): number | null;
  /** Time of the tick at `minute` (0-based) of the session on `date`. */
  tickMs(date: string, minute: number): number;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HHMM_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** A calendar with no trading day in ten years is a configuration error, not a loop to spin in. */
const MAX_SCAN_DAYS = 3660;
/** Offsets and their changes fall on quarter hours in every modern zone, so a quarter hour has one local date. */
const DATE_BUCKET_MS = 900_000;
const DATE_CACHE_LIMIT = 200_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date (a calendar date, no zone involved). */
export function epochDay(date: string): number {
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

function checkHhmm(value: string, what: string): void {
  if (!HHMM_RE.test(value)) throw new Error(`calendar ${what} is not HH:MM: ${value}`);
}

/** Counts non-weekend days in [0, day): whole weeks in O(1), plus a prefix table for the last part week. */
function weekdayCounter(weekend: ReadonlySet<number>): (day: number) => number {
  const prefix = [0];
  for (let k = 0; k < 7; k++) prefix.push(prefix[k] + (weekend.has(isoWeekday(k)) ? 0 : 1));
  return (day) => {
    const weeks = Math.floor(day / 7);
    return weeks * prefix[7] + prefix[day - weeks * 7];
  };
}

/** Index of the first element >= value in a sorted array. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function createCalendar(params: CalendarParams): Calendar {
  const { zone } = params;
  if (!IANAZone.isValidZone(zone)) throw new Error(`unknown time zone: ${zone}`);
  checkHhmm(params.open, 'open');
  checkHhmm(params.close, 'close');
  // HH:MM strings compare like times; a session must last at least one minute to have a tick.
  if (params.open >= params.close) throw new Error('calendar open must be before close');
  for (const s of params.shortSessions) {
    checkHhmm(s.open, 'short session open');
    checkHhmm(s.close, 'short session close');
    if (s.open >= s.close) throw new Error(`short session ${s.from}..${s.to}: open must be before close`);
  }
  const weekend = new Set(params.weekend);
  const holidays = new Set(params.holidays);
  // Only holidays on weekdays remove a trading day; the sorted list makes tradingDayNumber O(log H).
  const weekdayHolidays = [...holidays]
    .map(epochDay)
    .filter((d) => !weekend.has(isoWeekday(d)))
    .sort((a, b) => a - b);
  const weekdaysBefore = weekdayCounter(weekend);

  const dateByBucket = new Map<number, string>();
  const sessions = new Map<string, Session | null>();
  const prevDay = new Map<string, string>();
  const nextDay = new Map<string, string>();

  function localDate(ms: number): string {
    const bucket = Math.floor(ms / DATE_BUCKET_MS);
    let date = dateByBucket.get(bucket);
    if (date === undefined) {
      if (dateByBucket.size >= DATE_CACHE_LIMIT) dateByBucket.clear();
      date = DateTime.fromMillis(ms, { zone }).toISODate()!;
      dateByBucket.set(bucket, date);
    }
    return date;
  }

  function isTradingDay(date: string): boolean {
    return !weekend.has(isoWeekday(epochDay(date))) && !holidays.has(date);
  }

  function hoursFor(date: string): { open: string; close: string } {
    let hours = { open: params.open, close: params.close };
    for (const s of params.shortSessions) if (s.from <= date && date <= s.to) hours = { open: s.open, close: s.close };
    return hours;
  }

  function localMs(date: string, hhmm: string): number {
    return DateTime.fromISO(`${date}T${hhmm}`, { zone }).toMillis();
  }

  function session(date: string): Session | null {
    let s = sessions.get(date);
    if (s === undefined) {
      if (isTradingDay(date)) {
        const { open, close } = hoursFor(date);
        s = { openMs: localMs(date, open), closeMs: localMs(date, close), open, close };
      } else {
        s = null;
      }
      sessions.set(date, s);
    }
    return s;
  }

  function stepToTradingDay(date: string, step: 1 | -1): string {
    let d = date;
    for (let i = 0; i < MAX_SCAN_DAYS; i++) {
      d = addDays(d, step);
      if (isTradingDay(d)) return d;
    }
    throw new Error(`calendar has no trading day within ${MAX_SCAN_DAYS} days of ${date}`);
  }

  function nextTradingDay(date: string): string {
    let d = nextDay.get(date);
    if (d === undefined) nextDay.set(date, (d = stepToTradingDay(date, 1)));
    return d;
  }

  function prevTradingDay(date: string): string {
    let d = prevDay.get(date);
    if (d === undefined) prevDay.set(date, (d = stepToTradingDay(date, -1)));
    return d;
  }

  /** Rolls a non-trading date forward first, so n = 0 is "this date if it trades, else the next one". */
  function addTradingDays(date: string, n: number): string {
    if (!Number.isInteger(n) || n < 0) throw new Error(`addTradingDays needs a whole n >= 0, got ${n}`);
    let d = isTradingDay(date) ? date : nextTradingDay(date);
    for (let i = 0; i < n; i++) d = nextTradingDay(d);
    return d;
  }

  function nextOpen(ms: number): number {
    const today = localDate(ms);
    const s = session(today);
    if (s && s.openMs > ms) return s.openMs;
    return session(nextTradingDay(today))!.openMs;
  }

  function sessionDateFor(ms: number): string {
    const today = localDate(ms);
    const s = session(today);
    return s && ms < s.closeMs ? today : nextTradingDay(today);
  }

  function nextClose(ms: number): number {
    return session(sessionDateFor(ms))!.closeMs;
  }

  function isOpen(ms: number): boolean {
    const s = session(localDate(ms));
    return s !== null && s.openMs <= ms && ms < s.closeMs;
  }

  function sessionMinutes(date: string): number {
    const s = session(date);
    return s ? Math.floor((s.closeMs - s.openMs) / MINUTE_MS) : 0;
  }

  function minuteIndex(ms: number): number | null {
    const s = session(localDate(ms));
    if (!s || ms < s.openMs || ms >= s.closeMs) return null;
    return Math.floor((ms - s.openMs) / MINUTE_MS);
  }

  function tickMs(date: string, minute: number): number {
    const s = session(date);
    if (!s) throw new Error(`no session on ${date}`);
    return s.openMs + minute * MINUTE_MS;
  }

  function tradingDayNumber(date: string): number {
    const day = epochDay(date);
    return weekdaysBefore(day) - lowerBound(weekdayHolidays, day);
  }

  function settlementDate(tradeDate: string, days = 2): string {
    return addTradingDays(tradeDate, days);
  }

  function rows(start: string, end: string): CalendarRow[] {
    const out: CalendarRow[] = [];
    for (let day = epochDay(start), last = epochDay(end); day <= last; day++) {
      const date = dateOfEpochDay(day);
      const s = session(date);
      if (!s) continue;
      out.push({
        date,
        open: s.open,
        close: s.close,
        session_open: s.open.replace(':', ''),
        session_close: s.close.replace(':', ''),
        settlement_date: settlementDate(date),
      });
    }
    return out;
  }

  // Every response carries timestamps: format them without luxon on the hot path. The zone's offset is
  // constant within a quarter hour (the same reasoning as localDate), so it is cached per bucket.
  const ianaZone = IANAZone.create(zone);
  const offsetByBucket = new Map<number, number>();
  const two = (n: number) => (n < 10 ? '0' : '') + n;

  function toIso(ms: number): string {
    const bucket = Math.floor(ms / DATE_BUCKET_MS);
    let offset = offsetByBucket.get(bucket);
    if (offset === undefined) {
      if (offsetByBucket.size >= DATE_CACHE_LIMIT) offsetByBucket.clear();
      offset = ianaZone.offset(ms);
      offsetByBucket.set(bucket, offset);
    }
    const d = new Date(Math.floor(ms / 1000) * 1000 + offset * 60_000);
    const abs = Math.abs(offset);
    return (
      `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T` +
      `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}` +
      `${offset < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`
    );
  }

  return {
    zone, localDate, isTradingDay, session, isOpen, nextOpen, nextClose, sessionDateFor,
    addTradingDays, prevTradingDay, nextTradingDay, settlementDate, tradingDayNumber,
    rows, toIso, sessionMinutes, minuteIndex, tickMs,
  };
}
