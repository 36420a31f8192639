// The effective prices: the base series and paths with the recorded overrides applied.
//
// From an override on, ticks are base x price/base_at_override (exact fractions in BigInt, rounded to
// the tick, clamped to the band). After an override day every later day is scaled by that day's close /
// base close, so closes and references shift with it. Cost: one path per override day; a day with no
// override and no earlier one is the base itself.
import { band, clampToBand, roundRatioToTick, roundToTick, MIN_PRICE_MICROS } from '../ticks.js';
import { memo } from './cache.js';
import { sessionOf, type TapeCtx } from './context.js';
import { countBelow } from './overrides.js';
import { basePath } from './path.js';
import { baseClose } from './series.js';
import { IDENTITY, MINUTE_MS, type DayStats, type EffectiveOverride, type Factor, type Instrument } from './types.js';

function scale(priceMicros: number, f: Factor): number {
  if (f.num === f.den) return priceMicros;
  return Math.max(MIN_PRICE_MICROS, roundRatioToTick(BigInt(priceMicros) * f.num, f.den, 'nearest'));
}

/** Base price of the last tick at or before atMs on (or, before the open, just before) `date`. */
function baseTickAtOrBefore(t: TapeCtx, inst: Instrument, date: string, atMs: number): number {
  const s = sessionOf(t.cal, date);
  if (atMs < s.openMs) return baseClose(t, inst, t.cal.prevTradingDay(date));
  return basePath(t, inst, date)[Math.floor((atMs - s.openMs) / MINUTE_MS)];
}

/** The overrides whose next tick falls on `date`, each clamped to the day's band with its scale factor. */
export function effectiveOverrides(t: TapeCtx, inst: Instrument, date: string): EffectiveOverride[] {
  return memo(t.effective.overridesByDay, `${inst.symbol}|${date}`, () => {
    const raw = t.overrides.of(inst.symbol)?.byDay.get(date) ?? [];
    const b = band(closeOf(t, inst, t.cal.prevTradingDay(date)));
    return raw.map((o) => {
      const priceMicros = clampToBand(roundToTick(Math.max(MIN_PRICE_MICROS, o.priceMicros), 'nearest'), b);
      const factor = { num: BigInt(priceMicros), den: BigInt(baseTickAtOrBefore(t, inst, date, o.atMs)) };
      return { atMs: o.atMs, priceMicros, factor };
    });
  });
}

/** Scale carried into `date` from the latest override day before it: that day's close / base close. */
function anchorBefore(t: TapeCtx, inst: Instrument, date: string): Factor {
  const so = t.overrides.of(inst.symbol);
  if (!so) return IDENTITY;
  const k = countBelow(so.days, date, false);
  if (k === 0) return IDENTITY;
  const day = so.days[k - 1];
  return { num: BigInt(closeOf(t, inst, day)), den: BigInt(baseClose(t, inst, day)) };
}

function isOverrideDay(t: TapeCtx, inst: Instrument, date: string): boolean {
  return t.overrides.of(inst.symbol)?.byDay.has(date) ?? false;
}

/**
 * Close of a trading day. Off override days it is the scaled base close in O(1) (no band clamp: the
 * base moves are bounded well inside the band, so it never binds); on an override day, the path's end.
 */
export function closeOf(t: TapeCtx, inst: Instrument, date: string): number {
  return memo(t.effective.closes, `${inst.symbol}|${date}`, () => {
    if (isOverrideDay(t, inst, date)) {
      const p = effectivePath(t, inst, date);
      return p[p.length - 1];
    }
    return scale(baseClose(t, inst, date), anchorBefore(t, inst, date));
  });
}

function computeEffectivePath(t: TapeCtx, inst: Instrument, date: string): number[] {
  const base = basePath(t, inst, date);
  const anchor = anchorBefore(t, inst, date);
  const overriding = isOverrideDay(t, inst, date);
  if (!overriding && anchor.num === anchor.den) return base;
  const b = band(closeOf(t, inst, t.cal.prevTradingDay(date)));
  const effs = overriding ? effectiveOverrides(t, inst, date) : [];
  const openMs = sessionOf(t.cal, date).openMs;
  const out = new Array<number>(base.length);
  let j = -1;
  for (let i = 0; i < base.length; i++) {
    while (j + 1 < effs.length && effs[j + 1].atMs <= openMs + i * MINUTE_MS) j++;
    out[i] = clampToBand(scale(base[i], j >= 0 ? effs[j].factor : anchor), b);
  }
  if (!overriding) out[out.length - 1] = scale(base[base.length - 1], anchor);
  return out;
}

/** The day's minute prices as traded: O(minutes of the day) once, then memoized. */
export function effectivePath(t: TapeCtx, inst: Instrument, date: string): number[] {
  return memo(t.effective.paths, `${inst.symbol}|${date}`, () => computeEffectivePath(t, inst, date));
}

/** The highest and lowest price of a day's minute path. */
export function highLow(p: readonly number[]): DayStats {
  let high = p[0];
  let low = p[0];
  for (const x of p) {
    if (x > high) high = x;
    if (x < low) low = x;
  }
  return { high, low };
}

export function dayStats(t: TapeCtx, inst: Instrument, date: string): DayStats {
  return memo(t.effective.stats, `${inst.symbol}|${date}`, () => highLow(effectivePath(t, inst, date)));
}
