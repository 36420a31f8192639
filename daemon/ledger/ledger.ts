// The double-entry ledger every money and holding movement goes through (DESIGN.md section 4,
// docs/ledger.md). Accounts are per tenant: an investor has settled, reserved and unsettled accounts
// per asset; system accounts (the payment rail, clearing, fees, ...) are the other side of every
// movement into or out of investor accounts.
//
// Guarantees (each enforced by this module and again by migration 004's constraints and triggers):
//  1. A posting moves a positive safe-integer amount of one asset from a debit account to a different
//     credit account of the same tenant. Per tenant and asset, all balances sum to zero.
//  2. A balance changes only by a posting, one posting at a time, so every balance equals its
//     credits minus its debits. Postings are never edited or deleted.
//  3. An investor balance (settled, reserved, unsettled) is never negative. A movement that would
//     take one below zero is refused with INSUFFICIENT_SETTLED_CASH / _SECURITIES, and one that would
//     take a balance past the safe-integer range with AMOUNT_TOO_LARGE: never a wrong number.
//  4. Reservations are holds (TigerBeetle's two-phase transfers): creating a hold moves the amount
//     from settled to reserved; a post moves part or all of the remainder from reserved to a
//     destination; a void returns the whole remainder to settled. A hold goes pending -> posted |
//     voided exactly once and is never edited otherwise. A reserved balance moves only with a pending
//     hold of its investor and asset, so reserved always equals the remainders of pending holds.
//  5. Everything happens in the caller's transaction: the postings of one request or simulated event
//     and the activity rows describing them commit together or not at all.
//
// Amounts are in the asset's unit: micros for cash and fund units, whole shares for equities.
import type { Deps } from '../deps.js';
import type { Outcome } from '../http/errors.js';
import type { ErrorCode } from '../contract/errors.js';
import { assetKind } from './assets.js';
import { createActivityLog, type ActivityInput, type ActivityPage, type Activity } from './activities.js';
import { checkLedgerInvariants, type InvariantReport } from './invariants.js';

export type InvestorBucket = 'settled' | 'reserved' | 'unsettled';

/** System accounts: the counterparties of investor accounts (docs/ledger.md lists what each is for). */
export const SYSTEM_ACCOUNTS = ['rail', 'clearing', 'fees', 'tax', 'corporate_actions', 'fund', 'adjustments'] as const;
export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[number];

export type AccountRef = { investorId: string; asset: string; bucket: InvestorBucket } | { system: SystemAccount; asset: string };

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

interface Account {
  id: number;
  owner: string;
  asset: string;
  bucket: InvestorBucket | 'system';
}

interface AccountRow extends Account {
  balance: number;
}

const HOLD_KIND = 'hold';
const VOID_KIND = 'hold.void';

function ownerAndBucket(ref: AccountRef): [string, AccountRow['bucket']] {
  return 'system' in ref ? [`system:${ref.system}`, 'system'] : [ref.investorId, ref.bucket];
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`ledger: amount must be a positive safe integer, got ${amount}`);
}

function checkAsset(asset: string): void {
  if (assetKind(asset) === null) throw new Error(`ledger: not an asset name: ${asset}`);
}

function shortfallCode(asset: string): ErrorCode {
  return assetKind(asset) === 'cash' ? 'INSUFFICIENT_SETTLED_CASH' : 'INSUFFICIENT_SETTLED_SECURITIES';
}

export function createLedger(deps: Pick<Deps, 'db' | 'ids' | 'clock' | 'nowIso'>) {
  const { db, ids, clock } = deps;
  const q = {
    account: db.prepare<[string, string, string, string], AccountRow>(
      'SELECT id, owner, asset, bucket, balance FROM ledger_accounts WHERE tenant_id = ? AND owner = ? AND asset = ? AND bucket = ?',
    ),
    openAccount: db.prepare('INSERT INTO ledger_accounts (tenant_id, owner, asset, bucket) VALUES (?, ?, ?, ?)'),
    balance: db.prepare<[number], number>('SELECT balance FROM ledger_accounts WHERE id = ?').pluck(),
    entry: db.prepare(
      'INSERT INTO ledger_entries (tenant_id, debit_account_id, credit_account_id, amount, kind, ref, hold_id, at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    hold: db.prepare<[string], HoldRow>('SELECT id, tenant_id, investor_id, asset, amount, posted, remaining, state, ref, created_ms, closed_ms FROM ledger_holds WHERE id = ?'),
    openHold: db.prepare('INSERT INTO ledger_holds (id, tenant_id, investor_id, asset, amount, remaining, ref, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    postHold: db.prepare(
      `UPDATE ledger_holds SET posted = posted + @amount, remaining = remaining - @amount,
              state = CASE WHEN remaining = @amount THEN 'posted' ELSE 'pending' END,
              closed_ms = CASE WHEN remaining = @amount THEN @at ELSE NULL END
        WHERE id = @id`,
    ),
    voidHold: db.prepare("UPDATE ledger_holds SET remaining = 0, state = 'voided', closed_ms = ? WHERE id = ?"),
    investorAccounts: db.prepare<[string, string], AccountRow>(
      "SELECT id, owner, asset, bucket, balance FROM ledger_accounts WHERE tenant_id = ? AND owner = ? AND bucket <> 'system' ORDER BY asset",
    ),
    entriesByRef: db.prepare<[string, string], EntryRow>(
      `SELECT e.id, d.owner AS debit_owner, d.bucket AS debit_bucket, c.owner AS credit_owner, c.bucket AS credit_bucket,
              d.asset, e.amount, e.kind, e.ref, e.hold_id, e.at_ms
         FROM ledger_entries e JOIN ledger_accounts d ON d.id = e.debit_account_id JOIN ledger_accounts c ON c.id = e.credit_account_id
        WHERE e.tenant_id = ? AND e.ref = ? ORDER BY e.id`,
    ),
  };
  const activityLog = createActivityLog(deps);

  // Account ids never change, so they are cached: a posting then reads a balance by rowid only where
  // the code must check it (an investor account it debits). Inside a unit (a request's handler) the
  // ids it finds or opens are tentative, and kept only if the unit returns: a refusal rolls back the
  // accounts it opened. After a rollback no unit saw (a failed COMMIT) or a reset, invalidate().
  const knownIds = new Map<string, number>();
  let tentativeIds: Map<string, number> | null = null;

  function keyOf(tenantId: string, owner: string, asset: string, bucket: string): string {
    return `${tenantId}\u0000${owner}\u0000${asset}\u0000${bucket}`;
  }

  /** The account's id, or null when it was never opened. */
  function accountId(tenantId: string, ref: AccountRef): number | null {
    const [owner, bucket] = ownerAndBucket(ref);
    const key = keyOf(tenantId, owner, ref.asset, bucket);
    const cached = knownIds.get(key) ?? tentativeIds?.get(key);
    if (cached !== undefined) return cached;
    const row = q.account.get(tenantId, owner, ref.asset, bucket);
    if (!row) return null;
    if (tentativeIds !== null) tentativeIds.set(key, row.id);
    return row.id;
  }

  function findAccount(tenantId: string, ref: AccountRef): AccountRow | undefined {
    const id = accountId(tenantId, ref);
    if (id === null) return undefined;
    const [owner, bucket] = ownerAndBucket(ref);
    return { id, owner, asset: ref.asset, bucket, balance: q.balance.get(id)! };
  }

  /** The account (opened when missing), without its balance. */
  function openAccount(tenantId: string, ref: AccountRef): Account {
    checkAsset(ref.asset);
    const [owner, bucket] = ownerAndBucket(ref);
    let id = accountId(tenantId, ref);
    if (id === null) {
      id = Number(q.openAccount.run(tenantId, owner, ref.asset, bucket).lastInsertRowid);
      tentativeIds?.set(keyOf(tenantId, owner, ref.asset, bucket), id);
    }
    return { id, owner, asset: ref.asset, bucket };
  }

  /**
   * The one place a posting is written; the caller has validated amount, assets and hold. The code
   * refuses a debit an investor balance cannot pay; the database refuses it again (CHECK balance >= 0)
   * and refuses any balance past 2^53 - 1 (CHECK), which is answered as AMOUNT_TOO_LARGE.
   */
  function post(tenantId: string, debit: Account, credit: Account, amount: number, kind: string, ref: string, holdId: string | null): Outcome<number> {
    if (debit.bucket !== 'system') {
      const balance = q.balance.get(debit.id)!;
      if (balance < amount) {
        return { ok: false, code: shortfallCode(debit.asset), message: `${debit.bucket} ${debit.asset} of ${debit.owner} is ${balance}; ${amount} is needed.` };
      }
    }
    try {
      return { ok: true, value: Number(q.entry.run(tenantId, debit.id, credit.id, amount, kind, ref, holdId, clock.now()).lastInsertRowid) };
    } catch (err) {
      // the statement (with its trigger's balance updates) is undone as a whole
      if ((err as { code?: string }).code !== 'SQLITE_CONSTRAINT_CHECK') throw err;
      return { ok: false, code: 'AMOUNT_TOO_LARGE', message: `Moving ${amount} would take a ${debit.asset} balance past ${Number.MAX_SAFE_INTEGER}.` };
    }
  }

  function checkKind(kind: string): void {
    if (kind === HOLD_KIND || kind === VOID_KIND || kind.length === 0 || kind.length > 40) throw new Error(`ledger: kind ${kind} is reserved or invalid`);
  }

  function requirePendingHold(holdId: string): HoldRow {
    const h = q.hold.get(holdId);
    if (!h) throw new Error(`ledger: no hold ${holdId}`);
    if (h.state !== 'pending') throw new Error(`ledger: hold ${holdId} is ${h.state}`);
    return h;
  }

  return {
    /** Runs fn as one unit for the account-id cache (see knownIds); call inside fn's savepoint. */
    unit<T>(fn: () => T): T {
      if (tentativeIds !== null) return fn();
      const mine = new Map<string, number>();
      tentativeIds = mine;
      try {
        const out = fn();
        for (const [key, id] of mine) knownIds.set(key, id);
        return out;
      } finally {
        tentativeIds = null;
      }
    },

    /** Forgets every cached account id (a rollback no unit saw; a reset). */
    invalidate(): void {
      knownIds.clear();
      tentativeIds?.clear();
    },

    /** Posts amount from debit to credit (same asset). Returns the posting id. */
    transfer(p: PostingInput): Outcome<number> {
      checkAmount(p.amount);
      checkKind(p.kind);
      if (p.debit.asset !== p.credit.asset) throw new Error(`ledger: cannot post ${p.debit.asset} against ${p.credit.asset}`);
      if (('bucket' in p.debit && p.debit.bucket === 'reserved') || ('bucket' in p.credit && p.credit.bucket === 'reserved')) {
        throw new Error('ledger: reserved balances move only through hold, postHold and voidHold');
      }
      const debit = openAccount(p.tenantId, p.debit);
      const credit = openAccount(p.tenantId, p.credit);
      if (debit.id === credit.id) throw new Error('ledger: debit and credit are the same account');
      return post(p.tenantId, debit, credit, p.amount, p.kind, p.ref, null);
    },

    /** Reserves settled amount of an asset for ref: settled -> reserved. Returns the hold id. */
    hold(h: HoldInput): Outcome<string> {
      checkAmount(h.amount);
      const settled = openAccount(h.tenantId, { investorId: h.investorId, asset: h.asset, bucket: 'settled' });
      const balance = q.balance.get(settled.id)!;
      if (balance < h.amount) {
        return { ok: false, code: shortfallCode(h.asset), message: `Settled ${h.asset} is ${balance}; ${h.amount} is needed.` };
      }
      const reserved = openAccount(h.tenantId, { investorId: h.investorId, asset: h.asset, bucket: 'reserved' });
      const id = ids.next('hld');
      q.openHold.run(id, h.tenantId, h.investorId, h.asset, h.amount, h.amount, h.ref, clock.now());
      const posted = post(h.tenantId, settled, reserved, h.amount, HOLD_KIND, h.ref, id);
      if (!posted.ok) throw new Error(`ledger: hold posting refused: ${posted.code}`);
      return { ok: true, value: id };
    },

    /** Posts part or all of a pending hold's remainder to credit; the hold closes as posted at zero. */
    postHold(holdId: string, amount: number, credit: AccountRef, kind: string, ref: string): Outcome<number> {
      checkAmount(amount);
      checkKind(kind);
      const h = requirePendingHold(holdId);
      if (amount > h.remaining) throw new Error(`ledger: posting ${amount} exceeds the remaining ${h.remaining} of hold ${holdId}`);
      if (credit.asset !== h.asset) throw new Error(`ledger: hold ${holdId} holds ${h.asset}, not ${credit.asset}`);
      if ('bucket' in credit && credit.bucket === 'reserved') throw new Error('ledger: a hold posts out of reserved');
      const reserved = openAccount(h.tenant_id, { investorId: h.investor_id, asset: h.asset, bucket: 'reserved' });
      const destination = openAccount(h.tenant_id, credit);
      const posted = post(h.tenant_id, reserved, destination, amount, kind, ref, holdId);
      if (!posted.ok) return posted;
      q.postHold.run({ amount, at: clock.now(), id: holdId });
      return posted;
    },

    /** Returns the whole remainder of a pending hold to settled and closes it. Returns the amount released. */
    voidHold(holdId: string): number {
      const h = requirePendingHold(holdId);
      const reserved = openAccount(h.tenant_id, { investorId: h.investor_id, asset: h.asset, bucket: 'reserved' });
      const settled = openAccount(h.tenant_id, { investorId: h.investor_id, asset: h.asset, bucket: 'settled' });
      const posted = post(h.tenant_id, reserved, settled, h.remaining, VOID_KIND, h.ref, holdId);
      if (!posted.ok) throw new Error(`ledger: void of ${holdId} refused: ${posted.code}`);
      q.voidHold.run(clock.now(), holdId);
      return h.remaining;
    },

    getHold(holdId: string): HoldRow | null {
      return q.hold.get(holdId) ?? null;
    },

    /** Balance of one account (0 when it was never opened). */
    balance(tenantId: string, ref: AccountRef): number {
      return findAccount(tenantId, ref)?.balance ?? 0;
    },

    /** settled / reserved / unsettled of one asset of an investor. */
    position(tenantId: string, investorId: string, asset: string): Position {
      const at = (bucket: InvestorBucket) => findAccount(tenantId, { investorId, asset, bucket })?.balance ?? 0;
      return { asset, settled: at('settled'), reserved: at('reserved'), unsettled: at('unsettled') };
    },

    /** Every asset of an investor; cash:EGP always present, other assets while any bucket is non-zero. */
    balances(tenantId: string, investorId: string): Balances {
      const byAsset = new Map<string, Position>();
      for (const a of q.investorAccounts.all(tenantId, investorId)) {
        const p = byAsset.get(a.asset) ?? { asset: a.asset, settled: 0, reserved: 0, unsettled: 0 };
        p[a.bucket as InvestorBucket] = a.balance;
        byAsset.set(a.asset, p);
      }
      const out: Balances = { cash: [], securities: [], funds: [] };
      if (!byAsset.has('cash:EGP')) out.cash.push({ asset: 'cash:EGP', settled: 0, reserved: 0, unsettled: 0 });
      for (const p of byAsset.values()) {
        const kind = assetKind(p.asset);
        if (kind === 'cash') out.cash.push(p);
        else if (p.settled === 0 && p.reserved === 0 && p.unsettled === 0) continue;
        else if (kind === 'security') out.securities.push({ ...p, symbol: p.asset });
        else if (kind === 'fund') out.funds.push({ ...p, fund_code: p.asset.slice('fund:'.length) });
      }
      return out;
    },

    /** The postings of one business object, oldest first (tests, reconciliation). */
    entries(tenantId: string, ref: string): EntryRow[] {
      return q.entriesByRef.all(tenantId, ref);
    },

    recordActivity(a: ActivityInput): Activity {
      return activityLog.record(a);
    },

    activities(tenantId: string, investorId: string, page: { limit: number; before?: string }): Outcome<ActivityPage> {
      return activityLog.list(tenantId, investorId, page);
    },

    /** Re-derives every guarantee from the tables; violations are described, none expected. */
    checkInvariants(tenantId?: string): InvariantReport {
      return checkLedgerInvariants(db, tenantId);
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
