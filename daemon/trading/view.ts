// The matcher's view of the market, over the calendar, the tape and the halts.
//
// firstTick is the hot path of the order source: every resting order asks it for its next reaching
// tick, over days or weeks. It keeps, per symbol, each trading day's low and high (from the tape's
// minute path) in arrays indexed by trading day, so an order skips a day it cannot reach with one
// comparison, and scans a day's minutes only when the day reaches its limit. A quote override changes
// a symbol's future path: its day stats are dropped (market.onChange); a reset builds a new tape: all
// are dropped.
import type { Calendar } from '../market/calendar.js';
import type { Tape } from '../market/tape.js';
import type { MarketView, Side, TickAt } from './matcher.js';

const MINUTE_MS = 60_000;

export interface ViewMarket {
  calendar: Calendar;
  readonly tape: Tape;
  isHalted(symbol: string): boolean;
  onChange?(listener: (symbol: string) => void): void;
}

/** The trading days from a first date on, in order, with their sessions; grown on demand. */
class TradingDays {
  dates: string[] = [];
  openMs: number[] = [];
  minutes: number[] = [];
  private pos = new Map<string, number>();

  constructor(private readonly cal: Calendar, private readonly onRebuild: () => void) {}

  /** Index of a trading date (rebuilt from it when it lies before the first known day). */
  indexOf(date: string): number {
    let i = this.pos.get(date);
    if (i !== undefined) return i;
    if (this.dates.length === 0 || date < this.dates[0]) {
      this.dates = [];
      this.openMs = [];
      this.minutes = [];
      this.pos.clear();
      this.onRebuild();
      this.push(date);
      return 0;
    }
    while (this.dates[this.dates.length - 1] < date) this.push(this.cal.nextTradingDay(this.dates[this.dates.length - 1]));
    i = this.pos.get(date);
    if (i === undefined) throw new Error(`${date} is not a trading day`);
    return i;
  }

  /** Makes sure day i exists. */
  ensure(i: number): void {
    while (this.dates.length <= i) this.push(this.cal.nextTradingDay(this.dates[this.dates.length - 1]));
  }

  private push(date: string): void {
    const s = this.cal.session(date)!;
    this.pos.set(date, this.dates.length);
    this.dates.push(date);
    this.openMs.push(s.openMs);
    this.minutes.push(Math.floor((s.closeMs - s.openMs) / MINUTE_MS));
  }
}

export function createMarketView(m: ViewMarket): MarketView {
  const cal = m.calendar;
  /** Per symbol, per trading-day index: the day's low and high (undefined until computed). */
  let lows = new Map<string, number[]>();
  let highs = new Map<string, number[]>();
  const forget = () => {
    lows = new Map();
    highs = new Map();
  };
  const days = new TradingDays(cal, forget);
  let tape = m.tape;

  function current(): Tape {
    if (m.tape !== tape) {
      tape = m.tape;
      forget();
    }
    return tape;
  }

  m.onChange?.((symbol) => {
    lows.delete(symbol);
    highs.delete(symbol);
  });

  function stats(symbol: string, i: number): { low: number; high: number } {
    let lo = lows.get(symbol);
    let hi = highs.get(symbol);
    if (!lo || !hi) {
      lows.set(symbol, (lo = []));
      highs.set(symbol, (hi = []));
    }
    if (lo[i] === undefined) {
      const p = tape.minutePrices(symbol, days.dates[i]);
      let low = p[0];
      let high = p[0];
      for (let k = 1; k < p.length; k++) {
        const x = p[k];
        if (x < low) low = x;
        else if (x > high) high = x;
      }
      lo[i] = low;
      hi[i] = high;
    }
    return { low: lo[i], high: hi[i] };
  }

  function firstTick(symbol: string, side: Side, limitMicros: number | null, fromMs: number, toMs: number): TickAt | null {
    const t = current();
    // A market order takes any tick: a limit no tape price can fail to reach.
    const limit = limitMicros ?? (side === 'buy' ? Number.MAX_SAFE_INTEGER : 0);
    for (let i = days.indexOf(cal.sessionDateFor(fromMs)); ; i++) {
      days.ensure(i);
      const open = days.openMs[i];
      if (open >= toMs) return null;
      const n = days.minutes[i];
      const from = fromMs <= open ? 0 : Math.ceil((fromMs - open) / MINUTE_MS);
      if (from >= n) continue;
      if (limitMicros !== null) {
        const s = stats(symbol, i);
        if (side === 'buy' ? s.low > limit : s.high < limit) continue;
      }
      const p = t.minutePrices(symbol, days.dates[i]);
      for (let k = from; k < n; k++) {
        if (side === 'buy' ? p[k] <= limit : p[k] >= limit) {
          const atMs = open + k * MINUTE_MS;
          return atMs < toMs ? { atMs, priceMicros: p[k] } : null;
        }
      }
    }
  }

  return {
    isOpen: (ms) => cal.isOpen(ms),
    nextOpen: (ms) => cal.nextOpen(ms),
    closeOf: (ms) => cal.nextClose(ms),
    priceAt: (symbol, ms) => current().priceAt(symbol, ms),
    firstTick,
    halted: (symbol) => m.isHalted(symbol),
  };
}
