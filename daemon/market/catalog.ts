// The instrument catalog: equities, bonds and sukuk from fixtures/instruments.json, by symbol.
import { readFixture } from '../fixtures.js';

export interface Fundamentals {
  market_cap_micros: number;
  pe_ratio: number | null;
  dividend_yield: number;
  beta: number;
  net_income_micros: number;
  shares_outstanding: number;
  website: string;
  headquarters: string;
}

export interface Instrument {
  symbol: string;
  name: string;
  name_ar: string;
  isin: string;
  sector: string;
  security_type: 'equity' | 'bond' | 'sukuk';
  market_id: string;
  shariah_compliant: boolean;
  egx30: boolean;
  index_weight_bps: number;
  ref_price_micros: number;
  logo_url: string;
  fundamentals: Fundamentals | null;
  lot_size: number;
  // bonds and sukuk only
  clean_price_micros?: number;
  currency?: string;
  face_value_micros?: number;
  coupon_rate_bps?: number;
  coupon_frequency?: 0 | 1 | 2 | 4;
  issue_date?: string;
  maturity_date?: string;
  day_count_convention?: 'ACT/ACT' | 'ACT/365';
  first_coupon_date?: string | null;
}

export const MARKET_ID = 'XCAI';
export const ASSET_CLASS = 'egx_equity';

/**
 * Symbols and market ids compare by their characters' codes: the same order on every machine (localeCompare
 * follows the machine's locale), and no ICU collator to start at a daemon's start (about 8 ms).
 */
const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function loadCatalog() {
  const all = readFixture<Instrument[]>('instruments.json');
  const bySymbol = new Map(all.map((i) => [i.symbol, i]));
  const equities = all.filter((i) => i.security_type === 'equity').sort((a, b) => byCode(a.symbol, b.symbol));
  const bonds = all
    .filter((i) => i.security_type !== 'equity')
    .sort((a, b) => byCode(a.market_id, b.market_id) || byCode(a.symbol, b.symbol));
  return {
    all,
    equities,
    bonds,
    get: (symbol: string) => bySymbol.get(symbol.toUpperCase()) ?? null,
  };
}

export type Catalog = ReturnType<typeof loadCatalog>;
