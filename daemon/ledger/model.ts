// The ledger's vocabulary: account references, postings, holds and balances as the rest of the daemon
// sees them (docs/ledger.md). A leaf module: every other file of daemon/ledger imports its types from
// here, so none of them imports another's entry file.
import type { Db } from '../store/db.js';
import type { Clock } from '../sim/clock.js';
import type { IdGen } from '../sim/ids.js';
import type { LedgerAccountsRow, LedgerEntriesRow, LedgerHoldsRow } from '../store/rows.js';

/**
 * What the ledger is built from: lower layers only. It does not take the daemon's Deps, which itself
 * holds the ledger (docs/ledger.md, "Dependencies").
 */
export interface LedgerDeps {
  db: Db;
  ids: IdGen;
  clock: Clock;
  /** RFC 3339 in Africa/Cairo of the simulated now (the `at` of an activity). */
  nowIso(): string;
}

export type InvestorBucket = 'settled' | 'reserved' | 'unsettled';

/** System accounts: the counterparties of investor accounts (docs/ledger.md lists what each is for). */
export const SYSTEM_ACCOUNTS = ['rail', 'clearing', 'fees', 'tax', 'corporate_actions', 'fund', 'adjustments'] as const;
export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[number];

export type AccountRef =
  | { investorId: string; asset: string; bucket: InvestorBucket }
  | { system: SystemAccount; asset: string };

export interface PostingInput {
  tenantId: string;
  debit: AccountRef;
  credit: AccountRef;
  /** In the asset's unit: micros for cash and fund units, shares for equities. */
  amount: number;
  /** What the movement is (deposit, withdrawal, fill, fee, settlement, ...). */
  kind: string;
  /** The business object it belongs to (trf_..., ord_...). */
  ref: string;
}

export interface HoldInput {
  tenantId: string;
  investorId: string;
  asset: string;
  amount: number;
  ref: string;
}

export type HoldRow = Omit<LedgerHoldsRow, 'seq'>;

export interface Position {
  asset: string;
  settled: number;
  reserved: number;
  unsettled: number;
}

export interface Balances {
  cash: Position[];
  securities: Array<Position & { symbol: string }>;
  funds: Array<Position & { fund_code: string }>;
}

/** An entry with the owner and bucket of both its accounts (ledger_entries joined with ledger_accounts twice). */
export type EntryRow = Pick<LedgerEntriesRow, 'id' | 'amount' | 'kind' | 'ref' | 'hold_id' | 'at_ms'> & {
  debit_owner: string;
  debit_bucket: LedgerAccountsRow['bucket'];
  credit_owner: string;
  credit_bucket: LedgerAccountsRow['bucket'];
  asset: string;
};
