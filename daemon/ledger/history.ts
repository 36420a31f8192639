// Reads of the ledger's past: what moved into and out of an investor's holdings, and who held an asset
// at a past instant. A posting between two buckets of the same investor (a hold, a settlement) changes
// no holding, so a holding at an instant is the sum of the investor's postings with a system account
// up to it. Used by the portfolio (value series, cost basis) and by dividends (holders at the record
// instant). Read-only: the ledger module stays the only writer.
import type { Db } from '../store/db.js';

/** One posting between an investor and a system account, seen from the investor. */
export interface Movement {
  id: number;
  atMs: number;
  asset: string;
  /** Signed, in the asset's unit: + into the investor's holdings, - out. */
  delta: number;
  kind: string;
  ref: string;
  /** The system account on the other side (`system:rail`, `system:clearing`, ...). */
  counterparty: string;
}

export function createLedgerHistory(db: Db) {
  const q = {
    accounts: db.prepare<[string, string], { id: number }>(
      "SELECT id FROM ledger_accounts WHERE tenant_id = ? AND owner = ? AND bucket <> 'system'",
    ),
    balancesBefore: db.prepare<{ at: number; asset: string }, { tenant_id: string; owner: string; qty: number }>(
      `SELECT a.tenant_id, a.owner,
              COALESCE((SELECT SUM(amount) FROM ledger_entries WHERE credit_account_id = a.id AND at_ms < @at), 0)
            - COALESCE((SELECT SUM(amount) FROM ledger_entries WHERE debit_account_id = a.id AND at_ms < @at), 0) AS qty
         FROM ledger_accounts a WHERE a.asset = @asset AND a.bucket <> 'system' ORDER BY a.tenant_id, a.owner,
           a.bucket`,
    ),
  };

  return {
    /** Every posting between the investor and a system account, in booking order. */
    movements(tenantId: string, investorId: string): Movement[] {
      const ids = q.accounts.all(tenantId, investorId).map((a) => a.id);
      if (ids.length === 0) return [];
      const list = ids.join(',');
      const rows = db
        .prepare(
          `SELECT e.id, e.at_ms, e.amount, e.kind, e.ref, d.asset, d.owner AS debit_owner, c.owner AS credit_owner
             FROM ledger_entries e JOIN ledger_accounts d ON d.id = e.debit_account_id
             JOIN ledger_accounts c ON c.id = e.credit_account_id
            WHERE e.debit_account_id IN (${list}) OR e.credit_account_id IN (${list}) ORDER BY e.id`,
        )
        .all() as Array<{
        id: number;
        at_ms: number;
        amount: number;
        kind: string;
        ref: string;
        asset: string;
        debit_owner: string;
        credit_owner: string;
      }>;
      const out: Movement[] = [];
      for (const r of rows) {
        const into = r.credit_owner === investorId;
        const out_ = r.debit_owner === investorId;
        if (into === out_) continue;
        out.push({
          id: r.id,
          atMs: r.at_ms,
          asset: r.asset,
          delta: into ? r.amount : -r.amount,
          kind: r.kind,
          ref: r.ref,
          counterparty: into ? r.debit_owner : r.credit_owner,
        });
      }
      return out;
    },

    /** Investors (of every tenant) holding `asset` just before `atMs`: settled, reserved and unsettled together. */
    holdersBefore(asset: string, atMs: number): Array<{ tenantId: string; investorId: string; qty: number }> {
      const byInvestor = new Map<string, { tenantId: string; investorId: string; qty: number }>();
      for (const r of q.balancesBefore.all({ at: atMs, asset })) {
        const key = `${r.tenant_id}|${r.owner}`;
        const h = byInvestor.get(key) ?? { tenantId: r.tenant_id, investorId: r.owner, qty: 0 };
        h.qty += r.qty;
        byInvestor.set(key, h);
      }
      return [...byInvestor.values()].filter((h) => h.qty > 0);
    },
  };
}

export type LedgerHistory = ReturnType<typeof createLedgerHistory>;
