// The ledger's vocabulary: account references, postings, holds and balances as the rest of the daemon
// sees them (docs/ledger.md). A leaf module: every other file of daemon/ledger imports its types from
// here, so none of them imports another's entry file.
import type { Db } from '../store/db.js';
import type { Clock } from '../sim/clock.js';
import type { IdGen } from '../sim/ids.js';

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

export interface HoldRow {
  id: string;
  tenant_id: string;
  investor_id: string;
  asset: string;
  amount: number;
  posted: number;
  remaining: number;
  state: 'pending' | 'posted' | 'voided';
  ref: string;
  created_ms: number;
  closed_ms: number | null;
}

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

export interface EntryRow {
  id: number;
  debit_owner: string;
  debit_bucket: string;
  credit_owner: string;
  credit_bucket: string;
  asset: string;
  amount: number;
  kind: string;
  ref: string;
  hold_id: string | null;
  at_ms: number;
}
