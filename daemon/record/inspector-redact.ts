// What the request inspector shows of a body or a header: secrets and personal data replaced by
// `[redacted:<kind>]` markers, by field name (api keys, signing secrets, passwords, tokens, national
// ids, names, emails, phones, addresses, dates of birth, bank accounts) and by the look of a value
// wherever it appears (a key of ours by its prefix, an email, an Egyptian mobile or national id),
// including JSON carried inside a string (a journal entry's body). Bytes (ID images, snapshots,
// logos) are never shown, only their size and type. Pure functions: docs/inspector.md, "Redaction".

export type RedactionKind =
  | 'credential'
  | 'national_id'
  | 'name'
  | 'email'
  | 'phone'
  | 'address'
  | 'date_of_birth'
  | 'bank_account'
  | 'bytes';

const marker = (kind: RedactionKind) => `[redacted:${kind}]`;

/** Field names (lower case, without `_` and `-`) and what they hold. */
const FIELD_KINDS: Array<[RegExp, RedactionKind]> = [
  [
    new RegExp(
      '(apikey|secret|password|passphrase|token|privatekey|^key$|^(admin|console|dealer|security|approver)key$|' +
        '^authorization$|^kek$|^dek$|^enrolmentcode$)',
    ),
    'credential',
  ],
  [/^nationalid$|^nid$/, 'national_id'],
  [/^(fullname|firstname|lastname|middlename|holdername|accountholder|namear|nameen)$/, 'name'],
  [/(^|contact)email$/, 'email'],
  [/(^|contact)phone$|^mobile$/, 'phone'],
  [/address$/, 'address'],
  [/^(dateofbirth|dob|birthdate)$/, 'date_of_birth'],
  [/^(iban|bankaccount|bankaccountnumber)$/, 'bank_account'],
  [/base64$|^(image|imagebytes|bytes|content)$/, 'bytes'],
];

/** Values that are sensitive wherever they appear, in any string. */
const VALUE_PATTERNS: Array<[RegExp, RedactionKind]> = [
  [/\b(sk|ss|ak|ck)_sbx_[A-Za-z0-9_-]+/g, 'credential'],
  // a console enrolment code (one use, 15 minutes), in a body, a link or a query
  [/\benr_[A-Za-z0-9_-]{16,}/g, 'credential'],
  // bounded runs: an unbounded local part backtracks quadratically over a long run of letters
  [/[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,255}\.[A-Za-z]{2,24}/g, 'email'],
  [/(?<!\d)[23]\d{13}(?!\d)/g, 'national_id'],
  [/(?<![\d+])(\+?20|0)1[0125]\d{8}(?!\d)/g, 'phone'],
];

const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'x-admin-key',
  'x-console-key',
  'x-svc-signature',
  'x-svc-replay-ticket',
  'cookie',
  'proxy-authorization',
]);

/** A base64 run this long is bytes (an image), not text anyone needs to read. */
const LONG_BASE64 = /^[A-Za-z0-9+/=\r\n]{512,}$/;

export function fieldKind(name: string): RedactionKind | null {
  const k = name.toLowerCase().replace(/[_-]/g, '');
  for (const [re, kind] of FIELD_KINDS) if (re.test(k)) return kind;
  return null;
}

/** A string with every sensitive value in it replaced (JSON inside the string is redacted as JSON). */
export function redactString(s: string): string {
  const t = s.trimStart();
  if ((t.startsWith('{') || t.startsWith('[')) && t.length > 1) {
    try {
      return JSON.stringify(redactValue(JSON.parse(s)));
    } catch {
      // not JSON after all: fall through to the text rules
    }
  }
  if (LONG_BASE64.test(s)) return `${marker('bytes')} (${s.length} base64 characters)`;
  let out = s;
  for (const [re, kind] of VALUE_PATTERNS) out = out.replace(re, marker(kind));
  return out;
}

/** A JSON value with every sensitive field and value replaced by a marker. */
export function redactValue(v: unknown): unknown {
  if (typeof v === 'string') return redactString(v);
  if (Array.isArray(v)) return v.map(redactValue);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) {
    const kind = fieldKind(k);
    out[k] =
      kind !== null && val !== null && val !== undefined && typeof val !== 'boolean' ? marker(kind) : redactValue(val);
  }
  return out;
}

/** Text that is not whole JSON (truncated, malformed): `"field": "value"` pairs by name, then values by look. */
export function redactText(s: string): string {
  const t = s.trimStart();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.stringify(redactValue(JSON.parse(s)));
    } catch {
      // keep going with the text rules
    }
  }
  const pairs = s.replace(
    /"([^"\\]{1,64})"(\s*:\s*)("(?:[^"\\]|\\.)*"?|-?\d[\d.eE+-]*)/g,
    (whole, name: string, colon: string) => {
      const kind = fieldKind(name);
      return kind ? `"${name}"${colon}"${marker(kind)}"` : whole;
    },
  );
  let out = pairs;
  for (const [re, kind] of VALUE_PATTERNS) out = out.replace(re, marker(kind));
  return out;
}

function isTextual(contentType: string | null): boolean {
  return contentType === null || /json|^text\/|ndjson|x-www-form-urlencoded/i.test(contentType);
}

/**
 * A body as the inspector shows it: JSON redacted as JSON (parsed, so it reads as a value), other text
 * by the text rules (NDJSON line by line), bytes as a marker with their size and type.
 */
export function redactBody(body: string | Buffer | undefined, contentType: string | null, truncated = false): unknown {
  if (body === undefined || body.length === 0) return null;
  if (Buffer.isBuffer(body) && !isTextual(contentType))
    return `${marker('bytes')} (${body.length} bytes${contentType ? `, ${contentType}` : ''})`;
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
  if (!truncated && /json/i.test(contentType ?? 'json') && !/ndjson/i.test(contentType ?? '')) {
    try {
      return redactValue(JSON.parse(text));
    } catch {
      // malformed JSON: show it as text
    }
  }
  if (/ndjson/i.test(contentType ?? '')) return text.split('\n').map(redactText).join('\n');
  return redactText(text) + (truncated ? ' [truncated]' : '');
}

/** Request headers as strings, credentials replaced. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : String(v);
    if (CREDENTIAL_HEADERS.has(name.toLowerCase())) {
      out[name] =
        name.toLowerCase() === 'authorization' && /^bearer\s/i.test(value)
          ? `Bearer ${marker('credential')}`
          : marker('credential');
    } else out[name] = redactString(value);
  }
  return out;
}
