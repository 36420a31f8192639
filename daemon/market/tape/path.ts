// The base intraday path of a trading day, before any override: a Brownian bridge from the base open to
// the base close (recursive midpoint displacement drawn from one seeded generator per day), on the tick
// grid and clamped to the day's band. O(minutes of that day) to build; memoized per (symbol, day), so
// nothing is stored per tick beyond the days in use.
//
// Cost: a long advance computes one path per symbol and trading day its resting orders look through
// (docs/bench.md, "A simulated year"), so the loops below do integer arithmetic only, with the
// displacement amplitude of each span length read from a table (amplitudes) instead of a square root per
// point. Every value is the one the plain formulas give (test/unit/tape-path.test.ts).
import { hash32, Prng } from '../../sim/prng.js';
import { band, clampToBand, mulDivFloor, roundToTick, MIN_PRICE_MICROS, TICK_HIGH_MICROS } from '../ticks.js';
import { memo } from './cache.js';
import type { TapeCtx } from './context.js';
import { baseClose, baseOpen, BPS } from './series.js';
import type { DayStats, Instrument } from './types.js';

/** Midpoint displacement amplitude over a span of L minutes is isqrt(L * this) bps: ~115 bps for a whole day. */
const BRIDGE_SPREAD_BPS2 = 50;

export function isqrt(n: number): number {
  if (n < 2) return n;
  let x = n;
  let y = Math.floor((x + 1) / 2);
  while (y < x) {
    x = y;
    y = Math.floor((x + Math.floor(n / x)) / 2);
  }
  return x;
}

/** The amplitude, in bps, of a span of L minutes at a volatility: mulDivFloor(isqrt(L * 50), volPct, 100). */
export function bridgeAmplitude(spanMinutes: number, volPct: number): number {
  return mulDivFloor(isqrt(spanMinutes * BRIDGE_SPREAD_BPS2), volPct, 100);
}

/** Per volatility, the amplitude of every span length met so far (index: span in minutes). */
const amplitudeTables = new Map<number, number[]>();

function amplitudes(volPct: number, maxSpan: number): number[] {
  let table = amplitudeTables.get(volPct);
  if (!table) amplitudeTables.set(volPct, (table = []));
  for (let L = table.length; L <= maxSpan; L++) table.push(bridgeAmplitude(L, volPct));
  return table;
}

/** floor(a * b / c), c > 0: mulDivFloor, without its call while the product stays a safe integer. */
function mulDiv(a: number, b: number, c: number): number {
  const product = a * b;
  return Number.isSafeInteger(product) ? Math.floor(product / c) : mulDivFloor(a, b, c);
}

/** Fills p[a+1 .. z-1] between fixed ends; the draw order is fixed, so one generator per day suffices. */
function bridge(p: number[], a: number, z: number, levelMicros: number, amp: readonly number[], rng: Prng): void {
  if (z - a < 2) return;
  const m = (a + z) >>> 1;
  const spread = amp[z - a];
  const mid = p[a] + mulDiv(p[z] - p[a], m - a, z - a);
  p[m] = mid + mulDiv(levelMicros, rng.int(-spread, spread), BPS);
  bridge(p, a, m, levelMicros, amp, rng);
  bridge(p, m, z, levelMicros, amp, rng);
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
  bridge(p, 0, n - 1, ref, amplitudes(inst.volatilityPct, n - 1), rng);
  const b = band(ref);
  const floor = MIN_PRICE_MICROS;
  for (let i = 1; i < n - 1; i++) p[i] = clampToBand(roundToTick(p[i] > floor ? p[i] : floor, 'nearest'), b);
  return p;
}

/**
 * Per volatility and span L: [the most amplitude, in bps, a chain of midpoints from a span of L down adds
 * up to, the most midpoints on such a chain]. A child of a span of L spans floor(L/2) or ceil(L/2).
 */
const reachTables = new Map<number, Array<[number, number]>>();

function reach(volPct: number, span: number): [number, number] {
  let table = reachTables.get(volPct);
  if (!table)
    reachTables.set(
      volPct,
      (table = [
        [0, 0],
        [0, 0],
      ]),
    );
  const amp = amplitudes(volPct, span);
  for (let L = table.length; L <= span; L++) {
    const [a, da] = table[L >>> 1];
    const [b, db] = table[L - (L >>> 1)];
    table.push([amp[L] + Math.max(a, b), 1 + Math.max(da, db)]);
  }
  return table[span];
}

/** Rounding to the nearest tick moves a price by at most half the largest tick. */
const HALF_TICK_MICROS = TICK_HIGH_MICROS / 2;

/**
 * Bounds of a base path's low and high without building it, in O(1) after the first day of a
 * volatility. Why they hold: a midpoint is its span's ends' interpolation, which lies between the two
 * ends, plus a displacement of at most ceil(level x amplitude / 10000) micros either way; so every raw
 * point lies within the sum of the displacements along its chain of midpoints (at most
 * level x reach / 10000 + one micro per midpoint) of [min(open, close), max(open, close)]. Putting a
 * point on the grid moves it by half a tick at most, and the band only pulls it towards the open,
 * which lies inside the band. test/unit/tape-path.test.ts checks them against the paths.
 */
export function basePathBounds(t: Pick<TapeCtx, 'seed' | 'cal' | 'base'>, inst: Instrument, date: string): DayStats {
  const { cal } = t;
  const n = cal.sessionMinutes(date);
  const close = baseClose(t, inst, date);
  if (n === 1) return { low: close, high: close };
  const ref = baseClose(t, inst, cal.prevTradingDay(date));
  const open = baseOpen(t, inst, date, ref);
  const [bps, chain] = reach(inst.volatilityPct, n - 1);
  const drift = mulDivFloor(ref, bps, BPS) + 1 + chain + HALF_TICK_MICROS;
  const lo = Math.min(open, close);
  const hi = Math.max(open, close);
  return { low: Math.max(MIN_PRICE_MICROS, lo - drift), high: hi + drift };
}

export function basePath(t: Pick<TapeCtx, 'seed' | 'cal' | 'base'>, inst: Instrument, date: string): number[] {
  return memo(t.base.paths, `${inst.symbol}|${date}`, () => computeBasePath(t, inst, date));
}
