import { describe, it, expect } from 'vitest';
import { accruedMicros, couponSchedule, dirtyPriceMicros, type BondTerms } from '../../daemon/market/bonds.js';

// EGBGR02111F5: 14.9% semi-annual, par EGP 1,000, matures 2028-05-08 (research/egx-facts.md)
const tbond: BondTerms = {
  face_value_micros: 1_000_000_000,
  coupon_rate_bps: 1_490,
  coupon_frequency: 2,
  issue_date: '2023-05-08',
  maturity_date: '2028-05-08',
  day_count_convention: 'ACT/ACT',
  first_coupon_date: null,
};

describe('coupon schedule steps back from maturity by 12/frequency months', () => {
  it('a semi-annual bond pays every six months on the maturity day of month', () => {
    const s = couponSchedule(tbond);
    expect(s).toHaveLength(10);
    expect(s[0]).toBe('2023-11-08');
    expect(s.slice(-3)).toEqual(['2027-05-08', '2027-11-08', '2028-05-08']);
  });
  it('month ends clamp without drifting (31 Aug -> 28/29 Feb -> 31 Aug)', () => {
    const s = couponSchedule({ ...tbond, issue_date: '2025-08-31', maturity_date: '2027-08-31' });
    expect(s).toEqual(['2026-02-28', '2026-08-31', '2027-02-28', '2027-08-31']);
  });
  it('first_coupon_date is respected for an odd first period', () => {
    const s = couponSchedule({
      ...tbond,
      issue_date: '2025-12-01',
      maturity_date: '2027-11-04',
      first_coupon_date: '2026-06-15',
    });
    expect(s).toEqual(['2026-06-15', '2026-11-04', '2027-05-04', '2027-11-04']);
  });
  it('RFC 3339 dates are read by their date part', () => {
    expect(
      couponSchedule({ ...tbond, issue_date: '2023-05-08T00:00:00+03:00', maturity_date: '2028-05-08T00:00:00+03:00' }),
    ).toEqual(couponSchedule(tbond));
  });
});

describe('accrued interest = coupon x days since last coupon / days in period (ACT/ACT)', () => {
  it('the worked example: 92/182 x 74.50 = EGP 37.66 per bond', () => {
    // Nov 8 2027 -> May 8 2028 is a 182-day period (leap February); Feb 8 2028 is day 92.
    const ai = accruedMicros(tbond, '2028-02-08');
    expect(ai).toBe(37_659_341); // 74.50 x 92 / 182 = 37.6593406..., half up to the micro
    expect(Math.floor((ai + 5_000) / 10_000) / 100).toBe(37.66);
  });
  it('is zero on a coupon date and before issue, and zero at and after maturity', () => {
    expect(accruedMicros(tbond, '2027-11-08')).toBe(0);
    expect(accruedMicros(tbond, '2023-01-01')).toBe(0);
    expect(accruedMicros(tbond, '2028-05-08')).toBe(0);
  });
  it('grows one day at a time between coupons', () => {
    const a = accruedMicros(tbond, '2026-01-10');
    const b = accruedMicros(tbond, '2026-01-11');
    expect(b).toBeGreaterThan(a);
    expect(b - a).toBeLessThanOrEqual(Math.ceil(74_500_000 / 181) + 1);
  });
  it('a first period accrues from issue over the regular period length', () => {
    // issued 2023-08-08, first coupon 2023-11-08 (short stub); the regular period ending then is May 8 -> Nov 8 (184
    // days)
    const stub = { ...tbond, issue_date: '2023-08-08' };
    expect(accruedMicros(stub, '2023-09-08')).toBe(
      Math.floor((1_000_000_000 * 1_490 * 31 * 2 + 10_000 * 2 * 184) / (10_000 * 2 * 184 * 2)),
    );
  });
});

describe('zero-coupon bonds and ACT/365', () => {
  it('a zero-coupon bond accrues 0', () => {
    const zero: BondTerms = {
      ...tbond,
      coupon_rate_bps: 0,
      coupon_frequency: 0,
      issue_date: '2025-11-04',
      maturity_date: '2027-11-04',
    };
    expect(couponSchedule(zero)).toEqual([]);
    expect(accruedMicros(zero, '2026-06-01')).toBe(0);
  });
  it('ACT/365 accrues face x rate x days / 365', () => {
    const mof: BondTerms = { ...tbond, day_count_convention: 'ACT/365' };
    // 92 days at 14.9% on 1,000: 1000 x 0.149 x 92 / 365 = 37.556164...
    expect(accruedMicros(mof, '2028-02-08')).toBe(37_556_164);
  });
});

describe('dirty price = clean price (percent of par) + accrued', () => {
  it('98.5% of 1,000 plus accrued', () => {
    expect(dirtyPriceMicros(98_500_000, 37_659_341, 1_000_000_000)).toBe(985_000_000 + 37_659_341);
  });
  it('the clean part rounds half up to the micro', () => {
    expect(dirtyPriceMicros(25_000_000, 0, 2)).toBe(1); // 25% of 2 micros = 0.5
    expect(dirtyPriceMicros(24_999_999, 0, 2)).toBe(0);
  });
});
