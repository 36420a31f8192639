// Console passkeys and their one-time enrolment codes (migration 023, docs/console.md). Guarantees: an
// enrolment code is stored only as its SHA-256 hash, expires after ENROLMENT_TTL_MS of wall-clock time
// and enrols once (the database refuses a second use); a passkey belongs to one identity and keeps the
// signature counter its last assertion carried. The WebAuthn ceremonies themselves are in
// daemon/console/ceremony.ts; this file only stores what they verified.
import type { Db } from '../store/db.js';
import { newSecret, sha256 } from '../store/crypto.js';
import type { OperatorRealm } from '../contract/route.js';

export const ENROLMENT_TTL_MS = 15 * 60 * 1000;

export interface IdentityRow {
  id: string;
  name: string;
  role: string;
  realm: OperatorRealm;
  broker_id: string | null;
}

export interface PasskeyRow {
  credential_id: string;
  operator_id: string;
  public_key: Buffer;
  counter: number;
  transports: string;
  created_at: string;
  last_used_at: string | null;
}

export function createPasskeyStore(db: Db) {
  const q = {
    identityByRole: db.prepare<[string], IdentityRow>('SELECT id, name, role, realm, broker_id FROM operators WHERE role = ? ORDER BY created_at, id LIMIT 1'),
    identity: db.prepare<[string], IdentityRow>('SELECT id, name, role, realm, broker_id FROM operators WHERE id = ?'),
    putCode: db.prepare('INSERT INTO console_enrolments (code_hash, operator_id, created_at, expires_at_ms) VALUES (?, ?, ?, ?)'),
    code: db.prepare<[string], { operator_id: string; expires_at_ms: number; used_at: string | null }>('SELECT operator_id, expires_at_ms, used_at FROM console_enrolments WHERE code_hash = ?'),
    useCode: db.prepare<[string, string]>('UPDATE console_enrolments SET used_at = ? WHERE code_hash = ? AND used_at IS NULL'),
    put: db.prepare('INSERT INTO console_passkeys (credential_id, operator_id, public_key, counter, transports, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
    get: db.prepare<[string], PasskeyRow>('SELECT * FROM console_passkeys WHERE credential_id = ?'),
    of: db.prepare<[string], PasskeyRow>('SELECT * FROM console_passkeys WHERE operator_id = ? ORDER BY created_at'),
    touch: db.prepare<[number, string, string]>('UPDATE console_passkeys SET counter = ?, last_used_at = ? WHERE credential_id = ?'),
  };

  /** The identity an enrolment code would enrol, while it is unused and unexpired; else null. */
  function enrolmentIdentity(code: string, wallMs: number): IdentityRow | null {
    const row = code.length > 0 && code.length <= 100 ? q.code.get(sha256(code)) : undefined;
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
      q.putCode.run(sha256(code), operatorId, at, expiresAtMs);
      return { code, expiresAtMs };
    },

    enrolmentIdentity,

    /** Uses the code up; false when it was not usable (unknown, used or expired). */
    useEnrolment(code: string, wallMs: number, at: string): boolean {
      if (!enrolmentIdentity(code, wallMs)) return false;
      return q.useCode.run(at, sha256(code)).changes === 1;
    },

    addPasskey(p: { credentialId: string; operatorId: string; publicKey: Uint8Array; counter: number; transports: string[]; at: string }): void {
      q.put.run(p.credentialId, p.operatorId, Buffer.from(p.publicKey), p.counter, JSON.stringify(p.transports), p.at);
    },

    passkey: (credentialId: string): PasskeyRow | null => (credentialId.length <= 1400 ? q.get.get(credentialId) ?? null : null),
    passkeysOf: (operatorId: string): PasskeyRow[] => q.of.all(operatorId),
    recordUse: (credentialId: string, counter: number, at: string): void => void q.touch.run(counter, at, credentialId),
  };
}

export type PasskeyStore = ReturnType<typeof createPasskeyStore>;
