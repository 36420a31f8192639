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

/** Per symbol, per trading-day index: the day's low and high from the tape (computed on first use). */
class DayRanges {
  private lows = new Map<string, number[]>();
  private highs = new Map<string, number[]>();

  forget(symbol?: string): void {
    if (symbol === undefined) {
      this.lows = new Map();
      this.highs = new Map();
      return;
    }
    this.lows.delete(symbol);
    this.highs.delete(symbol);
  }

  /** The low and high of trading day i (`date`) on this tape. */
  of(tape: Tape, symbol: string, i: number, date: string): { low: number; high: number } {
    let lo = this.lows.get(symbol);
    let hi = this.highs.get(symbol);
    if (!lo || !hi) {
      this.lows.set(symbol, (lo = []));
      this.highs.set(symbol, (hi = []));
    }
    if (lo[i] === undefined) {
      const p = tape.minutePrices(symbol, date);
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
    if (limitMicros !== null) {
      const s = v.ranges.of(tape, symbol, i, days.dates[i]);
      if (side === 'buy' ? s.low > limit : s.high < limit) continue;
    }
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
