// Seeded randomness. Everything random in the simulation comes from here, so one seed reproduces a run.
// Two forms: a stateless hash of (seed, labels...) for values that must be computable in any order
// (the tape at any minute), and a sequential generator for streams (fuzz data, depth books).

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Final avalanche of murmur3: spreads every input bit over the output. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Scratch for hashDigits: a safe integer has at most 16 decimal digits. */
const DIGITS = new Uint8Array(16);

/** FNV-1a over the decimal digits of a non-negative safe integer, most significant first (as String(n)). */
function hashDigits(h: number, n: number): number {
  let k = 0;
  do {
    DIGITS[k++] = n % 10;
    n = Math.floor(n / 10);
  } while (n > 0);
  while (k > 0) {
    h ^= 48 + DIGITS[--k];
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

/** FNV-1a over a string's UTF-16 code units. */
function hashText(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

/**
 * Deterministic unsigned 32-bit hash of its parts (strings and integers). A number hashes as the text
 * `#${n}`; a non-negative safe integer (the usual part: counters, minutes, rounds) is hashed from its
 * digits without making that string (the tape and every request id hash several per call).
 */
export function hash32(...parts: ReadonlyArray<string | number>): number {
  let h = FNV_OFFSET;
  for (const part of parts) {
    if (typeof part === 'string') h = hashText(h, part);
    else {
      h ^= 35; // '#'
      h = Math.imul(h, FNV_PRIME);
      h = Number.isSafeInteger(part) && part >= 0 ? hashDigits(h, part) : hashText(h, String(part));
    }
    h ^= 0xff; // separator, so ("ab","c") and ("a","bc") differ
    h = Math.imul(h, FNV_PRIME);
  }
  return fmix32(h);
}

/** Uniform integer in [min, max] (inclusive) from a hash of the parts. */
export function hashInt(min: number, max: number, ...parts: ReadonlyArray<string | number>): number {
  const span = max - min + 1;
  return min + (hash32(...parts) % span);
}

/** Sequential generator (sfc32) for streams; state is four 32-bit words derived from the seed. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number | string) {
    this.a = hash32('a', seed);
    this.b = hash32('b', seed);
    this.c = hash32('c', seed);
    this.d = hash32('d', seed) | 1;
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + (this.nextUint32() % (max - min + 1));
  }
}
