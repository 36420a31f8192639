// The deterministic tape: every price is a function of (seed, symbol, trading day, minute) plus the
// recorded `quote` overrides (docs/market.md, "The tape"). Guarantees:
// - Nothing is stored per tick and nothing walks from an epoch: any minute costs O(1) (a day's close,
//   a price before the open) or O(minutes of that day) (its path), plus O(log holidays) for the
//   trading-day number and O(log overrides) for the override lookup.
// - Same seed, calendar and overrides, same prices, on any machine (integer arithmetic only).
// - Every tick is on the price grid and inside its day's band around the previous close (the paths
//   are clamped to it; the closes need no clamp, the seeded daily moves being bounded far inside it).
//
// The parts, one job each, under tape/: series.ts (the seeded daily close, open and volume), path.ts
// (the intraday base path), overrides.ts (the recorded quote controls, indexed), effective.ts (base plus
// overrides: closes and minute paths as traded), instant.ts (the price at an instant), bars.ts (OHLCV),
// reaching.ts (when a limit is reached), index-level.ts (EGX30), splits.ts and adjusted.ts (the recorded
// stock splits: prices from a split's instant on divided by its ratio, rounded to the nearest tick,
// inside the adjusted band); context.ts holds the shared state and the memo tables (cache.ts), which are
// per (symbol, day) and bounded.
import { barAsOf, candles, dayBar, dayRangeBound, minutePrices } from './tape/bars.js';
import { createTapeContext, invalidate } from './tape/context.js';
import { indexBarAsOf, indexCandles, indexLevel, indexLevelAt } from './tape/index-level.js';
import { prevClose, priceAt, referencePriceAt } from './tape/instant.js';
import { firstMinuteReaching, firstTickReaching } from './tape/reaching.js';
import type { Tape, TapeParams } from './tape/types.js';

export type {
  DayBar,
  IndexBar,
  Side,
  Tape,
  TapeInstrument,
  TapeOverride,
  TapeParams,
  TapeSplit,
  TickHit,
} from './tape/types.js';

export function createTape(params: TapeParams): Tape {
  const t = createTapeContext(params);
  return {
    has: (symbol) => t.instruments.has(symbol),
    priceAt: (symbol, ms) => priceAt(t, symbol, ms),
    prevClose: (symbol, date, asOfMs) => prevClose(t, symbol, date, asOfMs),
    referencePriceAt: (symbol, ms) => referencePriceAt(t, symbol, ms),
    dayBar: (symbol, date) => dayBar(t, symbol, date),
    barAsOf: (symbol, date, ms) => barAsOf(t, symbol, date, ms),
    minutePrices: (symbol, date) => minutePrices(t, symbol, date),
    dayRangeBound: (symbol, date) => dayRangeBound(t, symbol, date),
    candles: (symbol, endDate, days, asOfMs) => candles(t, symbol, endDate, days, asOfMs),
    firstMinuteReaching: (symbol, date, side, limitMicros, fromMinute) =>
      firstMinuteReaching(t, symbol, date, side, limitMicros, fromMinute),
    firstTickReaching: (symbol, side, limitMicros, fromMs, toMs) =>
      firstTickReaching(t, symbol, side, limitMicros, fromMs, toMs),
    indexLevel: (date) => indexLevel(t, date),
    indexLevelAt: (ms) => indexLevelAt(t, ms),
    indexBarAsOf: (date, ms) => indexBarAsOf(t, date, ms),
    indexCandles: (endDate, days, asOfMs) => indexCandles(t, endDate, days, asOfMs),
    invalidate: () => invalidate(t),
  };
}
