// The calendar and the clock as clients see them: trading days over a date range (at most two years
// per request) with the named closures in that range, and the clock with the next open and close, in Africa/Cairo offsets.
import { DateTime } from 'luxon';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
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

/** The schema checks the YYYY-MM-DD shape; this checks the date exists (2026-02-30 does not). */
function realDate(s: string, field: string): Outcome<DateTime> {
  const d = DateTime.fromISO(s, { zone: 'UTC' });
  return d.isValid ? ok(d) : refuse('INVALID_DATE', `${field}: ${s} is not a calendar date.`);
}

/** GET /v1/calendar: start defaults to today, end to start + 30 days; both inclusive. */
export function calendarRange(deps: MarketReader, start?: string, end?: string): Outcome<{ calendar: CalendarRow[]; closed_days: ClosedDay[] }> {
  const cal = deps.market.calendar;
  const from = start ?? cal.localDate(deps.clock.now());
  const to = end ?? DateTime.fromISO(from, { zone: 'UTC' }).plus({ days: 30 }).toISODate()!;
  const last = realDate(to, 'end');
  if (!last.ok) return last;
  const first = realDate(from, 'start');
  if (!first.ok) return first;
  const days = last.value.diff(first.value, 'days').days;
  if (days < 0) return refuse('INVALID_RANGE', `end ${to} is before start ${from}.`);
  if (days > MAX_CALENDAR_DAYS) return refuse('INVALID_RANGE', `At most ${MAX_CALENDAR_DAYS} days per request.`);
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
