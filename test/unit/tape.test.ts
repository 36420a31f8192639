import { describe, it, expect } from 'vitest';
import { createCalendar } from '../../daemon/market/calendar.js';
import { createTape, type TapeOverride } from '../../daemon/market/tape.js';
import { band, isOnTick } from '../../daemon/market/ticks.js';
import { Prng } from '../../daemon/sim/prng.js';

const cal = createCalendar({
  zone: 'Africa/Cairo',
  weekend: [5, 6],
  open: '10:00',
  close: '14:30',
  shortSessions: [{ from: '2026-02-18', to: '2026-03-18', open: '10:00', close: '13:30' }],
  holidays: [
    '2026-01-07',
    '2026-03-19',
    '2026-03-22',
    '2026-03-23',
    '2026-05-26',
    '2026-05-27',
    '2026-05-28',
    '2026-10-08',
  ],
});
const instruments = [
  { symbol: 'COMI', refPriceMicros: 80_000_000, weightBps: 6_000 },
  { symbol: 'PENY', refPriceMicros: 2_050_000, weightBps: 1_000 }, // moves across the 2 EGP tick level
  { symbol: 'LOWP', refPriceMicros: 450_000, weightBps: 3_000 },
  { symbol: 'BOND', refPriceMicros: 98_500_000, volatilityPct: 10 },
];
const symbols = instruments.map((i) => i.symbol);

function makeTape(seed: number | string = 42, overrides: TapeOverride[] = []) {
  return createTape({ seed, calendar: cal, instruments, overrides: () => overrides });
}

/** Random trading days between 2025 and 2028, from a fixed generator so failures reproduce. */
function randomTradingDays(count: number, seed: string): string[] {
  const rng = new Prng(seed);
  const days: string[] = [];
  while (days.length < count) {
    const d = new Date(Date.UTC(2025, 0, 1) + rng.int(0, 4 * 365) * 86_400_000).toISOString().slice(0, 10);
    if (cal.isTradingDay(d)) days.push(d);
  }
  return days;
}

describe('the tape is a deterministic function of the seed', () => {
  it('the same seed gives identical prices; a different seed different ones', () => {
    const a = makeTape(7);
    const b = makeTape(7);
    const c = makeTape(8);
    const at = Date.parse('2026-11-22T09:17:00Z');
    for (const s of symbols) {
      expect(a.minutePrices(s, '2026-11-22')).toEqual(b.minutePrices(s, '2026-11-22'));
      expect(a.priceAt(s, at)).toBe(b.priceAt(s, at));
    }
    expect(symbols.some((s) => a.minutePrices(s, '2026-11-22').join() !== c.minutePrices(s, '2026-11-22').join())).toBe(
      true,
    );
  });
  it('prices do not depend on the order of questions (no hidden state)', () => {
    const a = makeTape();
    const b = makeTape();
    const later = a.priceAt('COMI', Date.parse('2028-06-01T09:00:00Z'));
    a.candles('COMI', '2026-06-01', 30, Date.parse('2026-06-02T00:00:00Z'));
    expect(b.priceAt('COMI', Date.parse('2028-06-01T09:00:00Z'))).toBe(later);
  });
});

describe('every tick is on the grid and inside the day band', () => {
  const tape = makeTape(3);
  it('on 120 random days, for each symbol, each minute price is on tick and within +/-20% of the previous close', () => {
    for (const date of randomTradingDays(120, 'band')) {
      for (const s of symbols) {
        const b = band(tape.prevClose(s, date));
        const p = tape.minutePrices(s, date);
        expect(p.length).toBe(cal.sessionMinutes(date));
        const bad = p.filter((x) => !isOnTick(x) || x < b.lowerMicros || x > b.upperMicros);
        expect(bad, `${s} ${date}`).toEqual([]);
      }
    }
  });
  it('day-to-day moves are small (a few percent), far inside the band', () => {
    let maxMoveBps = 0;
    let date = '2026-01-04';
    for (let i = 0; i < 250; i++) {
      const prev = tape.prevClose('COMI', date);
      const close = tape.dayBar('COMI', date)!.close_micros;
      maxMoveBps = Math.max(maxMoveBps, (Math.abs(close - prev) * 10_000) / prev);
      date = cal.nextTradingDay(date);
    }
    expect(maxMoveBps).toBeLessThan(800);
    expect(maxMoveBps).toBeGreaterThan(50);
  });
});

describe('bars agree with the minute path', () => {
  const tape = makeTape(5);
  it('open, high, low and close are the first, max, min and last minute; the close is the next reference', () => {
    for (const date of randomTradingDays(40, 'bars')) {
      for (const s of symbols) {
        const p = [...tape.minutePrices(s, date)];
        const bar = tape.dayBar(s, date)!;
        expect(bar).toMatchObject({
          date,
          open_micros: p[0],
          high_micros: Math.max(...p),
          low_micros: Math.min(...p),
          close_micros: p[p.length - 1],
        });
        expect(bar.volume).toBeGreaterThan(0);
        expect(tape.prevClose(s, cal.nextTradingDay(date))).toBe(bar.close_micros);
      }
    }
  });
  it('a bar of the current day is truncated at the as-of time', () => {
    const at = Date.parse('2026-11-22T09:00:00Z'); // minute 60
    const p = tape.minutePrices('COMI', '2026-11-22').slice(0, 61);
    const bar = tape.barAsOf('COMI', '2026-11-22', at)!;
    expect(bar).toMatchObject({
      open_micros: p[0],
      high_micros: Math.max(...p),
      low_micros: Math.min(...p),
      close_micros: p[60],
    });
    expect(bar.volume).toBeLessThan(tape.dayBar('COMI', '2026-11-22')!.volume);
    expect(tape.barAsOf('COMI', '2026-11-22', Date.parse('2026-11-22T07:59:59Z'))).toBeNull();
    expect(tape.dayBar('COMI', '2026-11-27')).toBeNull();
  });
  it('candles are the last N trading days, chronological, today truncated and days not yet open skipped', () => {
    const at = Date.parse('2026-11-22T09:00:00Z');
    const c = tape.candles('COMI', '2026-11-22', 90, at);
    expect(c).toHaveLength(90);
    expect(c[89]).toEqual(tape.barAsOf('COMI', '2026-11-22', at));
    expect(c[88].date).toBe('2026-11-19');
    for (let i = 1; i < c.length; i++) expect(c[i].date > c[i - 1].date).toBe(true);
    const beforeOpen = tape.candles('COMI', '2026-11-22', 5, Date.parse('2026-11-22T06:00:00Z'));
    expect(beforeOpen.map((b) => b.date)).toEqual([
      '2026-11-15',
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
    ]);
  });
});

describe('priceAt is the last tick at or before the time', () => {
  const tape = makeTape(9);
  const date = '2026-11-22';
  const p = tape.minutePrices('COMI', date);
  it('during the session, the current minute price', () => {
    expect(tape.priceAt('COMI', Date.parse('2026-11-22T08:00:00Z'))).toBe(p[0]);
    expect(tape.priceAt('COMI', Date.parse('2026-11-22T09:17:59Z'))).toBe(p[77]);
  });
  it('before the open the previous close, after the close the day close, on a weekend the last close', () => {
    expect(tape.priceAt('COMI', Date.parse('2026-11-22T07:59:59Z'))).toBe(tape.prevClose('COMI', date));
    expect(tape.priceAt('COMI', Date.parse('2026-11-22T20:00:00Z'))).toBe(p[269]);
    const thursday = tape.dayBar('COMI', '2026-11-26')!.close_micros;
    expect(tape.priceAt('COMI', Date.parse('2026-11-28T12:00:00Z'))).toBe(thursday);
    expect(tape.referencePriceAt('COMI', Date.parse('2026-11-28T12:00:00Z'))).toBe(thursday);
  });
  it('a date years away is answered directly, consistent with its own day path', () => {
    const far = '2028-09-14';
    const at = cal.tickMs(far, 100);
    expect(tape.priceAt('COMI', at)).toBe(tape.minutePrices('COMI', far)[100]);
  });
});

describe('quote overrides set the price now and ticks continue from it', () => {
  const date = '2026-11-22';
  const t = cal.tickMs(date, 60) + 30_000; // between minute 60 and 61
  it('the price is the override until the next tick, then the base path scaled by override / base', () => {
    const base = makeTape(11);
    const overrides: TapeOverride[] = [];
    const tape = makeTape(11, overrides);
    const b60 = base.minutePrices('COMI', date)[60];
    const target = b60 + 2_000_000;
    overrides.push({ symbol: 'COMI', atMs: t, priceMicros: target });
    tape.invalidate();
    expect(tape.priceAt('COMI', t)).toBe(target);
    expect(tape.priceAt('COMI', t - 1)).toBe(b60);
    const p = tape.minutePrices('COMI', date);
    const bp = base.minutePrices('COMI', date);
    for (let i = 61; i < bp.length; i++) {
      const expected =
        Number((BigInt(bp[i]) * BigInt(target) * 2n + BigInt(b60) * 10_000n) / (BigInt(b60) * 20_000n)) * 10_000;
      expect(p[i]).toBe(expected);
    }
    expect(p.slice(0, 61)).toEqual(bp.slice(0, 61));
    expect(tape.priceAt('COMI', t + 60_000)).toBe(p[61]);
  });
  it('the scaling carries into later days: closes and references shift with it', () => {
    const base = makeTape(11);
    const tape = makeTape(11, [
      {
        symbol: 'COMI',
        atMs: t,
        priceMicros: base.minutePrices('COMI', date)[60] * 1.1 - ((base.minutePrices('COMI', date)[60] * 1.1) % 10_000),
      },
    ]);
    const close = tape.dayBar('COMI', date)!.close_micros;
    const factorBps = (close * 10_000) / base.dayBar('COMI', date)!.close_micros;
    expect(factorBps).toBeGreaterThan(10_900);
    let d = date;
    for (let i = 0; i < 30; i++) {
      d = cal.nextTradingDay(d);
      const shifted = tape.dayBar('COMI', d)!;
      const expected =
        Number(
          (BigInt(base.dayBar('COMI', d)!.close_micros) * BigInt(close) * 2n +
            BigInt(base.dayBar('COMI', date)!.close_micros) * 10_000n) /
            (BigInt(base.dayBar('COMI', date)!.close_micros) * 20_000n),
        ) * 10_000;
      expect(shifted.close_micros).toBe(expected);
      expect(tape.prevClose('COMI', cal.nextTradingDay(d))).toBe(shifted.close_micros);
      const b = band(tape.prevClose('COMI', d));
      for (const x of tape.minutePrices('COMI', d))
        expect(x >= b.lowerMicros && x <= b.upperMicros && isOnTick(x)).toBe(true);
    }
    expect(tape.minutePrices('PENY', d)).toEqual(base.minutePrices('PENY', d));
  });
  it('several overrides compose: each one sets the price at its time, across days', () => {
    const t2 = cal.tickMs('2026-11-24', 10) + 1;
    const ref = makeTape(11).prevClose('COMI', date);
    const up = ref + 5_000_000;
    const down = ref - 3_000_000;
    const overrides: TapeOverride[] = [
      { symbol: 'COMI', atMs: t, priceMicros: up },
      { symbol: 'COMI', atMs: t2, priceMicros: down },
    ];
    const tape = makeTape(11, overrides);
    expect(tape.priceAt('COMI', t)).toBe(up);
    expect(tape.priceAt('COMI', t2)).toBe(down);
    const only2 = makeTape(11, [overrides[1]]);
    // after the second override the path is pinned by it alone: same ratios to base as with it alone
    const p = tape.minutePrices('COMI', '2026-11-24');
    const q = only2.minutePrices('COMI', '2026-11-24');
    expect(p.slice(11)).toEqual(q.slice(11));
    expect(tape.dayBar('COMI', '2026-11-30')).toEqual(only2.dayBar('COMI', '2026-11-30'));
  });
  it('an override outside the session shows at once and moves the next session from its open', () => {
    const base = makeTape(11);
    const evening = Date.parse('2026-11-26T18:00:00Z'); // Thursday night
    const tape = makeTape(11, [{ symbol: 'COMI', atMs: evening, priceMicros: 85_000_000 }]);
    expect(tape.priceAt('COMI', evening + 3_600_000)).toBe(85_000_000);
    expect(tape.dayBar('COMI', '2026-11-26')).toEqual(base.dayBar('COMI', '2026-11-26'));
    const open = tape.dayBar('COMI', '2026-11-29')!.open_micros;
    const baseOpen = base.dayBar('COMI', '2026-11-29')!.open_micros;
    const baseClose = base.dayBar('COMI', '2026-11-26')!.close_micros;
    expect(Math.abs(open - Math.round((baseOpen * 85_000_000) / baseClose / 10_000) * 10_000)).toBeLessThanOrEqual(
      10_000,
    );
  });
  it('an override price is clamped to the band and put on the grid', () => {
    const ref = makeTape(11).prevClose('COMI', date);
    const tape = makeTape(11, [{ symbol: 'COMI', atMs: t, priceMicros: ref * 2 + 3 }]);
    expect(tape.priceAt('COMI', t)).toBe(band(ref).upperMicros);
  });
});

describe('firstMinuteReaching agrees with a naive scan of the minute path', () => {
  it('on many random days, sides, limits and start minutes', () => {
    const tape = makeTape(13);
    const rng = new Prng('reach');
    for (const date of randomTradingDays(150, 'reach')) {
      const s = symbols[rng.int(0, symbols.length - 1)];
      const p = tape.minutePrices(s, date);
      const bar = tape.dayBar(s, date)!;
      const side = rng.int(0, 1) === 0 ? 'buy' : 'sell';
      const limit = bar.low_micros - 20_000 + rng.int(0, (bar.high_micros - bar.low_micros + 40_000) / 1_000) * 1_000;
      const from = rng.int(0, p.length + 5);
      let naive: number | null = null;
      for (let i = from; i < p.length && naive === null; i++)
        if (side === 'buy' ? p[i] <= limit : p[i] >= limit) naive = i;
      expect(tape.firstMinuteReaching(s, date, side, limit, from)).toBe(naive);
    }
  });
  it('firstTickReaching finds the first reaching tick across sessions', () => {
    const tape = makeTape(13);
    const from = cal.tickMs('2026-11-22', 0);
    const to = cal.tickMs('2026-12-31', 0);
    const low = Math.min(...tape.candles('COMI', '2026-12-30', 20, to).map((b) => b.low_micros));
    const hit = tape.firstTickReaching('COMI', 'buy', low, from, to)!;
    expect(tape.minutePrices('COMI', hit.date)[hit.minute]).toBeLessThanOrEqual(low);
    expect(hit.atMs).toBe(cal.tickMs(hit.date, hit.minute));
    expect(tape.firstTickReaching('COMI', 'buy', low, from, hit.atMs)).toBeNull();
    expect(tape.firstTickReaching('COMI', 'buy', 1_000, from, to)).toBeNull();
  });
});

describe('the market index is computed from its constituents', () => {
  const tape = makeTape(17);
  it('level = 10000 x sum(w x close / base) / sum(w), in micro-points', () => {
    const date = '2026-11-22';
    const closes = ['COMI', 'PENY', 'LOWP'].map((s) => tape.dayBar(s, date)!.close_micros);
    const weights = [6_000, 1_000, 3_000];
    const bases = [80_000_000, 2_050_000, 450_000];
    const weighted = closes.reduce(
      (sum, c, k) => sum + BigInt(weights[k]) * ((BigInt(c) * 1_000_000n) / BigInt(bases[k])),
      0n,
    );
    expect(tape.indexLevel(date)).toBe(Number((weighted * 10_000n) / 10_000n));
    expect(tape.indexLevel('2026-11-27')).toBe(tape.indexLevel('2026-11-26'));
  });
  it('index bars close at the closing level and candles are chronological', () => {
    const at = Date.parse('2026-11-23T00:00:00Z');
    const bars = tape.indexCandles('2026-11-22', 10, at);
    expect(bars).toHaveLength(10);
    expect(bars[9].close_micros).toBe(tape.indexLevel('2026-11-22'));
    expect(bars[9].high_micros).toBeGreaterThanOrEqual(bars[9].low_micros);
    expect(tape.indexLevelAt(at)).toBe(tape.indexLevel('2026-11-22'));
  });
});
