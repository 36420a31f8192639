import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import fs from 'node:fs';
import {
  amountForUnits,
  firstAccrualDate,
  lastSweepDate,
  navAfterDays,
  navOnSweepDate,
  subscriptionAtNav,
  unitsForAmount,
  UNIT_MICROS,
} from '../../daemon/funds/nav.js';
import type { Fund } from '../../daemon/funds/catalog.js';

const funds = JSON.parse(fs.readFileSync(new URL('../../fixtures/funds.json', import.meta.url), 'utf8')) as Fund[];
const FUND_KEYS = [
  'fund_code',
  'name',
  'name_ar',
  'manager',
  'shariah_compliant',
  'nav_micros',
  'indicative_yield_bps',
  'cutoff_local',
  'settlement_days',
  'min_subscription_micros',
  'management_fee_bps',
  'logo_url',
  'accrual',
].sort();

/** Exact closed form floor(nav x (1 + y / (365 x 10,000))^days), in BigInt. */
function closedForm(navMicros: number, yieldBps: number, days: number): bigint {
  const den = 3_650_000n;
  return (BigInt(navMicros) * (den + BigInt(yieldBps)) ** BigInt(days)) / den ** BigInt(days);
}

describe('fixtures/funds.json: EGP money-market funds with every field of the spec fund row', () => {
  it('has 3-4 funds, ordered by fund_code, each with exactly the documented fields', () => {
    expect(funds.length).toBeGreaterThanOrEqual(3);
    expect(funds.length).toBeLessThanOrEqual(4);
    expect(funds.map((f) => f.fund_code)).toEqual(funds.map((f) => f.fund_code).sort());
    for (const f of funds) expect(Object.keys(f).sort()).toEqual(FUND_KEYS);
  });
  it('at least one fund is shariah-compliant and at least one is not', () => {
    expect(funds.some((f) => f.shariah_compliant)).toBe(true);
    expect(funds.some((f) => !f.shariah_compliant)).toBe(true);
  });
  it('money and units are positive safe integers; cut-off HH:MM; T+0; daily accrual; logo path by code', () => {
    for (const f of funds) {
      expect(f.fund_code).toMatch(/^[A-Z0-9]{3,12}$/); // fits the ledger asset name fund:<code>
      for (const n of [f.nav_micros, f.indicative_yield_bps, f.min_subscription_micros, f.management_fee_bps]) {
        expect(Number.isSafeInteger(n) && n > 0).toBe(true);
      }
      expect(f.cutoff_local).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
      expect(f.settlement_days).toBe(0);
      expect(f.accrual).toBe('daily');
      expect(f.logo_url).toBe(`/assets/logos/${f.fund_code}.svg`);
      expect(f.name.length).toBeGreaterThan(0);
      expect(f.name_ar).toMatch(/[\u0600-\u06FF]/);
      // The minimum buys at least one whole unit at the fixture NAV.
      expect(unitsForAmount(f.min_subscription_micros, f.nav_micros)).toBeGreaterThanOrEqual(UNIT_MICROS);
    }
  });
  it('the Youm b Youm fund carries the facts of research/egx-facts.md', () => {
    const f = funds.find((x) => x.fund_code === 'BMYBY')!;
    expect(f).toMatchObject({
      nav_micros: 10_000_000, // initial NAV EGP 10
      min_subscription_micros: 10_000_000_000, // EGP 10,000 first subscription
      cutoff_local: '12:00',
      settlement_days: 0,
      management_fee_bps: 35, // 0.35% a year
      shariah_compliant: false,
    });
  });
});

describe('the daily NAV sweep compounds yield/365 with integer math, half up to the micro per step', () => {
  it('one and two sweeps of BMYBY by hand', () => {
    // day 1: 10,000,000 x 2450 / (365 x 10,000) = 24,500,000,000 / 3,650,000 = 6,712.33 -> 6,712
    expect(navAfterDays(10_000_000, 2_450, 1)).toBe(10_006_712);
    // day 2: 10,006,712 x 2450 / 3,650,000 = 6,716.83 -> 6,717 (it compounds on day 1's NAV)
    expect(navAfterDays(10_000_000, 2_450, 2)).toBe(10_013_429);
  });
  it('an exact half micro rounds up', () => {
    // 36.50% a year is 1/1000 a day: 1,500 x 1/1000 = 1.5 -> 2; 2,500 -> 2.5 -> 3; 1,499 -> 1.499 -> 1
    expect(navAfterDays(1_500, 3_650, 1)).toBe(1_502);
    expect(navAfterDays(2_500, 3_650, 1)).toBe(2_503);
    expect(navAfterDays(1_499, 3_650, 1)).toBe(1_500);
  });
  it('zero days or zero yield leaves the NAV unchanged', () => {
    expect(navAfterDays(341_275_413, 2_300, 0)).toBe(341_275_413);
    expect(navAfterDays(341_275_413, 0, 365)).toBe(341_275_413);
  });
  it('365 sweeps stay within one micro per step of the closed form nav x (1 + y/365)^365', () => {
    for (const f of funds) {
      const stepped = BigInt(navAfterDays(f.nav_micros, f.indicative_yield_bps, 365));
      const exact = closedForm(f.nav_micros, f.indicative_yield_bps, 365);
      const diff = stepped > exact ? stepped - exact : exact - stepped;
      expect(diff).toBeLessThanOrEqual(365n);
    }
    // BMYBY: 10 x (1 + 0.245/365)^365 = 12.775163 EGP (effective 27.75% for a nominal 24.50%); stepped 12.775157
    expect(closedForm(10_000_000, 2_450, 365)).toBe(12_775_163n);
    expect(navAfterDays(10_000_000, 2_450, 365)).toBe(12_775_157);
  });
  it('the NAV is a function of the sweep count: n + m sweeps = n sweeps then m sweeps', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.nat(60),
        fc.nat(60),
        (nav, y, n, m) => {
          expect(navAfterDays(nav, y, n + m)).toBe(navAfterDays(navAfterDays(nav, y, n), y, m));
          expect(navAfterDays(nav, y, n + m)).toBeGreaterThanOrEqual(navAfterDays(nav, y, n));
        },
      ),
    );
  });
  it('navOnSweepDate counts one sweep per calendar day, leap day included', () => {
    expect(navOnSweepDate(10_000_000, '2028-02-28', '2028-03-01', 2_450)).toBe(navAfterDays(10_000_000, 2_450, 2));
    expect(navOnSweepDate(10_000_000, '2026-06-01', '2026-06-01', 2_450)).toBe(10_000_000);
    expect(() => navOnSweepDate(10_000_000, '2026-06-02', '2026-06-01', 2_450)).toThrow(RangeError);
  });
  it('bad inputs are bugs, not numbers', () => {
    expect(() => navAfterDays(0, 2_450, 1)).toThrow(RangeError);
    expect(() => navAfterDays(10_000_000, -1, 1)).toThrow(RangeError);
    expect(() => navAfterDays(10_000_000, 2_450, 1.5)).toThrow(RangeError);
    expect(() => navAfterDays(10_000_000, 2_450, 1, 0)).toThrow(RangeError);
  });
});

describe('units and amounts at a NAV: floor the units, the remainder stays cash, no money is created', () => {
  it('EGP 10,000 into BMYBY at NAV 10.000000 buys exactly 1,000 units', () => {
    expect(unitsForAmount(10_000_000_000, 10_000_000)).toBe(1_000_000_000);
    expect(amountForUnits(1_000_000_000, 10_000_000)).toBe(10_000_000_000);
    expect(subscriptionAtNav(10_000_000_000, 10_000_000)).toEqual({
      unitsMicros: 1_000_000_000,
      amountMicros: 10_000_000_000,
      remainderMicros: 0,
    });
  });
  it('EGP 10,000 into UBRKH at NAV 341.275413 by hand', () => {
    // units = floor(10,000,000,000 x 1,000,000 / 341,275,413) = floor(29,301,847.99...) = 29,301,847 unit-micros
    // value = 29,301,847 x 341,275,413 / 1,000,000 = 9,999,999,936.59 micros: charged 9,999,999,937 (up), 63 stay cash
    expect(subscriptionAtNav(10_000_000_000, 341_275_413)).toEqual({
      unitsMicros: 29_301_847,
      amountMicros: 9_999_999_937,
      remainderMicros: 63,
    });
    // redeeming them at once pays the value floored: 9,999,999,936, one micro less than was charged
    expect(amountForUnits(29_301_847, 341_275_413)).toBe(9_999_999_936);
  });
  it('an amount below one unit-micro buys nothing and takes nothing', () => {
    expect(subscriptionAtNav(341, 341_275_413)).toEqual({ unitsMicros: 0, amountMicros: 0, remainderMicros: 341 });
  });
  it('subscribe then redeem never returns more than was asked or charged (property)', () => {
    fc.assert(
      // Up to EGP 9m at a NAV from 0.001 to 10,000 EGP keeps every product of units and NAV a safe integer.
      fc.property(
        fc.integer({ min: 0, max: 9_000_000_000_000 }),
        fc.integer({ min: 1_000, max: 10_000_000_000 }),
        (amount, nav) => {
          const s = subscriptionAtNav(amount, nav);
          expect(s.amountMicros + s.remainderMicros).toBe(amount);
          expect(s.amountMicros).toBeLessThanOrEqual(amount);
          expect(s.remainderMicros * UNIT_MICROS).toBeLessThan(nav); // less than one unit-micro's value
          // the most units it can buy
          expect(BigInt(s.unitsMicros + 1) * BigInt(nav)).toBeGreaterThan(BigInt(amount) * BigInt(UNIT_MICROS));
          expect(amountForUnits(s.unitsMicros, nav)).toBeLessThanOrEqual(s.amountMicros);
        },
      ),
    );
  });
  it('redeem then subscribe never yields more units than were redeemed (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 900_000_000_000 }),
        fc.integer({ min: 1, max: 10_000_000_000 }),
        (units, nav) => {
          const paid = amountForUnits(units, nav);
          expect(subscriptionAtNav(paid, nav).unitsMicros).toBeLessThanOrEqual(units);
        },
      ),
    );
  });
  it('a product past 2^53 is refused rather than rounded', () => {
    expect(() => amountForUnits(Number.MAX_SAFE_INTEGER, 10_000_000_000)).toThrow(RangeError);
    expect(() => unitsForAmount(-1, 10_000_000)).toThrow(RangeError);
    expect(() => unitsForAmount(1, 0)).toThrow(RangeError);
  });
});

describe('accrual eligibility follows the daily NAV sweep, so execution time decides when earning starts', () => {
  it("executed before the cut-off: the same day's sweep pays the units", () => {
    expect(firstAccrualDate('2026-06-07', '11:59', '12:00')).toBe('2026-06-07');
    expect(firstAccrualDate('2026-06-07', '11:59:59.999', '12:00')).toBe('2026-06-07');
    expect(firstAccrualDate('2026-06-07', '00:00', '12:00')).toBe('2026-06-07');
  });
  it("executed at or after the cut-off: the next calendar day's sweep", () => {
    expect(firstAccrualDate('2026-06-07', '12:00', '12:00')).toBe('2026-06-08');
    expect(firstAccrualDate('2026-06-07', '12:00:00', '12:00')).toBe('2026-06-08');
    expect(firstAccrualDate('2026-06-07', '23:59:59', '12:00')).toBe('2026-06-08');
  });
  it('the sweep runs on weekends and across month and year ends', () => {
    expect(firstAccrualDate('2026-06-11', '14:00', '12:00')).toBe('2026-06-12'); // Thursday -> Friday
    expect(firstAccrualDate('2026-12-31', '13:00', '12:00')).toBe('2027-01-01');
    expect(lastSweepDate('2026-03-01', '11:00', '12:00')).toBe('2026-02-28');
    expect(lastSweepDate('2026-03-01', '12:00', '12:00')).toBe('2026-03-01');
  });
  it('a holder from Sunday 11:00 to Monday 11:00 earns one day; from Sunday 12:30 to Monday 11:00 earns nothing', () => {
    // The NAV at an instant is the NAV after lastSweepDate; base: 10.000000 after Saturday's sweep.
    const nav = (date: string, time: string): number =>
      navOnSweepDate(10_000_000, '2026-06-06', lastSweepDate(date, time, '12:00'), 2_450);
    const buyEarly = subscriptionAtNav(10_000_000_000, nav('2026-06-07', '11:00'));
    expect(amountForUnits(buyEarly.unitsMicros, nav('2026-06-08', '11:00')) - buyEarly.amountMicros).toBe(6_712_000);
    const buyLate = subscriptionAtNav(10_000_000_000, nav('2026-06-07', '12:30'));
    expect(amountForUnits(buyLate.unitsMicros, nav('2026-06-08', '11:00')) - buyLate.amountMicros).toBeLessThanOrEqual(
      0,
    );
  });
  it('malformed times and dates are refused', () => {
    expect(() => firstAccrualDate('2026-06-07', '12', '12:00')).toThrow(RangeError);
    expect(() => firstAccrualDate('2026-06-07', '24:00', '12:00')).toThrow(RangeError);
    expect(() => firstAccrualDate('2026-06-07', '11:00', 'noon')).toThrow(RangeError);
    expect(() => firstAccrualDate('2026-02-30', '11:00', '12:00')).toThrow();
  });
});
