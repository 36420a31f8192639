// What an N-for-1 stock split does to trading (docs/trading.md "Splits"), in the transaction that
// applies it, around the holdings step of the corporate action (daemon/backoffice/bases/corp-action.ts):
//
//   releaseShareHolds  before the holdings are multiplied: every open sell of the symbol gives its
//                      shares hold back to settled (a hold is never edited, only voided), so the
//                      holdings step multiplies settled and unsettled shares alone
//   amendOpenOrders    after it: each open order's remaining quantity x N (filled_qty, which its fills
//                      explain, stays), its limit / N rounded to the tick in the investor's favour (a
//                      buy's down, so qty x limit never grows and its cash hold still covers it, fees
//                      included; a sell's up, so it never sells for less), and a sell's shares held again
//                      for the new remainder. A buy's cash hold is left as it was (it covers more than
//                      enough; the unused part is released when the order ends, as always)
//   amendSettlements   each pending delivery of the symbol (a buy filled before the split, not yet
//                      settled) delivers x N: its unsettled shares were multiplied with the rest
//
// Each change of an order's terms or a settlement's amount goes through an amendment row the database
// checks (migration 028); a plain UPDATE of those columns is still refused.
import type { Ledger } from '../ledger/ledger.js';
import { roundRatioToTick } from '../market/ticks.js';
import type { OrderRow } from './repository.js';
import type { SplitRepo } from './split-repo.js';

export interface SplitRef {
  id: string;
  symbol: string;
  ratio: number;
}

export interface AmendedOrder {
  order_id: string;
  side: 'buy' | 'sell';
  qty_before: number;
  qty_after: number;
  limit_price_before_micros: number | null;
  limit_price_after_micros: number | null;
}

/** The limit after an N-for-1 split: / N on the grid, a buy's rounded down, a sell's up. */
export function splitLimit(side: 'buy' | 'sell', limitMicros: number, ratio: number): number {
  return roundRatioToTick(BigInt(limitMicros), BigInt(ratio), side === 'buy' ? 'down' : 'up');
}

/** Voids the pending shares hold of every open order of the symbol; answers the open orders. */
export function releaseShareHolds(
  repo: SplitRepo,
  ledger: Pick<Ledger, 'getHold' | 'voidHold'>,
  symbol: string,
): OrderRow[] {
  const orders = repo.openOrders(symbol);
  for (const o of orders) {
    if (o.shares_hold_id && ledger.getHold(o.shares_hold_id)?.state === 'pending') ledger.voidHold(o.shares_hold_id);
  }
  return orders;
}

function newSharesHold(
  ledger: Pick<Ledger, 'hold'>,
  o: OrderRow,
  split: SplitRef,
  remainingAfter: number,
): string | null {
  if (!o.shares_hold_id) return null;
  const h = ledger.hold({
    tenantId: o.tenant_id,
    investorId: o.investor_id,
    asset: split.symbol,
    amount: remainingAfter,
    ref: o.id,
  });
  // the released shares were multiplied by the ratio a moment ago: a refusal here is a bug
  if (!h.ok)
    throw new Error(
      `trading: split ${split.id}: re-holding ${remainingAfter} ${split.symbol} for ${o.id} refused: ${h.code}`,
    );
  return h.value;
}

/** Amends every order releaseShareHolds answered; answers what changed. */
export function amendOpenOrders(
  repo: SplitRepo,
  ledger: Pick<Ledger, 'hold'>,
  split: SplitRef,
  orders: readonly OrderRow[],
  atIso: string,
): AmendedOrder[] {
  return orders.map((o) => {
    const remainingAfter = (o.qty - o.filled_qty) * split.ratio;
    const qtyAfter = o.filled_qty + remainingAfter;
    const limitAfter = o.limit_price_micros === null ? null : splitLimit(o.side, o.limit_price_micros, split.ratio);
    const holdAfter = newSharesHold(ledger, o, split, remainingAfter);
    repo.amendOrder(
      {
        splitId: split.id,
        orderId: o.id,
        qtyBefore: o.qty,
        qtyAfter,
        limitBefore: o.limit_price_micros,
        limitAfter,
        sharesHoldBefore: o.shares_hold_id,
        sharesHoldAfter: holdAfter,
      },
      atIso,
    );
    return {
      order_id: o.id,
      side: o.side,
      qty_before: o.qty,
      qty_after: qtyAfter,
      limit_price_before_micros: o.limit_price_micros,
      limit_price_after_micros: limitAfter,
    };
  });
}

/** Every pending delivery of the symbol's shares delivers x ratio; answers how many. */
export function amendSettlements(repo: SplitRepo, split: SplitRef): number {
  const pending = repo.pendingSettlements(split.symbol);
  for (const s of pending) repo.amendSettlement(split.id, s, s.amount * split.ratio);
  return pending.length;
}
