// Operator keys (docs/backoffice.md, "Sessions and keys"): a holder of operator-keys:rotate gives an
// identity a new key (answered once; the old one is unknown from the next request on, its grants and
// step-up secret stay); a holder of operator-keys:revoke revokes an identity's key for good (its next
// request is 401 KEY_REVOKED) and ends its console sessions in the same transaction. Both audited.
import type { Deps } from '../deps.js';
import type { Operator } from '../contract/route.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { revokeSessions } from './sessions.js';
import type { OperatorsRow } from '../store/rows.js';

type D = Pick<Deps, 'db' | 'kek' | 'keys' | 'audit' | 'nowIso' | 'wallNow'>;

type IdentityRow = Pick<OperatorsRow, 'id' | 'name' | 'role' | 'realm' | 'revoked_at'>;

const identity = (deps: D, id: string) =>
  deps.db
    .prepare<[string], IdentityRow>('SELECT id, name, role, realm, revoked_at FROM operators WHERE id = ?')
    .get(id);

export interface RotatedKey {
  identity_id: string;
  name: string;
  role: string;
  realm: string;
  operator_key: string;
  rotated_at: string;
}

export function rotateKey(deps: D, op: Operator, identityId: string): Outcome<RotatedKey> {
  const who = identity(deps, identityId);
  if (!who) return refuse('NOT_FOUND', `No identity ${identityId}.`);
  if (who.revoked_at !== null)
    return refuse(
      'KEY_REVOKED',
      `The key of ${who.name} was revoked at ${who.revoked_at}; a revoked identity stays revoked.`,
    );
  const key = deps.keys.rotateOperatorKey(identityId)!;
  deps.audit.append({
    actor: `operator:${op.name}`,
    action: 'operator_key.rotated',
    subject: identityId,
    detail: { identity: who.name, grant: 'operator-keys:rotate' },
  });
  return ok({
    identity_id: who.id,
    name: who.name,
    role: who.role,
    realm: who.realm,
    operator_key: key,
    rotated_at: deps.nowIso(),
  });
}

export interface RevokedKey {
  identity_id: string;
  name: string;
  revoked_at: string;
  revoked_by: string;
  sessions_revoked: string[];
}

export function revokeKey(deps: D, op: Operator, identityId: string): Outcome<RevokedKey> {
  const who = identity(deps, identityId);
  if (!who) return refuse('NOT_FOUND', `No identity ${identityId}.`);
  if (who.id === op.id)
    return refuse(
      'VALIDATION_FAILED',
      'An identity cannot revoke its own key: ask another holder of operator-keys:revoke.',
    );
  if (who.revoked_at !== null)
    return refuse('KEY_REVOKED', `The key of ${who.name} was already revoked at ${who.revoked_at}.`);
  deps.keys.revokeOperatorKey(identityId, op.id);
  const s = revokeSessions(deps, { identity_id: identityId }, op.id, deps.wallNow());
  const sessions = s.ok ? s.value.revoked : [];
  deps.audit.append({
    actor: `operator:${op.name}`,
    action: 'operator_key.revoked',
    subject: identityId,
    detail: { identity: who.name, grant: 'operator-keys:revoke', sessions_revoked: sessions.length },
  });
  return ok({
    identity_id: who.id,
    name: who.name,
    revoked_at: deps.nowIso(),
    revoked_by: op.name,
    sessions_revoked: sessions,
  });
}
