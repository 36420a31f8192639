// EGX daily price band and grid arithmetic, in integer micros. The grid itself (tick sizes, on-tick,
// rounding) is daemon/contract/tick.ts, shared with the CLI, and re-exported here for the daemon.
// Products that can pass 2^53 go through BigInt.
import { assertPrice, tickSize, type TickRounding } from '../contract/tick.js';

export {
  TICK_LEVEL_MICROS,
  TICK_HIGH_MICROS,
  TICK_LOW_MICROS,
  MIN_PRICE_MICROS,
  isOnTick,
  roundToTick,
  tickSize,
  type TickRounding,
} from '../contract/tick.js';

export const DEFAULT_BAND_BPS = 2_000;

export interface PriceBand {
  lowerMicros: number;
  upperMicros: number;
}

/** Rounds the exact fraction num/den micros (num >= 0, den > 0) to the grid, without an intermediate rounding. */
export function roundRatioToTick(num: bigint, den: bigint, mode: TickRounding): number {
  if (num < 0n || den <= 0n) throw new Error('roundRatioToTick needs num >= 0 and den > 0');
  const tick = BigInt(tickSize(Number(num / den)));
  const unit = den * tick;
  const down = (num / unit) * tick;
  const rest = num - down * den; // in [0, unit)
  let out = down;
  if (rest !== 0n && (mode === 'up' || (mode === 'nearest' && 2n * rest >= unit))) out += tick;
  return Number(out);
}

/**
 * Band of +/- bandBps around the reference price, rounded inward to the grid (lower up, upper down), so
 * every price inside is a legal limit price.
 */
export function band(refPriceMicros: number, bandBps: number = DEFAULT_BAND_BPS): PriceBand {
  assertPrice(refPriceMicros);
  const ref = BigInt(refPriceMicros);
  return {
    lowerMicros: roundRatioToTick(ref * BigInt(10_000 - bandBps), 10_000n, 'up'),
    upperMicros: roundRatioToTick(ref * BigInt(10_000 + bandBps), 10_000n, 'down'),
  };
}

export function clampToBand(priceMicros: number, b: PriceBand): number {
  return Math.min(b.upperMicros, Math.max(b.lowerMicros, priceMicros));
}

/**
 * floor(a * b / c) for safe integers, c > 0. Number arithmetic while a * b stays below 2^53 (where a
 * correctly rounded division floors to the exact integer quotient); BigInt beyond.
 */
export function mulDivFloor(a: number, b: number, c: number): number {
  const product = a * b;
  if (Number.isSafeInteger(product)) return Math.floor(product / c);
  const big = BigInt(a) * BigInt(b);
  const cb = BigInt(c);
  let q = big / cb; // truncates toward zero
  if (big % cb !== 0n && big < 0n) q -= 1n;
  return Number(q);
}
