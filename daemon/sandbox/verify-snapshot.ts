// Verifies a snapshot before `svc sandbox import` lets it into a home (docs/snapshots.md, "Import").
// A snapshot is trusted to contain nothing: anyone can write one, and an import runs its database
// under the daemon with the user's keys. So it is accepted only when it is what an export of this
// svc writes: the container checks out (sizes bounded by the manifest, checksums), the database is
// sound and is the sandbox the manifest names, its schema is exactly what the migrations produce at
// its version (no extra trigger multiplying deposits, no guard trigger dropped), the audit chain
// verifies, the ledger invariants hold, every sealed secret opens under the snapshot's KEK, and the
// credentials file names keys this database holds. Reads only: the database is opened in memory.
import { openSqlite } from '../store/sqlite.js';
import { SnapshotError, unpackSnapshot, type SnapshotManifest } from '../contract/snapshot.js';
import { createAudit } from '../store/audit.js';
import { open, sha256 } from '../store/crypto.js';
import { LATEST_SCHEMA_VERSION, type Db } from '../store/db.js';
import { schemaProblem } from '../store/schema-check.js';
import { checkLedgerInvariants } from '../ledger/invariants.js';
import type { SigningSecretsRow } from '../store/rows.js';

export type Verdict = { ok: true; manifest: SnapshotManifest } | { ok: false; problem: string };

/** A check's answer: null when it holds, else what is wrong. */
type Problem = string | null;

/** The bootstrap's credentials file: these fields and no others. */
const OPERATOR_ROLE_NAMES = ['admin', 'dealer', 'security', 'approver', 'compliance', 'auditor'];
const OPERATOR_KEY_FIELDS = OPERATOR_ROLE_NAMES.map((r) => `${r}_key`);
const STEP_UP_FIELDS = OPERATOR_ROLE_NAMES.map((r) => `${r}_step_up`);
const CREDENTIAL_FIELDS = [
  'tenant_id',
  'api_key',
  'signing_secret',
  'broker_id',
  ...OPERATOR_KEY_FIELDS,
  ...STEP_UP_FIELDS,
];

/**
 * The database bytes opened in memory. An export writes it in rollback-journal mode; a file marked
 * WAL (bytes 18 and 19 of the header) cannot be deserialized, so the copy read here is marked back.
 */
function openInMemory(bytes: Buffer): Db {
  const copy = Buffer.from(bytes);
  if (copy.length >= 100 && copy[18] === 2 && copy[19] === 2) copy[18] = copy[19] = 1;
  const db = openSqlite(copy);
  // Nothing in this file's schema may run SQL functions with side effects while it is read.
  db.pragma('trusted_schema = OFF');
  db.pragma('cell_size_check = ON');
  return db;
}

function checkIdentity(db: Db, manifest: SnapshotManifest): Problem {
  const integrity = db.pragma('integrity_check', { simple: true });
  if (integrity !== 'ok') return `svc.db fails its integrity check (${String(integrity)})`;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version !== manifest.schema_version)
    return `svc.db is at schema version ${version}, the manifest says ${manifest.schema_version}`;
  if (version > LATEST_SCHEMA_VERSION)
    return `svc.db is at schema version ${version}, newer than this svc knows (${LATEST_SCHEMA_VERSION}); upgrade svc`;
  if (version < 1) return 'svc.db has no schema (version 0)';
  return null;
}

/** The schema must be exactly what a fresh database migrated to the same version has (store/schema-check.ts). */
const checkSchema = (db: Db, version: number): Problem => schemaProblem(db, version);

function checkState(db: Db, manifest: SnapshotManifest): Problem {
  const state = db.prepare('SELECT seed, generation FROM sandbox_state WHERE id = 1').get() as
    | { seed: number; generation: number }
    | undefined;
  if (!state) return 'svc.db holds no sandbox state';
  if (state.seed !== manifest.seed || state.generation !== manifest.generation) {
    return (
      `svc.db is seed ${state.seed} generation ${state.generation}, the manifest says seed ${manifest.seed}` +
      ` generation ${manifest.generation}`
    );
  }
  const broken = db.pragma('foreign_key_check') as Array<{ table: string }>;
  if (broken.length > 0)
    return `svc.db has ${broken.length} rows whose foreign keys do not resolve (first in ${broken[0].table})`;
  return null;
}

function checkAuditChain(db: Db): Problem {
  const v = createAudit(db, () => '').verify();
  return v.ok ? null : `the audit chain does not verify at row ${v.first_bad_seq}: ${v.reason}`;
}

function checkLedger(db: Db): Problem {
  const report = checkLedgerInvariants(db);
  if (report.ok) return null;
  const more = report.violations.length > 1 ? ` (and ${report.violations.length - 1} more)` : '';
  return `the ledger invariants fail: ${report.violations[0]}${more}`;
}

function opens(key: Buffer, sealed: Buffer, aad: string): Buffer | null {
  try {
    return open(key, sealed, aad);
  } catch {
    return null;
  }
}

/** Every tenant's data key opens under the KEK and every signing secret under its data key. */
function openSecrets(db: Db, kek: Buffer): { problem: Problem; active: Map<string, string[]> } {
  const active = new Map<string, string[]>();
  const fail = (problem: string) => ({ problem, active });
  if (kek.length !== 32) return fail(`kek.key is ${kek.length} bytes, not 32`);
  const deks = new Map<string, Buffer>();
  for (const t of db
    .prepare<[], { id: string; dek_wrapped: Buffer }>('SELECT id, dek_wrapped FROM tenants ORDER BY id')
    .iterate()) {
    const dek = Buffer.isBuffer(t.dek_wrapped) ? opens(kek, t.dek_wrapped, `dek:${t.id}`) : null;
    if (dek?.length !== 32) return fail(`kek.key does not open the data key of tenant ${t.id}`);
    deks.set(t.id, dek);
    active.set(t.id, []);
  }
  const rows = db
    .prepare<[], Pick<SigningSecretsRow, 'id' | 'tenant_id' | 'secret_enc' | 'revoked_at'>>(
      'SELECT id, tenant_id, secret_enc, revoked_at FROM signing_secrets ORDER BY id',
    )
    .all();
  for (const r of rows) {
    const dek = deks.get(r.tenant_id);
    const secret = dek && Buffer.isBuffer(r.secret_enc) ? opens(dek, r.secret_enc, `secret:${r.tenant_id}`) : null;
    if (!secret) return fail(`signing secret ${r.id} of tenant ${r.tenant_id} does not open under its data key`);
    if (r.revoked_at === null) active.get(r.tenant_id)!.push(secret.toString('utf8'));
  }
  for (const [tenant, secrets] of active)
    if (secrets.length === 0) return fail(`tenant ${tenant} has no signing secret`);
  return { problem: null, active };
}

/** credentials.json must name keys this database holds (the CLI saves them as the home's profile). */
/** Each `<role>_step_up` is the step-up secret the database holds (sealed under the KEK) for `<role>_key`. */
function checkStepUpSecrets(db: Db, kek: Buffer, creds: Record<string, unknown>): Problem {
  const stepUpTable = hasTable(db, 'operator_step_up');
  for (const role of OPERATOR_ROLE_NAMES) {
    const secret = creds[`${role}_step_up`];
    if (secret === undefined) continue;
    const key = creds[`${role}_key`];
    const op =
      typeof key === 'string'
        ? (db.prepare('SELECT id FROM operators WHERE key_hash = ?').get(sha256(key)) as { id: string } | undefined)
        : undefined;
    const row =
      op && stepUpTable
        ? (db.prepare('SELECT secret_sealed FROM operator_step_up WHERE operator_id = ?').get(op.id) as
            | { secret_sealed: Buffer }
            | undefined)
        : undefined;
    const held = row && Buffer.isBuffer(row.secret_sealed) ? opens(kek, row.secret_sealed, `stepup:${op!.id}`) : null;
    if (!held || held.toString('utf8') !== secret)
      return `credentials.json: ${role}_step_up is not the step-up secret of ${role}_key in svc.db`;
  }
  return null;
}

function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

function checkCredentials(db: Db, kek: Buffer, bytes: Buffer, secrets: Map<string, string[]>): Problem {
  let c: unknown;
  try {
    c = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'credentials.json is not valid JSON';
  }
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return 'credentials.json is not a JSON object';
  const creds = c as Record<string, unknown>;
  for (const [k, v] of Object.entries(creds)) {
    if (!CREDENTIAL_FIELDS.includes(k)) return `credentials.json has an unexpected field ${k}`;
    if (typeof v !== 'string') return `credentials.json: ${k} is not a string`;
  }
  const tenant = creds.tenant_id as string | undefined;
  if (creds.api_key !== undefined) {
    const row = db
      .prepare('SELECT tenant_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL')
      .get(sha256(creds.api_key as string)) as { tenant_id: string } | undefined;
    if (!row || row.tenant_id !== tenant) return 'credentials.json: api_key is not a key of its tenant in svc.db';
  }
  if (
    creds.signing_secret !== undefined &&
    !(tenant && secrets.get(tenant)?.includes(creds.signing_secret as string))
  ) {
    return 'credentials.json: signing_secret is not a signing secret of its tenant in svc.db';
  }
  for (const k of OPERATOR_KEY_FIELDS) {
    if (creds[k] === undefined) continue;
    if (!db.prepare('SELECT 1 FROM operators WHERE key_hash = ?').get(sha256(creds[k] as string)))
      return `credentials.json: ${k} is not an operator key in svc.db`;
  }
  return checkStepUpSecrets(db, kek, creds);
}

/** Runs the database checks in the documented order; the first failure is the answer. */
function checkDatabase(db: Db, manifest: SnapshotManifest, files: Map<string, Buffer>): Problem {
  const sealed = (): Problem => {
    const kek = files.get('kek.key')!;
    const { problem, active } = openSecrets(db, kek);
    if (problem) return problem;
    const creds = files.get('credentials.json');
    return creds ? checkCredentials(db, kek, creds, active) : null;
  };
  const checks: Array<() => Problem> = [
    () => checkIdentity(db, manifest),
    () => checkSchema(db, manifest.schema_version),
    () => checkState(db, manifest),
    () => checkAuditChain(db),
    () => checkLedger(db),
    sealed,
  ];
  for (const check of checks) {
    const problem = check();
    if (problem) return problem;
  }
  return null;
}

/** The verdict on a whole snapshot file's bytes. */
export function verifySnapshot(container: Buffer): Verdict {
  let manifest: SnapshotManifest;
  let files: Map<string, Buffer>;
  try {
    ({ manifest, files } = unpackSnapshot(container));
  } catch (err) {
    if (err instanceof SnapshotError) return { ok: false, problem: err.message };
    throw err;
  }
  for (const name of ['svc.db', 'kek.key'])
    if (!files.has(name)) return { ok: false, problem: `the snapshot has no ${name}` };
  let db: Db;
  try {
    db = openInMemory(files.get('svc.db')!);
  } catch (err) {
    return { ok: false, problem: `svc.db is not a database (${(err as Error).message})` };
  }
  try {
    const problem = checkDatabase(db, manifest, files);
    return problem ? { ok: false, problem } : { ok: true, manifest };
  } catch (err) {
    // A database shaped unlike any export (a column missing, a value of the wrong type) fails a query.
    return { ok: false, problem: `svc.db cannot be read as a sandbox (${(err as Error).message})` };
  } finally {
    db.close();
  }
}
