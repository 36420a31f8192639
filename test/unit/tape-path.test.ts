// The tape's minute paths are a fixed function of the seed: a faster way to compute them must give every
// price it gave before. The digest below was taken from the plain recursion (a square root per point,
// before daemon/market/tape/path.ts read amplitudes from a table) over a year of every fixture instrument,
// three seeds and four volatilities, short sessions and holidays included.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCalendar } from '../../daemon/market/calendar.js';
import { bridgeAmplitude, isqrt } from '../../daemon/market/tape/path.js';
import { createTape } from '../../daemon/market/tape.js';

const cal = createCalendar({
  zone: 'Africa/Cairo',
  weekend: [5, 6],
  open: '10:00',
  close: '14:30',
  shortSessions: [{ from: '2026-02-18', to: '2026-03-18', open: '10:00', close: '13:30' }],
  holidays: ['2026-01-07', '2026-03-19', '2026-03-22', '2026-03-23', '2026-05-26', '2026-10-08'],
});

interface FixtureInstrument {
  symbol: string;
  ref_price_micros?: number;
}
const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/instruments.json', import.meta.url), 'utf8'),
) as FixtureInstrument[];
const VOLATILITIES = [100, 60, 150, 10];
const instruments = fixture
  .filter((i) => i.ref_price_micros !== undefined)
  .map((i, k) => ({
    symbol: i.symbol,
    refPriceMicros: i.ref_price_micros ?? 0,
    volatilityPct: VOLATILITIES[k % VOLATILITIES.length],
  }));

function yearDigest(seed: number | string): string {
  const tape = createTape({ seed, calendar: cal, instruments, overrides: () => [] });
  const h = createHash('sha256');
  let date = cal.nextTradingDay('2025-12-31');
  for (let k = 0; k < 250; k++) {
    for (const i of instruments) h.update(`${i.symbol} ${date} ${tape.minutePrices(i.symbol, date).join(',')}\n`);
    date = cal.nextTradingDay(date);
  }
  return h.digest('hex').slice(0, 24);
}

describe('the minute paths do not change with the way they are computed', () => {
  it('a year of minute prices of every fixture instrument, three seeds, is the one the plain recursion gave', () => {
    expect(instruments.length).toBeGreaterThan(30);
    expect([42, 7, 'year'].map(yearDigest)).toEqual([
      '589d357f4846dfe4e96ce752',
      'bcd0e40644f30171f86b98d0',
      '5d25db497abeb8783791ef33',
    ]);
  });

  it("a day's bounds hold its every minute price, without its path: a year of every instrument, three seeds", () => {
    let days = 0;
    let tightest = Number.POSITIVE_INFINITY;
    for (const seed of [42, 7, 'year']) {
      const tape = createTape({ seed, calendar: cal, instruments, overrides: () => [] });
      let date = cal.nextTradingDay('2025-12-31');
      for (let k = 0; k < 250; k++) {
        for (const i of instruments) {
          const p = tape.minutePrices(i.symbol, date);
          const b = tape.dayRangeBound(i.symbol, date);
          if (!b) throw new Error(`no bound for ${i.symbol} ${date}`);
          const low = Math.min(...p);
          const high = Math.max(...p);
          if (b.low > low || b.high < high)
            throw new Error(`${seed} ${i.symbol} ${date}: ${b.low}-${b.high} misses ${low}-${high}`);
          tightest = Math.min(tightest, low - b.low, b.high - high);
          days++;
        }
        date = cal.nextTradingDay(date);
      }
    }
    expect(days).toBeGreaterThan(25_000);
    expect(tightest).toBeGreaterThanOrEqual(0);
  });

  it('a symbol with a quote override or a split has no bound: only its path says', () => {
    const [a, b] = instruments;
    const atMs = cal.tickMs('2026-03-02', 30);
    const tape = createTape({
      seed: 1,
      calendar: cal,
      instruments,
      overrides: () => [{ symbol: a.symbol, atMs, priceMicros: a.refPriceMicros }],
      splits: () => [{ symbol: b.symbol, atMs, ratio: 2 }],
    });
    expect(tape.dayRangeBound(a.symbol, '2026-01-05')).toBeNull();
    expect(tape.dayRangeBound(b.symbol, '2026-01-05')).toBeNull();
    expect(tape.dayRangeBound(instruments[2].symbol, '2026-01-05')).not.toBeNull();
    expect(tape.dayRangeBound(instruments[2].symbol, '2026-01-03')).toBeNull();
  });

  it('the amplitude of a span is isqrt(span x 50) bps scaled by the volatility, for every span of a session', () => {
    for (const L of [0, 1, 2, 3, 4, 100, 269, 10_000]) expect(isqrt(L * 50) ** 2).toBeLessThanOrEqual(L * 50);
    for (const L of [0, 1, 2, 3, 4, 100, 269, 10_000]) expect((isqrt(L * 50) + 1) ** 2).toBeGreaterThan(L * 50);
    expect(bridgeAmplitude(269, 100)).toBe(115);
    expect(bridgeAmplitude(269, 10)).toBe(11);
  });
});
