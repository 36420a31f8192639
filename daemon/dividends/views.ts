// The wire shape of a dividend with its entitlements and their totals (failed entitlements count in
// no total).
import type { DividendCtx } from './context.js';
import type { DividendRow, EntitlementRow } from './repo.js';

function entitlementView(e: EntitlementRow) {
  return {
    tenant_id: e.tenant_id,
    investor_id: e.investor_id,
    shares: e.shares,
    gross_micros: e.gross_micros,
    tax_micros: e.tax_micros,
    net_micros: e.net_micros,
    state: e.state,
    reason_code: e.reason_code,
    paid_at: e.paid_at,
  };
}

export function dividendView(ctx: Pick<DividendCtx, 'repo' | 'market'>, d: DividendRow) {
  const cal = ctx.market.calendar;
  const ents = ctx.repo.entitlements(d.id);
  const sum = (k: 'gross_micros' | 'tax_micros' | 'net_micros') =>
    ents.reduce((a, e) => a + (e.state === 'failed' ? 0 : (e[k] ?? 0)), 0);
  return {
    dividend_id: d.id,
    symbol: d.symbol,
    amount_per_share_micros: d.amount_per_share_micros,
    ex_date: d.ex_date,
    pay_date: d.pay_date,
    record_at: cal.toIso(d.record_ms),
    pay_at: cal.toIso(d.pay_ms),
    withholding_bps: d.withholding_bps,
    state: d.state,
    declared_at: d.declared_at,
    recorded_at: d.recorded_at,
    paid_at: d.paid_at,
    holders: ents.length,
    gross_micros: sum('gross_micros'),
    tax_micros: sum('tax_micros'),
    net_micros: sum('net_micros'),
    entitlements: ents.map(entitlementView),
  };
}

export type Dividend = ReturnType<typeof dividendView>;
