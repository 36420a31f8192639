// The broker's decision on an application: approval (which opens the investor's account in the same
// transaction), rejection, and the sandbox broker's automatic review by the national id's magic suffix
// (docs/onboarding.md, "Sandbox magic values"). Used at submit time and by the dealer's review.
import { MAGIC_REFER_SUFFIX, MAGIC_REJECT_SUFFIX, type KycDeclineReason, type KycState } from '../contract/kyc.js';
import type { OnboardingCtx } from './context.js';
import type { ApplicationRow, BrokerRow } from './repo.js';
import { approvedDuplicateOf, nationalIdOf } from './sealed.js';

type DecideCtx = Pick<OnboardingCtx, 'repo' | 'ids' | 'audit' | 'clock' | 'nowIso'>;

/** Three-letter code of a broker for account numbers: initials of its name ("Nile Securities Brokerage" -> NSB). */
function brokerCode(name: string): string {
  const initials = name
    .split(/\s+/)
    .map((w) => w.replace(/[^A-Za-z]/g, ''))
    .filter((w) => w.length > 0)
    .map((w) => w[0].toUpperCase())
    .join('');
  return `${initials}XXX`.slice(0, 3);
}

/** Next account number at the broker: its code and an 8-digit sequence (NSB-00000001). */
function nextAccountNumber(ctx: Pick<OnboardingCtx, 'repo'>, broker: BrokerRow): string {
  return `${brokerCode(broker.name)}-${String(ctx.repo.investorCountForBroker(broker.id) + 1).padStart(8, '0')}`;
}

/** Approval: the investor (= account) is created in the same transaction as the decision. */
export function approve(ctx: DecideCtx, app: ApplicationRow, decidedBy: string): string {
  const at = ctx.nowIso();
  const investorId = ctx.ids.next('inv');
  ctx.repo.insertInvestor({
    id: investorId,
    tenant_id: app.tenant_id,
    broker_id: app.broker_id,
    application_id: app.id,
    account_number: nextAccountNumber(ctx, ctx.repo.broker(app.broker_id)),
    full_name: app.full_name,
    created_at: at,
    created_ms: ctx.clock.now(),
  });
  ctx.repo.decide(app.id, { state: 'approved', investorId, decidedBy, at });
  ctx.audit.append({
    actor: decidedBy,
    action: 'kyc.approved',
    subject: app.id,
    tenantId: app.tenant_id,
    detail: { investor_id: investorId },
  });
  return investorId;
}

export function reject(
  ctx: Pick<DecideCtx, 'repo' | 'audit' | 'nowIso'>,
  app: ApplicationRow,
  reasonCode: KycDeclineReason,
  decidedBy: string,
  note?: string,
): void {
  ctx.repo.decide(app.id, { state: 'rejected', reasonCode, decidedBy, at: ctx.nowIso() });
  ctx.audit.append({
    actor: decidedBy,
    action: 'kyc.rejected',
    subject: app.id,
    tenantId: app.tenant_id,
    detail: note === undefined ? { reason_code: reasonCode } : { reason_code: reasonCode, note },
  });
}

/**
 * The sandbox broker's decision on a referred (or dossier) application, by the magic suffix of the
 * national id. A second approval of the same person in the tenant is declined as DUPLICATE_INVESTOR.
 */
export function sandboxReview(ctx: DecideCtx & Pick<OnboardingCtx, 'keys'>, app: ApplicationRow): KycState {
  const suffix = nationalIdOf(ctx, app).slice(-4);
  const broker = `broker:${app.broker_id}`;
  if (suffix === MAGIC_REJECT_SUFFIX) {
    reject(ctx, app, 'SCREENING_MATCH', broker);
    return 'rejected';
  }
  if (suffix === MAGIC_REFER_SUFFIX) return 'screening_referred';
  if (approvedDuplicateOf(ctx, app)) {
    reject(ctx, app, 'DUPLICATE_INVESTOR', broker);
    return 'rejected';
  }
  approve(ctx, app, broker);
  return 'approved';
}
