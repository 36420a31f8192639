import { describe, it, expect } from 'vitest';
import { band, isOnTick, mulDivFloor, roundRatioToTick, roundToTick, tickSize } from '../../daemon/market/ticks.js';

describe('tick is 0.01 EGP at prices >= 2 EGP and 0.001 EGP below', () => {
  it('tick size on both sides of 2 EGP', () => {
    expect(tickSize(1_999_999)).toBe(1_000);
    expect(tickSize(2_000_000)).toBe(10_000);
    expect(tickSize(150_000_000)).toBe(10_000);
  });
  it('on-tick prices', () => {
    expect(isOnTick(1_999_000)).toBe(true);
    expect(isOnTick(1_999_500)).toBe(false);
    expect(isOnTick(2_000_000)).toBe(true);
    expect(isOnTick(2_005_000)).toBe(false);
    expect(isOnTick(2_010_000)).toBe(true);
    expect(isOnTick(0)).toBe(false);
    expect(isOnTick(1.5)).toBe(false);
  });
  it('rounding down, up and to nearest (half up) at the rounded price level', () => {
    expect(roundToTick(2_015_000, 'down')).toBe(2_010_000);
    expect(roundToTick(2_015_000, 'up')).toBe(2_020_000);
    expect(roundToTick(2_015_000, 'nearest')).toBe(2_020_000);
    expect(roundToTick(2_014_999, 'nearest')).toBe(2_010_000);
    expect(roundToTick(1_999_400, 'up')).toBe(2_000_000);
    expect(roundToTick(1_999_500, 'nearest')).toBe(2_000_000);
    expect(roundToTick(1_999_499, 'nearest')).toBe(1_999_000);
    expect(roundToTick(2_000_001, 'down')).toBe(2_000_000);
    expect(roundToTick(1_234_567, 'down')).toBe(1_234_000);
    expect(roundToTick(50_000_000, 'up')).toBe(50_000_000);
  });
  it('rounding an exact fraction matches rounding its value', () => {
    expect(roundRatioToTick(2_015_000n * 3n, 3n, 'nearest')).toBe(2_020_000);
    expect(roundRatioToTick(1_999_499n * 7n + 6n, 7n, 'nearest')).toBe(1_999_000);
    expect(roundRatioToTick(4_000_001n, 2n, 'down')).toBe(2_000_000);
  });
});

describe('price band is +/-20% of the reference, rounded inward to the grid', () => {
  it('a round reference gives exact bounds', () => {
    expect(band(100_000_000)).toEqual({ lowerMicros: 80_000_000, upperMicros: 120_000_000 });
  });
  it('lower rounds up and upper rounds down', () => {
    // 12.34 EGP: 9.872 -> 9.88, 14.808 -> 14.80
    expect(band(12_340_000)).toEqual({ lowerMicros: 9_880_000, upperMicros: 14_800_000 });
  });
  it('bounds straddling 2 EGP use the tick of their own level', () => {
    // 1.999 EGP: 1.5992 -> 1.600 (fine tick), 2.3988 -> 2.39 (coarse tick)
    expect(band(1_999_000)).toEqual({ lowerMicros: 1_600_000, upperMicros: 2_390_000 });
  });
  it('a custom band width', () => {
    expect(band(10_000_000, 500)).toEqual({ lowerMicros: 9_500_000, upperMicros: 10_500_000 });
  });
  it('huge references do not lose precision', () => {
    // ref x 12,000 passes 2^53; 4,000,000,000,000,008 rounds up, 6,000,000,000,000,012 down
    expect(band(5_000_000_000_000_010)).toEqual({
      lowerMicros: 4_000_000_000_010_000,
      upperMicros: 6_000_000_000_000_000,
    });
  });
});

describe('integer helpers', () => {
  it('mulDivFloor is exact past 2^53 and floors negatives', () => {
    expect(mulDivFloor(3_000_000_000_001, 3_000_000_000_000, 1_000_000_007)).toBe(
      Number((3_000_000_000_001n * 3_000_000_000_000n) / 1_000_000_007n),
    );
    expect(mulDivFloor(-7, 1, 2)).toBe(-4);
  });
});
