// The base intraday path of a trading day, before any override: a Brownian bridge from the base open to
// the base close (recursive midpoint displacement drawn from one seeded generator per day), on the tick
// grid and clamped to the day's band. O(minutes of that day) to build; memoized per (symbol, day), so
// nothing is stored per tick beyond the days in use.
import { hash32, Prng } from '../../sim/prng.js';
import { band, clampToBand, mulDivFloor, roundToTick, MIN_PRICE_MICROS } from '../ticks.js';
import { memo } from './cache.js';
import type { TapeCtx } from './context.js';
import { baseClose, baseOpen, BPS } from './series.js';
import type { Instrument } from './types.js';

/** Midpoint displacement amplitude over a span of L minutes is isqrt(L * this) bps: ~115 bps for a whole day. */
const BRIDGE_SPREAD_BPS2 = 50;

function isqrt(n: number): number {
  if (n < 2) return n;
  let x = n;
  let y = Math.floor((x + 1) / 2);
  while (y < x) {
    x = y;
    y = Math.floor((x + Math.floor(n / x)) / 2);
  }
  return x;
}

/** Fills p[a+1 .. z-1] between fixed ends; the draw order is fixed, so one generator per day suffices. */
function bridge(p: number[], a: number, z: number, levelMicros: number, volPct: number, rng: Prng): void {
  if (z - a < 2) return;
  const m = (a + z) >>> 1;
  const amp = mulDivFloor(isqrt((z - a) * BRIDGE_SPREAD_BPS2), volPct, 100);
  const mid = p[a] + mulDivFloor(p[z] - p[a], m - a, z - a);
  p[m] = mid + mulDivFloor(levelMicros, rng.int(-amp, amp), BPS);
  bridge(p, a, m, levelMicros, volPct, rng);
  bridge(p, m, z, levelMicros, volPct, rng);
}

function computeBasePath(t: Pick<TapeCtx, 'seed' | 'cal' | 'base'>, inst: Instrument, date: string): number[] {
  const { cal } = t;
  const n = cal.sessionMinutes(date);
  const close = baseClose(t, inst, date);
  if (n === 1) return [close];
  const ref = baseClose(t, inst, cal.prevTradingDay(date));
  const p = new Array<number>(n);
  p[0] = baseOpen(t, inst, date, ref);
  p[n - 1] = close;
  const rng = new Prng(hash32(t.seed, inst.symbol, 'path', cal.tradingDayNumber(date)));
  bridge(p, 0, n - 1, ref, inst.volatilityPct, rng);
  const b = band(ref);
  for (let i = 1; i < n - 1; i++) p[i] = clampToBand(roundToTick(Math.max(MIN_PRICE_MICROS, p[i]), 'nearest'), b);
  return p;
}

export function basePath(t: Pick<TapeCtx, 'seed' | 'cal' | 'base'>, inst: Instrument, date: string): number[] {
  return memo(t.base.paths, `${inst.symbol}|${date}`, () => computeBasePath(t, inst, date));
}
