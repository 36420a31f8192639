import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { feeCeiling, feesOnly, fillFees, loadFeeSchedule, orderFees, totalCharges } from '../../daemon/trading/fees.js';

const S = loadFeeSchedule();
const EGP = 1_000_000;

describe('fees per side: commission max(5 EGP, 10 bp) per order; EGX 1 bp capped at 5,000 EGP; MCDR 1 bp; IPF 0.5 bp; FRA 0.5 bp; stamp duty 12.5 bp', () => {
  it('100 COMI at 85.00 EGP (8,500 EGP): every line by hand', () => {
    // 8,500 EGP x 10 bp = 8.50; x 1 bp = 0.85; x 0.5 bp = 0.425; x 12.5 bp = 10.625
    expect(orderFees(8_500 * EGP, S)).toEqual({
      commission_micros: 8_500_000,
      egx_micros: 850_000,
      mcdr_micros: 850_000,
      ipf_micros: 425_000,
      fra_micros: 425_000,
      stamp_duty_micros: 10_625_000,
    });
    expect(feesOnly(orderFees(8_500 * EGP, S))).toBe(11_050_000);
    expect(totalCharges(orderFees(8_500 * EGP, S))).toBe(21_675_000);
  });

  it('the commission minimum of 5 EGP applies below 5,000 EGP of value', () => {
    // 10 x 20 EGP = 200 EGP: 10 bp would be 0.20 EGP
    const f = orderFees(200 * EGP, S);
    expect(f.commission_micros).toBe(5 * EGP);
    expect(f.egx_micros).toBe(20_000);
    expect(f.stamp_duty_micros).toBe(250_000);
    // exactly at 5,000 EGP both agree
    expect(orderFees(5_000 * EGP, S).commission_micros).toBe(5 * EGP);
    expect(orderFees(5_010 * EGP, S).commission_micros).toBe(5_010_000);
  });

  it('the EGX fee is capped at 5,000 EGP per order (from 50,000,000 EGP of value)', () => {
    expect(orderFees(40_000_000 * EGP, S).egx_micros).toBe(4_000 * EGP);
    expect(orderFees(50_000_000 * EGP, S).egx_micros).toBe(5_000 * EGP);
    expect(orderFees(60_000_000 * EGP, S).egx_micros).toBe(5_000 * EGP);
    // MCDR is not capped
    expect(orderFees(60_000_000 * EGP, S).mcdr_micros).toBe(6_000 * EGP);
  });

  it('every line rounds half up to the micro', () => {
    // 1 bp of 5,000 micros is 0.5 micro -> 1; of 4,999 micros 0.4999 -> 0
    expect(orderFees(5_000, S).egx_micros).toBe(1);
    expect(orderFees(4_999, S).egx_micros).toBe(0);
    // 0.5 bp of 10,000 micros is 0.5 -> 1; 12.5 bp of 400 micros is 0.5 -> 1
    expect(orderFees(10_000, S).ipf_micros).toBe(1);
    expect(orderFees(400, S).stamp_duty_micros).toBe(1);
    expect(orderFees(399, S).stamp_duty_micros).toBe(0);
  });

  it('nothing executed, nothing charged', () => {
    expect(totalCharges(orderFees(0, S))).toBe(0);
  });

  it('an order filled in 7 + 6 pays the commission minimum once: each fill pays the increase of the order-level figure', () => {
    const first = fillFees(0, 7 * 20 * EGP, S);
    const second = fillFees(7 * 20 * EGP, 6 * 20_100_000, S);
    expect(first.commission_micros).toBe(5 * EGP);
    expect(second.commission_micros).toBe(0);
    expect(second.stamp_duty_micros).toBe(150_750); // 260.6 EGP x 12.5 bp = 325,750 minus 175,000 on the first 140 EGP
    const total = orderFees(7 * 20 * EGP + 6 * 20_100_000, S);
    expect(totalCharges(first) + totalCharges(second)).toBe(totalCharges(total));
  });

  it('refuses a value that is not a safe integer rather than computing a wrong number', () => {
    expect(() => orderFees(2 ** 53, S)).toThrow();
    expect(() => orderFees(1.5, S)).toThrow();
  });

  it('property: fills always sum to the order-level figure, and the fee ceiling bounds any smaller execution', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000_000_000_000 }), { minLength: 1, maxLength: 8 }),
        (values) => {
          let cum = 0;
          let charged = 0;
          for (const v of values) {
            charged += totalCharges(fillFees(cum, v, S));
            cum += v;
          }
          expect(charged).toBe(totalCharges(orderFees(cum, S)));
          expect(charged).toBeLessThanOrEqual(feeCeiling(cum, S));
          for (const v of values) expect(feeCeiling(v, S)).toBeLessThanOrEqual(feeCeiling(cum, S));
        },
      ),
    );
  });
});
