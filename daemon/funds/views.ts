// The wire shapes of a fund (at a NAV) and of a fund order (docs/portfolio.md "GET /v1/funds" and
// "The fund order").
import type { Fund, FundCatalog } from './catalog.js';
import type { NavAt } from './nav-book.js';
import { firstAccrualDate } from './nav.js';
import type { FundOrderRow } from './repo.js';

export function fundView(f: Fund, nav: NavAt) {
  return {
    fund_code: f.fund_code,
    name: f.name,
    name_ar: f.name_ar,
    manager: f.manager,
    currency: 'EGP' as const,
    nav_micros: nav.navMicros,
    nav_date: nav.sweepDate,
    indicative_yield_bps: f.indicative_yield_bps,
    management_fee_bps: f.management_fee_bps,
    cutoff_local: f.cutoff_local,
    settlement_days: f.settlement_days,
    min_subscription_micros: f.min_subscription_micros,
    shariah_compliant: f.shariah_compliant,
    logo_url: f.logo_url,
    accrual: f.accrual,
  };
}

export type FundRowView = ReturnType<typeof fundView>;

/** createdIso: the order's creation instant in Africa/Cairo, which decides its first accrual date. */
export function orderView(funds: FundCatalog, r: FundOrderRow, createdIso: string) {
  const fund = funds.get(r.fund_code)!;
  return {
    fund_order_id: r.id,
    investor_id: r.investor_id,
    fund_code: r.fund_code,
    side: r.side,
    amount_micros: r.amount_micros,
    units_micros: r.units_micros,
    state: r.state,
    nav_micros: r.nav_micros,
    nav_date: r.nav_date,
    result_units_micros: r.result_units_micros,
    result_amount_micros: r.result_amount_micros,
    reason_code: r.reason_code,
    first_accrual_date:
      r.side === 'subscribe' && r.state === 'settled'
        ? firstAccrualDate(createdIso.slice(0, 10), createdIso.slice(11, 19), fund.cutoff_local)
        : null,
    created_at: r.created_at,
    processed_at: r.processed_at,
    settled_at: r.settled_at,
    updated_at: r.updated_at,
  };
}

export type FundOrder = ReturnType<typeof orderView>;
