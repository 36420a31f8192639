// Re-sealing at rest, for the key rotations (docs/backoffice.md "Key rotation"): every sealed value a
// key protects is opened (under the old key or the new one: a rotation re-seals in slices, so a column
// may hold both) and sealed again under the new key, with the same additional authenticated data.
// A slice is a bounded number of rows by rowid (keyset pagination), written inside one short
// transaction by rotation-runner.ts. `key_state.resealing` is raised for that transaction only: the
// one way past the journal's append-only trigger and the frozen KYC documents (migration 021).
import type { Db } from '../../store/db.js';
import { open, seal } from '../../store/crypto.js';
import { kekCheck } from '../../store/kek-file.js';

/**
 * One sealed column (or two sealed in the same row, like the journal's body and answer): `select`
 * answers rowid `k`, `sealed` and `aad` (and `sealed2`, `aad2` when `names` has two entries) for
 * the rows after a rowid (its last argument) in rowid order, at most `LIMIT ?` (its very last);
 * `update` sets the re-sealed values (one or two) for a rowid. `names` are what the counts call them.
 */
export interface SealedColumn {
  names: [string] | [string, string];
  select: string;
  update: string;
  /**
   * The column's last rowid now (a query answering `m`), for a rotation whose writers seal under the new
   * key from its approval on (a data key's): rows after it need nothing, so the column ends there even
   * while writes keep appending. Without it (the KEK's journal) the slices follow the column to its end.
   */
  upto?: string;
  /** Called with each opened value of the first field (the national id's hash is recomputed from it). */
  onPlain?: (db: Db, k: number, plain: Buffer, to: Buffer) => void;
}

interface SealedRow {
  k: number;
  sealed: Buffer | null;
  aad: string;
  sealed2?: Buffer | null;
  aad2?: string;
}

/** A stored value that opens under neither key of the rotation: the rotation stops there. */
export class UnreadableSealed extends Error {
  constructor(readonly what: string) {
    super(`the sealed value ${what} does not open under the rotation's keys`);
  }
}

/** Opens under the first key of the ring that opens it. */
export function reopen(ring: readonly Buffer[], sealed: Buffer, aad: string, what: string): Buffer {
  for (const key of ring) {
    try {
      return open(key, sealed, aad);
    } catch {
      // the next key of the ring
    }
  }
  throw new UnreadableSealed(what);
}

export interface Slice {
  /** Rows re-sealed. */
  rows: number;
  /** The column has no row after `last` (fewer rows than the limit, and the budget let every one through). */
  exhausted: boolean;
  /** The last rowid read, where the next slice starts. */
  last: number;
  counts: Record<string, number>;
}

function resealField(
  ring: readonly Buffer[],
  to: Buffer,
  sealed: Buffer | null | undefined,
  aad: string,
  what: string,
): Buffer | null {
  return sealed == null ? null : seal(to, reopen(ring, sealed, aad, what), aad);
}

/**
 * Re-seals the rows of `col` after rowid `after` (at most `limit`, and no more once `budgetMs` of the
 * thread are spent: at least one row) from any key of `ring` to `to`. The budget only moves where a
 * slice ends, never what is written.
 */
export function resealSlice(
  db: Db,
  col: SealedColumn,
  args: unknown[],
  ring: readonly Buffer[],
  to: Buffer,
  at: { after: number; limit: number; budgetMs: number },
): Slice {
  const update = db.prepare(col.update);
  const fetched = db.prepare(col.select).all(...args, at.after, at.limit) as SealedRow[];
  const counts: Record<string, number> = Object.fromEntries(col.names.map((n) => [n, 0]));
  const started = performance.now();
  let done = 0;
  for (const r of fetched) {
    if (done > 0 && performance.now() - started > at.budgetMs) break;
    done++;
    const what = `${r.aad} (${r.k})`;
    const first = r.sealed == null ? null : reopen(ring, r.sealed, r.aad, what);
    const second = col.names.length === 2 ? resealField(ring, to, r.sealed2, r.aad2 ?? '', `${r.aad2} (${r.k})`) : null;
    if (first === null && second === null) continue;
    const sealedFirst = first === null ? null : seal(to, first, r.aad);
    if (col.names.length === 2) update.run(sealedFirst ?? r.sealed ?? null, second ?? r.sealed2 ?? null, r.k);
    else update.run(sealedFirst, r.k);
    if (first !== null) {
      counts[col.names[0]]++;
      col.onPlain?.(db, r.k, first, to);
    }
    if (second !== null) counts[col.names[1]!]++;
  }
  const exhausted = done === fetched.length && (at.limit < 0 || fetched.length < at.limit);
  return { rows: done, exhausted, last: done ? fetched[done - 1]!.k : at.after, counts };
}

/** Runs fn with resealing raised (inside the caller's transaction); the key_state row is made when there is none. */
export function withResealing<T>(db: Db, kek: Buffer, fn: () => T): T {
  db.prepare('INSERT INTO key_state (id, kek_check) VALUES (1, ?) ON CONFLICT (id) DO NOTHING').run(kekCheck(kek));
  db.prepare('UPDATE key_state SET resealing = 1 WHERE id = 1').run();
  const out = fn();
  db.prepare('UPDATE key_state SET resealing = 0 WHERE id = 1').run();
  return out;
}

/** Checks that every row `select` answers (k, sealed, aad) opens under `key`: the unreadable one's name, or null. */
export function firstUnreadable(db: Db, select: string, args: unknown[], key: Buffer): string | null {
  for (const r of db.prepare(select).all(...args) as SealedRow[]) {
    if (r.sealed === null) continue;
    try {
      reopen([key], r.sealed, r.aad, '');
    } catch {
      return `${r.aad} (${r.k})`;
    }
  }
  return null;
}

/** Test hook (SVC_TEST_KEY_ROTATION_STALL_MS): how long the runner waits between slices and before a rename. */
export function stallMs(): number {
  const ms = Number(process.env.SVC_TEST_KEY_ROTATION_STALL_MS ?? 0);
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 60_000) : 0;
}
