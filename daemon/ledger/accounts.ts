// Ledger accounts: (tenant, owner, asset, bucket), opened on first use, and the cache of their ids.
//
// Account ids never change, so they are cached: a posting then reads a balance by rowid only where the
// code must check it (an investor account it debits). Inside a unit (a request's handler) the ids it
// finds or opens are tentative, and kept only if the unit returns: a refusal rolls back the accounts
// it opened. After a rollback no unit saw (a failed COMMIT) or a reset, forgetAccountIds.
import type { Db } from '../store/db.js';
import type { Statement } from 'better-sqlite3';
import { assetKind } from './assets.js';
import type { AccountRef } from './model.js';
import type { LedgerAccountsRow } from '../store/rows.js';

export type Account = Pick<LedgerAccountsRow, 'id' | 'owner' | 'asset' | 'bucket'>;

export type AccountRow = Account & Pick<LedgerAccountsRow, 'balance'>;

export interface AccountStore {
  q: {
    account: Statement<[string, string, string, string], AccountRow>;
    open: Statement<[string, string, string, string]>;
    balance: Statement<[number], number>;
  };
  /** Ids of committed units. */
  known: Map<string, number>;
  /** Ids found or opened by the unit running now; null outside a unit. */
  tentative: Map<string, number> | null;
}

export function createAccountStore(db: Db): AccountStore {
  return {
    q: {
      account: db.prepare<[string, string, string, string], AccountRow>(
        'SELECT id, owner, asset, bucket, balance FROM ledger_accounts WHERE tenant_id = ? AND owner = ? AND ' +
          'asset = ? AND bucket = ?',
      ),
      open: db.prepare<[string, string, string, string]>(
        'INSERT INTO ledger_accounts (tenant_id, owner, asset, bucket) VALUES (?, ?, ?, ?)',
      ),
      balance: db.prepare<[number], number>('SELECT balance FROM ledger_accounts WHERE id = ?').pluck(),
    },
    known: new Map(),
    tentative: null,
  };
}

export function ownerAndBucket(ref: AccountRef): [string, Account['bucket']] {
  return 'system' in ref ? [`system:${ref.system}`, 'system'] : [ref.investorId, ref.bucket];
}

function keyOf(tenantId: string, owner: string, asset: string, bucket: string): string {
  return `${tenantId}\u0000${owner}\u0000${asset}\u0000${bucket}`;
}

/** The account's id, or null when it was never opened. */
function accountId(store: AccountStore, tenantId: string, ref: AccountRef): number | null {
  const [owner, bucket] = ownerAndBucket(ref);
  const key = keyOf(tenantId, owner, ref.asset, bucket);
  const cached = store.known.get(key) ?? store.tentative?.get(key);
  if (cached !== undefined) return cached;
  const row = store.q.account.get(tenantId, owner, ref.asset, bucket);
  if (!row) return null;
  if (store.tentative !== null) store.tentative.set(key, row.id);
  return row.id;
}

/** The current balance of an account that exists. */
export function balanceOf(store: AccountStore, accountId: number): number {
  return store.q.balance.get(accountId)!;
}

/** The account with its balance, or undefined when it was never opened. */
export function findAccount(store: AccountStore, tenantId: string, ref: AccountRef): AccountRow | undefined {
  const id = accountId(store, tenantId, ref);
  if (id === null) return undefined;
  const [owner, bucket] = ownerAndBucket(ref);
  return { id, owner, asset: ref.asset, bucket, balance: balanceOf(store, id) };
}

/** The account (opened when missing), without its balance. An invalid asset name is a bug. */
export function openAccount(store: AccountStore, tenantId: string, ref: AccountRef): Account {
  if (assetKind(ref.asset) === null) throw new Error(`ledger: not an asset name: ${ref.asset}`);
  const [owner, bucket] = ownerAndBucket(ref);
  let id = accountId(store, tenantId, ref);
  if (id === null) {
    id = Number(store.q.open.run(tenantId, owner, ref.asset, bucket).lastInsertRowid);
    store.tentative?.set(keyOf(tenantId, owner, ref.asset, bucket), id);
  }
  return { id, owner, asset: ref.asset, bucket };
}

/** Runs fn as one unit for the id cache; a nested call joins the unit already running. */
export function inUnit<T>(store: AccountStore, fn: () => T): T {
  if (store.tentative !== null) return fn();
  const mine = new Map<string, number>();
  store.tentative = mine;
  try {
    const out = fn();
    for (const [key, id] of mine) store.known.set(key, id);
    return out;
  } finally {
    store.tentative = null;
  }
}

/** Forgets every cached id (a rollback no unit saw; a reset). */
export function forgetAccountIds(store: AccountStore): void {
  store.known.clear();
  store.tentative?.clear();
}
