// The CLI's order estimate is the daemon's arithmetic: the worked examples of docs/trading.md, and the
// same reservation the order validation holds (daemon/contract/fees.ts is shared, not copied).
import { describe, expect, it } from 'vitest';
import { estimateLines, estimateOrder } from '../../cli/estimate.js';
import { reservationFor } from '../../daemon/trading/validate.js';
import { loadFeeSchedule } from '../../daemon/trading/fees.js';

const EGP = 1_000_000;
const quote = (priceMicros: number, lower: number, upper: number) => ({
  price_micros: priceMicros,
  band: { lower_micros: lower, upper_micros: upper },
});

describe('estimateOrder', () => {
  it('buy 100 COMI limit 85.00: fees 11.05, stamp duty 10.625, net debit 8,521.675 EGP (docs/trading.md)', () => {
    const e = estimateOrder(
      { side: 'buy', qty: 100, limitPriceMicros: 85 * EGP },
      quote(86 * EGP, 68 * EGP, 102 * EGP),
    )!;
    expect(e).toMatchObject({
      priceMicros: 85 * EGP,
      valueMicros: 8_500 * EGP,
      feesMicros: 11_050_000,
      netMicros: 8_521_675_000,
    });
    expect(e.fees).toMatchObject({ commission_micros: 8_500_000, egx_micros: 850_000, stamp_duty_micros: 10_625_000 });
  });

  it('a market buy is valued at the market price now but reserves at the highest price allowed today plus the most the fees can be: 10,226.01 EGP', () => {
    const d = { side: 'buy' as const, qty: 100, limitPriceMicros: null };
    const e = estimateOrder(d, quote(85 * EGP, 68 * EGP, 102 * EGP))!;
    expect(e.valueMicros).toBe(8_500 * EGP);
    expect(e.reservation).toEqual({ cashMicros: 10_226_010_000, shares: 0 });
    expect(estimateLines(d, e)).toEqual([
      'Value at the market price now 85.00: 8,500.00 EGP',
      // Money for people has two decimals, each figure rounded half up on its own (the estimate's micros stay exact).
      'Fees 11.05 EGP (commission 8.50, EGX 0.85, MCDR 0.85, IPF 0.43, FRA 0.43)',
      'Stamp duty 10.63 EGP (withheld)',
      'Net debit about 8,521.68 EGP',
      'Reserved now: 10,226.01 EGP of settled cash',
      '  (qty x the highest price allowed today, plus the most the fees can be)',
    ]);
  });

  it('a market buy in session fills at once and holds nothing after: the estimate says so, not "Reserved now"', () => {
    const open = { ...quote(85 * EGP, 68 * EGP, 102 * EGP), session_open: true, halted: false };
    const d = { side: 'buy' as const, qty: 100, limitPriceMicros: null };
    const lines = estimateLines(d, estimateOrder(d, open)!);
    expect(lines.join('\n')).not.toContain('Reserved now');
    expect(lines.slice(-2)).toEqual([
      'Fills at once at the market price: nothing stays reserved',
      '  (placing it needs 10,226.01 EGP of settled cash)',
    ]);
    // a marketable limit fills at once too; a sell says the shares it needs
    const limit = { side: 'buy' as const, qty: 100, limitPriceMicros: 86 * EGP };
    expect(estimateLines(limit, estimateOrder(limit, open)!).at(-2)).toBe(
      'Fills at once at the market price: nothing stays reserved',
    );
    const sell = { side: 'sell' as const, qty: 100, limitPriceMicros: null };
    expect(estimateLines(sell, estimateOrder(sell, open)!).slice(-2)).toEqual([
      'Fills at once at the market price: nothing stays reserved',
      '  (placing it needs 100 settled shares)',
    ]);
    // what rests still reserves: a limit below the tape, a closed market, a halt, the sandbox's split quantity 13
    for (const [dd, q] of [
      [{ side: 'buy' as const, qty: 100, limitPriceMicros: 80 * EGP }, open],
      [d, { ...open, session_open: false }],
      [d, { ...open, halted: true }],
      [{ ...d, qty: 13 }, open],
    ] as const)
      expect(estimateLines(dd, estimateOrder(dd, q)!).join('\n')).toContain('Reserved now:');
  });

  it('holds what the daemon holds, for buys and sells, market and limit', () => {
    const band = { lowerMicros: 680_000, upperMicros: 1_020_000 };
    for (const d of [
      { side: 'buy' as const, qty: 13, limitPriceMicros: null },
      { side: 'buy' as const, qty: 1_000, limitPriceMicros: 900_000 },
      { side: 'sell' as const, qty: 1, limitPriceMicros: null },
      { side: 'sell' as const, qty: 50_000, limitPriceMicros: 950_000 },
    ]) {
      const e = estimateOrder(d, quote(850_000, band.lowerMicros, band.upperMicros))!;
      expect(e.reservation).toEqual(reservationFor(d, band, loadFeeSchedule()));
    }
  });

  it('a sell worth less than its charges says it holds the shortfall in cash', () => {
    const d = { side: 'sell' as const, qty: 1, limitPriceMicros: null };
    const e = estimateOrder(d, quote(850_000, 680_000, 1_020_000))!;
    expect(e.netMicros).toBeLessThan(0);
    expect(estimateLines(d, e).at(-1)).toMatch(
      /^Reserved now: 1 settled shares and 4\.\d+ EGP of settled cash \(fees above the proceeds\)$/,
    );
  });
});
