// Holds: reservations as two-phase transfers (guarantee 4 of ledger.ts). A hold moves its amount from
// settled to reserved; postHold moves part or all of the remainder from reserved to a destination;
// voidHold returns the whole remainder to settled. pending -> posted | voided, exactly once.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db.js';
import type { IdGen } from '../sim/ids.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { balanceOf, openAccount, type Account } from './accounts.js';
import {
  checkAmount,
  checkKind,
  HOLD_KIND,
  insertAll,
  post,
  shortfallCode,
  transferPosting,
  VOID_KIND,
  type Posting,
  type PostingBook,
} from './postings.js';
import type { AccountRef, HoldInput, HoldRow, PostingInput } from './model.js';

export interface HoldBook extends PostingBook {
  ids: IdGen;
  q: {
    hold: Statement<[string], HoldRow>;
    open: Statement<[string, string, string, string, number, number, string, number]>;
    post: Statement<[{ amount: number; at: number; id: string }]>;
    void: Statement<[number, string]>;
  };
}

export function createHoldBook(db: Db, ids: IdGen, postings: PostingBook): HoldBook {
  return {
    ...postings,
    ids,
    q: {
      hold: db.prepare<[string], HoldRow>(
        'SELECT id, tenant_id, investor_id, asset, amount, posted, remaining, state, ref, created_ms, ' +
          'closed_ms FROM ledger_holds WHERE id = ?',
      ),
      open: db.prepare(
        'INSERT INTO ledger_holds (id, tenant_id, investor_id, asset, amount, remaining, ref, created_ms) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      post: db.prepare(
        `UPDATE ledger_holds SET posted = posted + @amount, remaining = remaining - @amount,
                state = CASE WHEN remaining = @amount THEN 'posted' ELSE 'pending' END,
                closed_ms = CASE WHEN remaining = @amount THEN @at ELSE NULL END
          WHERE id = @id`,
      ),
      void: db.prepare("UPDATE ledger_holds SET remaining = 0, state = 'voided', closed_ms = ? WHERE id = ?"),
    },
  };
}

function requirePendingHold(book: HoldBook, holdId: string): HoldRow {
  const h = book.q.hold.get(holdId);
  if (!h) throw new Error(`ledger: no hold ${holdId}`);
  if (h.state !== 'pending') throw new Error(`ledger: hold ${holdId} is ${h.state}`);
  return h;
}

function bucketOf(
  book: HoldBook,
  h: Pick<HoldRow, 'tenant_id' | 'investor_id' | 'asset'>,
  bucket: 'settled' | 'reserved',
): Account {
  return openAccount(book.accounts, h.tenant_id, { investorId: h.investor_id, asset: h.asset, bucket });
}

export function getHold(book: HoldBook, holdId: string): HoldRow | null {
  return book.q.hold.get(holdId) ?? null;
}

/** Reserves settled amount of an asset for ref: settled -> reserved. Returns the hold id. */
export function hold(book: HoldBook, h: HoldInput): Outcome<string> {
  checkAmount(h.amount);
  const owner = { tenant_id: h.tenantId, investor_id: h.investorId, asset: h.asset };
  const settled = bucketOf(book, owner, 'settled');
  const balance = balanceOf(book.accounts, settled.id);
  if (balance < h.amount)
    return refuse(shortfallCode(h.asset), `Settled ${h.asset} is ${balance}; ${h.amount} is needed.`);
  const reserved = bucketOf(book, owner, 'reserved');
  const id = book.ids.next('hld');
  book.q.open.run(id, h.tenantId, h.investorId, h.asset, h.amount, h.amount, h.ref, book.clock.now());
  const posted = post(book, {
    tenantId: h.tenantId,
    debit: settled,
    credit: reserved,
    amount: h.amount,
    kind: HOLD_KIND,
    ref: h.ref,
    holdId: id,
  });
  if (!posted.ok) throw new Error(`ledger: hold posting refused: ${posted.code}`);
  return ok(id);
}

/** A posting out of a pending hold: what postHold takes, for postAll. */
export interface HoldPostingInput {
  holdId: string;
  amount: number;
  credit: AccountRef;
  kind: string;
  ref: string;
}

/** A move postAll writes: a transfer between accounts that are not reserved, or a post out of a hold. */
export type LedgerMove = PostingInput | HoldPostingInput;

/**
 * The posting of amount out of hold h (pending, with at least `amount` left) to credit, its accounts
 * opened; throws on what only a bug asks.
 */
function holdPosting(book: HoldBook, h: HoldRow, left: number, m: HoldPostingInput): Posting {
  checkAmount(m.amount);
  checkKind(m.kind);
  if (m.amount > left) throw new Error(`ledger: posting ${m.amount} exceeds the remaining ${left} of hold ${h.id}`);
  if (m.credit.asset !== h.asset) throw new Error(`ledger: hold ${h.id} holds ${h.asset}, not ${m.credit.asset}`);
  if ('bucket' in m.credit && m.credit.bucket === 'reserved') throw new Error('ledger: a hold posts out of reserved');
  const reserved = bucketOf(book, h, 'reserved');
  const destination = openAccount(book.accounts, h.tenant_id, m.credit);
  return {
    tenantId: h.tenant_id,
    debit: reserved,
    credit: destination,
    amount: m.amount,
    kind: m.kind,
    ref: m.ref,
    holdId: h.id,
  };
}

/** Posts part or all of a pending hold's remainder to credit; the hold closes as posted at zero. */
export function postHold(
  book: HoldBook,
  holdId: string,
  amount: number,
  credit: AccountRef,
  kind: string,
  ref: string,
): Outcome<number> {
  const h = requirePendingHold(book, holdId);
  const posted = post(book, holdPosting(book, h, h.remaining, { holdId, amount, credit, kind, ref }));
  if (!posted.ok) return posted;
  book.q.post.run({ amount, at: book.clock.now(), id: holdId });
  return posted;
}

/**
 * Posts every move, in order, or none: the postings in one INSERT (postings.ts, insertAll), then one
 * UPDATE per hold with the sum its postings took. The rows, posting ids, balances and hold states are
 * those of transfer and postHold called one after the other (a hold stays pending until its last
 * posting, so the database's check of each reserved posting sees it pending either way), and so are
 * the bugs they throw on and the refusal they give. A fill out of its order's holds is four postings
 * and a hold update instead of ten statements (docs/ledger.md, "Module API").
 */
export function postAll(book: HoldBook, moves: readonly LedgerMove[]): Outcome<number[]> {
  const taken = new Map<string, { hold: HoldRow; amount: number }>();
  const ms = moves.map((m) => {
    if (!('holdId' in m)) return transferPosting(book, m);
    let t = taken.get(m.holdId);
    if (!t) taken.set(m.holdId, (t = { hold: requirePendingHold(book, m.holdId), amount: 0 }));
    const p = holdPosting(book, t.hold, t.hold.remaining - t.amount, m);
    t.amount += m.amount;
    return p;
  });
  const posted = insertAll(book, ms);
  if (!posted.ok) return posted;
  const at = book.clock.now();
  for (const [id, t] of taken) book.q.post.run({ amount: t.amount, at, id });
  return posted;
}

/** Returns the whole remainder of a pending hold to settled and closes it. Returns the amount released. */
export function voidHold(book: HoldBook, holdId: string): number {
  const h = requirePendingHold(book, holdId);
  const reserved = bucketOf(book, h, 'reserved');
  const settled = bucketOf(book, h, 'settled');
  const posted = post(book, {
    tenantId: h.tenant_id,
    debit: reserved,
    credit: settled,
    amount: h.remaining,
    kind: VOID_KIND,
    ref: h.ref,
    holdId,
  });
  if (!posted.ok) throw new Error(`ledger: void of ${holdId} refused: ${posted.code}`);
  book.q.void.run(book.clock.now(), holdId);
  return h.remaining;
}
