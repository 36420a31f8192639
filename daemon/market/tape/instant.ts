// Prices at an instant: the last tick at or before ms (a minute of today's session, or the last close),
// unless a quote override was recorded after that tick, which shows until the next tick replaces it.
// O(log overrides) plus at most one day's path. Prices are divided by the splits in force at ms
// (adjusted.ts): at or after a split's instant the last tick, even one ticked before it, is quoted
// divided, and so is the reference price; rawPriceAt is the price before that division (the index's).
import type { Calendar } from '../calendar.js';
import { instrumentOf, type TapeCtx } from './context.js';
import { adjustedClose, adjustedReference, adjustOnDay } from './adjusted.js';
import { closeOf, effectiveOverrides, effectivePath } from './effective.js';
import { countBelow } from './overrides.js';
import { divisorAt } from './splits.js';
import { MINUTE_MS, type Instrument } from './types.js';

/** The last tick at or before ms: a minute of today's session, or the close of the last trading day. */
function lastTick(cal: Calendar, ms: number): { date: string; minute: number; atMs: number } {
  const today = cal.localDate(ms);
  const s = cal.session(today);
  if (s && ms >= s.openMs) {
    const minute = Math.min(Math.floor((ms - s.openMs) / MINUTE_MS), cal.sessionMinutes(today) - 1);
    return { date: today, minute, atMs: s.openMs + minute * MINUTE_MS };
  }
  const date = cal.prevTradingDay(today);
  const minute = cal.sessionMinutes(date) - 1;
  return { date, minute, atMs: cal.tickMs(date, minute) };
}

/** An override set after the last tick shows until the next tick replaces it. */
function pendingOverridePrice(t: TapeCtx, inst: Instrument, ms: number, lastTickMs: number): number | null {
  const so = t.overrides.of(inst.symbol);
  if (!so) return null;
  const k = countBelow(so.times, ms, true);
  if (k === 0 || so.all[k - 1].atMs <= lastTickMs) return null;
  const o = so.all[k - 1];
  return effectiveOverrides(t, inst, o.tickDate)[o.indexInDay].priceMicros;
}

/** The price at ms before any split adjustment. */
export function rawPriceAt(t: TapeCtx, symbol: string, ms: number): number {
  const inst = instrumentOf(t, symbol);
  const tick = lastTick(t.cal, ms);
  const pending = pendingOverridePrice(t, inst, ms, tick.atMs);
  if (pending !== null) return pending;
  if (tick.minute === t.cal.sessionMinutes(tick.date) - 1) return closeOf(t, inst, tick.date);
  return effectivePath(t, inst, tick.date)[tick.minute];
}

/** The quoted price at ms: the raw price divided by the splits in force at ms, inside the band of ms. */
export function priceAt(t: TapeCtx, symbol: string, ms: number): number {
  const raw = rawPriceAt(t, symbol, ms);
  const d = divisorAt(t.splits, symbol, ms);
  return d === 1 ? raw : adjustOnDay(t, instrumentOf(t, symbol), t.cal.sessionDateFor(ms), raw, d);
}

/** The close of the day before `date`: as it was quoted, or (asOfMs given) divided by the splits in force then. */
export function prevClose(t: TapeCtx, symbol: string, date: string, asOfMs?: number): number {
  const inst = instrumentOf(t, symbol);
  if (asOfMs !== undefined) return adjustedReference(t, inst, date, divisorAt(t.splits, symbol, asOfMs));
  return adjustedClose(t, inst, t.cal.prevTradingDay(date));
}

export function referencePriceAt(t: TapeCtx, symbol: string, ms: number): number {
  return adjustedReference(t, instrumentOf(t, symbol), t.cal.sessionDateFor(ms), divisorAt(t.splits, symbol, ms));
}
