import { describe, expect, it } from 'vitest';
import { formatEgp, formatMicros } from '../../daemon/contract/money.js';
import { egp } from '../../cli/output.js';
import { parseEgp, parseUnits } from '../../cli/money.js';

describe('parseEgp: EGP typed by people become integer micros exactly (string and BigInt math, no float)', () => {
  it('converts whole and decimal amounts exactly, including values a float would round', () => {
    expect(parseEgp('1500')).toBe(1_500_000_000);
    expect(parseEgp('1500.25')).toBe(1_500_250_000);
    expect(parseEgp('0.29')).toBe(290_000);
    expect(parseEgp('0.000001')).toBe(1);
    expect(parseEgp('666')).toBe(666_000_000);
    expect(parseEgp('70000.000001')).toBe(70_000_000_001);
    expect(parseEgp('007.10')).toBe(7_100_000);
    expect(parseEgp(' 12.5 ')).toBe(12_500_000);
    expect(parseEgp('0')).toBe(0);
    expect(parseEgp('9007199254.740991')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses more than 6 decimals, negatives, overflow and anything that is not a plain decimal', () => {
    expect(() => parseEgp('1.0000001')).toThrow(/more than 6 decimals/);
    expect(() => parseEgp('-5')).toThrow(/negative/);
    expect(() => parseEgp('9007199254.740992')).toThrow(/too large/);
    expect(() => parseEgp('1'.repeat(40))).toThrow(/too large/);
    for (const bad of ['', '.', '.5', '5.', '1e5', '1,000', '+5', 'abc', '0x10', '1 000', 'Infinity', 'NaN', '١٠']) {
      expect(() => parseEgp(bad), bad).toThrow(/not an amount in EGP/);
    }
  });
});

describe('parseUnits: fund units typed as a decimal string with up to 6 decimals become unit-micros exactly', () => {
  it('converts exactly and refuses what parseEgp refuses, naming units', () => {
    expect(parseUnits('600')).toBe(600_000_000);
    expect(parseUnits('29.301847')).toBe(29_301_847);
    expect(parseUnits('0.000001')).toBe(1);
    expect(() => parseUnits('1.0000001')).toThrow(/more than 6 decimals; 0.000001 units/);
    expect(() => parseUnits('-1')).toThrow(/negative; give a positive amount in units/);
    expect(() => parseUnits('1e3')).toThrow(/not an amount in units/);
    expect(() => parseUnits('9007199254.740992')).toThrow(/too large/);
  });
});

describe('formatMicros / formatEgp: the one money formatter of daemon messages and CLI output', () => {
  it('groups thousands, keeps at least the asked decimals and more only when the value has them', () => {
    expect(formatEgp(1_234_500_000)).toBe('1,234.50');
    expect(formatEgp(855_000)).toBe('0.855');
    expect(formatEgp(0)).toBe('0.00');
    expect(formatMicros(341_490_463, 6)).toBe('341.490463');
    expect(formatMicros(1_000_000_000, 6)).toBe('1,000.000000');
  });

  it('formats negatives with a leading minus, the same digits as the positive', () => {
    expect(formatEgp(-1_234_500_000)).toBe('-1,234.50');
    expect(formatEgp(-5)).toBe('-0.000005');
    expect(egp(-15_000_000)).toBe(formatEgp(-15_000_000));
  });

  it('is exact at the top of the safe-integer range (no float)', () => {
    expect(formatEgp(Number.MAX_SAFE_INTEGER)).toBe('9,007,199,254.740991');
  });
});
