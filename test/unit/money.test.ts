import { describe, expect, it } from 'vitest';
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
