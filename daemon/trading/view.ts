// The matcher's view of the market, over the calendar, the tape and the halts.
import type { Calendar } from '../market/calendar.js';
import type { Tape } from '../market/tape.js';
import type { MarketView, Side } from './matcher.js';

export function createMarketView(m: { calendar: Calendar; tape: Tape; isHalted(symbol: string): boolean }): MarketView {
  return {
    isOpen: (ms) => m.calendar.isOpen(ms),
    nextOpen: (ms) => m.calendar.nextOpen(ms),
    closeOf: (ms) => m.calendar.nextClose(ms),
    priceAt: (symbol, ms) => m.tape.priceAt(symbol, ms),
    firstTick(symbol: string, side: Side, limitMicros: number | null, fromMs: number, toMs: number) {
      // A market order takes any tick: a limit no tape price can fail to reach.
      const limit = limitMicros ?? (side === 'buy' ? Number.MAX_SAFE_INTEGER : 0);
      const hit = m.tape.firstTickReaching(symbol, side, limit, fromMs, toMs);
      return hit ? { atMs: hit.atMs, priceMicros: hit.priceMicros } : null;
    },
    halted: (symbol) => m.isHalted(symbol),
  };
}
