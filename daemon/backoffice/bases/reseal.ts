// Re-sealing at rest, for the key rotations (rotate-kek.ts, rotate-dek.ts): every sealed value a key
// protects is opened with the old key and sealed again with the new one, with the same additional
// authenticated data, inside the approving transaction. `key_state.resealing` is raised for its length:
// the one way past the journal's append-only trigger and the frozen KYC documents (migration 021).
import type { Db } from '../../store/db.js';
import { open, seal } from '../../store/crypto.js';
import { kekCheck } from '../../store/kek-file.js';

/** One sealed column: the rows to re-seal (rowid, sealed bytes, aad) and where each goes back. */
export interface SealedColumn {
  select: string;
  update: string;
  args?: unknown[];
}

interface Sealed {
  k: number | string;
  sealed: Buffer | null;
  aad: string;
}

/** A stored value that does not open under the key that should open it: the rotation refuses. */
export class UnreadableSealed extends Error {
  constructor(readonly what: string) {
    super(`the sealed value ${what} does not open under the current key`);
  }
}

function reopen(from: Buffer, r: Sealed): Buffer {
  try {
    return open(from, r.sealed!, r.aad);
  } catch {
    throw new UnreadableSealed(`${r.aad} (${r.k})`);
  }
}

/** Re-seals every row `col.select` answers (columns k, sealed, aad) from one key to another; the count. */
export function resealColumn(db: Db, col: SealedColumn, from: Buffer, to: Buffer): number {
  const update = db.prepare(col.update);
  let n = 0;
  for (const r of db.prepare(col.select).all(...(col.args ?? [])) as Sealed[]) {
    if (r.sealed === null) continue;
    update.run(seal(to, reopen(from, r), r.aad), r.k);
    n++;
  }
  return n;
}

/**
 * Runs a rotation's writes; a value that does not open refuses the whole rotation (the request's
 * writes roll back with the refusal, and `undo` puts back what the rotation did outside the database).
 */
export function unlessUnreadable<T>(write: () => T, undo: () => void = () => {}): { ok: true; value: T } | { ok: false; what: string } {
  try {
    return { ok: true, value: write() };
  } catch (e) {
    if (!(e instanceof UnreadableSealed)) throw e;
    undo();
    return { ok: false, what: e.what };
  }
}

/** Runs fn with resealing raised; the key_state row is made (under `kek`) when there is none. */
export function withResealing<T>(db: Db, kek: Buffer, fn: () => T): T {
  db.prepare('INSERT INTO key_state (id, kek_check) VALUES (1, ?) ON CONFLICT (id) DO NOTHING').run(kekCheck(kek));
  db.prepare('UPDATE key_state SET resealing = 1 WHERE id = 1').run();
  const out = fn();
  db.prepare('UPDATE key_state SET resealing = 0 WHERE id = 1').run();
  return out;
}

/** Test hook (SVC_TEST_KEY_ROTATION_STALL_MS): holds the thread, so a crash test can kill mid-rotation. */
export function stallForTests(): number {
  const ms = Number(process.env.SVC_TEST_KEY_ROTATION_STALL_MS ?? 0);
  if (Number.isFinite(ms) && ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(ms, 60_000));
  return ms > 0 ? Math.min(ms, 60_000) : 0;
}
