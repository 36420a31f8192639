// When does the tape reach a limit price: the first minute of a day (skipped in O(1) when the day's
// high/low never reach it) and the first tick across sessions in a time window, on the prices as quoted
// (split-adjusted: adjusted.ts).
import { instrumentOf, sessionOf, type TapeCtx } from './context.js';
import { adjustedPath, adjustedStats } from './adjusted.js';
import { MINUTE_MS, type Side, type TickHit } from './types.js';

export function firstMinuteReaching(
  t: TapeCtx,
  symbol: string,
  date: string,
  side: Side,
  limitMicros: number,
  fromMinute: number,
): number | null {
  const inst = instrumentOf(t, symbol);
  if (!t.cal.isTradingDay(date)) return null;
  const { high, low } = adjustedStats(t, inst, date);
  if (side === 'buy' ? low > limitMicros : high < limitMicros) return null;
  const p = adjustedPath(t, inst, date);
  for (let i = Math.max(0, fromMinute); i < p.length; i++) {
    if (side === 'buy' ? p[i] <= limitMicros : p[i] >= limitMicros) return i;
  }
  return null;
}

/** First tick in [fromMs, toMs) at or through the limit, across sessions. */
export function firstTickReaching(
  t: TapeCtx,
  symbol: string,
  side: Side,
  limitMicros: number,
  fromMs: number,
  toMs: number,
): TickHit | null {
  for (let date = t.cal.sessionDateFor(fromMs); ; date = t.cal.nextTradingDay(date)) {
    const s = sessionOf(t.cal, date);
    if (s.openMs >= toMs) return null;
    const from = fromMs <= s.openMs ? 0 : Math.ceil((fromMs - s.openMs) / MINUTE_MS);
    const minute = firstMinuteReaching(t, symbol, date, side, limitMicros, from);
    if (minute === null) continue;
    const atMs = s.openMs + minute * MINUTE_MS;
    if (atMs >= toMs) return null;
    return { date, minute, atMs, priceMicros: adjustedPath(t, instrumentOf(t, symbol), date)[minute] };
  }
}
