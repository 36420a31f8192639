// The seeded daily series, before any override: a trading day's base close, open and volume, each a
// function of (seed, symbol, trading-day number) in O(log holidays), never walked from an epoch.
//
// Base close: the reference price times (10000 + dev) / 10000, where dev is integer value noise over the
// calendar's trading-day number. Consecutive trading days differ by exactly 1 in that number, so a
// day-to-day move is bounded by the noise slopes (<= ~5%), far inside the 20% band, whatever the
// holidays in between. Base open: the previous base close plus a small seeded gap.
import { hashInt } from '../../sim/prng.js';
import { band, clampToBand, mulDivFloor, roundRatioToTick, MIN_PRICE_MICROS } from '../ticks.js';
import { memo } from './cache.js';
import type { TapeCtx } from './context.js';
import type { Instrument } from './types.js';

export const BPS = 10_000;
/** Octaves of value noise over trading days: long swings plus shorter wiggles; the sum stays within +/-40%. */
const OCTAVES = [
  { periodDays: 512, amplitudeBps: 2_500 },
  { periodDays: 128, amplitudeBps: 900 },
  { periodDays: 32, amplitudeBps: 400 },
  { periodDays: 8, amplitudeBps: 150 },
] as const;
const DAILY_JITTER_BPS = 100;
const OPEN_GAP_BPS = 60;
const TURNOVER_MIN_KEGP = 2_000;
const TURNOVER_MAX_KEGP = 60_000;
const MICROS_PER_KEGP = 1_000_000_000;

type SeriesCtx = Pick<TapeCtx, 'seed' | 'cal' | 'base'>;

export function applyBps(priceMicros: number, bps: number): number {
  return Math.max(MIN_PRICE_MICROS, roundRatioToTick(BigInt(priceMicros) * BigInt(BPS + bps), BigInt(BPS), 'nearest'));
}

function octave(seed: number | string, inst: Instrument, k: number, n: number): number {
  const { periodDays, amplitudeBps } = OCTAVES[k];
  const bucket = Math.floor(n / periodDays);
  const along = n - bucket * periodDays;
  const v0 = hashInt(-amplitudeBps, amplitudeBps, seed, inst.symbol, 'octave', k, bucket);
  const v1 = hashInt(-amplitudeBps, amplitudeBps, seed, inst.symbol, 'octave', k, bucket + 1);
  return v0 + mulDivFloor(v1 - v0, along, periodDays);
}

function deviationBps(seed: number | string, inst: Instrument, n: number): number {
  let dev = hashInt(-DAILY_JITTER_BPS, DAILY_JITTER_BPS, seed, inst.symbol, 'jitter', n);
  for (let k = 0; k < OCTAVES.length; k++) dev += octave(seed, inst, k, n);
  return mulDivFloor(dev, inst.volatilityPct, 100);
}

export function baseClose(t: SeriesCtx, inst: Instrument, date: string): number {
  return memo(t.base.closes, `${inst.symbol}|${date}`, () =>
    applyBps(inst.refPriceMicros, deviationBps(t.seed, inst, t.cal.tradingDayNumber(date))),
  );
}

/** The open of `date` given its reference (the previous base close), inside that reference's band. */
export function baseOpen(t: Pick<TapeCtx, 'seed' | 'cal'>, inst: Instrument, date: string, ref: number): number {
  const gapBps = hashInt(-OPEN_GAP_BPS, OPEN_GAP_BPS, t.seed, inst.symbol, 'gap', t.cal.tradingDayNumber(date));
  return clampToBand(applyBps(ref, mulDivFloor(gapBps, inst.volatilityPct, 100)), band(ref));
}

/** The whole day's volume: a seeded turnover in EGP divided by the base close. */
export function baseVolume(t: SeriesCtx, inst: Instrument, date: string): number {
  const turnoverKegp = hashInt(
    TURNOVER_MIN_KEGP,
    TURNOVER_MAX_KEGP,
    t.seed,
    inst.symbol,
    'volume',
    t.cal.tradingDayNumber(date),
  );
  return mulDivFloor(turnoverKegp, MICROS_PER_KEGP, baseClose(t, inst, date));
}
