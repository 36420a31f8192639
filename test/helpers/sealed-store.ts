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
  "SELECT d.application_id || ':' || d.side AS k, d.bytes_enc AS sealed, 'kyc:doc:' || d.application_id || ':' || d.side AS aad, a.tenant_id AS tenant FROM kyc_documents d JOIN kyc_applications a ON a.id = d.application_id",
  "SELECT tenant_id AS k, logo_sealed AS sealed, 'branding:logo:' || tenant_id AS aad, tenant_id AS tenant FROM brandings",
  "SELECT id AS k, pdf_sealed AS sealed, 'report:' || id AS aad, tenant_id AS tenant FROM reports",
];
const JOURNAL_COLUMNS = [
  // an entry with a body and an answer seals both in body_sealed (answer_in_body = 1: daemon/record/journal.ts)
  "SELECT seq AS k, body_sealed AS sealed, CASE answer_in_body WHEN 1 THEN 'journal+response:' ELSE 'journal:' END || principal AS aad, CASE WHEN principal LIKE 'tenant:%' THEN substr(principal, 8) END AS tenant FROM journal",
  "SELECT seq AS k, response_sealed AS sealed, 'journal-response:' || principal AS aad, CASE WHEN principal LIKE 'tenant:%' THEN substr(principal, 8) END AS tenant FROM journal",
];

export function openEverySealed(db: Database.Database, kek: Buffer): SealedReport {
  const failures: string[] = [];
  let opened = 0;
  const tryOpen = (key: Buffer | undefined, sealed: Buffer, aad: string, what: string): Buffer | null => {
    try {
      if (!key) throw new Error('no key');
      const plain = open(key, sealed, aad);
      opened++;
      return plain;
    } catch {
      failures.push(what);
      return null;
    }
  };
  const deks = new Map<string, Buffer>();
  for (const t of db.prepare('SELECT id, dek_wrapped FROM tenants').all() as Array<{ id: string; dek_wrapped: Buffer }>) {
    const dek = tryOpen(kek, t.dek_wrapped, `dek:${t.id}`, `data key of ${t.id}`);
    if (dek) deks.set(t.id, dek);
  }
  for (const s of db.prepare('SELECT operator_id, secret_sealed FROM operator_step_up').all() as Array<{ operator_id: string; secret_sealed: Buffer }>) {
    tryOpen(kek, s.secret_sealed, `stepup:${s.operator_id}`, `step-up secret of ${s.operator_id}`);
  }
  for (const sql of [...TENANT_COLUMNS, ...JOURNAL_COLUMNS]) {
    for (const r of db.prepare(sql).all() as Row[]) {
      if (r.sealed === null) continue;
      tryOpen(r.tenant === null ? kek : deks.get(r.tenant), r.sealed, r.aad, `${r.aad} (${r.k})`);
    }
  }
  const audit = createAudit(db, () => "", { sealKey: auditSealKeyOf(kek) }).verify();
  if (!audit.ok) failures.push(`audit: ${JSON.stringify(audit)}`);
  return { opened, failures };
}
