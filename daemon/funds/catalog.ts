// The money-market funds of the sandbox, from fixtures/funds.json, by fund code (docs/portfolio.md).
import { readFixture } from '../fixtures.js';

export interface Fund {
  fund_code: string;
  name: string;
  name_ar: string;
  manager: string;
  shariah_compliant: boolean;
  /** NAV per whole unit at the sandbox start, EGP micros. */
  nav_micros: number;
  /** Nominal annual yield net of the management fee, on 365 days. */
  indicative_yield_bps: number;
  /** Africa/Cairo HH:MM: the daily NAV sweep and the order cut-off. */
  cutoff_local: string;
  settlement_days: number;
  /** The minimum first subscription, EGP micros. */
  min_subscription_micros: number;
  management_fee_bps: number;
  logo_url: string;
  accrual: string;
}

export function loadFunds() {
  const all = readFixture<Fund[]>('funds.json')
    .slice()
    .sort((a, b) => (a.fund_code < b.fund_code ? -1 : a.fund_code > b.fund_code ? 1 : 0));
  const byCode = new Map(all.map((f) => [f.fund_code, f]));
  return {
    /** Alphabetical by fund_code (code-point order). */
    all,
    get: (code: string): Fund | null => byCode.get(code) ?? null,
  };
}

export type FundCatalog = ReturnType<typeof loadFunds>;
