// The calendar's public types (re-exported by ../calendar.ts).

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
