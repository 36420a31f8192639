// Which dates trade: not a weekend weekday, not a holiday. Stepping to the next or previous trading
// day is memoized per date; the trading-day number (consecutive trading days differ by exactly 1, the
// tape's day index) is O(1) for the weekdays plus O(log holidays) for the holidays before the date.
import { addDays, epochDay, isoWeekday } from './dates.js';

/** A calendar with no trading day in ten years is a configuration error, not a loop to spin in. */
const MAX_SCAN_DAYS = 3660;

export interface TradingDays {
  readonly weekend: ReadonlySet<number>;
  readonly holidays: ReadonlySet<string>;
  /** Holidays that fall on weekdays (only those remove a trading day), as epoch days, ascending. */
  readonly weekdayHolidays: readonly number[];
  /** Non-weekend days in [0, day). */
  readonly weekdaysBefore: (day: number) => number;
  readonly prev: Map<string, string>;
  readonly next: Map<string, string>;
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

export function createTradingDays(weekendDays: readonly number[], holidayDates: readonly string[]): TradingDays {
  const weekend = new Set(weekendDays);
  const holidays = new Set(holidayDates);
  const weekdayHolidays = [...holidays]
    .map(epochDay)
    .filter((d) => !weekend.has(isoWeekday(d)))
    .sort((a, b) => a - b);
  return {
    weekend,
    holidays,
    weekdayHolidays,
    weekdaysBefore: weekdayCounter(weekend),
    prev: new Map(),
    next: new Map(),
  };
}

export function isTradingDay(r: Pick<TradingDays, 'weekend' | 'holidays'>, date: string): boolean {
  return !r.weekend.has(isoWeekday(epochDay(date))) && !r.holidays.has(date);
}

function stepToTradingDay(r: TradingDays, date: string, step: 1 | -1): string {
  let d = date;
  for (let i = 0; i < MAX_SCAN_DAYS; i++) {
    d = addDays(d, step);
    if (isTradingDay(r, d)) return d;
  }
  throw new Error(`calendar has no trading day within ${MAX_SCAN_DAYS} days of ${date}`);
}

export function nextTradingDay(r: TradingDays, date: string): string {
  let d = r.next.get(date);
  if (d === undefined) r.next.set(date, (d = stepToTradingDay(r, date, 1)));
  return d;
}

export function prevTradingDay(r: TradingDays, date: string): string {
  let d = r.prev.get(date);
  if (d === undefined) r.prev.set(date, (d = stepToTradingDay(r, date, -1)));
  return d;
}

/** Rolls a non-trading date forward first, so n = 0 is "this date if it trades, else the next one". */
export function addTradingDays(r: TradingDays, date: string, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new Error(`addTradingDays needs a whole n >= 0, got ${n}`);
  let d = isTradingDay(r, date) ? date : nextTradingDay(r, date);
  for (let i = 0; i < n; i++) d = nextTradingDay(r, d);
  return d;
}

/** Trading days before `date` counted from 1970-01-01 (negative earlier). */
export function tradingDayNumber(r: TradingDays, date: string): number {
  const day = epochDay(date);
  return r.weekdaysBefore(day) - lowerBound(r.weekdayHolidays, day);
}
