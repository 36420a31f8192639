// corp-action:process { kind: 'split', symbol, ratio } (docs/backoffice.md "Corporate actions"): an
// N-for-1 stock split, applied in the approving transaction at the sandbox clock's now. In order:
//  1. every refusal first, so nothing is half done: the market's (UNKNOWN_SYMBOL, SPLIT_NOT_APPLICABLE,
//     SPLIT_ALREADY_APPLIED), a cash dividend of the symbol declared per old share whose holders are
//     not recorded yet, or an open buy whose limit / N would fall under the smallest price
//     (SPLIT_NOT_APPLICABLE), a holding that x N would pass the safe-integer range (AMOUNT_TOO_LARGE);
//  2. the market records the split: from now the tape quotes the symbol's prices / N (daemon/market/splits.ts);
//  3. open sells give their shares holds back (daemon/trading/split.ts);
//  4. every holder's settled and unsettled shares x N: postings from system:corporate_actions (kind
//     'split', ref the split id), so the ledger stays balanced and the portfolio's cost basis takes the
//     new shares in at zero cost (the total cost is unchanged, the cost per share / N); one SPLIT
//     activity per holder;
//  5. open orders and pending deliveries of the symbol amended (daemon/trading/split.ts).
// A thrown error past step 1 is a bug: the request rolls back and the market reloads from the database.
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import type { Db } from '../../store/db.js';
import { MIN_PRICE_MICROS } from '../../market/ticks.js';
import { createSplitRepo } from '../../trading/split-repo.js';
import { amendOpenOrders, amendSettlements, releaseShareHolds, type SplitRef } from '../../trading/split.js';
import type { ExecCtx } from './exec.js';

interface Holding {
  tenant_id: string;
  investor_id: string;
  settled: number;
  reserved: number;
  unsettled: number;
}

function holdingsOf(db: Db, symbol: string): Holding[] {
  return db
    .prepare<[string], Holding>(
      `SELECT tenant_id, owner AS investor_id,
            SUM(CASE bucket WHEN 'settled' THEN balance ELSE 0 END) AS settled,
            SUM(CASE bucket WHEN 'reserved' THEN balance ELSE 0 END) AS reserved,
            SUM(CASE bucket WHEN 'unsettled' THEN balance ELSE 0 END) AS unsettled
       FROM ledger_accounts WHERE asset = ? AND bucket <> 'system'
      GROUP BY tenant_id, owner HAVING SUM(balance) > 0 ORDER BY tenant_id, owner`,
    )
    .all(symbol);
}

/**
 * A cash dividend of the symbol declared but not yet recorded would pay its per-share amount, declared
 * on the old shares, on the split ones: the split waits until the holders are recorded (or it is paid).
 */
function checkDividends(ctx: ExecCtx, symbol: string): Outcome<void> {
  const waiting = ctx.deps.db
    .prepare<[string, number], { id: string; ex_date: string }>(
      "SELECT id, ex_date FROM dividends WHERE symbol = ? AND state = 'declared' AND record_ms > ? ORDER BY " +
        'record_ms LIMIT 1',
    )
    .get(symbol, ctx.deps.clock.now());
  if (!waiting) return ok(undefined);
  return refuse(
    'SPLIT_NOT_APPLICABLE',
    `${symbol}'s dividend ${waiting.id} (ex-date ${waiting.ex_date}) is declared per pre-split share and its ` +
      `holders are not recorded yet; split after its ex-date begins.`,
  );
}

function checkCapacity(ctx: ExecCtx, symbol: string, ratio: number): Outcome<void> {
  const repo = createSplitRepo(ctx.deps.db);
  for (const o of repo.openOrders(symbol)) {
    if (o.side === 'buy' && o.limit_price_micros !== null && o.limit_price_micros < ratio * MIN_PRICE_MICROS) {
      return refuse(
        'SPLIT_NOT_APPLICABLE',
        `Order ${o.id}'s limit ${o.limit_price_micros} divided by ${ratio} would fall under the smallest price ` +
          `${MIN_PRICE_MICROS}.`,
      );
    }
  }
  let total = 0;
  for (const h of holdingsOf(ctx.deps.db, symbol)) {
    total += h.settled + h.reserved + h.unsettled;
    if (!Number.isSafeInteger(total * ratio))
      return refuse('AMOUNT_TOO_LARGE', `${symbol} holdings x ${ratio} would pass the largest exact amount.`);
  }
  return ok(undefined);
}

function multiplyHolding(ctx: ExecCtx, split: SplitRef, h: Holding, at: string): number {
  const { ledger } = ctx.deps;
  // step 3 returned every reserved share to settled: a reserved balance left is a hold no order explains
  if (h.reserved !== 0)
    throw new Error(
      `corp-action: ${h.investor_id} still has ${h.reserved} ${split.symbol} reserved after the orders' holds ` +
        `were released`,
    );
  let added = 0;
  for (const bucket of ['settled', 'unsettled'] as const) {
    const amount = h[bucket] * (split.ratio - 1);
    if (amount === 0) continue;
    const moved = ledger.transfer({
      tenantId: h.tenant_id,
      debit: { system: 'corporate_actions', asset: split.symbol },
      credit: { investorId: h.investor_id, asset: split.symbol, bucket },
      amount,
      kind: 'split',
      ref: split.id,
    });
    if (!moved.ok) throw new Error(`corp-action: split posting refused: ${moved.code}`);
    added += amount;
  }
  const before = h.settled + h.unsettled;
  ledger.recordActivity({
    tenantId: h.tenant_id,
    investorId: h.investor_id,
    type: 'SPLIT',
    netAmountMicros: 0,
    symbol: split.symbol,
    qty: added,
    ref: { type: 'split', id: split.id },
    description: `${split.ratio}-for-1 split of ${split.symbol} at ${at}: ${before} shares became ${before + added}`,
  });
  return added;
}

export function processSplit(ctx: ExecCtx, symbol: string, ratio: number): Outcome<Record<string, unknown>> {
  const { deps } = ctx;
  const plan = deps.market.checkSplit(symbol, ratio);
  if (!plan.ok) return plan;
  const sym = plan.value.instrument.symbol;
  const dividends = checkDividends(ctx, sym);
  if (!dividends.ok) return dividends;
  const fits = checkCapacity(ctx, sym, ratio);
  if (!fits.ok) return fits;

  const row = deps.market.applySplit(plan.value, { id: deps.ids.next('spl'), actionId: ctx.actionId });
  const split: SplitRef = { id: row.id, symbol: sym, ratio };
  const repo = createSplitRepo(deps.db);
  const orders = releaseShareHolds(repo, deps.ledger, sym);
  const holdings = holdingsOf(deps.db, sym);
  const added = holdings.reduce((sum, h) => sum + multiplyHolding(ctx, split, h, row.effective_at), 0);
  const amended = amendOpenOrders(repo, deps.ledger, split, orders, row.effective_at);
  const settlements = amendSettlements(repo, split);
  return ok({
    kind: 'split',
    split_id: row.id,
    symbol: sym,
    ratio,
    effective_at: row.effective_at,
    ref_price_before_micros: plan.value.refBeforeMicros,
    ref_price_after_micros: deps.market.referenceAt(sym, row.effective_ms).refPriceMicros,
    holders: holdings.length,
    shares_added: added,
    orders_amended: amended,
    settlements_amended: settlements,
  });
}
