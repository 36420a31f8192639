// keys:rotate-dek (docs/backoffice.md "Key rotation"): a new data key for one tenant. In the approving
// transaction everything sealed under the tenant's old data key is opened and sealed again under the
// new one, with the same additional authenticated data: its signing secrets, its KYC applications'
// national ids and contact details (the national id's lookup hash is recomputed under the new key),
// ID images, its logo, its statements' PDFs and its requests in the journal. The new key, wrapped by
// the KEK, replaces the old one in the tenant's row: the old key exists nowhere after the commit.
import { z } from 'zod';
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import { newKey, open, seal } from '../../store/crypto.js';
import { nationalIdHash } from '../../onboarding/sealed.js';
import type { Db } from '../../store/db.js';
import type { ExecCtx } from './exec.js';
import { resealColumn, stallForTests, unlessUnreadable, withResealing, type SealedColumn } from './reseal.js';
import { rotationPending } from './rotate-kek.js';

export const rotateDekParams = z.strictObject({ tenant_id: z.string().regex(/^[A-Za-z0-9_]{3,64}$/) });

/** Every column sealed under a tenant's data key (the tenant id is the one argument). */
const TENANT_SEALED: Record<string, SealedColumn> = {
  signing_secrets: { select: "SELECT id AS k, secret_enc AS sealed, 'secret:' || tenant_id AS aad FROM signing_secrets WHERE tenant_id = ?", update: 'UPDATE signing_secrets SET secret_enc = ? WHERE id = ?' },
  national_ids: { select: "SELECT id AS k, national_id_enc AS sealed, 'kyc:nid:' || id AS aad FROM kyc_applications WHERE tenant_id = ?", update: 'UPDATE kyc_applications SET national_id_enc = ? WHERE id = ?' },
  contact_details: { select: "SELECT id AS k, details_enc AS sealed, 'kyc:details:' || id AS aad FROM kyc_applications WHERE tenant_id = ?", update: 'UPDATE kyc_applications SET details_enc = ? WHERE id = ?' },
  id_images: {
    select: "SELECT d.rowid AS k, d.bytes_enc AS sealed, 'kyc:doc:' || d.application_id || ':' || d.side AS aad FROM kyc_documents d JOIN kyc_applications a ON a.id = d.application_id WHERE a.tenant_id = ?",
    update: 'UPDATE kyc_documents SET bytes_enc = ? WHERE rowid = ?',
  },
  logo: { select: "SELECT tenant_id AS k, logo_sealed AS sealed, 'branding:logo:' || tenant_id AS aad FROM brandings WHERE tenant_id = ?", update: 'UPDATE brandings SET logo_sealed = ? WHERE tenant_id = ?' },
  statements: { select: "SELECT id AS k, pdf_sealed AS sealed, 'report:' || id AS aad FROM reports WHERE tenant_id = ?", update: 'UPDATE reports SET pdf_sealed = ? WHERE id = ?' },
  journal_bodies: { select: "SELECT seq AS k, body_sealed AS sealed, CASE answer_in_body WHEN 1 THEN 'journal+response:' ELSE 'journal:' END || principal AS aad FROM journal WHERE principal = 'tenant:' || ?", update: 'UPDATE journal SET body_sealed = ? WHERE seq = ?' },
  journal_answers: { select: "SELECT seq AS k, response_sealed AS sealed, 'journal-response:' || principal AS aad FROM journal WHERE principal = 'tenant:' || ?", update: 'UPDATE journal SET response_sealed = ? WHERE seq = ?' },
};

/** The national id's lookup hash is keyed by the data key: recomputed from the re-sealed id. */
function rehashNationalIds(db: Db, tenantId: string, dek: Buffer): void {
  const update = db.prepare('UPDATE kyc_applications SET national_id_hash = ? WHERE id = ?');
  for (const a of db.prepare<[string], { id: string; national_id_enc: Buffer }>('SELECT id, national_id_enc FROM kyc_applications WHERE tenant_id = ?').all(tenantId)) {
    update.run(nationalIdHash(dek, open(dek, a.national_id_enc, `kyc:nid:${a.id}`).toString('utf8')), a.id);
  }
}

export function rotateDek({ deps }: ExecCtx, p: Record<string, unknown>): Outcome<Record<string, unknown>> {
  const { tenant_id: tenantId } = p as z.infer<typeof rotateDekParams>;
  if (!deps.db.prepare('SELECT 1 FROM tenants WHERE id = ?').get(tenantId)) return refuse('ACTION_NOT_EXECUTABLE', `No tenant ${tenantId}.`);
  if (rotationPending(deps)) return refuse('ACTION_NOT_EXECUTABLE', 'A key-encryption key rotation is still being finished; approve again in a moment.');
  const old = Buffer.from(deps.keys.tenantDek(tenantId));
  const next = newKey();
  const resealed = unlessUnreadable(() => withResealing(deps.db, deps.kek, () => {
    const counts: Record<string, number> = {};
    for (const [name, col] of Object.entries(TENANT_SEALED)) counts[name] = resealColumn(deps.db, { ...col, args: [tenantId] }, old, next);
    rehashNationalIds(deps.db, tenantId, next);
    deps.db.prepare('UPDATE tenants SET dek_wrapped = ? WHERE id = ?').run(seal(deps.kek, next, `dek:${tenantId}`), tenantId);
    stallForTests();
    return counts;
  }));
  if (!resealed.ok) return refuse('ACTION_NOT_EXECUTABLE', `Nothing was rotated: ${resealed.what} does not open under the tenant's data key.`);
  deps.keys.clearCaches();
  old.fill(0);
  return ok({ tenant_id: tenantId, resealed: resealed.value });
}
