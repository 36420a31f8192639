// The two scheduled steps of a dividend: the record (who is entitled, fixed from the ledger's history at
// the start of the ex-date) and the payment (gross in, withholding out, at the start of the pay date).
import { CASH_EGP } from '../ledger/assets.js';
import { formatEgp } from '../contract/money.js';
import type { DividendCtx } from './context.js';
import type { DividendRow, EntitlementRow } from './repo.js';

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** Fixes who is paid: the holders at the record instant, from the ledger's history. */
export function recordDividend(ctx: DividendCtx, d: DividendRow): void {
  for (const h of ctx.history.holdersBefore(d.symbol, d.record_ms)) {
    const gross = BigInt(h.qty) * BigInt(d.amount_per_share_micros);
    const base = { dividend_id: d.id, tenant_id: h.tenantId, investor_id: h.investorId, shares: h.qty };
    if (gross > MAX) {
      // Never a rounded amount: the entitlement fails and moves nothing.
      ctx.repo.insertEntitlement({
        ...base,
        gross_micros: null,
        tax_micros: null,
        net_micros: null,
        state: 'failed',
        reason_code: 'AMOUNT_TOO_LARGE',
      });
      continue;
    }
    const tax = (2n * gross * BigInt(d.withholding_bps) + 10_000n) / 20_000n;
    ctx.repo.insertEntitlement({
      ...base,
      gross_micros: Number(gross),
      tax_micros: Number(tax),
      net_micros: Number(gross - tax),
      state: 'pending',
      reason_code: null,
    });
  }
  ctx.repo.recorded(d.id, ctx.nowIso());
}

/** Pays one pending entitlement: gross and DIV, then withholding and TAX. */
function payEntitlement(ctx: DividendCtx, d: DividendRow, e: EntitlementRow, at: string): void {
  const { ledger } = ctx;
  const gross = e.gross_micros!;
  const cash = { investorId: e.investor_id, asset: CASH_EGP, bucket: 'settled' as const };
  const posted = ledger.transfer({
    tenantId: e.tenant_id,
    debit: { system: 'corporate_actions', asset: CASH_EGP },
    credit: cash,
    amount: gross,
    kind: 'dividend',
    ref: d.id,
  });
  if (!posted.ok) {
    ctx.repo.entitlementFailed(e.seq, posted.code);
    return;
  }
  const ref = { type: 'dividend' as const, id: d.id };
  ledger.recordActivity({
    tenantId: e.tenant_id,
    investorId: e.investor_id,
    type: 'DIV',
    netAmountMicros: gross,
    description: `${d.symbol} dividend of ${formatEgp(d.amount_per_share_micros)} EGP per share on ${e.shares} shares`,
    ref,
    symbol: d.symbol,
    qty: e.shares,
    priceMicros: d.amount_per_share_micros,
  });
  if (e.tax_micros! > 0) {
    const taxed = ledger.transfer({
      tenantId: e.tenant_id,
      debit: cash,
      credit: { system: 'tax', asset: CASH_EGP },
      amount: e.tax_micros!,
      kind: 'tax',
      ref: d.id,
    });
    // The gross was just credited and the tax is less than it: a refusal here is a bug.
    if (!taxed.ok) throw new Error(`dividends: withholding of ${d.id} refused: ${taxed.code}`);
    ledger.recordActivity({
      tenantId: e.tenant_id,
      investorId: e.investor_id,
      type: 'TAX',
      netAmountMicros: -e.tax_micros!,
      description: `Withholding tax (${d.withholding_bps / 100}%) on the ${d.symbol} dividend`,
      ref,
      symbol: d.symbol,
    });
  }
  ctx.repo.entitlementPaid(e.seq, at);
}

export function payDividend(ctx: DividendCtx, d: DividendRow): void {
  const at = ctx.nowIso();
  for (const e of ctx.repo.entitlements(d.id)) {
    if (e.state === 'pending') payEntitlement(ctx, d, e, at);
  }
  ctx.repo.paid(d.id, at);
}
