// Reads of the ledger's present: one account's balance, an investor's positions, and the postings of a
// business object. Read-only; an account never opened reads as zero.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db.js';
import { assetKind, CASH_EGP } from './assets.js';
import { findAccount, type AccountRow, type AccountStore } from './accounts.js';
import type { AccountRef, Balances, EntryRow, InvestorBucket, Position } from './model.js';

export interface LedgerReads {
  accounts: AccountStore;
  q: {
    investorAccounts: Statement<[string, string], AccountRow>;
    entriesByRef: Statement<[string, string], EntryRow>;
  };
}

export function createLedgerReads(db: Db, accounts: AccountStore): LedgerReads {
  return {
    accounts,
    q: {
      investorAccounts: db.prepare<[string, string], AccountRow>(
        'SELECT id, owner, asset, bucket, balance FROM ledger_accounts WHERE tenant_id = ? AND owner = ? AND ' +
          "bucket <> 'system' ORDER BY asset",
      ),
      entriesByRef: db.prepare<[string, string], EntryRow>(
        `SELECT e.id, d.owner AS debit_owner, d.bucket AS debit_bucket, c.owner AS credit_owner,
          c.bucket AS credit_bucket,
                d.asset, e.amount, e.kind, e.ref, e.hold_id, e.at_ms
           FROM ledger_entries e JOIN ledger_accounts d ON d.id = e.debit_account_id
           JOIN ledger_accounts c ON c.id = e.credit_account_id
          WHERE e.tenant_id = ? AND e.ref = ? ORDER BY e.id`,
      ),
    },
  };
}

/** Balance of one account (0 when it was never opened). */
export function balance(reads: LedgerReads, tenantId: string, ref: AccountRef): number {
  return findAccount(reads.accounts, tenantId, ref)?.balance ?? 0;
}

/** settled / reserved / unsettled of one asset of an investor. */
export function position(reads: LedgerReads, tenantId: string, investorId: string, asset: string): Position {
  const at = (bucket: InvestorBucket) => balance(reads, tenantId, { investorId, asset, bucket });
  return { asset, settled: at('settled'), reserved: at('reserved'), unsettled: at('unsettled') };
}

/** Every asset of an investor; cash:EGP always present, other assets while any bucket is non-zero. */
export function balances(reads: LedgerReads, tenantId: string, investorId: string): Balances {
  const byAsset = new Map<string, Position>();
  for (const a of reads.q.investorAccounts.all(tenantId, investorId)) {
    const p = byAsset.get(a.asset) ?? { asset: a.asset, settled: 0, reserved: 0, unsettled: 0 };
    p[a.bucket as InvestorBucket] = a.balance;
    byAsset.set(a.asset, p);
  }
  const out: Balances = { cash: [], securities: [], funds: [] };
  if (!byAsset.has(CASH_EGP)) out.cash.push({ asset: CASH_EGP, settled: 0, reserved: 0, unsettled: 0 });
  for (const p of byAsset.values()) {
    const kind = assetKind(p.asset);
    if (kind === 'cash') out.cash.push(p);
    else if (p.settled === 0 && p.reserved === 0 && p.unsettled === 0) continue;
    else if (kind === 'security') out.securities.push({ ...p, symbol: p.asset });
    else if (kind === 'fund') out.funds.push({ ...p, fund_code: p.asset.slice('fund:'.length) });
  }
  return out;
}

/** The postings of one business object, oldest first (tests, reconciliation). */
export function entries(reads: LedgerReads, tenantId: string, ref: string): EntryRow[] {
  return reads.q.entriesByRef.all(tenantId, ref);
}
