import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import type { Instrument } from '../../daemon/market/catalog.js';

// Checks the invariants of the market fixtures in fixtures/*.json (see fixtures/README.md).

const fixturePath = (name: string): string => new URL(`../../fixtures/${name}`, import.meta.url).pathname;
const readText = (name: string): string => fs.readFileSync(fixturePath(name), 'utf8');
const readJson = <T>(name: string): T => JSON.parse(readText(name)) as T;

interface Holiday {
  date: string;
  name: string;
  name_ar: string;
  status: 'confirmed' | 'calendar' | 'projected';
}

const EQUITY_KEYS = [
  'symbol',
  'name',
  'name_ar',
  'isin',
  'sector',
  'security_type',
  'market_id',
  'shariah_compliant',
  'egx30',
  'index_weight_bps',
  'ref_price_micros',
  'logo_url',
  'fundamentals',
  'lot_size',
].sort();
const FUNDAMENTAL_KEYS = [
  'market_cap_micros',
  'pe_ratio',
  'dividend_yield',
  'beta',
  'net_income_micros',
  'shares_outstanding',
  'website',
  'headquarters',
].sort();
const BOND_KEYS = [
  'symbol',
  'name',
  'name_ar',
  'isin',
  'sector',
  'security_type',
  'market_id',
  'shariah_compliant',
  'egx30',
  'index_weight_bps',
  'ref_price_micros',
  'clean_price_micros',
  'currency',
  'face_value_micros',
  'coupon_rate_bps',
  'coupon_frequency',
  'issue_date',
  'maturity_date',
  'day_count_convention',
  'first_coupon_date',
  'logo_url',
  'fundamentals',
  'lot_size',
].sort();

/** ISIN check (ISO 6166): letters to numbers (A=10 .. Z=35), then Luhn over the digit string. */
function isinValid(isin: string): boolean {
  if (!/^[A-Z]{2}[A-Z0-9]{9}[0-9]$/.test(isin)) return false;
  const digits = [...isin].map((c) => (/[0-9]/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let n = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

const isoWeekday = (date: string): number => {
  const d = new Date(`${date}T12:00:00Z`).getUTCDay(); // 0 = Sunday
  return d === 0 ? 7 : d;
};
const isDate = (s: unknown): boolean =>
  typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);
const isSorted = (xs: string[]): boolean => xs.every((x, i) => i === 0 || xs[i - 1] < x);

const instruments = readJson<Instrument[]>('instruments.json');
const equities = instruments.filter((i) => i.security_type === 'equity');
const fixedIncome = instruments.filter((i) => i.security_type === 'bond' || i.security_type === 'sukuk');
const holidays = readJson<{ source: string; holidays: Holiday[] }>('holidays.json');
const sessions = readJson<{
  zone: string;
  weekend: number[];
  open: string;
  close: string;
  short_sessions: { from: string; to: string; open: string; close: string; reason: string }[];
}>('sessions.json');
const brokers = readJson<Record<string, string>[]>('brokers.json');
const fees = readJson<Record<string, unknown>>('fees.json');

describe('fixtures/instruments.json', () => {
  it('holds the 37 equities of egx-facts.md first, then at least 6 bonds and 2 sukuk', () => {
    expect(equities).toHaveLength(37);
    expect(instruments.slice(0, 37).every((i) => i.security_type === 'equity')).toBe(true);
    expect(instruments.slice(37).every((i) => i.security_type !== 'equity')).toBe(true);
    expect(fixedIncome.filter((i) => i.security_type === 'bond').length).toBeGreaterThanOrEqual(6);
    expect(fixedIncome.filter((i) => i.security_type === 'sukuk').length).toBeGreaterThanOrEqual(2);
    expect(equities.length + fixedIncome.length).toBe(instruments.length);
  });

  it('every ISIN passes the ISIN Luhn check', () => {
    for (const i of instruments) expect(isinValid(i.isin), `${i.symbol} ${i.isin}`).toBe(true);
    expect(isinValid('EGS60121C017')).toBe(false); // a wrong check digit is caught
  });

  it('ISINs and symbols are unique across the catalog', () => {
    expect(new Set(instruments.map((i) => i.isin)).size).toBe(instruments.length);
    expect(new Set(instruments.map((i) => i.symbol)).size).toBe(instruments.length);
  });

  it('symbols are alphabetical within equities and within bonds/sukuk', () => {
    expect(isSorted(equities.map((e) => e.symbol))).toBe(true);
    expect(isSorted(fixedIncome.map((b) => b.symbol))).toBe(true);
  });

  it('equities have exactly the agreed keys and fundamentals keys', () => {
    for (const e of equities) {
      expect(Object.keys(e).sort(), e.symbol).toEqual(EQUITY_KEYS);
      expect(Object.keys(e.fundamentals ?? {}).sort(), e.symbol).toEqual(FUNDAMENTAL_KEYS);
      expect(e.market_id).toBe('XCAI');
      expect(e.lot_size).toBe(1);
      expect(e.logo_url).toBe(`/assets/logos/${e.symbol}.svg`);
      expect(e.fundamentals!.headquarters).toMatch(/, Egypt$/);
      expect(e.fundamentals!.website).toMatch(/^https:\/\//);
    }
  });

  it('equity prices are positive integers on the tick grid (0.01 EGP at >= 2 EGP, 0.001 EGP below)', () => {
    for (const e of equities) {
      const p = e.ref_price_micros;
      expect(Number.isSafeInteger(p) && p > 0, e.symbol).toBe(true);
      expect(p % (p >= 2_000_000 ? 10_000 : 1_000), e.symbol).toBe(0);
    }
    expect(equities.filter((e) => e.ref_price_micros < 2_000_000).length).toBeGreaterThanOrEqual(2);
  });

  it('EGX30 has exactly 30 members whose integer weights sum to 10000; non-members weigh 0', () => {
    const members = equities.filter((e) => e.egx30);
    expect(members).toHaveLength(30);
    expect(members.every((e) => Number.isInteger(e.index_weight_bps) && e.index_weight_bps > 0)).toBe(true);
    expect(members.reduce((a, e) => a + e.index_weight_bps, 0)).toBe(10000);
    expect(instruments.filter((i) => !i.egx30).every((i) => i.index_weight_bps === 0)).toBe(true);
  });

  it('EGX30 weights are roughly proportional to market cap (within 1 bp)', () => {
    const members = equities.filter((e) => e.egx30);
    const total = members.reduce((a, e) => a + BigInt(e.fundamentals!.market_cap_micros), 0n);
    for (const e of members) {
      const exact = Number((BigInt(e.fundamentals!.market_cap_micros) * 1_000_000n) / total) / 100;
      expect(Math.abs(exact - e.index_weight_bps), e.symbol).toBeLessThanOrEqual(1);
    }
  });

  it('every integer literal in instruments.json survives JSON.parse exactly (large micros are exact doubles)', () => {
    const literals = [...readText('instruments.json').matchAll(/:\s*(-?\d+)\s*[,\n]/g)].map((m) => m[1]);
    expect(literals.length).toBeGreaterThan(0);
    for (const lit of literals) expect(BigInt(Number(lit)).toString(), lit).toBe(lit);
  });

  it('market_cap = price x shares exactly, and pe_ratio = market_cap / net_income to 2 decimals (null when net income <= 0)', () => {
    for (const e of equities) {
      const f = e.fundamentals!;
      expect(Number.isSafeInteger(f.shares_outstanding) && f.shares_outstanding > 0, e.symbol).toBe(true);
      expect(Number.isInteger(f.net_income_micros), e.symbol).toBe(true);
      expect(BigInt(e.ref_price_micros) * BigInt(f.shares_outstanding), e.symbol).toBe(BigInt(f.market_cap_micros));
      if (f.net_income_micros <= 0) {
        expect(f.pe_ratio, e.symbol).toBeNull();
      } else {
        const hundredths = ((BigInt(f.market_cap_micros) * 200n) / BigInt(f.net_income_micros) + 1n) / 2n;
        expect(f.pe_ratio, e.symbol).toBe(Number(hundredths) / 100);
      }
      expect(f.dividend_yield >= 0 && f.dividend_yield < 1, e.symbol).toBe(true);
      expect(Math.round(f.beta * 100) / 100, e.symbol).toBe(f.beta);
    }
  });

  it('bonds and sukuk have the agreed keys, maturity > issue, and sukuk are shariah-compliant (bonds are not)', () => {
    for (const b of fixedIncome) {
      expect(Object.keys(b).sort(), b.symbol).toEqual(BOND_KEYS);
      expect(b.isin, b.symbol).toMatch(/^(EGBGR|EGSUK)/);
      expect(isDate(b.issue_date) && isDate(b.maturity_date), b.symbol).toBe(true);
      expect(b.maturity_date! > b.issue_date!, b.symbol).toBe(true);
      expect(b.shariah_compliant, b.symbol).toBe(b.security_type === 'sukuk');
      expect(b.sector).toBe('Government');
      expect(b.egx30).toBe(false);
      expect(b.fundamentals).toBeNull();
      expect(b.currency).toBe('EGP');
      expect(b.face_value_micros).toBe(1_000_000_000);
      expect(b.ref_price_micros).toBe(b.clean_price_micros);
      expect([0, 1, 2, 4]).toContain(b.coupon_frequency);
      expect(b.coupon_rate_bps === 0, b.symbol).toBe(b.coupon_frequency === 0);
      expect(['ACT/ACT', 'ACT/365']).toContain(b.day_count_convention);
      if (b.first_coupon_date !== null) {
        expect(isDate(b.first_coupon_date), b.symbol).toBe(true);
        expect(b.first_coupon_date! > b.issue_date! && b.first_coupon_date! < b.maturity_date!, b.symbol).toBe(true);
      }
    }
    expect(fixedIncome.some((b) => b.coupon_frequency === 0)).toBe(true);
    expect(fixedIncome.some((b) => b.coupon_frequency === 4)).toBe(true);
  });
});

describe('fixtures/holidays.json', () => {
  const list = holidays.holidays;

  it('holidays are never on Friday or Saturday', () => {
    for (const h of list) expect([5, 6], h.date).not.toContain(isoWeekday(h.date));
  });

  it('holidays are valid dates, sorted by date, without duplicates, with a known status', () => {
    expect(list.every((h) => isDate(h.date))).toBe(true);
    expect(isSorted(list.map((h) => h.date))).toBe(true);
    expect(new Set(list.map((h) => h.date)).size).toBe(list.length);
    for (const h of list) {
      expect(['confirmed', 'calendar', 'projected']).toContain(h.status);
      expect(h.name.length > 0 && h.name_ar.length > 0, h.date).toBe(true);
    }
  });

  it('holidays cover 2025, 2026 and 2027, and 2027 is projected', () => {
    for (const y of ['2025', '2026', '2027']) {
      expect(list.filter((h) => h.date.startsWith(y)).length, y).toBeGreaterThanOrEqual(8);
    }
    expect(list.every((h) => h.date >= '2025-01-01' && h.date <= '2027-12-31')).toBe(true);
    expect(list.filter((h) => h.date.startsWith('2027')).every((h) => h.status === 'projected')).toBe(true);
    expect(list.filter((h) => h.date < '2027').every((h) => h.status !== 'projected')).toBe(true);
  });

  it('holidays observed on a Thursday say so and fall on a Thursday', () => {
    for (const h of list.filter((x) => /observed Thursday/.test(x.name))) expect(isoWeekday(h.date), h.date).toBe(4);
  });
});

describe('fixtures/sessions.json', () => {
  it('session is Africa/Cairo 10:00-14:30 with a Friday/Saturday weekend', () => {
    expect(sessions.zone).toBe('Africa/Cairo');
    expect(sessions.weekend).toEqual([5, 6]);
    expect(sessions.open).toBe('10:00');
    expect(sessions.close).toBe('14:30');
  });

  it('Ramadan short sessions (10:00-13:30) for 2025-2027 are sorted, non-overlapping date ranges', () => {
    const s = sessions.short_sessions;
    expect(s.map((x) => x.from.slice(0, 4))).toEqual(['2025', '2026', '2027']);
    for (const [i, x] of s.entries()) {
      expect(isDate(x.from) && isDate(x.to) && x.from <= x.to).toBe(true);
      expect([x.open, x.close, x.reason]).toEqual(['10:00', '13:30', 'Ramadan']);
      if (i > 0) expect(s[i - 1].to < x.from).toBe(true);
    }
  });
});

describe('fixtures/brokers.json and fixtures/fees.json', () => {
  it('the sandbox broker has a brk_ id, an NNN/YYYY licence, an email and a +20 phone', () => {
    expect(brokers).toHaveLength(1);
    const b = brokers[0];
    expect(b.id).toMatch(/^brk_/);
    expect(b.fra_license_no).toMatch(/^\d{3}\/\d{4}$/);
    expect(b.contact_email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(b.contact_phone).toMatch(/^\+20\d{9,10}$/);
    expect(b.market_id).toBe('XCAI');
  });

  it('fees match the EGX schedule of docs/market-facts.md (rates in tenths of a basis point) and each item has a source', () => {
    expect(fees).toMatchObject({
      commission: { min_micros: 5_000_000, rate_bps_x10: 100 },
      egx: { rate_bps_x10: 10, cap_micros: 5_000_000_000 },
      mcdr: { rate_bps_x10: 10 },
      ipf: { rate_bps_x10: 5 },
      fra: { rate_bps_x10: 5 },
      stamp_duty: { rate_bps_x10: 125 },
      dividend_withholding_bps: 1000,
      rounding: 'half_up_to_micro',
    });
    for (const k of ['commission', 'egx', 'mcdr', 'ipf', 'fra', 'stamp_duty']) {
      expect(typeof (fees[k] as { source?: unknown }).source, k).toBe('string');
    }
  });
});
