// What any text a request carries may hold (docs/api.md, "Conventions"): well-formed Unicode (no
// unpaired surrogate, which JSON can spell as "\ud800" and which would be stored as U+FFFD), and no
// control character but tab and line feed: C0 (NUL, ESC, CR ...), DEL and C1 (U+0080-U+009F). The
// request pipeline checks every string of a request's params, query and body with it, object keys
// included, before any schema sees them (daemon/http/reply.ts), so the rule holds for every route's
// every field without each schema repeating it.

/** The first character a text may not hold, as "U+XXXX" with what it is; null when the text is fine. */
export function badCharacter(s: string): string | null {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return `${hex(c)} (an unpaired surrogate: not Unicode text)`;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return `${hex(c)} (an unpaired surrogate: not Unicode text)`;
    if (c === 0x09 || c === 0x0a) continue;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return `${hex(c)} (a control character)`;
  }
  return null;
}

const hex = (c: number): string => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;

export interface BadText {
  /** Where, from the part's root: keys and array indices. */
  path: Array<string | number>;
  /** Whether the character is in an object's key rather than in a value. */
  inKey: boolean;
  what: string;
}

interface Node {
  v: unknown;
  up: Node | null;
  key: string | number;
}

const pathOf = (n: Node | null): Array<string | number> => {
  const out: Array<string | number> = [];
  for (let x = n; x?.up; x = x.up) out.push(x.key);
  return out.reverse();
};

/**
 * Whether a JSON body's raw text may hold text to refuse once parsed: JSON.parse refuses a raw control
 * character below U+0020 inside a string and the body parser refuses bytes that are not UTF-8 (so no raw
 * lone surrogate), which leaves an escape (`\u0000`, `\ud800`, but also `\r`, `\b`, `\f`) and a raw DEL or
 * C1. A body without a backslash, a DEL or a C1 (almost every request) is clean without walking it;
 * anything else (text that is not a string included) is walked.
 */
export function mayHoldBadText(raw: unknown): boolean {
  if (typeof raw !== 'string') return true;
  // two substring searches and, for a body that is not all ASCII, one class: about half the cost of a
  // single regular expression over the whole body (measured: docs/reliability.md, "Every text field ...")
  return raw.includes('\\') || raw.includes('\x7f') || (Buffer.byteLength(raw, 'utf8') !== raw.length && C1.test(raw));
}

const C1 = /[\x80-\x9f]/;

/** A character that may be refused: a control but tab and line feed, DEL, C1, or any surrogate. */
const SUSPECT = /[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]/;

/**
 * The fast path every request takes: true when no string (value or key) holds a suspect character, in
 * one regular-expression test per string and no allocation. A suspect (a valid surrogate pair is one)
 * or a value nested deeper than 32 sends the request to the exact walk below.
 */
function plainlyClean(v: unknown, depth: number): boolean {
  if (typeof v === 'string') return !SUSPECT.test(v);
  if (v === null || typeof v !== 'object') return true;
  if (depth > 32) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (!plainlyClean(x, depth + 1)) return false;
    return true;
  }
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    if (SUSPECT.test(k) || !plainlyClean((v as Record<string, unknown>)[k], depth + 1)) return false;
  }
  return true;
}

/**
 * The first string (value or key) of a parsed JSON value that holds a character text may not hold, in
 * document order. The exact walk is iterative, and each node links to its parent (the path is built
 * only for a find), so a value nested thousands deep is walked to the bottom in linear time.
 */
export function findBadText(value: unknown): BadText | null {
  if (plainlyClean(value, 0)) return null;
  const stack: Node[] = [{ v: value, up: null, key: '' }];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const v = n.v;
    if (typeof v === 'string') {
      const what = badCharacter(v);
      if (what) return { path: pathOf(n), inKey: false, what };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], up: n, key: i });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (const [k] of entries) {
        const what = badCharacter(k);
        if (what) return { path: pathOf(n), inKey: true, what };
      }
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ v: entries[i][1], up: n, key: entries[i][0] });
    }
  }
  return null;
}
