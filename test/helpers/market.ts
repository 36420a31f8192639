// Market pieces for pure tests: the fixture calendar, and a naive MarketView that scans every minute
// over a tick-price function (a hand-written table, or the real tape's priceAt).
import { readFixture } from '../../daemon/fixtures.js';
import { createCalendar, type Calendar } from '../../daemon/market/calendar.js';
import type { MarketView, Side, TickAt } from '../../daemon/trading/matcher.js';

const MINUTE_MS = 60_000;

export function fixtureCalendar(): Calendar {
  const s = readFixture<{
    zone: string;
    weekend: number[];
    open: string;
    close: string;
    short_sessions: { from: string; to: string; open: string; close: string }[];
  }>('sessions.json');
  const holidays = readFixture<{ holidays: { date: string }[] }>('holidays.json').holidays.map((h) => h.date);
  return createCalendar({
    zone: s.zone,
    weekend: s.weekend,
    open: s.open,
    close: s.close,
    shortSessions: s.short_sessions,
    holidays,
  });
}

/** The price of the tick at `minute` of the session on `date`. */
export type TickPrice = (symbol: string, date: string, minute: number) => number;

export interface NaiveView extends MarketView {
  halts: Set<string>;
}

/** A MarketView by brute force: every minute is looked at, nothing is skipped. */
export function naiveView(cal: Calendar, tickPrice: TickPrice): NaiveView {
  const halts = new Set<string>();
  function lastTickPrice(symbol: string, ms: number): number {
    const today = cal.localDate(ms);
    const s = cal.session(today);
    if (s && ms >= s.openMs)
      return tickPrice(symbol, today, Math.min(Math.floor((ms - s.openMs) / MINUTE_MS), cal.sessionMinutes(today) - 1));
    const prev = cal.prevTradingDay(today);
    return tickPrice(symbol, prev, cal.sessionMinutes(prev) - 1);
  }
  return {
    halts,
    isOpen: (ms) => cal.isOpen(ms),
    nextOpen(ms) {
      for (let t = Math.floor(ms / MINUTE_MS) * MINUTE_MS + MINUTE_MS; ; t += MINUTE_MS)
        if (cal.isOpen(t) && !cal.isOpen(t - MINUTE_MS)) return t;
    },
    closeOf(ms) {
      let t = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
      if (!cal.isOpen(ms)) for (t += MINUTE_MS; !cal.isOpen(t); t += MINUTE_MS);
      while (cal.isOpen(t)) t += MINUTE_MS;
      return t;
    },
    priceAt: lastTickPrice,
    firstTick(symbol: string, side: Side, limit: number | null, fromMs: number, toMs: number): TickAt | null {
      for (let t = Math.ceil(fromMs / MINUTE_MS) * MINUTE_MS; t < toMs; t += MINUTE_MS) {
        const m = cal.minuteIndex(t);
        if (m === null) continue;
        const p = tickPrice(symbol, cal.localDate(t), m);
        if (limit === null || (side === 'buy' ? p <= limit : p >= limit)) return { atMs: t, priceMicros: p };
      }
      return null;
    },
    halted: (symbol) => halts.has(symbol),
  };
}
