// Operator identities' authority and second factor (docs/backoffice.md). Grants live in
// operator_grants, one standing row per grant and scope, given by a role of daemon/contract/grants.ts,
// and beside it at most one lapsing row (break-glass; migration 038), so a grant that lapses never
// replaces, and never takes with it, the identity's own grant of the same name and scope. They are
// read on every operator request (never cached), so a revocation or an expired break-glass grant takes
// effect at the next request. Step-up: each identity has a TOTP secret (RFC 6238, otpauth), sealed
// under the key-encryption key; a code is accepted within one 30 s step of the wall clock and once:
// the last accepted step is stored, and a code of that step or an earlier one is refused as reused. A
// code accepted opens the key's 5-minute step-up window (step-up-window.ts).
import { Secret } from 'otpauth';
import type { Db } from '../store/db.js';
import { open, seal } from '../store/crypto.js';
import { ROLES, STEP_UP_TOTP, stepOf, stepUpTotp, type RoleName, type Scope } from '../contract/grants.js';
import type { OperatorGrantsRow } from '../store/rows.js';

export type StepUpCheck = 'ok' | 'missing' | 'wrong' | 'reused' | 'no_secret';

export type GrantRow = OperatorGrantsRow;

export function createIdentityStore(db: Db, kek: Buffer, nowIso: () => string) {
  const q = {
    grants: db.prepare<[string, string], GrantRow>(
      'SELECT * FROM operator_grants WHERE operator_id = ? AND (expires_at IS NULL OR expires_at > ?)',
    ),
    grant: db.prepare(
      'INSERT OR REPLACE INTO operator_grants (operator_id, grant_name, scope, role, granted_at, expires_at, ' +
        'review_required) VALUES (?,?,?,?,?,?,?)',
    ),
    revoke: db.prepare<[string, string, string]>(
      'DELETE FROM operator_grants WHERE operator_id = ? AND grant_name = ? AND scope = ?',
    ),
    secret: db.prepare<[string], { secret_sealed: Buffer; last_step: number }>(
      'SELECT secret_sealed, last_step FROM operator_step_up WHERE operator_id = ?',
    ),
    putSecret: db.prepare(
      'INSERT OR REPLACE INTO operator_step_up (operator_id, secret_sealed, last_step) VALUES (?, ?, -1)',
    ),
    useStep: db.prepare<[number, string, number]>(
      'UPDATE operator_step_up SET last_step = ? WHERE operator_id = ? AND last_step < ?',
    ),
  };

  /** The scopes each grant is held in, now (expired grants left out). */
  function scopesOf(operatorId: string): Map<string, Scope[]> {
    const m = new Map<string, Scope[]>();
    for (const r of q.grants.all(operatorId, nowIso())) {
      const held = m.get(r.grant_name) ?? [];
      if (!held.includes(r.scope)) m.set(r.grant_name, [...held, r.scope]);
    }
    return m;
  }

  /**
   * Gives an identity every grant of a role in one scope; call inside a transaction. With `expiresAt`
   * the rows lapse and sit beside the standing ones (replacing only an earlier lapsing row).
   */
  function assignRole(
    operatorId: string,
    role: RoleName,
    scope: Scope,
    opts: { expiresAt?: string; review?: boolean } = {},
  ): void {
    const at = nowIso();
    for (const g of ROLES[role].grants)
      q.grant.run(operatorId, g, scope, role, at, opts.expiresAt ?? null, opts.review ? 1 : 0);
  }

  /** A new step-up secret for the identity (replacing any other); answered once, kept sealed. */
  function issueStepUpSecret(operatorId: string): string {
    const secret = new Secret({ size: 20 }).base32;
    q.putSecret.run(operatorId, seal(kek, Buffer.from(secret), `stepup:${operatorId}`));
    return secret;
  }

  /** Checks a step-up code at a wall-clock instant and, when it is good, uses it up. */
  function checkStepUp(operatorId: string, code: string | undefined, wallMs: number): StepUpCheck {
    if (code === undefined || code === '') return 'missing';
    const row = q.secret.get(operatorId);
    if (!row) return 'no_secret';
    if (!/^\d{6}$/.test(code)) return 'wrong';
    const secret = open(kek, row.secret_sealed, `stepup:${operatorId}`).toString('utf8');
    const delta = stepUpTotp(secret).validate({ token: code, timestamp: wallMs, window: STEP_UP_TOTP.window });
    if (delta === null) return 'wrong';
    const step = stepOf(wallMs) + delta;
    if (step <= row.last_step) return 'reused';
    return q.useStep.run(step, operatorId, step).changes === 1 ? 'ok' : 'reused';
  }

  return {
    scopesOf,
    assignRole,
    revokeGrant: (operatorId: string, grant: string, scope: Scope) =>
      q.revoke.run(operatorId, grant, scope).changes > 0,
    grantRows: (operatorId: string): GrantRow[] => q.grants.all(operatorId, nowIso()),
    issueStepUpSecret,
    checkStepUp,
  };
}

export type IdentityStore = ReturnType<typeof createIdentityStore>;
