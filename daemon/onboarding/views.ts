// The application as the tenant sees it and as the reviewing dealer sees it. The tenant never gets the
// national id or the contact details back; the dealer gets the masked id and the date of birth.
import type { OnboardingCtx } from './context.js';
import type { ApplicationRow } from './repo.js';
import { detailsOf, nationalIdOf } from './sealed.js';

export function applicationView(ctx: Pick<OnboardingCtx, 'repo'>, app: ApplicationRow) {
  return {
    application_id: app.id,
    state: app.state,
    investor_id: app.investor_id,
    path: app.path,
    documents: ctx.repo.documents(app.id),
    reason_code: app.reason_code,
    created_at: app.created_at,
    submitted_at: app.submitted_at,
    decided_at: app.decided_at,
    updated_at: app.updated_at,
  };
}

export function dealerView(ctx: Pick<OnboardingCtx, 'repo' | 'keys'>, app: ApplicationRow) {
  const nid = nationalIdOf(ctx, app);
  return {
    ...applicationView(ctx, app),
    tenant_id: app.tenant_id,
    full_name: app.full_name,
    national_id_masked: '*'.repeat(nid.length - 4) + nid.slice(-4),
    date_of_birth: detailsOf(ctx, app).date_of_birth,
  };
}
