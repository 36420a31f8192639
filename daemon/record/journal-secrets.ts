// What the request journal keeps of an answer that shows a secret once (docs/snapshots.md, the
// `response` field): the secret reads "[secret]" (JOURNAL_SECRET), so the journal never holds it, even
// sealed. Two kinds:
// - keys: the `api_key` and `signing_secret` of a provisioned tenant, a rotated `operator_key`;
// - one-time enrolment codes of the browser console (`enrolment_token` of POST
//   /admin/console/enrolments; `enrolment_code` in the `answered_once` of a console-users:manage or
//   passkey:unlock approval): an object that holds one has the code, its link (`enrolment_path`, which
//   carries it) and its wall-clock expiry (`expires_at`, which a replay cannot reproduce) redacted.
// The shape stays: a replay compares the redacted answer field by field, "[secret]" matching anything.
import { JOURNAL_SECRET } from '../contract/journal.js';

const KEYS = new Set(['api_key', 'signing_secret', 'operator_key']);
const ONE_TIME_CODES = ['enrolment_token', 'enrolment_code'];
const WITH_A_CODE = new Set([...ONE_TIME_CODES, 'enrolment_path', 'expires_at']);
// One pass over the answer for any of the names (a search per name cost five scans of every answer).
const NAMED = new RegExp(`"(?:${[...KEYS, ...ONE_TIME_CODES].join('|')})"`);

function redact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redact);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const holdsCode = ONE_TIME_CODES.some((k) => typeof o[k] === 'string');
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) {
    const secret = typeof x === 'string' && (KEYS.has(k) || (holdsCode && WITH_A_CODE.has(k)));
    out[k] = secret ? JOURNAL_SECRET : redact(x);
  }
  return out;
}

/** The answer's JSON text as the journal keeps it: unchanged unless it names a secret field. */
export function journalResponse(json: string): string {
  if (!NAMED.test(json)) return json;
  try {
    return JSON.stringify(redact(JSON.parse(json)));
  } catch {
    return JSON.stringify(JOURNAL_SECRET); // not JSON (the pipeline records JSON answers only): keep nothing of it
  }
}
