// The tape's public types (re-exported by ../tape.ts) and the normalized instrument its parts share.
import type { Calendar } from '../calendar.js';

export interface TapeInstrument {
  symbol: string;
  refPriceMicros: number;
  /** Weight in the market index; absent or 0 when not a constituent. */
  weightBps?: number;
  /** Scales every seeded move (100 = equity default; bonds want far less). Up to ~300 keeps daily moves inside the
   * band. */
  volatilityPct?: number;
}

export interface TapeOverride {
  symbol: string;
  atMs: number;
  priceMicros: number;
}

/** An N-for-1 split: from atMs on, the symbol's prices are divided by ratio. */
export interface TapeSplit {
  symbol: string;
  atMs: number;
  ratio: number;
}

export interface TapeParams {
  seed: number | string;
  calendar: Calendar;
  instruments: readonly TapeInstrument[];
  /**
   * The recorded `quote` controls, read lazily; call tape.invalidate() after they change. Each price is
   * as it was set: after a split, in the split-adjusted prices.
   */
  overrides: () => readonly TapeOverride[];
  /** The recorded splits, read lazily; absent: none. Call tape.invalidate() after they change. */
  splits?: () => readonly TapeSplit[];
}

export interface DayBar {
  date: string;
  open_micros: number;
  high_micros: number;
  low_micros: number;
  close_micros: number;
  volume: number;
}

/** Index levels in micro-points: 10,000 points = 10_000_000_000. */
export interface IndexBar {
  date: string;
  open_micros: number;
  high_micros: number;
  low_micros: number;
  close_micros: number;
}

export type Side = 'buy' | 'sell';

export interface TickHit {
  date: string;
  minute: number;
  atMs: number;
  priceMicros: number;
}

export interface Tape {
  has(symbol: string): boolean;
  priceAt(symbol: string, ms: number): number;
  /**
   * The close of the trading day before `date`, as that close was quoted (a later split does not change
   * it); with asOfMs, divided by the splits in force at asOfMs (the reference a quote at asOfMs compares with).
   */
  prevClose(symbol: string, date: string, asOfMs?: number): number;
  /** The reference price (previous close) of the session containing ms, or of the next one, divided by the splits in
   * force at ms. */
  referencePriceAt(symbol: string, ms: number): number;
  dayBar(symbol: string, date: string): DayBar | null;
  barAsOf(symbol: string, date: string, ms: number): DayBar | null;
  minutePrices(symbol: string, date: string): readonly number[];
  /**
   * Bounds of the day's low and high (low <= every minute price <= high) without its minute path, or null
   * when only the path can say (an override or split of the symbol); for a look-ahead that skips days.
   */
  dayRangeBound(symbol: string, date: string): DayStats | null;
  candles(symbol: string, endDate: string, days: number, asOfMs: number): DayBar[];
  firstMinuteReaching(symbol: string, date: string, side: Side, limitMicros: number, fromMinute: number): number | null;
  firstTickReaching(symbol: string, side: Side, limitMicros: number, fromMs: number, toMs: number): TickHit | null;
  indexLevel(date: string): number;
  indexLevelAt(ms: number): number;
  indexBarAsOf(date: string, ms: number): IndexBar | null;
  indexCandles(endDate: string, days: number, asOfMs: number): IndexBar[];
  invalidate(): void;
}

/** A TapeInstrument with its defaults filled in. */
export interface Instrument {
  symbol: string;
  refPriceMicros: number;
  weightBps: number;
  volatilityPct: number;
}

export const MINUTE_MS = 60_000;

/** A price multiplier num/den, kept exact. */
export interface Factor {
  num: bigint;
  den: bigint;
}

export const IDENTITY: Factor = { num: 1n, den: 1n };

/** A recorded override as it acts on its day: on the grid, inside the band, with its scale factor. */
export interface EffectiveOverride {
  atMs: number;
  priceMicros: number;
  factor: Factor;
}

export interface DayStats {
  high: number;
  low: number;
}
