// Console passkeys and their one-time enrolment codes (migration 023, docs/console.md). Guarantees: an
// enrolment code is stored only as its SHA-256 hash, expires after ENROLMENT_TTL_MS of wall-clock time
// and enrols once (the database refuses a second use); a passkey belongs to one identity and keeps the
// signature counter its last assertion carried. The WebAuthn ceremonies themselves are in
// daemon/console/ceremony.ts; this file only stores what they verified.
//
// Passkey and enrolment rows carry a MAC under a key derived from the KEK (store/row-mac.ts): a
// passkey inserted into svc.db, or moved to another identity, and an enrolment code inserted or
// taken back from used, are treated as absent, so writing the file without kek.key enrols nobody.
import { createHash } from 'node:crypto';
import type { Db } from '../store/db.js';
import { newSecret, sha256 } from '../store/crypto.js';
import { rowMac, rowMacOk, type MacField } from '../store/row-mac.js';
import type { ConsoleEnrolmentsRow, ConsolePasskeysRow, OperatorsRow } from '../store/rows.js';

export const ENROLMENT_TTL_MS = 15 * 60 * 1000;

export type IdentityRow = Pick<OperatorsRow, 'id' | 'name' | 'role' | 'realm' | 'broker_id'>;

export type PasskeyRow = ConsolePasskeysRow;

type EnrolmentRow = ConsoleEnrolmentsRow;

const keyDigest = (publicKey: Uint8Array): string => createHash('sha256').update(publicKey).digest('hex');
const passkeyFields = (
  p: Pick<PasskeyRow, 'credential_id' | 'operator_id' | 'public_key' | 'created_at'>,
): MacField[] => [p.credential_id, p.operator_id, keyDigest(p.public_key), p.created_at];
const enrolmentFields = (e: Omit<EnrolmentRow, 'mac'>): MacField[] => [
  e.code_hash,
  e.operator_id,
  e.created_at,
  e.expires_at_ms,
  e.used_at,
];

/** A KEK rotation: the MAC of every passkey and enrolment row that verifies under `from`, now under `to`. */
export function remacPasskeys(db: Db, from: Buffer, to: Buffer): number {
  let n = 0;
  const putKey = db.prepare('UPDATE console_passkeys SET mac = ? WHERE credential_id = ?');
  for (const p of db.prepare<[], PasskeyRow>('SELECT * FROM console_passkeys').all()) {
    if (!rowMacOk(from, 'console_passkeys', passkeyFields(p), p.mac)) continue;
    putKey.run(rowMac(to, 'console_passkeys', passkeyFields(p)), p.credential_id);
    n++;
  }
  const putCode = db.prepare('UPDATE console_enrolments SET mac = ? WHERE code_hash = ?');
  for (const e of db.prepare<[], EnrolmentRow>('SELECT * FROM console_enrolments').all()) {
    if (!rowMacOk(from, 'console_enrolments', enrolmentFields(e), e.mac)) continue;
    putCode.run(rowMac(to, 'console_enrolments', enrolmentFields(e)), e.code_hash);
    n++;
  }
  return n;
}

/** The passkey store; `kek` is the live key-encryption key (the buffer a rotation rewrites). */
export function createPasskeyStore(db: Db, kek: Buffer) {
  const q = passkeyStatements(db);
  return { ...enrolmentMethods(q, kek), ...passkeyMethods(q, kek) };
}

export type PasskeyStore = ReturnType<typeof createPasskeyStore>;

function passkeyStatements(db: Db) {
  return {
    identityByRole: db.prepare<[string], IdentityRow>(
      'SELECT id, name, role, realm, broker_id FROM operators WHERE role = ? ORDER BY created_at, id LIMIT 1',
    ),
    identity: db.prepare<[string], IdentityRow>('SELECT id, name, role, realm, broker_id FROM operators WHERE id = ?'),
    putCode: db.prepare(
      'INSERT INTO console_enrolments (code_hash, operator_id, created_at, expires_at_ms, mac) VALUES (?, ?, ?, ?, ?)',
    ),
    code: db.prepare<[string], EnrolmentRow>('SELECT * FROM console_enrolments WHERE code_hash = ?'),
    useCode: db.prepare<[string, string, string]>(
      'UPDATE console_enrolments SET used_at = ?, mac = ? WHERE code_hash = ? AND used_at IS NULL',
    ),
    put: db.prepare(
      'INSERT INTO console_passkeys (credential_id, operator_id, public_key, counter, transports, created_at, ' +
        'mac) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    get: db.prepare<[string], PasskeyRow>('SELECT * FROM console_passkeys WHERE credential_id = ?'),
    of: db.prepare<[string], PasskeyRow>('SELECT * FROM console_passkeys WHERE operator_id = ? ORDER BY created_at'),
    touch: db.prepare<[number, string, string]>(
      'UPDATE console_passkeys SET counter = ?, last_used_at = ? WHERE credential_id = ?',
    ),
  };
}

type PasskeyStatements = ReturnType<typeof passkeyStatements>;

/** Identities and their one-time enrolment codes. */
function enrolmentMethods(q: PasskeyStatements, kek: Buffer) {
  /** The enrolment row of a code, when the daemon wrote it (its MAC verifies). */
  function enrolment(code: string): EnrolmentRow | null {
    const row = code.length > 0 && code.length <= 100 ? q.code.get(sha256(code)) : undefined;
    return row && rowMacOk(kek, 'console_enrolments', enrolmentFields(row), row.mac) ? row : null;
  }

  /** The identity an enrolment code would enrol, while it is unused and unexpired; else null. */
  function enrolmentIdentity(code: string, wallMs: number): IdentityRow | null {
    const row = enrolment(code);
    if (!row || row.used_at !== null || row.expires_at_ms <= wallMs) return null;
    return q.identity.get(row.operator_id) ?? null;
  }

  return {
    identityByRole: (role: string): IdentityRow | null => q.identityByRole.get(role) ?? null,
    identity: (id: string): IdentityRow | null => q.identity.get(id) ?? null,

    /** A new one-time code for the identity; answered once, stored hashed. */
    createEnrolment(operatorId: string, wallMs: number, at: string): { code: string; expiresAtMs: number } {
      const code = newSecret('enr_', 18);
      const expiresAtMs = wallMs + ENROLMENT_TTL_MS;
      const row = {
        code_hash: sha256(code),
        operator_id: operatorId,
        created_at: at,
        expires_at_ms: expiresAtMs,
        used_at: null,
      };
      q.putCode.run(
        row.code_hash,
        operatorId,
        at,
        expiresAtMs,
        rowMac(kek, 'console_enrolments', enrolmentFields(row)),
      );
      return { code, expiresAtMs };
    },

    enrolmentIdentity,

    /** Uses the code up; false when it was not usable (unknown, used or expired). */
    useEnrolment(code: string, wallMs: number, at: string): boolean {
      if (!enrolmentIdentity(code, wallMs)) return false;
      const row = enrolment(code)!;
      return (
        q.useCode.run(at, rowMac(kek, 'console_enrolments', enrolmentFields({ ...row, used_at: at })), row.code_hash)
          .changes === 1
      );
    },
  };
}

/** Enrolled passkeys: added, read back only when their MAC verifies, and their use counters. */
function passkeyMethods(q: PasskeyStatements, kek: Buffer) {
  const genuine = (p: PasskeyRow | undefined): p is PasskeyRow =>
    p !== undefined && rowMacOk(kek, 'console_passkeys', passkeyFields(p), p.mac);

  return {
    addPasskey(p: {
      credentialId: string;
      operatorId: string;
      publicKey: Uint8Array;
      counter: number;
      transports: string[];
      at: string;
    }): void {
      const mac = rowMac(
        kek,
        'console_passkeys',
        passkeyFields({
          credential_id: p.credentialId,
          operator_id: p.operatorId,
          public_key: Buffer.from(p.publicKey),
          created_at: p.at,
        }),
      );
      q.put.run(
        p.credentialId,
        p.operatorId,
        Buffer.from(p.publicKey),
        p.counter,
        JSON.stringify(p.transports),
        p.at,
        mac,
      );
    },

    /** A passkey the daemon enrolled (its MAC verifies), else null: an inserted or edited row is no passkey. */
    passkey(credentialId: string): PasskeyRow | null {
      const p = credentialId.length <= 1400 ? q.get.get(credentialId) : undefined;
      return genuine(p) ? p : null;
    },
    passkeysOf: (operatorId: string): PasskeyRow[] => q.of.all(operatorId).filter(genuine),
    recordUse: (credentialId: string, counter: number, at: string): void => void q.touch.run(counter, at, credentialId),
  };
}
