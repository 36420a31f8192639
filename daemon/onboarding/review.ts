// The dealer's KYC review (docs/onboarding.md, "Dealer review"): the queue of applications routed to
// the dealer's broker across its tenants, the decrypted ID images (every view audited), and clearing
// or declining a screening referral. Another broker's application is unknown (404).
import type { DocumentSide, KycDeclineReason, KycState } from '../contract/kyc.js';
import { ok, refuse, type Outcome, type Refusal } from '../contract/outcome.js';
import type { OnboardingCtx, Reviewer } from './context.js';
import type { ApplicationRow } from './repo.js';
import { approve, reject } from './screening.js';
import { approvedDuplicateOf, openDocument } from './sealed.js';
import { dealerView } from './views.js';

function applicationAtBroker(ctx: Pick<OnboardingCtx, 'repo'>, op: Reviewer, id: string): Outcome<ApplicationRow> {
  const app = ctx.repo.applicationForBroker(op.brokerId, id);
  return app ? ok(app) : refuse('NOT_FOUND', `No KYC application ${id} at your broker.`);
}

/** Why a dealer may not decide the application, or undefined when it waits for the dealer. */
function notReferred(app: ApplicationRow): Refusal | undefined {
  if (app.state === 'approved' || app.state === 'rejected')
    return refuse('APPLICATION_ALREADY_DECIDED', `Application ${app.id} is already ${app.state}.`);
  if (app.state !== 'screening_referred')
    return refuse(
      'APPLICATION_NOT_REFERRED',
      `Application ${app.id} is ${app.state}; only submitted applications are reviewed.`,
    );
  return undefined;
}

/** A referred application of the dealer's broker, ready to be decided. */
function referredAtBroker(ctx: Pick<OnboardingCtx, 'repo'>, op: Reviewer, id: string): Outcome<ApplicationRow> {
  const found = applicationAtBroker(ctx, op, id);
  if (!found.ok) return found;
  return notReferred(found.value) ?? found;
}

export function queue(
  ctx: OnboardingCtx,
  op: Reviewer,
  query: { state: KycState | 'all'; tenant_id?: string; limit: number },
) {
  const rows = ctx.repo.queue({
    brokerId: op.brokerId,
    state: query.state,
    tenantId: query.tenant_id,
    limit: query.limit,
  });
  return { applications: rows.map((app) => dealerView(ctx, app)) };
}

/** The dealer clears the referral: the application resubmits automatically and is approved. */
export function clear(ctx: OnboardingCtx, op: Reviewer, id: string) {
  const found = referredAtBroker(ctx, op, id);
  if (!found.ok) return found;
  const app = found.value;
  if (approvedDuplicateOf(ctx, app)) {
    return refuse(
      'DUPLICATE_NATIONAL_ID',
      'This person already holds an approved account in the tenant; decline with DUPLICATE_INVESTOR.',
    );
  }
  approve(ctx, app, `operator:${op.name}`);
  return ok(dealerView(ctx, ctx.repo.application(app.tenant_id, id)!));
}

export function decline(ctx: OnboardingCtx, op: Reviewer, id: string, reasonCode: KycDeclineReason, note?: string) {
  const found = referredAtBroker(ctx, op, id);
  if (!found.ok) return found;
  const app = found.value;
  reject(ctx, app, reasonCode, `operator:${op.name}`, note);
  return ok(dealerView(ctx, ctx.repo.application(app.tenant_id, id)!));
}

/**
 * An ID image for the reviewer, decrypted, as the raw reply of its route (the bytes with their type).
 * The view is audited in a transaction of its own: the route is a read, which has none.
 */
export function viewDocument(ctx: OnboardingCtx, op: Reviewer, id: string, side: DocumentSide) {
  const found = applicationAtBroker(ctx, op, id);
  if (!found.ok) return found;
  const app = found.value;
  const doc = ctx.repo.documentBytes(id, side);
  if (!doc) return refuse('NOT_FOUND', `Application ${id} has no ${side} on file.`);
  const bytes = openDocument(ctx, app, side, doc.bytes_enc);
  ctx.db.transaction(() => {
    ctx.audit.append({
      actor: `operator:${op.name}`,
      action: 'kyc.document_viewed',
      subject: id,
      tenantId: app.tenant_id,
      detail: { side },
    });
  })();
  return ok({ status: 200, raw: bytes, contentType: doc.content_type });
}
