// Credentials: tenants with their api keys and signing secrets, and operator identities with their
// grants (docs/api.md, "Authentication"). Guarantees: no key or secret is stored in clear (api and
// operator keys as SHA-256 hashes, signing secrets sealed under the tenant's data key, which is sealed
// under the key-encryption key); a key is returned once, when it is created; an operator holds exactly
// its role's grants in its scope, read from operator_grants on every request (identities.ts). Lookups
// are cached in memory: every request authenticates, and a Map hit costs
// nothing next to a query.
import type { Db } from '../store/db.js';
import type { IdGen } from '../sim/ids.js';
import type { Operator, OperatorRealm } from '../contract/route.js';
import { newKey, newSecret, open, pairKey, seal, sha256 } from '../store/crypto.js';
import { ROLES } from '../contract/grants.js';
import { createIdentityStore, type IdentityStore } from './identities.js';
import { createStepUpWindows } from './step-up-window.js';
import type { OperatorsRow } from '../store/rows.js';

/** The roles that have a bootstrap identity (key) each; every role is in daemon/contract/grants.ts. */
export const OPERATOR_ROLES = {
  admin: ROLES.admin,
  dealer: ROLES.dealer,
  security: ROLES.security,
  approver: ROLES.approver,
  compliance: ROLES.compliance,
  auditor: ROLES.auditor,
} as const;

export type OperatorRole = keyof typeof OPERATOR_ROLES;

export interface TenantCredentials {
  tenant_id: string;
  name: string;
  api_key: string;
  signing_secret: string;
}

type OperatorRow = OperatorsRow;

type KeyStoreDeps = { db: Db; ids: IdGen; kek: Buffer; nowIso: () => string };

/** An operator key's identity as cached; its grants are filled in on each lookup. */
type KeyOperator = Operator & { realm: OperatorRealm; revoked?: boolean; disabled?: boolean };

function keyOperatorOf(row: OperatorRow): KeyOperator {
  const op: KeyOperator = {
    id: row.id,
    name: row.name,
    role: row.role,
    realm: row.realm,
    brokerId: row.broker_id,
    grants: new Set<string>(),
  };
  if (row.revoked_at !== null) op.revoked = true;
  if (row.disabled_at !== null) op.disabled = true; // console-users:disable clears this cache
  return op;
}

function credentialStatements(db: Db) {
  return {
    key: db.prepare<[string], { tenant_id: string }>(
      'SELECT tenant_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL',
    ),
    secrets: db.prepare<[string], { secret_enc: Buffer }>(
      'SELECT secret_enc FROM signing_secrets WHERE tenant_id = ? AND revoked_at IS NULL ORDER BY id DESC',
    ),
    dek: db.prepare<[string], { dek_wrapped: Buffer; dek_next_wrapped: Buffer | null }>(
      'SELECT dek_wrapped, dek_next_wrapped FROM tenants WHERE id = ?',
    ),
    operator: db.prepare<[string], OperatorRow>('SELECT * FROM operators WHERE key_hash = ?'),
  };
}

/**
 * The lookups every request makes (bearer key, signing secrets, operator key, tenant data key), each
 * cached after its first query. Credentials are never edited in place and a sandbox reset keeps them,
 * so an entry stays true while the daemon runs; clearCaches is for code that replaces the tables
 * underneath (nothing does today).
 */
function createCredentialCache(db: Db, kek: Buffer, identities: IdentityStore) {
  const tenantByKey = new Map<string, string>();
  const secretsByTenant = new Map<string, string[]>();
  const operatorByKey = new Map<string, KeyOperator>();
  const dekCache = new Map<string, Buffer>();
  const q = credentialStatements(db);

  /**
   * The key to seal the tenant's values under. While a keys:rotate-dek re-seals them in slices it is
   * the next data key, paired with the current one (crypto.ts pairKey), so values under either open.
   */
  function tenantDek(tenantId: string): Buffer {
    let dek = dekCache.get(tenantId);
    if (!dek) {
      const row = q.dek.get(tenantId);
      if (!row) throw new Error(`unknown tenant ${tenantId}`);
      const current = open(kek, row.dek_wrapped, `dek:${tenantId}`);
      dek = row.dek_next_wrapped ? open(kek, row.dek_next_wrapped, `dek:${tenantId}`) : current;
      if (dek !== current) pairKey(dek, current);
      dekCache.set(tenantId, dek);
    }
    return dek;
  }

  return {
    /** The tenant owning this api key, or null. */
    tenantForKey(apiKey: string): string | null {
      // Cached by the presented key itself: hashing on every request costs more than the rest of a read.
      const hit = tenantByKey.get(apiKey);
      if (hit) return hit;
      if (apiKey.length > 200) return null;
      const row = q.key.get(sha256(apiKey));
      if (row) tenantByKey.set(apiKey, row.tenant_id);
      return row?.tenant_id ?? null;
    },

    signingSecrets(tenantId: string): string[] {
      let s = secretsByTenant.get(tenantId);
      if (!s) {
        const dek = tenantDek(tenantId);
        s = q.secrets.all(tenantId).map((r) => open(dek, r.secret_enc, `secret:${tenantId}`).toString('utf8'));
        secretsByTenant.set(tenantId, s);
      }
      return s;
    },

    /** The identity of an operator key, with the grants it holds now (never cached: revocations bite at once). */
    operatorForKey(key: string): KeyOperator | null {
      const h = sha256(key);
      let op = operatorByKey.get(h);
      if (!op) {
        const row = q.operator.get(h);
        if (!row) return null;
        op = keyOperatorOf(row);
        operatorByKey.set(h, op);
      }
      if (op.revoked || op.disabled) return { ...op, grants: new Set<string>() };
      const scopes = identities.scopesOf(op.id);
      return { ...op, scopes, grants: new Set(scopes.keys()) };
    },

    tenantDek,

    clearCaches() {
      tenantByKey.clear();
      secretsByTenant.clear();
      operatorByKey.clear();
      dekCache.clear();
    },
  };
}

/** Creates a tenant with a fresh DEK, api key and signing secret; call inside a transaction. */
function createTenant(deps: KeyStoreDeps, name: string): TenantCredentials {
  const { db, ids, kek, nowIso } = deps;
  const id = ids.next('tnt');
  const dek = newKey();
  const at = nowIso();
  db.prepare('INSERT INTO tenants (id, name, dek_wrapped, created_at) VALUES (?, ?, ?, ?)').run(
    id,
    name,
    seal(kek, dek, `dek:${id}`),
    at,
  );
  const apiKey = newSecret('sk_sbx_');
  const secret = newSecret('ss_sbx_', 32);
  db.prepare('INSERT INTO api_keys (key_hash, tenant_id, created_at) VALUES (?, ?, ?)').run(sha256(apiKey), id, at);
  db.prepare('INSERT INTO signing_secrets (tenant_id, secret_enc, created_at) VALUES (?, ?, ?)').run(
    id,
    seal(dek, Buffer.from(secret), `secret:${id}`),
    at,
  );
  return { tenant_id: id, name, api_key: apiKey, signing_secret: secret };
}

/** Creates an operator identity holding its role (scoped to its broker, if any); returns its key and step-up secret. */
function createOperator(
  deps: Omit<KeyStoreDeps, 'kek'> & { identities: IdentityStore },
  name: string,
  role: OperatorRole,
  brokerId: string | null,
): { id: string; key: string; stepUpSecret: string } {
  const { realm, grants } = OPERATOR_ROLES[role];
  const id = deps.ids.next('opr');
  const key = newSecret(realm === 'admin' ? 'ak_sbx_' : 'ck_sbx_');
  deps.db
    .prepare(
      'INSERT INTO operators (id, name, role, realm, key_hash, grants, broker_id, created_at) VALUES (?,?,?,?,?,?,?,?)',
    )
    .run(id, name, role, realm, sha256(key), JSON.stringify(grants), brokerId, deps.nowIso());
  deps.identities.assignRole(id, role, brokerId ? `broker:${brokerId}` : 'global');
  return { id, key, stepUpSecret: deps.identities.issueStepUpSecret(id) };
}

/**
 * Replaces an identity's key (its grants and step-up secret stay); answers the new key, once. The old
 * key is unknown from now on. A revoked identity's key cannot be rotated (null).
 */
function rotateOperatorKey(db: Db, nowIso: () => string, operatorId: string): string | null {
  const row = db
    .prepare<[string], { realm: OperatorRealm; revoked_at: string | null }>(
      'SELECT realm, revoked_at FROM operators WHERE id = ?',
    )
    .get(operatorId);
  if (!row || row.revoked_at !== null) return null;
  const key = newSecret(row.realm === 'admin' ? 'ak_sbx_' : 'ck_sbx_');
  db.prepare('UPDATE operators SET key_hash = ?, key_rotated_at = ? WHERE id = ?').run(
    sha256(key),
    nowIso(),
    operatorId,
  );
  return key;
}

export function createKeyStore(db: Db, ids: IdGen, kek: Buffer, nowIso: () => string) {
  const identities = createIdentityStore(db, kek, nowIso);
  const deps = { db, ids, kek, nowIso, identities };
  const tenantByName = db.prepare<[string], { id: string }>('SELECT id FROM tenants WHERE name = ?');
  const cache = createCredentialCache(db, kek, identities);
  const stepUpWindow = createStepUpWindows(db, kek);
  return {
    ...cache,
    identities,
    /** Machine keys' step-up windows (step-up-window.ts). */
    stepUpWindow,
    /** A new key for the identity (null: unknown or revoked); the old one stops working at once, and its step-up window
     * with it. */
    rotateOperatorKey: (operatorId: string): string | null => {
      const key = rotateOperatorKey(db, nowIso, operatorId);
      if (key !== null) stepUpWindow.end(operatorId);
      cache.clearCaches();
      return key;
    },
    /** Revokes the identity's key for good (false: unknown or already revoked); refused at its next request, its
     * step-up window ended now. */
    revokeOperatorKey: (operatorId: string, by: string): boolean => {
      const n = db
        .prepare('UPDATE operators SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL')
        .run(nowIso(), by, operatorId).changes;
      stepUpWindow.end(operatorId);
      cache.clearCaches();
      return n === 1;
    },
    checkStepUp: (operatorId: string, code: string | undefined, wallMs: number) =>
      identities.checkStepUp(operatorId, code, wallMs),
    tenantExists: (name: string): boolean => tenantByName.get(name) !== undefined,
    createTenant: (name: string): TenantCredentials => createTenant(deps, name),
    createOperator: (name: string, role: OperatorRole, brokerId: string | null) =>
      createOperator(deps, name, role, brokerId),
  };
}

export type KeyStore = ReturnType<typeof createKeyStore>;
