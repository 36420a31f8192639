// The fakes `svc sandbox journal --redact` puts in place of personal data (docs/snapshots.md,
// "Redaction"). Each kind is numbered in order of first appearance, so a fake says nothing about the
// value it replaces (no hash of it), the same input gets the same fake within a file (the caller
// memoizes), and every fake passes the daemon's own field rules (daemon/contract/kyc.ts), so the
// redacted journal replays to the same answers:
//  - a national id keeps its century, birth date and governorate (date_of_birth must match it, the age
//    rule reads it) and a sandbox magic suffix (0000 rejects, 9999 refers: the review reads it); the
//    other digits are replaced, never into a magic suffix;
//  - a name is two given names from a list; an email person-N@example.com; a phone keeps its country
//    and network prefix; an address is a numbered street;
//  - an ID image becomes a tiny valid image of the same type (PNG 1x1, or JPEG 1x1), numbered so that
//    two different images stay different.
import { deflateSync, crc32 } from 'node:zlib';
import { MAGIC_REFER_SUFFIX, MAGIC_REJECT_SUFFIX, imageTypeOf } from '../daemon/contract/kyc.js';

const GIVEN = [
  'Amal',
  'Badr',
  'Dalia',
  'Emad',
  'Farida',
  'Gamal',
  'Hala',
  'Ihab',
  'Jana',
  'Kamal',
  'Laila',
  'Maged',
  'Nour',
  'Omar',
  'Rana',
  'Samir',
  'Tamer',
  'Yara',
  'Zeina',
  'Wael',
];
const FAMILY = [
  'Adel',
  'Bakr',
  'Darwish',
  'Fahmy',
  'Ghali',
  'Hamdy',
  'Ismail',
  'Kamel',
  'Lotfy',
  'Mansour',
  'Naguib',
  'Osman',
  'Radwan',
  'Saleh',
  'Taha',
  'Wahba',
  'Yousef',
  'Zaki',
  'Sabry',
  'Helmy',
];

const MAGIC = new Set([MAGIC_REJECT_SUFFIX, MAGIC_REFER_SUFFIX]);

/** The n-th fake name (n from 0); distinct for n below 400, then with a third name. */
export function fakeName(n: number): string {
  const base = `${GIVEN[n % GIVEN.length]} ${FAMILY[Math.floor(n / GIVEN.length) % FAMILY.length]}`;
  const round = Math.floor(n / (GIVEN.length * FAMILY.length));
  return round === 0 ? base : `${base} ${GIVEN[round % GIVEN.length]}${'a'.repeat(Math.floor(round / GIVEN.length))}`;
}

export function fakeEmail(n: number): string {
  return `person-${n + 1}@example.com`;
}

/** Keeps `0` or `+20` and the network (10, 11, 12, 15); the 8 subscriber digits are the counter. */
export function fakePhone(original: string, n: number): string {
  const m = /^(\+20|0)(1[0125])/.exec(original);
  const prefix = m ? `${m[1]}${m[2]}` : '010';
  return `${prefix}${String(90_000_000 + n).slice(-8)}`;
}

export function fakeAddress(n: number): string {
  return `${n + 1} Sample Street, Cairo`;
}

/**
 * The candidates for a national id's fake, in order: century, birth date and governorate kept
 * (digits 1-9); a magic last four kept; the rest counted from `n`. The caller takes the first one that
 * differs from the original and is not taken yet.
 */
export function* nationalIdCandidates(original: string, n: number): Generator<string> {
  const head = original.slice(0, 9);
  const last4 = original.slice(-4);
  if (MAGIC.has(last4)) {
    for (let i = 0; i < 10; i++) yield `${head}${(n + i) % 10}${last4}`;
    return;
  }
  for (let i = 0; i < 100_000; i++) {
    const tail = String((n * 7919 + i + 1) % 100_000).padStart(5, '0');
    if (!MAGIC.has(tail.slice(-4))) yield `${head}${tail}`;
  }
}

/** The masked form the dealer desk answers: every digit but the last four as `*`. */
export function maskNationalId(id: string): string {
  return '*'.repeat(Math.max(0, id.length - 4)) + id.slice(-4);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A 1x1 RGB PNG whose one pixel is the counter: distinct for every n below 2^24. */
function fakePng(n: number): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  const row = Buffer.from([0, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(row)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// A 1x1 grey baseline JPEG (after its SOI marker); a comment segment numbers each fake.
const JPEG_BODY = Buffer.from(
  'ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30' +
    '313434341f27393d38323c2e333432' +
    'ffc0000b080001000101011100ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b510000201' +
    '0303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a1617' +
    '18191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788' +
    '898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7' +
    'e8e9eaf1f2f3f4f5f6f7f8f9fa' +
    'ffda0008010100003f002bffd9',
  'hex',
);

function fakeJpeg(n: number): Buffer {
  const text = Buffer.from(`svc redacted image ${n + 1}`, 'latin1');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(text.length + 2);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xfe]), len, text, JPEG_BODY]);
}

/** A tiny image of the original's type (JPEG or PNG; anything else becomes a PNG). */
export function fakeImage(original: Buffer, n: number): Buffer {
  return imageTypeOf(original) === 'image/jpeg' ? fakeJpeg(n) : fakePng(n);
}
