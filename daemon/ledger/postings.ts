// The one place a posting is written (guarantees 1 to 3 of ledger.ts), and the free transfer between
// two accounts that are not reserved. Holds (holds.ts) post through `post` too.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db.js';
import { rowsInsert } from '../store/rows-insert.js';
import type { Clock } from '../sim/clock.js';
import type { ErrorCode } from '../contract/errors.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { assetKind } from './assets.js';
import { balanceOf, openAccount, type Account, type AccountStore } from './accounts.js';
import type { PostingInput } from './model.js';

/** Kinds only the hold functions write: a transfer using them would corrupt the hold bookkeeping. */
export const HOLD_KIND = 'hold';
export const VOID_KIND = 'hold.void';

export interface PostingBook {
  db: Db;
  accounts: AccountStore;
  clock: Clock;
  insertEntry: Statement<[string, number, number, number, string, string, string | null, number]>;
  /** The INSERT of n postings in one statement (transferAll). */
  insertEntries: (n: number) => Statement<unknown[]>;
}

const ENTRY_COLUMNS =
  'INSERT INTO ledger_entries (tenant_id, debit_account_id, credit_account_id, amount, kind, ref, hold_id, ' +
  'at_ms) VALUES ';
const ENTRY_VALUES = '(?, ?, ?, ?, ?, ?, ?, ?)';

export function createPostingBook(db: Db, clock: Clock, accounts: AccountStore): PostingBook {
  return {
    db,
    accounts,
    clock,
    insertEntry: db.prepare(ENTRY_COLUMNS + ENTRY_VALUES),
    insertEntries: rowsInsert(db, (tuples) => ENTRY_COLUMNS + tuples, ENTRY_VALUES),
  };
}

export function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new Error(`ledger: amount must be a positive safe integer, got ${amount}`);
}

export function checkKind(kind: string): void {
  if (kind === HOLD_KIND || kind === VOID_KIND || kind.length === 0 || kind.length > 40)
    throw new Error(`ledger: kind ${kind} is reserved or invalid`);
}

export function shortfallCode(asset: string): ErrorCode {
  return assetKind(asset) === 'cash' ? 'INSUFFICIENT_SETTLED_CASH' : 'INSUFFICIENT_SETTLED_SECURITIES';
}

export interface Posting {
  tenantId: string;
  debit: Account;
  credit: Account;
  amount: number;
  kind: string;
  ref: string;
  holdId: string | null;
}

/**
 * Writes one posting; the caller has validated amount, assets and hold. The database refuses a debit
 * an investor balance cannot pay (CHECK bucket = 'system' OR balance >= 0) and any balance past
 * 2^53 - 1 (CHECK). Both fail the statement as a whole (its trigger's balance updates included), so
 * the balance read after the failure is the one before it: below the amount, the refusal is the
 * shortfall; otherwise AMOUNT_TOO_LARGE. (No balance is read before the INSERT: the CHECK is the
 * check, and a posting that goes through, every posting of a filled order, costs one statement.)
 * Returns the posting id.
 */
export function post(book: PostingBook, m: Posting): Outcome<number> {
  const { debit, amount } = m;
  try {
    return ok(
      Number(
        book.insertEntry.run(m.tenantId, debit.id, m.credit.id, amount, m.kind, m.ref, m.holdId, book.clock.now())
          .lastInsertRowid,
      ),
    );
  } catch (err) {
    if ((err as { code?: string }).code !== 'SQLITE_CONSTRAINT_CHECK') throw err;
    if (debit.bucket !== 'system') {
      const balance = balanceOf(book.accounts, debit.id);
      if (balance < amount)
        return refuse(
          shortfallCode(debit.asset),
          `${debit.bucket} ${debit.asset} of ${debit.owner} is ${balance}; ${amount} is needed.`,
        );
    }
    return refuse(
      'AMOUNT_TOO_LARGE',
      `Moving ${amount} would take a ${debit.asset} balance past ${Number.MAX_SAFE_INTEGER}.`,
    );
  }
}

/** A transfer's posting, its accounts opened; throws on what only a bug asks (see transfer). */
export function transferPosting(book: PostingBook, p: PostingInput): Posting {
  checkAmount(p.amount);
  checkKind(p.kind);
  if (p.debit.asset !== p.credit.asset)
    throw new Error(`ledger: cannot post ${p.debit.asset} against ${p.credit.asset}`);
  if (
    ('bucket' in p.debit && p.debit.bucket === 'reserved') ||
    ('bucket' in p.credit && p.credit.bucket === 'reserved')
  ) {
    throw new Error('ledger: reserved balances move only through hold, postHold and voidHold');
  }
  const debit = openAccount(book.accounts, p.tenantId, p.debit);
  const credit = openAccount(book.accounts, p.tenantId, p.credit);
  if (debit.id === credit.id) throw new Error('ledger: debit and credit are the same account');
  return { tenantId: p.tenantId, debit, credit, amount: p.amount, kind: p.kind, ref: p.ref, holdId: null };
}

/** Posts amount from debit to credit (same asset, neither reserved). Returns the posting id. */
export function transfer(book: PostingBook, p: PostingInput): Outcome<number> {
  return post(book, transferPosting(book, p));
}

const UNDO = Symbol('undo');

/**
 * Posts every transfer, in order, or none: one INSERT of all the rows, so the database checks each row
 * as `transfer` would (its triggers run row by row) at the cost of one statement (a filled order's four
 * postings: docs/bench-history.md, "The sixth pass"). A refusal is the one the first failing transfer would
 * give, found by posting them one by one in a savepoint that is then undone. Returns the posting ids.
 */
export function transferAll(book: PostingBook, ps: readonly PostingInput[]): Outcome<number[]> {
  return insertAll(
    book,
    ps.map((p) => transferPosting(book, p)),
  );
}

/** Inserts postings already checked and opened, in order, in one statement; or none (the first refusal). */
export function insertAll(book: PostingBook, ms: readonly Posting[]): Outcome<number[]> {
  if (ms.length === 0) return ok([]);
  const insert = book.insertEntries(ms.length);
  const at = book.clock.now();
  try {
    const values: unknown[] = [];
    for (const m of ms) values.push(m.tenantId, m.debit.id, m.credit.id, m.amount, m.kind, m.ref, m.holdId, at);
    const last = Number(insert.run(...values).lastInsertRowid);
    return ok(ms.map((_, i) => last - ms.length + 1 + i));
  } catch (err) {
    if ((err as { code?: string }).code !== 'SQLITE_CONSTRAINT_CHECK') throw err;
    return firstRefusal(book, ms);
  }
}

function firstRefusal(book: PostingBook, ms: readonly Posting[]): Outcome<never> {
  let refusal: Outcome<never> | undefined;
  try {
    book.db.transaction(() => {
      for (const m of ms) {
        const o = post(book, m);
        if (!o.ok) {
          refusal = o;
          break;
        }
      }
      throw UNDO;
    })();
  } catch (err) {
    if (err !== UNDO) throw err;
  }
  if (refusal === undefined) throw new Error('ledger: the postings were refused together but not one by one');
  return refusal;
}
