// Daily OHLCV bars from the effective path: a whole day's high and low are memoized per day, a bar cut
// at a minute scans that day's minutes up to it, and the volume is the day's seeded volume pro rata.
import type { Calendar } from '../calendar.js';
import { mulDivFloor } from '../ticks.js';
import { instrumentOf, type TapeCtx } from './context.js';
import { adjustedPath, adjustedStats } from './adjusted.js';
import { divisorAt } from './splits.js';
import { basePathBounds } from './path.js';
import { baseVolume } from './series.js';
import { MINUTE_MS, type DayBar, type DayStats, type Instrument } from './types.js';

/** Prices as quoted (split-adjusted from each split's instant on); the volume in the shares of the last tick. */
function barUpTo(t: TapeCtx, inst: Instrument, date: string, lastMinute: number): DayBar {
  const p = adjustedPath(t, inst, date);
  const full = lastMinute === p.length - 1;
  let high = p[0];
  let low = p[0];
  if (full) ({ high, low } = adjustedStats(t, inst, date));
  else
    for (let i = 1; i <= lastMinute; i++) {
      high = Math.max(high, p[i]);
      low = Math.min(low, p[i]);
    }
  const shares = divisorAt(t.splits, inst.symbol, t.cal.tickMs(date, lastMinute));
  const volume = mulDivFloor(baseVolume(t, inst, date) * shares, lastMinute + 1, p.length);
  return { date, open_micros: p[0], high_micros: high, low_micros: low, close_micros: p[lastMinute], volume };
}

/** Last minute of `date` ticked by ms, or null when the session has not opened by then (or never does). */
export function lastMinuteAsOf(cal: Calendar, date: string, ms: number): number | null {
  const s = cal.session(date);
  if (!s || ms < s.openMs) return null;
  return Math.min(Math.floor((ms - s.openMs) / MINUTE_MS), cal.sessionMinutes(date) - 1);
}

export function dayBar(t: TapeCtx, symbol: string, date: string): DayBar | null {
  const inst = instrumentOf(t, symbol);
  return t.cal.isTradingDay(date) ? barUpTo(t, inst, date, t.cal.sessionMinutes(date) - 1) : null;
}

export function barAsOf(t: TapeCtx, symbol: string, date: string, ms: number): DayBar | null {
  const inst = instrumentOf(t, symbol);
  const last = lastMinuteAsOf(t.cal, date, ms);
  return last === null ? null : barUpTo(t, inst, date, last);
}

export function minutePrices(t: TapeCtx, symbol: string, date: string): readonly number[] {
  const inst = instrumentOf(t, symbol);
  return t.cal.isTradingDay(date) ? adjustedPath(t, inst, date) : [];
}

/**
 * A low at or below the day's lowest minute price and a high at or above its highest, without its minute
 * path (path.ts, basePathBounds); null on a day that is not a trading day and for a symbol with quote
 * overrides or splits, whose prices only the path says.
 */
export function dayRangeBound(t: TapeCtx, symbol: string, date: string): DayStats | null {
  const inst = instrumentOf(t, symbol);
  if (!t.cal.isTradingDay(date) || t.overrides.of(symbol) || t.splits.of(symbol)) return null;
  return basePathBounds(t, inst, date);
}

/**
 * The last `days` trading days on or before endDate for which barOf answers a bar, oldest first. barOf
 * answers null for a day not yet opened; the guard stops at ten trading weeks past such days.
 */
export function collectBars<B>(cal: Calendar, endDate: string, days: number, barOf: (date: string) => B | null): B[] {
  const out: B[] = [];
  let date = cal.isTradingDay(endDate) ? endDate : cal.prevTradingDay(endDate);
  for (let guard = 0; out.length < days && guard < days + 50; guard++) {
    const bar = barOf(date);
    if (bar) out.push(bar);
    date = cal.prevTradingDay(date);
  }
  return out.reverse();
}

/** The last `days` trading days on or before endDate that have opened by asOfMs, oldest first. */
export function candles(t: TapeCtx, symbol: string, endDate: string, days: number, asOfMs: number): DayBar[] {
  instrumentOf(t, symbol);
  return collectBars(t.cal, endDate, days, (date) => barAsOf(t, symbol, date, asOfMs));
}
