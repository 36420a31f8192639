// The tenant's side of a KYC application: create (the details are screened at once), upload the ID
// images, submit, read. Every refusal is a value (docs/onboarding.md, "Create: field rules",
// "Documents", "Submit").
import {
  MAX_DOCUMENT_BYTES,
  MIN_AGE_YEARS,
  ageInYears,
  checkNationalId,
  imageTypeOf,
  type DocumentSide,
} from '../contract/kyc.js';
import { ok, refuse, type Outcome, type Refusal } from '../contract/outcome.js';
import type { KycCreateInput, KycSubmitted } from '../contract/schemas/onboarding.js';
import { sha256 } from '../store/crypto.js';
import type { OnboardingCtx } from './context.js';
import type { ApplicationRow } from './repo.js';
import { sandboxReview } from './screening.js';
import {
  approvedDuplicate,
  nationalIdHash,
  sealDetails,
  sealDocument,
  sealNationalId,
  type SealedDetails,
} from './sealed.js';
import { applicationView } from './views.js';

/** The tenant's application, or NOT_FOUND (another tenant's is unknown). */
export function applicationOf(ctx: Pick<OnboardingCtx, 'repo'>, tenantId: string, id: string): Outcome<ApplicationRow> {
  const app = ctx.repo.application(tenantId, id);
  return app ? ok(app) : refuse('NOT_FOUND', `No KYC application ${id}.`);
}

/** Why the application can no longer change (documents, submit), or undefined while it still can. */
function frozen(app: ApplicationRow): Refusal | undefined {
  if (app.state === 'screening_referred')
    return refuse('APPLICATION_ALREADY_SUBMITTED', `Application ${app.id} is submitted and under review.`);
  if (app.state === 'approved' || app.state === 'rejected')
    return refuse('APPLICATION_ALREADY_DECIDED', `Application ${app.id} is already ${app.state}.`);
  return undefined;
}

/**
 * The checks the schema cannot make: against the sandbox date (birth date not in the future, adult)
 * and between fields (date_of_birth matches the national id). Messages never echo the national id.
 */
function screenDetails(ctx: Pick<OnboardingCtx, 'market' | 'clock'>, input: KycCreateInput): Refusal | undefined {
  const nid = checkNationalId(input.national_id);
  if (!nid.ok) return refuse('INVALID_NATIONAL_ID', `national_id ${nid.reason}.`);
  const today = ctx.market.calendar.localDate(ctx.clock.now());
  if (nid.birthDate > today) return refuse('INVALID_NATIONAL_ID', 'national_id encodes a birth date after today.');
  if (nid.birthDate !== input.date_of_birth) {
    return refuse(
      'DATE_OF_BIRTH_MISMATCH',
      `date_of_birth ${input.date_of_birth} differs from the birth date encoded in national_id.`,
    );
  }
  if (ageInYears(nid.birthDate, today) < MIN_AGE_YEARS)
    return refuse('UNDERAGE', `The applicant must be at least ${MIN_AGE_YEARS} on ${today}.`);
  return undefined;
}

export function createApplication(
  ctx: OnboardingCtx,
  tenantId: string,
  input: KycCreateInput,
  actor: string,
): Outcome<{ application_id: string; state: 'screened' }> {
  const refusal = screenDetails(ctx, input);
  if (refusal) return refusal;
  const dek = ctx.keys.tenantDek(tenantId);
  const hash = nationalIdHash(dek, input.national_id);
  if (approvedDuplicate(ctx, tenantId, input.national_id)) return refuse('DUPLICATE_NATIONAL_ID');
  const id = ctx.ids.next('kyc');
  const details: SealedDetails = {
    date_of_birth: input.date_of_birth,
    email: input.email,
    phone: input.phone,
    address: input.address,
  };
  const broker = ctx.repo.brokerOfRecord();
  ctx.repo.insertApplication({
    id,
    tenant_id: tenantId,
    broker_id: broker.id,
    state: 'screened',
    full_name: input.full_name,
    national_id_enc: sealNationalId(dek, id, input.national_id),
    national_id_hash: hash,
    details_enc: sealDetails(dek, id, details),
    created_at: ctx.nowIso(),
    created_ms: ctx.clock.now(),
  });
  ctx.audit.append({ actor, action: 'kyc.screened', subject: id, tenantId, detail: { broker_id: broker.id } });
  return ok({ application_id: id, state: 'screened' as const });
}

/** One side of the national id: JPEG or PNG by magic bytes, sealed; a second upload replaces the first. */
export function putDocument(ctx: OnboardingCtx, tenantId: string, id: string, side: DocumentSide, bytes: Buffer) {
  const found = applicationOf(ctx, tenantId, id);
  if (!found.ok) return found;
  const app = found.value;
  const refusal = frozen(app);
  if (refusal) return refusal;
  if (bytes.length > MAX_DOCUMENT_BYTES)
    return refuse('PAYLOAD_TOO_LARGE', `An ID image is at most ${MAX_DOCUMENT_BYTES} bytes.`);
  const contentType = imageTypeOf(bytes);
  if (!contentType) return refuse('UNSUPPORTED_MEDIA_TYPE');
  const at = ctx.nowIso();
  const digest = sha256(bytes);
  ctx.repo.putDocument({
    application_id: id,
    side,
    content_type: contentType,
    bytes_enc: sealDocument(ctx.keys.tenantDek(tenantId), id, side, bytes),
    sha256: digest,
    size_bytes: bytes.length,
    uploaded_at: at,
  });
  ctx.repo.touch(id, at);
  return ok({
    application_id: id,
    side,
    content_type: contentType,
    size_bytes: bytes.length,
    sha256: digest,
    state: app.state,
  });
}

/**
 * Submit. With both ID sides the application is routed to the broker's review and the answer is
 * screening_referred: the sandbox broker reviews the images at once, and the outcome is read by polling
 * GET /v1/kyc/applications/{id}, as for every asynchronous state in the spec. With no documents
 * (dossier-only) there are no images to review, so the broker decides on the details directly and the
 * answer is the decision.
 */
export function submit(ctx: OnboardingCtx, tenantId: string, id: string, actor: string): Outcome<KycSubmitted> {
  const found = applicationOf(ctx, tenantId, id);
  if (!found.ok) return found;
  const refusal = frozen(found.value);
  if (refusal) return refusal;
  const docs = ctx.repo.documents(id);
  if (docs.length === 1) {
    const missing = docs[0].side === 'national_id_front' ? 'national_id_back' : 'national_id_front';
    return refuse(
      'DOCUMENTS_INCOMPLETE',
      `Only ${docs[0].side} is on file; upload ${missing} too, or submit with no documents.`,
    );
  }
  const at = ctx.nowIso();
  if (docs.length === 0) {
    ctx.repo.decide(id, { state: 'screening_referred', path: 'dossier', at });
    ctx.audit.append({ actor, action: 'kyc.submitted', subject: id, tenantId, detail: { path: 'dossier' } });
    const state = sandboxReview(ctx, ctx.repo.application(tenantId, id)!);
    if (state !== 'approved') return ok({ state });
    return ok({ state, investor_id: ctx.repo.application(tenantId, id)!.investor_id! });
  }
  ctx.repo.decide(id, { state: 'screening_referred', path: 'documents', at });
  ctx.audit.append({
    actor,
    action: 'kyc.submitted',
    subject: id,
    tenantId,
    detail: {
      path: 'documents',
      documents: docs.map((d) => ({ side: d.side, sha256: d.sha256, size_bytes: d.size_bytes })),
    },
  });
  sandboxReview(ctx, ctx.repo.application(tenantId, id)!);
  return ok({ state: 'screening_referred' });
}

export function getApplication(ctx: Pick<OnboardingCtx, 'repo'>, tenantId: string, id: string) {
  const found = applicationOf(ctx, tenantId, id);
  return found.ok ? ok(applicationView(ctx, found.value)) : found;
}
