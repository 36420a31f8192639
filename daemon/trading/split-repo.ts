// SQL of a stock split's trading part (split.ts): the open orders and pending share settlements of a
// symbol, and their amendments (migration 028). An order's terms and a settlement's amount change only
// through an amendment row written first in the same transaction; the database checks the match.
import type { Db } from '../store/db.js';
import { openOrder, type OrderRow, type SettlementRow } from './repository.js';

export interface OrderAmendment {
  splitId: string;
  orderId: string;
  qtyBefore: number;
  qtyAfter: number;
  limitBefore: number | null;
  limitAfter: number | null;
  sharesHoldBefore: string | null;
  sharesHoldAfter: string | null;
}

export function createSplitRepo(db: Db) {
  const q = {
    openOrders: db.prepare<[string], OrderRow>(`SELECT * FROM orders WHERE symbol = ? AND ${openOrder()} ORDER BY seq`),
    pendingSettlements: db.prepare<[string], SettlementRow>(
      "SELECT * FROM settlements WHERE asset = ? AND state = 'pending' ORDER BY seq",
    ),
    addOrderAmendment: db.prepare(
      `INSERT INTO order_amendments (split_id, order_id, qty_before, qty_after, limit_before, limit_after,
        shares_hold_before, shares_hold_after)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    amendOrder: db.prepare(
      'UPDATE orders SET qty = ?, limit_price_micros = ?, shares_hold_id = ?, updated_at = ? WHERE id = ?',
    ),
    addSettlementAmendment: db.prepare(
      'INSERT INTO settlement_amendments (split_id, settlement_id, amount_before, amount_after) VALUES (?, ?, ?, ?)',
    ),
    amendSettlement: db.prepare('UPDATE settlements SET amount = ? WHERE id = ?'),
  };
  return {
    openOrders: (symbol: string): OrderRow[] => q.openOrders.all(symbol),
    pendingSettlements: (symbol: string): SettlementRow[] => q.pendingSettlements.all(symbol),
    /** The amendment row, then the order's new terms (the trigger lets exactly these through, once). */
    amendOrder(a: OrderAmendment, atIso: string): void {
      q.addOrderAmendment.run(
        a.splitId,
        a.orderId,
        a.qtyBefore,
        a.qtyAfter,
        a.limitBefore,
        a.limitAfter,
        a.sharesHoldBefore,
        a.sharesHoldAfter,
      );
      q.amendOrder.run(a.qtyAfter, a.limitAfter, a.sharesHoldAfter, atIso, a.orderId);
    },
    amendSettlement(splitId: string, s: SettlementRow, amountAfter: number): void {
      q.addSettlementAmendment.run(splitId, s.id, s.amount, amountAfter);
      q.amendSettlement.run(amountAfter, s.id);
    },
  };
}

export type SplitRepo = ReturnType<typeof createSplitRepo>;
