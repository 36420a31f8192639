// The calendar and the clock as clients see them: trading days over a date range (at most two years
// per request) with the named closures in that range, and the clock with the next open and close, in Africa/Cairo
// offsets.
import { ok, type Outcome } from '../contract/outcome.js';
import { addDays } from './calendar/dates.js';
import { checkDate, checkRange, DATE_MAX } from '../contract/dates.js';
import type { MarketReader } from './service.js';
import type { CalendarRow } from './calendar.js';
import { holidaysBetween } from './holidays.js';

/** A weekday the exchange is closed, with its name: the days between trading days that are not the weekend. */
export interface ClosedDay {
  date: string;
  name: string;
  name_ar: string;
}

const MAX_CALENDAR_DAYS = 731;

/** GET /v1/calendar: start defaults to today, end to start + 30 days; both inclusive. */
export function calendarRange(
  deps: MarketReader,
  start?: string,
  end?: string,
): Outcome<{ calendar: CalendarRow[]; closed_days: ClosedDay[] }> {
  const cal = deps.market.calendar;
  // the shared validator (contract/dates.ts): real dates inside the sandbox's window, then the range
  const first = checkDate('start', start ?? cal.localDate(deps.clock.now()));
  if (!first.ok) return first;
  const defaultEnd = addDays(first.value, 30);
  const last = checkDate('end', end ?? (defaultEnd > DATE_MAX ? DATE_MAX : defaultEnd));
  if (!last.ok) return last;
  const range = checkRange({ start: 'start', end: 'end' }, first.value, last.value, MAX_CALENDAR_DAYS);
  if (!range.ok) return range;
  const { start: from, end: to } = range.value;
  const closed = holidaysBetween(from, to).map((h) => ({ date: h.date, name: h.name, name_ar: h.name_ar }));
  return ok({ calendar: cal.rows(from, to), closed_days: closed });
}

/** GET /v1/clock. */
export function clockView(deps: MarketReader) {
  const now = deps.clock.now();
  const cal = deps.market.calendar;
  return {
    timestamp: cal.toIso(now),
    is_open: cal.isOpen(now),
    next_open: cal.toIso(cal.nextOpen(now)),
    next_close: cal.toIso(cal.nextClose(now)),
  };
}
