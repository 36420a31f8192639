// Deterministic ids: prefix + a keyed permutation of a per-prefix counter. The counter lives in the
// database (advanced in the caller's transaction), the permutation is a Feistel network keyed by the
// seed, so ids look opaque, never collide, and the same seed and requests give the same ids.
import type { Db } from '../store/db.js';
import { hash32 } from './prng.js';

const HALF_BITS = 24;
const HALF_MASK = (1 << HALF_BITS) - 1;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase

/** Bijection on [0, 2^48): four Feistel rounds over two 24-bit halves. */
export function permute48(seed: number, label: string, n: number): number {
  let left = Math.floor(n / 2 ** HALF_BITS) & HALF_MASK;
  let right = n & HALF_MASK;
  for (let round = 0; round < 4; round++) {
    const f = hash32(seed, label, round, right) & HALF_MASK;
    [left, right] = [right, left ^ f];
  }
  return left * 2 ** HALF_BITS + right;
}

export function encode48(n: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}

export function formatId(seed: number, prefix: string, n: number): string {
  return `${prefix}_${encode48(permute48(seed, prefix, n))}`;
}

export interface IdGen {
  /** Next id for the prefix; call inside the transaction that stores the entity. */
  next(prefix: string): string;
  /** Request ids: a per-boot counter, not persisted (a read must not write). */
  requestId(): string;
  setSeed(seed: number, generation: number): void;
}

export function createIdGen(db: Db, seed: number, generation: number): IdGen {
  const bump = db.prepare<[string], { next: number }>(
    'INSERT INTO id_seq (prefix, next) VALUES (?, 1) ON CONFLICT(prefix) DO UPDATE SET next = next + 1 RETURNING next',
  );
  let reqCounter = 0;
  let s = seed;
  let gen = generation;
  return {
    next(prefix) {
      return formatId(s, prefix, bump.get(prefix)!.next);
    },
    requestId() {
      reqCounter++;
      return formatId(s, 'req', (gen % 65536) * 2 ** 32 + reqCounter);
    },
    setSeed(seed, generation) {
      s = seed;
      gen = generation;
      reqCounter = 0;
    },
  };
}
