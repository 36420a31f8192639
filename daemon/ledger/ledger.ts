// The double-entry ledger every money and holding movement goes through (docs/ledger.md). Accounts
// are per tenant: an investor has settled, reserved and unsettled accounts per asset; system accounts
// (the payment rail, clearing, fees, ...) are the other side of every movement into or out of investor
// accounts.
//
// Guarantees (each enforced by this module and again by migration 004's constraints and triggers):
//  1. A posting moves a positive safe-integer amount of one asset from a debit account to a different
//     credit account of the same tenant. Per tenant and asset, all balances sum to zero.
//  2. A balance changes only by a posting, one posting at a time, so every balance equals its
//     credits minus its debits. Postings are never edited or deleted.
//  3. An investor balance (settled, reserved, unsettled) is never negative. A movement that would
//     take one below zero is refused with INSUFFICIENT_SETTLED_CASH / _SECURITIES, and one that would
//     take a balance past the safe-integer range with AMOUNT_TOO_LARGE: never a wrong number. (For a
//     posting the database's CHECK is the check, and postings.ts names the refusal.)
//  4. Reservations are holds (TigerBeetle's two-phase transfers): creating a hold moves the amount
//     from settled to reserved; a post moves part or all of the remainder from reserved to a
//     destination; a void returns the whole remainder to settled. A hold goes pending -> posted |
//     voided exactly once and is never edited otherwise. A reserved balance moves only with a pending
//     hold of its investor and asset, so reserved always equals the remainders of pending holds.
//  5. Everything happens in the caller's transaction: the postings of one request or simulated event
//     and the activity rows describing them commit together or not at all.
//
// Amounts are in the asset's unit: micros for cash and fund units, whole shares for equities.
//
// Files: model.ts (types, LedgerDeps), accounts.ts (accounts and the id cache), postings.ts (the one
// writer of postings), holds.ts, balances.ts (reads), activities.ts (the feed), history.ts (the past),
// invariants.ts (the guarantees re-derived from the tables). This file binds them into `Ledger`.
import type { Outcome } from '../contract/outcome.js';
import { createAccountStore, forgetAccountIds, inUnit } from './accounts.js';
import { createPostingBook, transfer, transferAll } from './postings.js';
import { createHoldBook, getHold, hold, postAll, postHold, voidHold, type LedgerMove } from './holds.js';
import { balance, balances, createLedgerReads, entries, position } from './balances.js';
import { createActivityLog, type ActivityInput, type ActivityPage, type Activity } from './activities.js';
import { checkLedgerInvariants, type InvariantReport } from './invariants.js';
import type {
  AccountRef,
  Balances,
  EntryRow,
  HoldInput,
  HoldRow,
  LedgerDeps,
  PostingInput,
  Position,
} from './model.js';

export { SYSTEM_ACCOUNTS } from './model.js';
export type { HoldPostingInput, LedgerMove } from './holds.js';
export type { ActivityInput } from './activities.js';
export type {
  AccountRef,
  Balances,
  EntryRow,
  HoldInput,
  HoldRow,
  InvestorBucket,
  LedgerDeps,
  PostingInput,
  Position,
  SystemAccount,
} from './model.js';

/** The ledger as every service uses it (`deps.ledger`); docs/ledger.md "Module API". */
export interface Ledger {
  /** Runs fn as one unit for the account-id cache (accounts.ts); call inside fn's savepoint. */
  unit<T>(fn: () => T): T;
  /** Forgets every cached account id (a rollback no unit saw; a reset). */
  invalidate(): void;
  /** Posts amount from debit to credit (same asset). Returns the posting id. */
  transfer(p: PostingInput): Outcome<number>;
  /** Posts every transfer in order in one statement, or none (the first refusal); the posting ids. */
  transferAll(ps: readonly PostingInput[]): Outcome<number[]>;
  /** Reserves settled amount of an asset for ref: settled -> reserved. Returns the hold id. */
  hold(h: HoldInput): Outcome<string>;
  /** Posts part or all of a pending hold's remainder to credit; the hold closes as posted at zero. */
  postHold(holdId: string, amount: number, credit: AccountRef, kind: string, ref: string): Outcome<number>;
  /** Transfers and posts out of holds, in order, in one statement (and one update per hold), or none. */
  postAll(moves: readonly LedgerMove[]): Outcome<number[]>;
  /** Returns the whole remainder of a pending hold to settled and closes it. Returns the amount released. */
  voidHold(holdId: string): number;
  getHold(holdId: string): HoldRow | null;
  /** Balance of one account (0 when it was never opened). */
  balance(tenantId: string, ref: AccountRef): number;
  /** settled / reserved / unsettled of one asset of an investor. */
  position(tenantId: string, investorId: string, asset: string): Position;
  /** Every asset of an investor; cash:EGP always present, other assets while any bucket is non-zero. */
  balances(tenantId: string, investorId: string): Balances;
  /** The postings of one business object, oldest first (tests, reconciliation). */
  entries(tenantId: string, ref: string): EntryRow[];
  recordActivity(a: ActivityInput): Activity;
  /** Records activities in order, in one statement. */
  recordActivities(as: readonly ActivityInput[]): Activity[];
  activities(tenantId: string, investorId: string, page: { limit: number; before?: string }): Outcome<ActivityPage>;
  /** Re-derives every guarantee from the tables; violations are described, none expected. */
  checkInvariants(tenantId?: string): InvariantReport;
}

export function createLedger(deps: LedgerDeps): Ledger {
  const accounts = createAccountStore(deps.db);
  const postings = createPostingBook(deps.db, deps.clock, accounts);
  const holds = createHoldBook(deps.db, deps.ids, postings);
  const reads = createLedgerReads(deps.db, accounts);
  const activityLog = createActivityLog(deps);
  return {
    unit: (fn) => inUnit(accounts, fn),
    invalidate: () => forgetAccountIds(accounts),
    transfer: (p) => transfer(postings, p),
    transferAll: (ps) => transferAll(postings, ps),
    hold: (h) => hold(holds, h),
    postHold: (holdId, amount, credit, kind, ref) => postHold(holds, holdId, amount, credit, kind, ref),
    postAll: (moves) => postAll(holds, moves),
    voidHold: (holdId) => voidHold(holds, holdId),
    getHold: (holdId) => getHold(holds, holdId),
    balance: (tenantId, ref) => balance(reads, tenantId, ref),
    position: (tenantId, investorId, asset) => position(reads, tenantId, investorId, asset),
    balances: (tenantId, investorId) => balances(reads, tenantId, investorId),
    entries: (tenantId, ref) => entries(reads, tenantId, ref),
    recordActivity: (a) => activityLog.record(a),
    recordActivities: (as) => activityLog.recordAll(as),
    activities: (tenantId, investorId, page) => activityLog.list(tenantId, investorId, page),
    checkInvariants: (tenantId) => checkLedgerInvariants(deps.db, tenantId),
  };
}
