// Generated unique values for scenarios: `${unique.KIND}` or `${unique.KIND.LABEL}` (docs/scenarios.md,
// "Unique values"). Each value is a hash of the run's nonce, the kind and the label: the same reference
// gives the same value within one file's run, and another nonce gives other values. An isolated run
// uses a nonce derived from the file's seed (so its report stays byte-identical from run to run); a run
// --against a sandbox uses a random nonce per file and run (so a file re-runs against the same
// sandbox without colliding with what its last run created).
import { createHash } from 'node:crypto';
import { GOVERNORATES } from '../../daemon/contract/kyc.js';

export const UNIQUE_KINDS = ['national_id', 'date_of_birth', 'phone', 'email', 'key'] as const;
export type UniqueKind = (typeof UNIQUE_KINDS)[number];

const LABEL_RE = /^[A-Za-z0-9_-]+$/;

/** Why `${unique...}` with these path segments (after `unique`) is not a unique reference, or undefined when it is one.
 * */
export function uniqueRefProblem(rest: ReadonlyArray<string | number>): string | undefined {
  const kinds = UNIQUE_KINDS.join(', ');
  if (rest.length === 0 || rest.length > 2)
    return `write \${unique.KIND} or \${unique.KIND.LABEL}, KIND one of ${kinds}`;
  if (!(UNIQUE_KINDS as readonly string[]).includes(String(rest[0])))
    return `unknown kind "${String(rest[0])}"; one of ${kinds}`;
  if (rest.length === 2 && !LABEL_RE.test(String(rest[1])))
    return `the label "${String(rest[1])}" is letters, digits, _ and -`;
  return undefined;
}

function digest(nonce: string, kind: string, label: string): Buffer {
  return createHash('sha256').update(`svc-scenario-unique\0${nonce}\0${kind}\0${label}`).digest();
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const GOVERNORATE_CODES = Object.keys(GOVERNORATES).sort();
/** Birth dates from 1 January 1950 to 31 December 1999: century digit 2, an adult on any sandbox date from 2018 on. */
const FIRST_BIRTH_MS = Date.UTC(1950, 0, 1);
const BIRTH_DAYS = 18_262;

/** A national id the daemon accepts (century 2, a real birth date, a known governorate), never ending 0000 or 9999 (the
 * sandbox's magic review suffixes). */
export function uniqueNationalId(nonce: string, label: string): { nationalId: string; dateOfBirth: string } {
  const h = digest(nonce, 'national_id', label);
  const birth = new Date(FIRST_BIRTH_MS + (h.readUInt32BE(0) % BIRTH_DAYS) * 86_400_000);
  const [y, m, d] = [birth.getUTCFullYear(), birth.getUTCMonth() + 1, birth.getUTCDate()];
  const gov = GOVERNORATE_CODES[h.readUInt32BE(4) % GOVERNORATE_CODES.length];
  // five digits: a three-digit serial, the gender digit and the check digit; the last four avoid 0000 and 9999
  const serial = 1 + (h.readUInt32BE(8) % 99_998);
  let tail = pad(serial, 5);
  if (tail.endsWith('0000') || tail.endsWith('9999')) tail = `${tail.slice(0, 4)}5`;
  return { nationalId: `2${pad(y % 100)}${pad(m)}${pad(d)}${gov}${tail}`, dateOfBirth: `${y}-${pad(m)}-${pad(d)}` };
}

/** The value of `${unique.KIND}` (label '') or `${unique.KIND.LABEL}` under a nonce. */
export function uniqueValue(nonce: string, kind: UniqueKind, label: string): string {
  switch (kind) {
    case 'national_id':
      return uniqueNationalId(nonce, label).nationalId;
    case 'date_of_birth':
      // the birth date encoded in ${unique.national_id.LABEL}: the daemon checks the two agree
      return uniqueNationalId(nonce, label).dateOfBirth;
    case 'phone':
      return `010${pad(digest(nonce, kind, label).readUInt32BE(0) % 100_000_000, 8)}`;
    case 'email':
      return (
        `${label === '' ? 'investor' : label.toLowerCase().replace(/_/g, '-')}.` +
        `${digest(nonce, kind, label).toString('hex').slice(0, 12)}@example.com`
      );
    case 'key':
      return `scn-${digest(nonce, kind, label).toString('hex').slice(0, 24)}`;
  }
}
