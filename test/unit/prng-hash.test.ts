// hash32 and encode48 are the seeds of every simulated price and every id: a faster form must give
// the same values, bit for bit, or every seeded run would change (docs/architecture.md, "Time,
// randomness, ids"). Checked against the plain forms they replaced. FC_SEED=<seed> replays a run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcParams } from '../helpers/fc.js';
import { hash32 } from '../../daemon/sim/prng.js';
import { encode48 } from '../../daemon/sim/ids.js';

/** hash32 as it was written first: each number hashed as the text `#${n}`. */
function referenceHash32(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = typeof part === 'number' ? `#${part}` : part;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0xff;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** encode48 as it was written first: ten concatenations. */
function referenceEncode48(n: number): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = alphabet[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}

const part = fc.oneof(
  fc.string(),
  fc.nat(),
  fc.maxSafeNat(),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    9,
    10,
    99,
    100,
    999_999_999_999_999,
    2 ** 53 - 1,
    2 ** 53,
    1e21,
    0.1,
    NaN,
    Infinity,
    -Infinity,
  ),
);

describe('seeded hashing: the same values as the plain forms', () => {
  it('hash32 of any strings and numbers equals the hash of their text (numbers as #n)', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), (parts) => hash32(...parts) === referenceHash32(...parts)),
      fcParams({ numRuns: 5000 }),
    );
  });

  it('encode48 of any 48-bit number equals ten base32 characters built one by one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), (n) => encode48(n) === referenceEncode48(n)),
      fcParams({ numRuns: 5000 }),
    );
    expect(encode48(0)).toBe('0000000000');
    expect(encode48(2 ** 48 - 1)).toBe(referenceEncode48(2 ** 48 - 1));
  });
});
