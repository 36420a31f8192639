// The two scheduled steps of a dividend: the record (who is entitled, fixed from the ledger's history at
// the start of the ex-date) and the payment (gross in, withholding out, at the start of the pay date).
import { CASH_EGP } from '../ledger/assets.js';
import { formatEgp } from '../contract/money.js';
import type { DividendCtx } from './context.js';
import type { DividendRow, EntitlementRow } from './repo.js';

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Entitlements recorded, and paid, per batch: 50 rows in one statement when recorded; when paid, at most
 * 100 postings and 100 activities in one statement each.
 */
const BATCH = 50;

/** Fixes who is paid: the holders at the record instant, from the ledger's history (BATCH rows a statement). */
export function recordDividend(ctx: DividendCtx, d: DividendRow): void {
  const rows = ctx.history.holdersBefore(d.symbol, d.record_ms).map((h) => entitlementOf(d, h));
  for (let i = 0; i < rows.length; i += BATCH) ctx.repo.insertEntitlements(rows.slice(i, i + BATCH));
  ctx.repo.recorded(d.id, ctx.nowIso());
}

/** A holder's entitlement: pending with its gross, tax and net, or failed when the gross is past 2^53 - 1. */
function entitlementOf(d: DividendRow, h: { tenantId: string; investorId: string; qty: number }) {
  const gross = BigInt(h.qty) * BigInt(d.amount_per_share_micros);
  const base = { dividend_id: d.id, tenant_id: h.tenantId, investor_id: h.investorId, shares: h.qty };
  // Never a rounded amount: the entitlement fails and moves nothing.
  if (gross > MAX)
    return {
      ...base,
      gross_micros: null,
      tax_micros: null,
      net_micros: null,
      state: 'failed' as const,
      reason_code: 'AMOUNT_TOO_LARGE',
    };
  const tax = (2n * gross * BigInt(d.withholding_bps) + 10_000n) / 20_000n;
  return {
    ...base,
    gross_micros: Number(gross),
    tax_micros: Number(tax),
    net_micros: Number(gross - tax),
    state: 'pending' as const,
    reason_code: null,
  };
}

/** Pays one pending entitlement: gross and DIV, then withholding and TAX. */
function payEntitlement(ctx: DividendCtx, d: DividendRow, e: EntitlementRow, at: string): void {
  const [gross, tax] = legs(d, e);
  const [div, taxed] = activities(d, e);
  const posted = ctx.ledger.transfer(gross);
  if (!posted.ok) {
    ctx.repo.entitlementFailed(e.seq, posted.code);
    return;
  }
  ctx.ledger.recordActivity(div);
  if (tax) {
    const withheld = ctx.ledger.transfer(tax);
    // The gross was just credited and the tax is less than it: a refusal here is a bug.
    if (!withheld.ok) throw new Error(`dividends: withholding of ${d.id} refused: ${withheld.code}`);
    ctx.ledger.recordActivity(taxed);
  }
  ctx.repo.entitlementPaid(e.seq, at);
}

/** An entitlement's postings, as payEntitlement books them: the gross in, then the withholding out. */
function legs(d: DividendRow, e: EntitlementRow) {
  const cash = { investorId: e.investor_id, asset: CASH_EGP, bucket: 'settled' as const };
  const gross = {
    tenantId: e.tenant_id,
    debit: { system: 'corporate_actions' as const, asset: CASH_EGP },
    credit: cash,
    amount: e.gross_micros!,
    kind: 'dividend',
    ref: d.id,
  };
  if (e.tax_micros! === 0) return [gross];
  const tax = { system: 'tax' as const, asset: CASH_EGP };
  return [gross, { tenantId: e.tenant_id, debit: cash, credit: tax, amount: e.tax_micros!, kind: 'tax', ref: d.id }];
}

/** An entitlement's activities, as payEntitlement records them: DIV, then TAX. */
function activities(d: DividendRow, e: EntitlementRow) {
  const ref = { type: 'dividend' as const, id: d.id };
  const base = { tenantId: e.tenant_id, investorId: e.investor_id, ref, symbol: d.symbol };
  const div = {
    ...base,
    type: 'DIV' as const,
    netAmountMicros: e.gross_micros!,
    description: `${d.symbol} dividend of ${formatEgp(d.amount_per_share_micros)} EGP per share on ${e.shares} shares`,
    qty: e.shares,
    priceMicros: d.amount_per_share_micros,
  };
  if (e.tax_micros! === 0) return [div];
  const description = `Withholding tax (${d.withholding_bps / 100}%) on the ${d.symbol} dividend`;
  return [div, { ...base, type: 'TAX' as const, netAmountMicros: -e.tax_micros!, description }];
}

/**
 * Pays a batch of pending entitlements with one statement for all their postings and one for all their
 * activities: the same rows, in the same order, as paying them one by one (the database still checks
 * each posting row by row). False, with nothing posted, when the postings are refused together: the
 * caller then pays them one by one, so the one that cannot be booked fails alone.
 */
function payBatch(ctx: DividendCtx, d: DividendRow, es: readonly EntitlementRow[], at: string): boolean {
  if (es.length === 0) return true;
  const posted = ctx.ledger.transferAll(es.flatMap((e) => legs(d, e)));
  if (!posted.ok) return false;
  ctx.ledger.recordActivities(es.flatMap((e) => activities(d, e)));
  // the batch is a run of the pending entitlements in seq order: the others in its range are failed
  ctx.repo.entitlementsPaid(d.id, es[0].seq, es[es.length - 1].seq, at);
  return true;
}

export function payDividend(ctx: DividendCtx, d: DividendRow): void {
  const at = ctx.nowIso();
  const pending = ctx.repo.entitlements(d.id).filter((e) => e.state === 'pending');
  for (let i = 0; i < pending.length; i += BATCH) {
    const batch = pending.slice(i, i + BATCH);
    if (!payBatch(ctx, d, batch, at)) for (const e of batch) payEntitlement(ctx, d, e, at);
  }
  ctx.repo.paid(d.id, at);
}
