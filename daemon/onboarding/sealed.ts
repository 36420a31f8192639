// The sealed fields of an application (docs/onboarding.md, "What is encrypted, and how"): the national
// id, the contact details and the ID images are stored under the tenant's data key, each with
// additional authenticated data naming its row and field, so a sealed value copied elsewhere fails to
// open. The national id is found again only by its keyed hash.
import { keyedHash, keyRing, open, seal } from '../store/crypto.js';
import type { DocumentSide } from '../contract/kyc.js';
import type { OnboardingCtx } from './context.js';
import type { ApplicationRow } from './repo.js';

export interface SealedDetails {
  date_of_birth: string;
  email: string;
  phone: string;
  address: string;
}

const aad = {
  nationalId: (appId: string) => `kyc:nid:${appId}`,
  details: (appId: string) => `kyc:details:${appId}`,
  document: (appId: string, side: DocumentSide) => `kyc:doc:${appId}:${side}`,
};

/** The national id's lookup key: an HMAC under the tenant's data key, never the id itself. */
export function nationalIdHash(dek: Buffer, nationalId: string): string {
  return keyedHash(dek, `national_id:${nationalId}`);
}

/**
 * Whether the tenant already holds an approved application for this person. While a keys:rotate-dek
 * re-seals the tenant's values in slices, a stored hash is under the old data key or the new one, so
 * the national id is hashed under both (crypto.ts keyRing).
 */
export function approvedDuplicate(
  ctx: Pick<OnboardingCtx, 'keys' | 'repo'>,
  tenantId: string,
  nationalId: string,
): boolean {
  return keyRing(ctx.keys.tenantDek(tenantId)).some((k) =>
    ctx.repo.hasApprovedWithHash(tenantId, nationalIdHash(k, nationalId)),
  );
}

/** approvedDuplicate for a stored application: its own hash, or, while a rotation runs, its opened id. */
export function approvedDuplicateOf(ctx: Pick<OnboardingCtx, 'keys' | 'repo'>, app: ApplicationRow): boolean {
  if (keyRing(ctx.keys.tenantDek(app.tenant_id)).length === 1)
    return ctx.repo.hasApprovedWithHash(app.tenant_id, app.national_id_hash);
  return approvedDuplicate(ctx, app.tenant_id, nationalIdOf(ctx, app));
}

export function sealNationalId(dek: Buffer, appId: string, nationalId: string): Buffer {
  return seal(dek, Buffer.from(nationalId, 'utf8'), aad.nationalId(appId));
}

export function sealDetails(dek: Buffer, appId: string, details: SealedDetails): Buffer {
  return seal(dek, Buffer.from(JSON.stringify(details), 'utf8'), aad.details(appId));
}

export function sealDocument(dek: Buffer, appId: string, side: DocumentSide, bytes: Buffer): Buffer {
  return seal(dek, bytes, aad.document(appId, side));
}

export function nationalIdOf(ctx: Pick<OnboardingCtx, 'keys'>, app: ApplicationRow): string {
  return open(ctx.keys.tenantDek(app.tenant_id), app.national_id_enc, aad.nationalId(app.id)).toString('utf8');
}

export function detailsOf(ctx: Pick<OnboardingCtx, 'keys'>, app: ApplicationRow): SealedDetails {
  return JSON.parse(open(ctx.keys.tenantDek(app.tenant_id), app.details_enc, aad.details(app.id)).toString('utf8'));
}

export function openDocument(
  ctx: Pick<OnboardingCtx, 'keys'>,
  app: ApplicationRow,
  side: DocumentSide,
  sealed: Buffer,
): Buffer {
  return open(ctx.keys.tenantDek(app.tenant_id), sealed, aad.document(app.id, side));
}
