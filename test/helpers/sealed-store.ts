// Opens every value a store holds sealed, under a given key-encryption key, the way the daemon does:
// each tenant's data key under the KEK, then each value under its key with its additional
// authenticated data; the audit head's signature under the key derived from the KEK. For the key
// rotation tests: after a rotation (or a crash in one), everything must open under the home's kek.key.
import type Database from 'better-sqlite3';
import { open } from '../../daemon/store/crypto.js';
import { auditSealKeyOf } from '../../daemon/store/kek-file.js';
import { createAudit } from '../../daemon/store/audit.js';

export interface SealedReport {
  opened: number;
  failures: string[];
}

type Row = { k: string | number; sealed: Buffer | null; aad: string; tenant: string | null };

const TENANT_COLUMNS = [
  "SELECT id AS k, secret_enc AS sealed, 'secret:' || tenant_id AS aad, tenant_id AS tenant FROM signing_secrets",
  "SELECT id AS k, national_id_enc AS sealed, 'kyc:nid:' || id AS aad, tenant_id AS tenant FROM kyc_applications",
  "SELECT id AS k, details_enc AS sealed, 'kyc:details:' || id AS aad, tenant_id AS tenant FROM kyc_applications",
  "SELECT d.application_id || ':' || d.side AS k, d.bytes_enc AS sealed, 'kyc:doc:' || d.application_id || ':' " +
    '|| d.side AS aad, a.tenant_id AS tenant FROM kyc_documents d JOIN kyc_applications a ON a.id = ' +
    'd.application_id',
  "SELECT tenant_id AS k, logo_sealed AS sealed, 'branding:logo:' || tenant_id AS aad, tenant_id AS tenant " +
    'FROM brandings',
  "SELECT id AS k, pdf_sealed AS sealed, 'report:' || id AS aad, tenant_id AS tenant FROM reports",
];
const JOURNAL_COLUMNS = [
  // an entry with a body and an answer seals both in body_sealed (answer_in_body = 1: daemon/record/journal.ts)
  "SELECT seq AS k, body_sealed AS sealed, CASE answer_in_body WHEN 1 THEN 'journal+response:' ELSE 'journal:' " +
    "END || principal AS aad, CASE WHEN principal LIKE 'tenant:%' THEN substr(principal, 8) END AS tenant FROM " +
    'journal',
  "SELECT seq AS k, response_sealed AS sealed, 'journal-response:' || principal AS aad, CASE WHEN principal " +
    "LIKE 'tenant:%' THEN substr(principal, 8) END AS tenant FROM journal",
];

/**
 * `kek` is the key-encryption key, or the keys a KEK rotation in progress may have sealed under (both:
 * a value opens under either). A tenant whose data key rotation is in progress has two data keys
 * (dek_wrapped, dek_next_wrapped): its values open under either.
 */
export function openEverySealed(db: Database.Database, kek: Buffer | Buffer[]): SealedReport {
  const keks = Array.isArray(kek) ? kek : [kek];
  const failures: string[] = [];
  let opened = 0;
  const tryOpen = (ring: Buffer[], sealed: Buffer, aad: string, what: string): Buffer | null => {
    for (const key of ring) {
      try {
        const plain = open(key, sealed, aad);
        opened++;
        return plain;
      } catch {
        // the next key
      }
    }
    failures.push(what);
    return null;
  };
  const hasNext =
    db.prepare("SELECT 1 FROM pragma_table_info('tenants') WHERE name = 'dek_next_wrapped'").get() !== undefined;
  const deks = new Map<string, Buffer[]>();
  const tenants = db
    .prepare(`SELECT id, dek_wrapped${hasNext ? ', dek_next_wrapped' : ''} FROM tenants`)
    .all() as Array<{ id: string; dek_wrapped: Buffer; dek_next_wrapped?: Buffer | null }>;
  for (const t of tenants) {
    const ring: Buffer[] = [];
    for (const [wrapped, name] of [
      [t.dek_wrapped, 'data key'],
      [t.dek_next_wrapped, 'next data key'],
    ] as const) {
      if (!wrapped) continue;
      const dek = tryOpen(keks, wrapped, `dek:${t.id}`, `${name} of ${t.id}`);
      if (dek) ring.push(dek);
    }
    deks.set(t.id, ring);
  }
  for (const s of db.prepare('SELECT operator_id, secret_sealed FROM operator_step_up').all() as Array<{
    operator_id: string;
    secret_sealed: Buffer;
  }>) {
    tryOpen(keks, s.secret_sealed, `stepup:${s.operator_id}`, `step-up secret of ${s.operator_id}`);
  }
  for (const sql of [...TENANT_COLUMNS, ...JOURNAL_COLUMNS]) {
    for (const r of db.prepare(sql).all() as Row[]) {
      if (r.sealed === null) continue;
      tryOpen(r.tenant === null ? keks : (deks.get(r.tenant) ?? []), r.sealed, r.aad, `${r.aad} (${r.k})`);
    }
  }
  const audits = keks.map((k) => createAudit(db, () => '', { sealKey: auditSealKeyOf(k) }).verify());
  if (!audits.some((a) => a.ok)) failures.push(`audit: ${JSON.stringify(audits[0])}`);
  return { opened, failures };
}
