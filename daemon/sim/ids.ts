// Deterministic ids: prefix + 10 Crockford base32 characters derived from a per-prefix counter and
// the seed. The counter lives in the database (advanced in the caller's transaction), so the same
// seed and requests give the same ids and ids never collide.
//
// Entity ids are k-sortable (like UUIDv7 or KSUID): a seed tag, then the counter, then a keyed salt,
// so a later id sorts after an earlier one. Every table indexes its ids, and a sortable key appends
// to the right edge of its B-tree: a batch of inserts dirties a few shared pages instead of one
// random page per row (measured: random ids made a quarter of an order's commit cost).
// Request ids are a keyed permutation (a Feistel network) of a per-boot counter: opaque and unique.
import type { Db } from '../store/db.js';
import { rowsInsert } from '../store/rows-insert.js';
import { hash32 } from './prng.js';

const HALF_BITS = 24;
const HALF_MASK = (1 << HALF_BITS) - 1;
// Powers of two as numbers computed once: `2 ** BITS` in a hot function called Math.pow on every
// request (V8 does not fold a module constant into the exponent).
const HALF_SPAN = 2 ** HALF_BITS;
const TWO_32 = 2 ** 32;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase

/** Bijection on [0, 2^48): four Feistel rounds over two 24-bit halves. */
export function permute48(seed: number, label: string, n: number): number {
  let left = Math.floor(n / HALF_SPAN) & HALF_MASK;
  let right = n & HALF_MASK;
  for (let round = 0; round < 4; round++) {
    const f = hash32(seed, label, round, right) & HALF_MASK;
    [left, right] = [right, left ^ f];
  }
  return left * HALF_SPAN + right;
}

const ALPHABET_CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));

/** Ten base32 characters, most significant first; one string made, not ten. */
export function encode48(n: number): string {
  const codes = new Array<number>(10);
  for (let i = 9; i >= 0; i--) {
    codes[i] = ALPHABET_CODES[n % 32];
    n = Math.floor(n / 32);
  }
  return String.fromCharCode(...codes);
}

const COUNTER_BITS = 28;
const SALT_BITS = 12;
const COUNTER_SPAN = 2 ** COUNTER_BITS;
const SALT_SPAN = 2 ** SALT_BITS;
const TAG_SHIFT = 2 ** (COUNTER_BITS + SALT_BITS);

/** An entity id: 8-bit seed tag, 28-bit counter, 12-bit keyed salt (sorts by counter). */
export function formatId(seed: number, prefix: string, n: number): string {
  if (!Number.isSafeInteger(n) || n < 0 || n >= COUNTER_SPAN)
    throw new Error(`ids: counter ${n} of ${prefix} out of range`);
  const tag = hash32(seed, prefix) & 0xff;
  const salt = hash32(seed, prefix, n) & (SALT_SPAN - 1);
  return `${prefix}_${encode48(tag * TAG_SHIFT + n * SALT_SPAN + salt)}`;
}

/** A request id: opaque (a keyed permutation of n < 2^48). */
export function formatRequestId(seed: number, n: number): string {
  return `req_${encode48(permute48(seed, 'req', n))}`;
}

export interface IdGen {
  /** Next id for the prefix; call inside the transaction that stores the entity. */
  next(prefix: string): string;
  /**
   * Runs fn as one unit of id allocation: the counters advance in memory and are written once, when
   * fn returns (one statement for a request that makes six ids, instead of six). Call it inside the
   * savepoint that stores fn's rows: if fn throws, its counters are forgotten, and the caller rolls
   * the rows back. Units nest into the outermost one.
   */
  unit<T>(fn: () => T): T;
  /** Forgets what the database's counters were (after a rollback a unit did not see). */
  invalidate(): void;
  /** Request ids: a per-boot counter, not persisted (a read must not write). */
  requestId(): string;
  setSeed(seed: number, generation: number): void;
}

export function createIdGen(db: Db, seed: number, generation: number): IdGen {
  const bump = db.prepare<[string], { next: number }>(
    'INSERT INTO id_seq (prefix, next) VALUES (?, 1) ON CONFLICT(prefix) DO UPDATE SET next = next + 1 RETURNING next',
  );
  const read = db.prepare<[string], number>('SELECT next FROM id_seq WHERE prefix = ?').pluck();
  const writer = rowsInsert(
    db,
    (tuples) =>
      `INSERT INTO id_seq (prefix, next) VALUES ${tuples} ON CONFLICT(prefix) DO UPDATE SET next = excluded.next`,
    '(?, ?)',
  );
  /** The counters as the database holds them (this connection's view), where known. */
  const known = new Map<string, number>();
  /** Inside a unit: the counters it advanced, not yet written. */
  let pending: Map<string, number> | null = null;
  let reqCounter = 0;
  let s = seed;
  let gen = generation;
  return {
    next(prefix) {
      if (pending === null) {
        known.delete(prefix);
        return formatId(s, prefix, bump.get(prefix)!.next);
      }
      const n = (pending.get(prefix) ?? known.get(prefix) ?? read.get(prefix) ?? 0) + 1;
      pending.set(prefix, n);
      return formatId(s, prefix, n);
    },
    unit(fn) {
      if (pending !== null) return fn();
      const mine = new Map<string, number>();
      pending = mine;
      try {
        const out = fn();
        if (mine.size > 0) {
          writer(mine.size).run(...[...mine].flat());
          for (const [prefix, n] of mine) known.set(prefix, n);
        }
        return out;
      } finally {
        pending = null;
      }
    },
    invalidate() {
      known.clear();
    },
    requestId() {
      reqCounter++;
      return formatRequestId(s, (gen % 65536) * TWO_32 + reqCounter);
    },
    setSeed(seed, generation) {
      s = seed;
      // request ids restart with a new generation (a reset) only: a reload keeps counting
      if (generation !== gen) reqCounter = 0;
      gen = generation;
      // a reset wipes the counters: forget them, and anything a unit counted before the wipe
      known.clear();
      pending?.clear();
    },
  };
}
