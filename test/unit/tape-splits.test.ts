// The tape after a stock split: prices from the split's instant on are the raw prices divided by the
// ratio, rounded to the nearest tick and inside the divided band; prices before it are unchanged; the
// index does not move; an override set after a split is quoted exactly as set.
import { describe, expect, it } from 'vitest';
import { createCalendar } from '../../daemon/market/calendar.js';
import { createTape, type TapeOverride, type TapeSplit } from '../../daemon/market/tape.js';
import { band, isOnTick, roundRatioToTick } from '../../daemon/market/ticks.js';

const cal = createCalendar({
  zone: 'Africa/Cairo',
  weekend: [5, 6],
  open: '10:00',
  close: '14:30',
  shortSessions: [],
  holidays: [],
});
const instruments = [
  { symbol: 'COMI', refPriceMicros: 80_000_000, weightBps: 6_000 },
  { symbol: 'LOWP', refPriceMicros: 3_100_000, weightBps: 4_000 }, // divided, it crosses the 2 EGP tick level
];
const DAY = '2026-11-23';
const SPLIT_MS = Date.parse('2026-11-23T11:30:00+02:00');
const MINUTE = 60_000;

function tapes(splits: TapeSplit[], overrides: TapeOverride[] = []) {
  const raw = createTape({ seed: 9, calendar: cal, instruments, overrides: () => overrides, splits: () => [] });
  const split = createTape({ seed: 9, calendar: cal, instruments, overrides: () => overrides, splits: () => splits });
  return { raw, split };
}

describe('a split divides the prices from its instant on', () => {
  it.each([
    ['COMI', 2],
    ['LOWP', 3],
  ] as const)(
    '%s split %i-for-1 mid-session: minutes before unchanged, after divided to the nearest tick inside the divided band',
    (symbol, ratio) => {
      const { raw, split } = tapes([{ symbol, atMs: SPLIT_MS, ratio }]);
      const rawPath = raw.minutePrices(symbol, DAY);
      const path = split.minutePrices(symbol, DAY);
      const openMs = cal.session(DAY)!.openMs;
      const ref = split.referencePriceAt(symbol, SPLIT_MS);
      expect(ref).toBe(roundRatioToTick(BigInt(raw.referencePriceAt(symbol, SPLIT_MS)), BigInt(ratio), 'nearest'));
      expect(split.referencePriceAt(symbol, SPLIT_MS - 1)).toBe(raw.referencePriceAt(symbol, SPLIT_MS - 1));
      const b = band(ref);
      for (let i = 0; i < path.length; i++) {
        if (openMs + i * MINUTE < SPLIT_MS) expect(path[i]).toBe(rawPath[i]);
        else {
          expect(isOnTick(path[i])).toBe(true);
          expect(path[i]).toBeGreaterThanOrEqual(b.lowerMicros);
          expect(path[i]).toBeLessThanOrEqual(b.upperMicros);
          expect(Math.abs(path[i] * ratio - rawPath[i])).toBeLessThanOrEqual(ratio * 10_000);
        }
      }
      // the quote at the split's instant is divided even though the last tick was a moment before it
      expect(split.priceAt(symbol, SPLIT_MS + 1)).toBe(
        roundRatioToTick(BigInt(raw.priceAt(symbol, SPLIT_MS + 1)), BigInt(ratio), 'nearest'),
      );
      // earlier days: bars and closes as they were
      expect(split.candles(symbol, '2026-11-22', 10, SPLIT_MS)).toEqual(
        raw.candles(symbol, '2026-11-22', 10, SPLIT_MS),
      );
      expect(split.prevClose(symbol, DAY)).toBe(raw.prevClose(symbol, DAY));
      expect(split.prevClose(symbol, DAY, SPLIT_MS)).toBe(ref);
      // the next days are referenced on the divided closes
      const next = cal.nextTradingDay(DAY);
      expect(split.prevClose(symbol, next)).toBe(path[path.length - 1]);
      expect(split.referencePriceAt(symbol, cal.session(next)!.openMs)).toBe(path[path.length - 1]);
    },
  );

  it('the index does not move, and the other symbols are untouched', () => {
    const { raw, split } = tapes([{ symbol: 'COMI', atMs: SPLIT_MS, ratio: 4 }]);
    expect(split.indexLevelAt(SPLIT_MS + 45 * MINUTE)).toBe(raw.indexLevelAt(SPLIT_MS + 45 * MINUTE));
    expect(split.indexLevel(DAY)).toBe(raw.indexLevel(DAY));
    expect(split.minutePrices('LOWP', DAY)).toEqual(raw.minutePrices('LOWP', DAY));
  });

  it('two splits compose, and an override set after them is quoted exactly as set until the next tick', () => {
    const later = SPLIT_MS + 10 * MINUTE;
    const splits = [
      { symbol: 'COMI', atMs: SPLIT_MS, ratio: 2 },
      { symbol: 'COMI', atMs: later, ratio: 5 },
    ];
    const { raw, split } = tapes(splits);
    expect(split.referencePriceAt('COMI', later)).toBe(
      roundRatioToTick(BigInt(raw.referencePriceAt('COMI', later)), 10n, 'nearest'),
    );
    const set = roundRatioToTick(BigInt(split.priceAt('COMI', later + MINUTE)) * 101n, 100n, 'nearest');
    const overridden = tapes(splits, [{ symbol: 'COMI', atMs: later + 5 * MINUTE + 1, priceMicros: set }]).split;
    expect(overridden.priceAt('COMI', later + 5 * MINUTE + 2)).toBe(set);
    // and the ticks after it move on from it as from any override (scaled base ticks), near the price set
    expect(Math.abs(overridden.priceAt('COMI', later + 6 * MINUTE) - set)).toBeLessThan(set / 50);
  });

  it('finds the first tick reaching a divided limit on the divided path', () => {
    const { split } = tapes([{ symbol: 'COMI', atMs: SPLIT_MS, ratio: 2 }]);
    const path = split.minutePrices('COMI', DAY);
    const openMs = cal.session(DAY)!.openMs;
    const from = Math.ceil((SPLIT_MS - openMs) / MINUTE);
    const low = Math.min(...path.slice(from));
    const hit = split.firstTickReaching('COMI', 'buy', low, SPLIT_MS, openMs + path.length * MINUTE);
    expect(hit?.priceMicros).toBe(low);
  });
});
