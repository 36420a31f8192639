// Prices after the splits: the effective prices (base and overrides, effective.ts) divided by the
// divisor in force at each tick (splits.ts). A tick before a symbol's split keeps its price, so history
// (past bars, fills, contract notes) never changes; a tick at or after it is divided.
//
// Rounding: price / divisor to the nearest tick of the grid (daemon/contract/tick.ts; half a tick rounds
// up), never below the minimum price, then clamped to the band around the adjusted reference price
// (the raw reference / the same divisor, rounded the same way), so every adjusted tick is a legal limit
// price of its day. A symbol without a split is the effective tape itself, at no cost.
import { band, clampToBand, roundRatioToTick, MIN_PRICE_MICROS } from '../ticks.js';
import { memo } from './cache.js';
import { sessionOf, type TapeCtx } from './context.js';
import { closeOf, dayStats, effectivePath, highLow } from './effective.js';
import { divisorAt } from './splits.js';
import { MINUTE_MS, type DayStats, type Instrument } from './types.js';

/** price / divisor on the grid (nearest tick), never below the minimum price. */
export function divide(priceMicros: number, divisor: number): number {
  if (divisor === 1) return priceMicros;
  return Math.max(MIN_PRICE_MICROS, roundRatioToTick(BigInt(priceMicros), BigInt(divisor), 'nearest'));
}

/** The reference price (previous close) of `date` as seen under divisor d. */
export function adjustedReference(t: TapeCtx, inst: Instrument, date: string, d: number): number {
  return divide(closeOf(t, inst, t.cal.prevTradingDay(date)), d);
}

/** A raw price of `date` (tick or close) under divisor d, inside that day's adjusted band. */
export function adjustOnDay(t: TapeCtx, inst: Instrument, date: string, rawMicros: number, d: number): number {
  if (d === 1) return rawMicros;
  return clampToBand(divide(rawMicros, d), band(adjustedReference(t, inst, date, d)));
}

function computeAdjustedPath(t: TapeCtx, inst: Instrument, date: string): number[] {
  const raw = effectivePath(t, inst, date);
  const openMs = sessionOf(t.cal, date).openMs;
  const lastD = divisorAt(t.splits, inst.symbol, openMs + (raw.length - 1) * MINUTE_MS);
  if (lastD === 1) return raw;
  const out = new Array<number>(raw.length);
  for (let i = 0; i < raw.length; i++)
    out[i] = adjustOnDay(t, inst, date, raw[i], divisorAt(t.splits, inst.symbol, openMs + i * MINUTE_MS));
  return out;
}

/** The day's minute prices as quoted: O(minutes of the day) once for a split symbol, then memoized. */
export function adjustedPath(t: TapeCtx, inst: Instrument, date: string): number[] {
  if (!t.splits.of(inst.symbol)) return effectivePath(t, inst, date);
  return memo(t.effective.adjustedPaths, `${inst.symbol}|${date}`, () => computeAdjustedPath(t, inst, date));
}

/** The divisor of the day's last tick (its close). */
export function closeDivisor(t: TapeCtx, inst: Instrument, date: string): number {
  return divisorAt(t.splits, inst.symbol, t.cal.tickMs(date, t.cal.sessionMinutes(date) - 1));
}

/** The close as quoted: the adjusted path's last price, in O(1). */
export function adjustedClose(t: TapeCtx, inst: Instrument, date: string): number {
  if (!t.splits.of(inst.symbol)) return closeOf(t, inst, date);
  return memo(t.effective.adjustedCloses, `${inst.symbol}|${date}`, () =>
    adjustOnDay(t, inst, date, closeOf(t, inst, date), closeDivisor(t, inst, date)),
  );
}

export function adjustedStats(t: TapeCtx, inst: Instrument, date: string): DayStats {
  if (!t.splits.of(inst.symbol)) return dayStats(t, inst, date);
  return memo(t.effective.adjustedStats, `${inst.symbol}|${date}`, () => highLow(adjustedPath(t, inst, date)));
}
