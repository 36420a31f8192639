// The exchange calendar: trading days, session times in the exchange's IANA zone, settlement dates.
// Guarantees:
// - Pure: built from parameters (fixtures pass them in), it never reads the clock; the same parameters
//   give the same answers on any machine.
// - Times are epoch milliseconds; dates are YYYY-MM-DD in the exchange's zone.
// - Per-date answers are memoized because the tape and the scheduler ask the same questions for every
//   simulated minute; the trading-day number is O(log holidays), never a walk from an epoch.
// - Bad parameters (unknown zone, malformed or empty session hours) fail at construction.
//
// The parts, under calendar/: dates.ts (date arithmetic), zone-time.ts (local dates and RFC 3339 text
// of instants), trading-days.ts (which dates trade, stepping, counting), sessions.ts (hours per date
// and the questions asked by instant).
import {
  createTradingDays,
  addTradingDays,
  isTradingDay,
  nextTradingDay,
  prevTradingDay,
  tradingDayNumber,
} from './calendar/trading-days.js';
import {
  isOpen,
  minuteIndex,
  nextClose,
  nextOpen,
  rows,
  session,
  sessionDateFor,
  sessionMinutes,
  tickMs,
  type SessionCtx,
} from './calendar/sessions.js';
import type { Calendar, CalendarParams } from './calendar/types.js';
import { createZoneTime, localDate, toIso } from './calendar/zone-time.js';

export type { Calendar, CalendarParams, CalendarRow, Session, ShortSession } from './calendar/types.js';
export { addDays, dateOfEpochDay, epochDay, isoWeekday } from './calendar/dates.js';

const HHMM_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

function checkHhmm(value: string, what: string): void {
  if (!HHMM_RE.test(value)) throw new Error(`calendar ${what} is not HH:MM: ${value}`);
}

function checkHours(params: CalendarParams): void {
  checkHhmm(params.open, 'open');
  checkHhmm(params.close, 'close');
  // HH:MM strings compare like times; a session must last at least one minute to have a tick.
  if (params.open >= params.close) throw new Error('calendar open must be before close');
  for (const s of params.shortSessions) {
    checkHhmm(s.open, 'short session open');
    checkHhmm(s.close, 'short session close');
    if (s.open >= s.close) throw new Error(`short session ${s.from}..${s.to}: open must be before close`);
  }
}

export function createCalendar(params: CalendarParams): Calendar {
  const time = createZoneTime(params.zone);
  checkHours(params);
  const days = createTradingDays(params.weekend, params.holidays);
  const c: SessionCtx = { hours: params, days, time, sessions: new Map() };
  return {
    zone: params.zone,
    localDate: (ms) => localDate(time, ms),
    isTradingDay: (date) => isTradingDay(days, date),
    session: (date) => session(c, date),
    isOpen: (ms) => isOpen(c, ms),
    nextOpen: (ms) => nextOpen(c, ms),
    nextClose: (ms) => nextClose(c, ms),
    sessionDateFor: (ms) => sessionDateFor(c, ms),
    addTradingDays: (date, n) => addTradingDays(days, date, n),
    prevTradingDay: (date) => prevTradingDay(days, date),
    nextTradingDay: (date) => nextTradingDay(days, date),
    settlementDate: (tradeDate, n = 2) => addTradingDays(days, tradeDate, n),
    tradingDayNumber: (date) => tradingDayNumber(days, date),
    rows: (start, end) => rows(c, start, end),
    toIso: (ms) => toIso(time, ms),
    sessionMinutes: (date) => sessionMinutes(c, date),
    minuteIndex: (ms) => minuteIndex(c, ms),
    tickMs: (date, minute) => tickMs(c, date, minute),
  };
}
