// Sessions: the open and close of each trading day (regular hours, or a short session's), memoized per
// date, and the questions asked of them by instant: is it open, when is the next open or close, which
// session does an instant belong to, which minute of it is this.
import { dateOfEpochDay, epochDay } from './dates.js';
import { addTradingDays, isTradingDay, nextTradingDay, type TradingDays } from './trading-days.js';
import type { CalendarParams, CalendarRow, Session } from './types.js';
import { localDate, localMs, type ZoneTime } from './zone-time.js';

const MINUTE_MS = 60_000;

export interface SessionCtx {
  readonly hours: Pick<CalendarParams, 'open' | 'close' | 'shortSessions'>;
  readonly days: TradingDays;
  readonly time: ZoneTime;
  readonly sessions: Map<string, Session | null>;
}

function hoursFor(c: SessionCtx, date: string): { open: string; close: string } {
  let hours = { open: c.hours.open, close: c.hours.close };
  for (const s of c.hours.shortSessions) if (s.from <= date && date <= s.to) hours = { open: s.open, close: s.close };
  return hours;
}

export function session(c: SessionCtx, date: string): Session | null {
  let s = c.sessions.get(date);
  if (s === undefined) {
    if (isTradingDay(c.days, date)) {
      const { open, close } = hoursFor(c, date);
      s = { openMs: localMs(c.time, date, open), closeMs: localMs(c.time, date, close), open, close };
    } else {
      s = null;
    }
    c.sessions.set(date, s);
  }
  return s;
}

export function nextOpen(c: SessionCtx, ms: number): number {
  const today = localDate(c.time, ms);
  const s = session(c, today);
  if (s && s.openMs > ms) return s.openMs;
  return session(c, nextTradingDay(c.days, today))!.openMs;
}

export function sessionDateFor(c: SessionCtx, ms: number): string {
  const today = localDate(c.time, ms);
  const s = session(c, today);
  return s && ms < s.closeMs ? today : nextTradingDay(c.days, today);
}

export function nextClose(c: SessionCtx, ms: number): number {
  return session(c, sessionDateFor(c, ms))!.closeMs;
}

export function isOpen(c: SessionCtx, ms: number): boolean {
  const s = session(c, localDate(c.time, ms));
  return s !== null && s.openMs <= ms && ms < s.closeMs;
}

export function sessionMinutes(c: SessionCtx, date: string): number {
  const s = session(c, date);
  return s ? Math.floor((s.closeMs - s.openMs) / MINUTE_MS) : 0;
}

export function minuteIndex(c: SessionCtx, ms: number): number | null {
  const s = session(c, localDate(c.time, ms));
  if (!s || ms < s.openMs || ms >= s.closeMs) return null;
  return Math.floor((ms - s.openMs) / MINUTE_MS);
}

export function tickMs(c: SessionCtx, date: string, minute: number): number {
  const s = session(c, date);
  if (!s) throw new Error(`no session on ${date}`);
  return s.openMs + minute * MINUTE_MS;
}

/** The trading days from start to end inclusive with their hours and T+2 settlement dates. */
export function rows(c: SessionCtx, start: string, end: string): CalendarRow[] {
  const out: CalendarRow[] = [];
  for (let day = epochDay(start), last = epochDay(end); day <= last; day++) {
    const date = dateOfEpochDay(day);
    const s = session(c, date);
    if (!s) continue;
    out.push({
      date,
      open: s.open,
      close: s.close,
      session_open: s.open.replace(':', ''),
      session_close: s.close.replace(':', ''),
      settlement_date: addTradingDays(c.days, date, 2),
    });
  }
  return out;
}
