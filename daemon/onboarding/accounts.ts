// Investors and their accounts (one investor = one account): the investor object and the account
// object, the tenant's and the dealer's account lists, and status changes by the dealer desk or the
// back office (docs/onboarding.md, "Investor and account reads", "Account status").
import type { AccountStatus } from '../contract/kyc.js';
import { ok, refuse } from '../contract/outcome.js';
import type { InvestorRow } from '../investors/repo.js';
import type { OnboardingCtx, Reviewer } from './context.js';

type ReadCtx = Pick<OnboardingCtx, 'repo'>;

export function accountView(ctx: ReadCtx, inv: InvestorRow) {
  const b = ctx.repo.broker(inv.broker_id);
  return {
    id: inv.id,
    account_number: inv.account_number,
    status: inv.status,
    currency: 'EGP' as const,
    name: inv.full_name,
    shariah_only: inv.shariah_only === 1,
    suitability: {
      tier: inv.suitability_tier,
      recorded: inv.suitability_recorded === 1,
      risk_acknowledged: inv.risk_acknowledged === 1,
    },
    broker: {
      id: b.id,
      name: b.name,
      fra_license_no: b.fra_license_no,
      contact_email: b.contact_email,
      contact_phone: b.contact_phone,
    },
    created_at: inv.created_at,
  };
}

function dealerAccountView(ctx: ReadCtx, inv: InvestorRow) {
  return { ...accountView(ctx, inv), tenant_id: inv.tenant_id };
}

/** The investor object. An id of the tenant's own pending application says where to look instead. */
export function investorView(ctx: Pick<OnboardingCtx, 'repo' | 'investors'>, tenantId: string, investorId: string) {
  const inv = ctx.investors.find(tenantId, investorId);
  if (!inv) {
    const pending = investorId.startsWith('kyc_') && ctx.repo.application(tenantId, investorId) !== undefined;
    return refuse(
      'NOT_FOUND',
      pending
        ? `Application ${investorId} has no investor yet; poll GET /v1/kyc/applications/${investorId}.`
        : `No investor ${investorId}.`,
    );
  }
  const b = ctx.repo.broker(inv.broker_id);
  return ok({
    investor_id: inv.id,
    full_name: inv.full_name,
    status: inv.status,
    broker_account_ref: inv.account_number,
    suitability_recorded: inv.suitability_recorded === 1,
    risk_acknowledged: inv.risk_acknowledged === 1,
    shariah_only: inv.shariah_only === 1,
    broker: {
      name: b.name,
      fra_license_no: b.fra_license_no,
      contact_email: b.contact_email,
      contact_phone: b.contact_phone,
    },
  });
}

export function listAccounts(ctx: ReadCtx, tenantId: string, status: AccountStatus | undefined, limit: number) {
  return { accounts: ctx.repo.accounts(tenantId, status, limit).map((inv) => accountView(ctx, inv)) };
}

export function getAccount(ctx: Pick<OnboardingCtx, 'repo' | 'investors'>, tenantId: string, id: string) {
  const found = ctx.investors.lookup(tenantId, id);
  return found.ok ? ok(accountView(ctx, found.value)) : found;
}

export function listBrokerAccounts(
  ctx: ReadCtx,
  op: Reviewer,
  query: { status?: AccountStatus; tenant_id?: string; limit: number },
) {
  const rows = ctx.repo.brokerAccounts({
    brokerId: op.brokerId,
    tenantId: query.tenant_id,
    status: query.status,
    limit: query.limit,
  });
  return { accounts: rows.map((inv) => dealerAccountView(ctx, inv)) };
}

/** active <-> restricted, either -> closed; closed is final (read-only). Audited with the reason. */
export function changeStatus(
  ctx: Pick<OnboardingCtx, 'repo' | 'audit'>,
  op: Reviewer,
  id: string,
  status: AccountStatus,
  reason: string,
) {
  const inv = ctx.repo.investorForBroker(op.brokerId, id);
  if (!inv) return refuse('NOT_FOUND', `No account ${id} at your broker.`);
  if (inv.status === 'closed')
    return refuse('INVESTOR_CLOSED', `Account ${id} is closed; a closed account is never reopened.`);
  if (inv.status === status) return refuse('ACCOUNT_STATUS_UNCHANGED', `Account ${id} is already ${status}.`);
  ctx.repo.setStatus(id, status);
  ctx.audit.append({
    actor: `operator:${op.name}`,
    action: 'account.status_changed',
    subject: id,
    tenantId: inv.tenant_id,
    detail: { from: inv.status, to: status, reason },
  });
  return ok(dealerAccountView(ctx, ctx.repo.investorForBroker(op.brokerId, id)!));
}
