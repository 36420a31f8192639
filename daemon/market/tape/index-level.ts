// The market index (EGX30) from its constituents on the tape: 10,000 points at the reference prices,
// weighted by index weight. A level at an instant costs one price per constituent; a finished day's bar
// is memoized, a bar cut at a minute walks that day's minutes. The index reads prices before any split
// adjustment (effective.ts, rawPriceAt): an index provider adjusts its divisor for a split, so a split
// moves no index level.
import { mulDivFloor } from '../ticks.js';
import { memo } from './cache.js';
import type { TapeCtx } from './context.js';
import { collectBars, lastMinuteAsOf } from './bars.js';
import { closeOf, effectivePath } from './effective.js';
import { rawPriceAt } from './instant.js';
import type { IndexBar, Instrument } from './types.js';

const INDEX_BASE_POINTS = 10_000;
const PPM = 1_000_000;

/** 10,000 x sum(w x price / base) / sum(w), with each ratio taken in parts per million. */
function indexLevelOf(t: Pick<TapeCtx, 'index'>, priceOf: (inst: Instrument, k: number) => number): number {
  const { constituents, totalWeightBps } = t.index;
  if (constituents.length === 0) throw new Error('tape has no index constituents');
  let weighted = 0;
  for (let k = 0; k < constituents.length; k++) {
    const c = constituents[k];
    weighted += c.weightBps * mulDivFloor(priceOf(c, k), PPM, c.refPriceMicros);
  }
  return mulDivFloor(weighted, INDEX_BASE_POINTS, totalWeightBps);
}

export function indexLevel(t: TapeCtx, date: string): number {
  const day = t.cal.isTradingDay(date) ? date : t.cal.prevTradingDay(date);
  return indexLevelOf(t, (c) => closeOf(t, c, day));
}

export function indexLevelAt(t: TapeCtx, ms: number): number {
  return indexLevelOf(t, (c) => rawPriceAt(t, c.symbol, ms));
}

function indexBarUpTo(t: TapeCtx, date: string, lastMinute: number): IndexBar {
  const series = t.index.constituents.map((c) => effectivePath(t, c, date));
  const levelAt = (i: number) => indexLevelOf(t, (_, k) => series[k][i]);
  const open = levelAt(0);
  let high = open;
  let low = open;
  let close = open;
  for (let i = 1; i <= lastMinute; i++) {
    close = levelAt(i);
    high = Math.max(high, close);
    low = Math.min(low, close);
  }
  return { date, open_micros: open, high_micros: high, low_micros: low, close_micros: close };
}

export function indexBarAsOf(t: TapeCtx, date: string, ms: number): IndexBar | null {
  const last = lastMinuteAsOf(t.cal, date, ms);
  if (last === null) return null;
  if (last < t.cal.sessionMinutes(date) - 1) return indexBarUpTo(t, date, last);
  return memo(t.effective.indexBars, date, () => indexBarUpTo(t, date, last));
}

export function indexCandles(t: TapeCtx, endDate: string, days: number, asOfMs: number): IndexBar[] {
  return collectBars(t.cal, endDate, days, (date) => indexBarAsOf(t, date, asOfMs));
}
