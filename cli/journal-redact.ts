// `svc sandbox journal --redact` (docs/snapshots.md, "Redaction"): a journal that can leave the
// tenant's hands. Every national id, name, email, phone, address and ID image in the entries' request
// bodies and recorded answers is replaced by a fake (cli/journal-fakes.ts); the same value gets the
// same fake everywhere in the file (the application's name and the investor's name in later answers,
// a national id and its masked form on the dealer desk, an image and its sha256 and size), and two
// different values never share one, so the redacted journal replays to the same statuses and the same
// bodies. What stays: dates of birth (a national id's fake keeps the birth date it encodes, since the
// rules read it), ids, amounts, times, and everything that is not personal data.
import { createHash } from 'node:crypto';
import type { JournalEntry } from '../daemon/contract/journal.js';
import {
  fakeAddress,
  fakeEmail,
  fakeImage,
  fakeName,
  fakePhone,
  maskNationalId,
  nationalIdCandidates,
} from './journal-fakes.js';

type Kind = 'name' | 'national_id' | 'email' | 'phone' | 'address';

/** The fields whose string value is personal data, by name, wherever they appear in a body. */
const FIELDS: Readonly<Record<string, Kind>> = {
  full_name: 'name',
  national_id: 'national_id',
  email: 'email',
  contact_email: 'email',
  phone: 'phone',
  contact_phone: 'phone',
  address: 'address',
};

/** Upload routes whose raw body is an ID image. */
const DOCUMENT_PATH = /^\/v1\/kyc\/applications\/[^/]+\/documents\/[^/]+$/;

export interface RedactionCounts {
  names: number;
  national_ids: number;
  emails: number;
  phones: number;
  addresses: number;
  images: number;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function sameLengthDigits(original: string, n: number): string {
  return String(n + 1)
    .padStart(original.length, '0')
    .slice(-original.length);
}

/** One fake per value and kind, never one for two values; `known` maps every original (and derived form) to its fake.
 * */
function createFakeBook(known: Map<string, string>) {
  const fakes: Record<Kind, Map<string, string>> = {
    name: new Map(),
    national_id: new Map(),
    email: new Map(),
    phone: new Map(),
    address: new Map(),
  };
  const used: Record<Kind, Set<string>> = {
    name: new Set(),
    national_id: new Set(),
    email: new Set(),
    phone: new Set(),
    address: new Set(),
  };

  function candidates(kind: Kind, original: string, n: number): Iterable<string> {
    if (kind === 'national_id')
      return original.length === 14 ? nationalIdCandidates(original, n) : [sameLengthDigits(original, n)];
    const one =
      kind === 'name'
        ? fakeName(n)
        : kind === 'email'
          ? fakeEmail(n)
          : kind === 'phone'
            ? fakePhone(original, n)
            : fakeAddress(n);
    return [one];
  }

  return {
    fakeOf(kind: Kind, original: string): string {
      const seen = fakes[kind].get(original) ?? known.get(original);
      if (seen !== undefined) return seen;
      const first = fakes[kind].size;
      for (let n = first; ; n++) {
        if (n > first + 100_000) throw new Error(`journal --redact: no fake left for a ${kind}`);
        const fake = [...candidates(kind, original, n)].find((c) => c !== original && !used[kind].has(c));
        if (fake === undefined) continue;
        fakes[kind].set(original, fake);
        used[kind].add(fake);
        known.set(original, fake);
        if (kind === 'national_id') known.set(maskNationalId(original), maskNationalId(fake));
        return fake;
      }
    },
    count: (kind: Kind): number => fakes[kind].size,
  };
}

/** ID images: one tiny fake per distinct image; its digest replaces the original's, its size is kept for size_bytes. */
function createImageBook(known: Map<string, string>, sizes: Map<string, number>) {
  let images = 0;
  return {
    redact(base64: string): string {
      const original = Buffer.from(base64, 'base64');
      const digest = sha256(original);
      const seen = known.get(`image:${digest}`);
      if (seen !== undefined) return seen;
      const fake = fakeImage(original, images++);
      const fakeDigest = sha256(fake);
      known.set(digest, fakeDigest);
      known.set(`image:${digest}`, fake.toString('base64'));
      sizes.set(fakeDigest, fake.length);
      return fake.toString('base64');
    },
    count: (): number => images,
  };
}

export function createRedactor() {
  /** Every original value seen (and derived forms: masked ids, image digests) -> its fake. */
  const known = new Map<string, string>();
  /** A fake image's digest -> its size, to correct the size_bytes next to it. */
  const sizes = new Map<string, number>();
  const book = createFakeBook(known);
  const images = createImageBook(known, sizes);

  function walk(v: unknown, key: string | null): unknown {
    if (typeof v === 'string') {
      const kind = key === null ? undefined : FIELDS[key];
      if (kind) return book.fakeOf(kind, v);
      if (key === 'national_id_masked') return known.get(v) ?? '*'.repeat(v.length);
      return known.get(v) ?? v;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, null));
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, k);
    if (typeof out.sha256 === 'string' && typeof out.size_bytes === 'number' && sizes.has(out.sha256))
      out.size_bytes = sizes.get(out.sha256);
    return out;
  }

  /** JSON text redacted field by field; text that is not JSON is left as it is (it never reached a handler as JSON). */
  function redactText(text: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return text;
    }
    return JSON.stringify(walk(parsed, null));
  }

  return {
    /** The entry with its body and recorded answer redacted; call in journal order. */
    entry(e: JournalEntry): JournalEntry {
      const out: JournalEntry = { ...e };
      if (e.body !== null) out.body = redactText(e.body);
      if (e.body_base64 !== null && DOCUMENT_PATH.test(e.path)) out.body_base64 = images.redact(e.body_base64);
      if (typeof e.response === 'string') out.response = redactText(e.response);
      return out;
    },
    counts(): RedactionCounts {
      return {
        names: book.count('name'),
        national_ids: book.count('national_id'),
        emails: book.count('email'),
        phones: book.count('phone'),
        addresses: book.count('address'),
        images: images.count(),
      };
    },
  };
}
