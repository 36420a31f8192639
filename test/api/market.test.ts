import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { readFileSync } from 'node:fs';

const EGX30 = [
  'ABUK',
  'ADIB',
  'AMOC',
  'ARCC',
  'BTFH',
  'CCAP',
  'COMI',
  'EAST',
  'EFIH',
  'EFID',
  'EGAL',
  'EGCH',
  'EMFD',
  'ETEL',
  'FWRY',
  'GBCO',
  'HELI',
  'HRHO',
  'ISPH',
  'JUFO',
  'MCQE',
  'OIH',
  'ORAS',
  'ORHD',
  'ORWE',
  'PHDC',
  'RAYA',
  'RMDA',
  'TMGH',
  'VLMRA',
];

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

describe('GET /v1/instruments: the tradable universe, alphabetical', () => {
  it('lists the 30 EGX30 constituents, the extra names, and bonds and sukuk by security_type, in symbol order', async () => {
    const res = await t.req('GET', '/v1/instruments');
    expect(res.status).toBe(200);
    const symbols = res.body.instruments.map((i: any) => i.symbol);
    expect(symbols).toEqual([...symbols].sort());
    for (const s of [...EGX30, 'SWDY', 'CIEB', 'MFPC', 'SKPC', 'MASR', 'ALCN', 'CLHO']) expect(symbols).toContain(s);
    const types = new Set(res.body.instruments.map((i: any) => i.security_type));
    expect(types).toEqual(new Set(['equity', 'bond', 'sukuk']));
  });

  it('each row carries the spec fields: symbol, name, name_ar, isin, sector, ref_price_micros, shariah_compliant, logo_url, fundamentals; not fractionable', async () => {
    const res = await t.req('GET', '/v1/instruments?security_type=equity');
    const comi = res.body.instruments.find((i: any) => i.symbol === 'COMI');
    expect(comi).toMatchObject({
      name: 'Commercial International Bank (Egypt)',
      isin: 'EGS60121C018',
      sector: 'Banks',
      shariah_compliant: false,
      fractionable: false,
      security_type: 'equity',
      market_id: 'XCAI',
    });
    expect(comi.name_ar).toMatch(/[\u0600-\u06FF]/);
    expect(Number.isInteger(comi.ref_price_micros)).toBe(true);
    expect(comi.logo_url).toMatch(/^http:\/\/.+\/assets\/logos\/COMI\.svg$/);
    expect(Object.keys(comi.fundamentals).sort()).toEqual([
      'beta',
      'dividend_yield',
      'headquarters',
      'market_cap_micros',
      'net_income_micros',
      'pe_ratio',
      'shares_outstanding',
      'website',
    ]);
    expect(res.body.instruments.every((i: any) => i.security_type === 'equity')).toBe(true);
  });

  it('the logo_url serves an SVG image', async () => {
    const res = await t.req('GET', '/assets/logos/COMI.svg', { as: 'none' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.text).toContain('<svg');
  });

  it('no list is ordered by anything but its documented ordering (neutrality rule)', async () => {
    const res = await t.req('GET', '/v1/instruments');
    expect(res.body.ordering).toBe('symbol_asc');
    const text = JSON.stringify(res.body);
    for (const word of ['score', 'rank', 'sentiment', 'relevance', 'recommend'])
      expect(text.toLowerCase()).not.toContain(`"${word}`);
  });
});

describe('GET /v1/instruments/{symbol}/quote: band, tick, reference price, session_open', () => {
  it('the band is +/-20% of the reference price on the tick grid, and the tick fits the price level', async () => {
    const res = await t.req('GET', '/v1/instruments/COMI/quote');
    expect(res.status).toBe(200);
    const q = res.body;
    expect(q.tick_micros).toBe(10_000);
    expect(q.band.lower_micros).toBeGreaterThanOrEqual(Math.ceil((q.ref_price_micros * 0.8) / 10_000) * 10_000);
    expect(q.band.upper_micros).toBeLessThanOrEqual(q.ref_price_micros * 1.2);
    expect(q.band.lower_micros % 10_000).toBe(0);
    expect(q.band.upper_micros % 10_000).toBe(0);
    expect(q.session_open).toBe(false);
    expect(q.halted).toBe(false);
  });

  it('a price below 2 EGP has the 0.001 EGP tick', async () => {
    const q = (await t.req('GET', '/v1/instruments/OIH/quote')).body;
    expect(q.price_micros).toBeLessThan(2_000_000);
    expect(q.tick_micros).toBe(1_000);
    expect(q.price_micros % 1_000).toBe(0);
  });

  it('an unknown symbol is 404', async () => {
    const res = await t.req('GET', '/v1/instruments/NOPE/quote');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('UNKNOWN_SYMBOL');
  });
});

describe('Quote (live tape): price_micros, prev_close_micros, change_pct, as_of, session_open', () => {
  it('while the session is open the tape ticks once per simulated minute, inside the band, on the tick grid', async () => {
    const app = await makeApp();
    try {
      await advance(app, { until: 'next_open' });
      const seen: number[] = [];
      for (let i = 0; i < 30; i++) {
        const q = (await app.req('GET', '/v1/markets/XCAI/instruments/TMGH/quote')).body;
        expect(q.session_open).toBe(true);
        expect(q.price_micros % 10_000).toBe(0);
        const band = (await app.req('GET', '/v1/instruments/TMGH/quote')).body.band;
        expect(q.price_micros).toBeGreaterThanOrEqual(band.lower_micros);
        expect(q.price_micros).toBeLessThanOrEqual(band.upper_micros);
        expect(Object.keys(q).sort()).toEqual([
          'as_of',
          'change_pct',
          'prev_close_micros',
          'price_micros',
          'session_open',
          'symbol',
        ]);
        seen.push(q.price_micros);
        await advance(app, { minutes: 1 });
      }
      expect(new Set(seen).size).toBeGreaterThan(3);
    } finally {
      await app.close();
    }
  });

  it('an unknown market is 404 and an unknown symbol is 404', async () => {
    expect((await t.req('GET', '/v1/markets/XNYS/instruments/COMI/quote')).body.error.code).toBe('UNKNOWN_MARKET');
    expect((await t.req('GET', '/v1/markets/XCAI/instruments/ZZZZ/quote')).status).toBe(404);
  });
});

describe('OHLCV: { candles: [ { date, open_micros, high_micros, low_micros, close_micros, volume } ] }, chronological', () => {
  it('defaults to 90 trading days, chronological, with consistent bars', async () => {
    const res = await t.req('GET', '/v1/markets/XCAI/instruments/COMI/ohlcv');
    expect(res.status).toBe(200);
    const c = res.body.candles;
    expect(c).toHaveLength(90);
    for (let i = 1; i < c.length; i++) expect(c[i].date > c[i - 1].date).toBe(true);
    for (const b of c) {
      expect(b.high_micros).toBeGreaterThanOrEqual(Math.max(b.open_micros, b.close_micros));
      expect(b.low_micros).toBeLessThanOrEqual(Math.min(b.open_micros, b.close_micros));
      expect(b.volume).toBeGreaterThan(0);
    }
    expect(c[c.length - 1].date).toBe('2026-11-19');
  });

  it('days caps at 365; 366, 0 and non-numbers are 422', async () => {
    expect((await t.req('GET', '/v1/markets/XCAI/instruments/COMI/ohlcv?days=365')).body.candles).toHaveLength(365);
    for (const d of ['366', '0', 'abc', '1.5', '-3']) {
      const res = await t.req('GET', `/v1/markets/XCAI/instruments/COMI/ohlcv?days=${d}`);
      expect(res.status, d).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('an unknown query parameter is 422', async () => {
    const res = await t.req('GET', '/v1/markets/XCAI/instruments/COMI/ohlcv?dayz=5');
    expect(res.status).toBe(422);
  });

  it("a close is the next day's reference price", async () => {
    const c = (await t.req('GET', '/v1/markets/XCAI/instruments/ETEL/ohlcv?days=5')).body.candles;
    const q = (await t.req('GET', '/v1/instruments/ETEL/quote')).body;
    expect(q.ref_price_micros).toBe(c[c.length - 1].close_micros);
  });

  it('the EGX30 index series is computed from its constituents', async () => {
    const res = await t.req('GET', '/v1/markets/XCAI/index/EGX30/ohlcv?days=30');
    expect(res.status).toBe(200);
    expect(res.body.candles).toHaveLength(30);
    expect(res.body.candles[0].close_micros).toBeGreaterThan(0);
  });
});

describe('GET /v1/calendar: default today through today plus 30 days', () => {
  it('the default covers today through today + 30 days, trading days only, Sunday to Thursday', async () => {
    const res = await t.req('GET', '/v1/calendar');
    expect(res.status).toBe(200);
    const days = res.body.calendar;
    expect(days[0].date).toBe('2026-11-22');
    expect(days[days.length - 1].date <= '2026-12-22').toBe(true);
    for (const d of days) {
      const wd = new Date(`${d.date}T12:00:00Z`).getUTCDay();
      expect([5, 6]).not.toContain(wd);
      expect(d).toMatchObject({ open: '10:00', close: '14:30', session_open: '1000', session_close: '1430' });
    }
  });

  it('T+2 settlement skips the weekend: a Thursday trade settles on Monday', async () => {
    const days = (await t.req('GET', '/v1/calendar?start=2026-11-26&end=2026-11-26')).body.calendar;
    expect(days).toEqual([
      {
        date: '2026-11-26',
        open: '10:00',
        close: '14:30',
        session_open: '1000',
        session_close: '1430',
        settlement_date: '2026-11-30',
      },
    ]);
  });

  it('a holiday is not a trading day and settlement skips it (Coptic Christmas, 7 Jan 2027)', async () => {
    const days = (await t.req('GET', '/v1/calendar?start=2027-01-04&end=2027-01-08')).body.calendar;
    expect(days.map((d: any) => d.date)).toEqual(['2027-01-04', '2027-01-05', '2027-01-06']);
    expect(days.find((d: any) => d.date === '2027-01-05').settlement_date).toBe('2027-01-10');
  });

  it('the closed weekdays between trading days are listed with their names (closed_days), English and Arabic', async () => {
    const res = (await t.req('GET', '/v1/calendar?start=2026-12-28&end=2027-01-10')).body;
    expect(res.closed_days).toEqual([{ date: '2027-01-07', name: 'Coptic Christmas', name_ar: 'عيد الميلاد المجيد' }]);
    expect(res.calendar.map((d: any) => d.date)).not.toContain('2027-01-07');
  });

  it('Ramadan sessions close at 13:30', async () => {
    const days = (await t.req('GET', '/v1/calendar?start=2027-02-15&end=2027-02-15')).body.calendar;
    expect(days[0]).toMatchObject({ close: '13:30', session_close: '1330' });
  });

  it.each([
    ['start=2026-02-30', 'INVALID_DATE'],
    ['start=2026-13-01', 'INVALID_DATE'],
    ['start=22-11-2026', 'VALIDATION_FAILED'],
    ['start=2026-12-10&end=2026-12-01', 'INVALID_RANGE'],
    ['start=2026-01-01&end=2029-01-01', 'INVALID_RANGE'],
    ['from=2026-01-01', 'VALIDATION_FAILED'],
  ])('%s is 422 %s', async (qs, code) => {
    const res = await t.req('GET', `/v1/calendar?${qs}`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe(code);
  });
});

describe("The catalog lists take the spec's page size like every other list: limit 1-200, default 100", () => {
  it.each([
    ['/v1/instruments', 'instruments'],
    ['/v1/bonds', 'bonds'],
    ['/v1/funds', 'funds'],
  ])(
    '%s?limit=2 answers the first two rows of the full list; 0 and 201 are 422 VALIDATION_FAILED',
    async (path, key) => {
      const all = (await t.req('GET', path)).body[key];
      expect(all.length).toBeGreaterThan(2);
      const two = await t.req('GET', `${path}?limit=2`);
      expect(two.status).toBe(200);
      expect(two.body[key]).toEqual(all.slice(0, 2));
      expect((await t.req('GET', `${path}?limit=200`)).body[key]).toEqual(all);
      for (const bad of ['0', '201', 'two']) {
        const res = await t.req('GET', `${path}?limit=${bad}`);
        expect([res.status, res.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
      }
    },
  );
});

describe('GET /v1/bonds', () => {
  it('ordered by market_id then symbol, with ordering and note; shariah=true narrows without reordering', async () => {
    const all = (await t.req('GET', '/v1/bonds')).body;
    expect(all.ordering).toBe('alphabetical');
    expect(typeof all.note).toBe('string');
    const symbols = all.bonds.map((b: any) => b.symbol);
    expect(symbols).toEqual([...symbols].sort());
    const sh = (await t.req('GET', '/v1/bonds?shariah=true')).body.bonds;
    expect(sh.length).toBeGreaterThan(0);
    expect(sh.every((b: any) => b.shariah_compliant && b.security_type === 'sukuk')).toBe(true);
    expect(sh.map((b: any) => b.symbol)).toEqual(symbols.filter((s: string) => sh.some((b: any) => b.symbol === s)));
    expect((await t.req('GET', '/v1/bonds?shariah=yes')).status).toBe(422);
  });

  it('each bond has the spec fields; maturity after issue; accrued interest grows between coupons', async () => {
    const bonds = (await t.req('GET', '/v1/bonds')).body.bonds;
    for (const b of bonds) {
      for (const f of [
        'market_id',
        'symbol',
        'name',
        'name_ar',
        'security_type',
        'clean_price_micros',
        'currency',
        'shariah_compliant',
        'face_value_micros',
        'coupon_rate_bps',
        'coupon_frequency',
        'issue_date',
        'maturity_date',
        'day_count_convention',
        'first_coupon_date',
      ]) {
        expect(b, `${b.symbol}.${f}`).toHaveProperty(f);
      }
      expect(Date.parse(b.maturity_date)).toBeGreaterThan(Date.parse(b.issue_date));
      expect(b.ref_price_micros).toBe(b.clean_price_micros);
      if (b.coupon_frequency === 0) expect(b.accrued_interest_micros).toBe(0);
    }
    const app = await makeApp();
    try {
      const before = (await app.req('GET', '/v1/bonds')).body.bonds.find((b: any) => b.coupon_frequency === 2);
      await advance(app, { days: 7 });
      const after = (await app.req('GET', '/v1/bonds')).body.bonds.find((b: any) => b.symbol === before.symbol);
      expect(after.accrued_interest_micros).toBeGreaterThan(before.accrued_interest_micros);
    } finally {
      await app.close();
    }
  });
});

describe('Sandbox quote and halt controls', () => {
  it('quote sets the tape price now; ticks continue from it', async () => {
    const app = await makeApp();
    try {
      await advance(app, { until: 'next_open' });
      await advance(app, { minutes: 5 });
      const ref = (await app.req('GET', '/v1/instruments/FWRY/quote')).body;
      const target = ref.band.upper_micros - 10_000;
      const set = await app.req('POST', '/admin/sandbox/quote', { body: { symbol: 'FWRY', price_micros: target } });
      expect(set.status).toBe(200);
      expect(set.body.price_micros).toBe(target);
      expect((await app.req('GET', '/v1/markets/XCAI/instruments/FWRY/quote')).body.price_micros).toBe(target);
      await advance(app, { minutes: 1 });
      const next = (await app.req('GET', '/v1/markets/XCAI/instruments/FWRY/quote')).body.price_micros;
      expect(Math.abs(next - target)).toBeLessThan(target * 0.03);
    } finally {
      await app.close();
    }
  });

  it.each([
    [{ symbol: 'FWRY', price_micros: 10_005_000 }, 422, 'PRICE_OFF_TICK'],
    [{ symbol: 'FWRY', price_micros: 500_000_000 }, 422, 'PRICE_BAND_EXCEEDED'],
    [{ symbol: 'NOPE', price_micros: 10_000_000 }, 404, 'UNKNOWN_SYMBOL'],
    [{ symbol: 'FWRY', price_micros: 1.5 }, 422, 'VALIDATION_FAILED'],
    [{ symbol: 'FWRY' }, 422, 'VALIDATION_FAILED'],
  ])('quote %j is refused (%i %s) and changes nothing', async (body, status, code) => {
    const before = (await t.req('GET', '/v1/markets/XCAI/instruments/FWRY/quote')).body;
    const res = await t.req('POST', '/admin/sandbox/quote', { body });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect((await t.req('GET', '/v1/markets/XCAI/instruments/FWRY/quote')).body).toEqual(before);
  });

  it('halt marks the symbol halted and resume clears it', async () => {
    expect((await t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: true } })).body.halted).toBe(
      true,
    );
    expect((await t.req('GET', '/v1/instruments/COMI/quote')).body.halted).toBe(true);
    await t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: false } });
    expect((await t.req('GET', '/v1/instruments/COMI/quote')).body.halted).toBe(false);
  });
});

describe('Market data is readable by any tenant with a bearer key, and by nobody without one', () => {
  it('401 UNAUTHENTICATED without or with an unknown key', async () => {
    expect((await t.req('GET', '/v1/instruments', { as: 'none' })).status).toBe(401);
    const bad = await t.req('GET', '/v1/instruments', { as: 'none', headers: { authorization: 'Bearer sk_sbx_nope' } });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('UNAUTHENTICATED');
  });
});

describe('fixtures drive the catalog', () => {
  it('every fixture instrument is served', async () => {
    const fx = JSON.parse(readFileSync(new URL('../../fixtures/instruments.json', import.meta.url), 'utf8'));
    const served = (await t.req('GET', '/v1/instruments')).body.instruments;
    expect(served).toHaveLength(fx.length);
  });
});
