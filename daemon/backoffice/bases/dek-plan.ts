// What keys:rotate-dek re-seals, slice by slice (rotation-runner.ts), and its switch-over: every
// column sealed under a tenant's data key (its signing secrets, its KYC applications' national ids and
// contact details, with the national id's lookup hash recomputed under the new key, ID images, logo,
// statements' PDFs and its requests in the journal). While it runs the tenant's key store hands out
// the next key, paired with the current one (tenancy/keys.ts), so writers seal under the next key and
// readers open either. The switch-over makes the next key the tenant's key: the old one exists
// nowhere after its commit. Each column ends at its last rowid when the rotation reaches it (`upto`):
// what is written after that is sealed under the new key already.
import type { Deps } from '../../deps.js';
import type { Db } from '../../store/db.js';
import { open, seal } from '../../store/crypto.js';
import { nationalIdHash } from '../../onboarding/sealed.js';
import type { SealedColumn } from './reseal.js';
import type { TenantsRow } from '../../store/rows.js';

const AFTER = 'rowid > ? ORDER BY rowid LIMIT ?';

/** Every column sealed under a tenant's data key (the tenant id is the first argument). */
export const TENANT_SEALED: SealedColumn[] = [
  {
    upto: 'SELECT max(rowid) AS m FROM signing_secrets',
    names: ['signing_secrets'],
    select:
      `SELECT rowid AS k, secret_enc AS sealed, 'secret:' || tenant_id AS aad FROM signing_secrets WHERE ` +
      `tenant_id = ? AND ${AFTER}`,
    update: 'UPDATE signing_secrets SET secret_enc = ? WHERE rowid = ?',
  },
  {
    upto: 'SELECT max(rowid) AS m FROM kyc_applications',
    names: ['national_ids'],
    select:
      `SELECT rowid AS k, national_id_enc AS sealed, 'kyc:nid:' || id AS aad FROM kyc_applications WHERE ` +
      `tenant_id = ? AND ${AFTER}`,
    update: 'UPDATE kyc_applications SET national_id_enc = ? WHERE rowid = ?',
    onPlain: (db, k, plain, to) =>
      void db
        .prepare('UPDATE kyc_applications SET national_id_hash = ? WHERE rowid = ?')
        .run(nationalIdHash(to, plain.toString('utf8')), k),
  },
  {
    upto: 'SELECT max(rowid) AS m FROM kyc_applications',
    names: ['contact_details'],
    select:
      `SELECT rowid AS k, details_enc AS sealed, 'kyc:details:' || id AS aad FROM kyc_applications WHERE ` +
      `tenant_id = ? AND ${AFTER}`,
    update: 'UPDATE kyc_applications SET details_enc = ? WHERE rowid = ?',
  },
  {
    upto: 'SELECT max(rowid) AS m FROM kyc_documents',
    names: ['id_images'],
    select:
      `SELECT d.rowid AS k, d.bytes_enc AS sealed, 'kyc:doc:' || d.application_id || ':' || d.side AS aad FROM ` +
      `kyc_documents d JOIN kyc_applications a ON a.id = d.application_id WHERE a.tenant_id = ? AND d.rowid > ? ` +
      `ORDER BY d.rowid LIMIT ?`,
    update: 'UPDATE kyc_documents SET bytes_enc = ? WHERE rowid = ?',
  },
  {
    upto: 'SELECT max(rowid) AS m FROM brandings',
    names: ['logo'],
    select:
      `SELECT rowid AS k, logo_sealed AS sealed, 'branding:logo:' || tenant_id AS aad FROM brandings WHERE ` +
      `tenant_id = ? AND ${AFTER}`,
    update: 'UPDATE brandings SET logo_sealed = ? WHERE rowid = ?',
  },
  {
    upto: 'SELECT max(rowid) AS m FROM reports',
    names: ['statements'],
    select: `SELECT rowid AS k, pdf_sealed AS sealed, 'report:' || id AS aad FROM reports WHERE tenant_id = ? AND
      ${AFTER}`,
    update: 'UPDATE reports SET pdf_sealed = ? WHERE rowid = ?',
  },
  {
    // journal_bodies counts entries whose body is sealed (with its answer when answer_in_body = 1),
    // journal_answers the answers sealed on their own (docs/snapshots.md "How the journal is stored")
    upto: 'SELECT max(rowid) AS m FROM journal',
    names: ['journal_bodies', 'journal_answers'],
    select: `SELECT seq AS k, body_sealed AS sealed, CASE answer_in_body WHEN 1 THEN 'journal+response:' ELSE
      'journal:' END || principal AS aad,
      response_sealed AS sealed2, 'journal-response:' || principal AS aad2 FROM journal WHERE principal = 'tenant:'
        || ? AND seq > ? ORDER BY seq LIMIT ?`,
    update: 'UPDATE journal SET body_sealed = ?, response_sealed = ? WHERE seq = ?',
  },
];

type DekRow = Pick<TenantsRow, 'dek_wrapped' | 'dek_next_wrapped'>;

/** The tenant's current and next data keys (the next is stored by the approval before any slice). */
export function dekPair(deps: Pick<Deps, 'db' | 'kek'>, tenantId: string): { current: Buffer; next: Buffer } | null {
  const row = deps.db
    .prepare<[string], DekRow>('SELECT dek_wrapped, dek_next_wrapped FROM tenants WHERE id = ?')
    .get(tenantId);
  if (!row?.dek_next_wrapped) return null;
  return {
    current: open(deps.kek, row.dek_wrapped, `dek:${tenantId}`),
    next: open(deps.kek, row.dek_next_wrapped, `dek:${tenantId}`),
  };
}

/** Records the next data key, wrapped by the KEK, before anything is sealed under it. */
export function storeNextDek(db: Db, kek: Buffer, tenantId: string, next: Buffer): void {
  db.prepare('UPDATE tenants SET dek_next_wrapped = ? WHERE id = ?').run(seal(kek, next, `dek:${tenantId}`), tenantId);
}

/** The switch-over (inside the runner's transaction): the next data key becomes the tenant's key. */
export function switchOverDek(db: Db, tenantId: string): void {
  db.prepare(
    'UPDATE tenants SET dek_wrapped = dek_next_wrapped, dek_next_wrapped = NULL WHERE id = ? AND ' +
      'dek_next_wrapped IS NOT NULL',
  ).run(tenantId);
}
