// The matcher's view of the market, over the calendar, the tape and the halts.
//
// firstTick is the hot path of the order source: every resting order asks it for its next reaching
// tick, over days or weeks. It keeps, per symbol, bounds of each trading day's low and high (from the
// day's open and close, without its minute path) and, for a day they do not rule out, the exact low and
// high (from the minute path), in arrays indexed by trading day, so an order skips a day it cannot reach
// with a comparison or two, a day's minute path is built only when some order's limit lies within its
// bounds, and its minutes are scanned only when the day reaches the limit. A quote override changes
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

  constructor(
    private readonly cal: Calendar,
    private readonly onRebuild: () => void,
  ) {}

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
    while (this.dates[this.dates.length - 1] < date)
      this.push(this.cal.nextTradingDay(this.dates[this.dates.length - 1]));
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

/** A symbol's days, by trading-day index: bounds of low and high (NaN: none), then the exact low and high. */
interface SymbolDays {
  lowBound: number[];
  highBound: number[];
  low: number[];
  high: number[];
}

/**
 * Per symbol, per trading-day index: whether the day reaches a limit. First by the tape's bounds of the
 * day's low and high (tape.dayRangeBound, no minute path: a day they rule out is skipped for the price
 * of its open and close), then by the day's exact low and high (from its minute path). Both computed
 * on first use.
 */
class DayRanges {
  private days = new Map<string, SymbolDays>();

  forget(symbol?: string): void {
    if (symbol === undefined) this.days = new Map();
    else this.days.delete(symbol);
  }

  /** Whether some minute of trading day i (`date`) is at or through the limit. */
  reaches(tape: Tape, symbol: string, i: number, date: string, side: Side, limit: number): boolean {
    let d = this.days.get(symbol);
    if (!d) this.days.set(symbol, (d = { lowBound: [], highBound: [], low: [], high: [] }));
    if (d.lowBound[i] === undefined) {
      const b = tape.dayRangeBound(symbol, date);
      d.lowBound[i] = b ? b.low : Number.NaN;
      d.highBound[i] = b ? b.high : Number.NaN;
    }
    if (side === 'buy' ? d.lowBound[i] > limit : d.highBound[i] < limit) return false;
    if (d.low[i] === undefined) {
      const p = tape.minutePrices(symbol, date);
      let low = p[0];
      let high = p[0];
      for (let k = 1; k < p.length; k++) {
        const x = p[k];
        if (x < low) low = x;
        else if (x > high) high = x;
      }
      d.low[i] = low;
      d.high[i] = high;
    }
    return side === 'buy' ? d.low[i] <= limit : d.high[i] >= limit;
  }
}

interface Scan {
  cal: Calendar;
  days: TradingDays;
  ranges: DayRanges;
  tape: Tape;
}

function firstTick(
  v: Scan,
  symbol: string,
  side: Side,
  limitMicros: number | null,
  fromMs: number,
  toMs: number,
): TickAt | null {
  const { days, tape } = v;
  // A market order takes any tick: a limit no tape price can fail to reach.
  const limit = limitMicros ?? (side === 'buy' ? Number.MAX_SAFE_INTEGER : 0);
  for (let i = days.indexOf(v.cal.sessionDateFor(fromMs)); ; i++) {
    days.ensure(i);
    const open = days.openMs[i];
    if (open >= toMs) return null;
    const n = days.minutes[i];
    const from = fromMs <= open ? 0 : Math.ceil((fromMs - open) / MINUTE_MS);
    if (from >= n) continue;
    if (limitMicros !== null && !v.ranges.reaches(tape, symbol, i, days.dates[i], side, limit)) continue;
    const p = tape.minutePrices(symbol, days.dates[i]);
    for (let k = from; k < n; k++) {
      if (side === 'buy' ? p[k] <= limit : p[k] >= limit) {
        const atMs = open + k * MINUTE_MS;
        return atMs < toMs ? { atMs, priceMicros: p[k] } : null;
      }
    }
  }
}

export function createMarketView(m: ViewMarket): MarketView {
  const cal = m.calendar;
  const ranges = new DayRanges();
  const v: Scan = { cal, days: new TradingDays(cal, () => ranges.forget()), ranges, tape: m.tape };

  /** The tape in force; a reset builds a new one, whose day ranges are not the old one's. */
  function current(): Tape {
    if (m.tape !== v.tape) {
      v.tape = m.tape;
      ranges.forget();
    }
    return v.tape;
  }

  m.onChange?.((symbol) => ranges.forget(symbol));

  return {
    isOpen: (ms) => cal.isOpen(ms),
    nextOpen: (ms) => cal.nextOpen(ms),
    closeOf: (ms) => cal.nextClose(ms),
    priceAt: (symbol, ms) => current().priceAt(symbol, ms),
    firstTick: (symbol, side, limitMicros, fromMs, toMs) => {
      current();
      return firstTick(v, symbol, side, limitMicros, fromMs, toMs);
    },
    halted: (symbol) => m.isHalted(symbol),
  };
}
