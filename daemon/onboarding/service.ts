// Onboarding: the first two steps of the user journey (docs/onboarding.md). A tenant's KYC application
// is created, takes its ID images and is submitted (applications.ts); the broker decides it, the
// sandbox broker at once by the national id's magic suffix, or a dealer for a referral
// (screening.ts, review.ts); an approval opens the investor's account; the investor records a
// suitability questionnaire (suitability.ts); accounts are read and their status changed (accounts.ts).
//
// Guarantees:
//  1. States only move forward: screened -> screening_referred -> approved | rejected, and a decided
//     application never changes state again; documents are frozen from the submit on (migration 003's
//     triggers refuse both a second time).
//  2. An approval and the investor (= account) it creates are one transaction; the account number is
//     the broker's code and its next 8-digit sequence.
//  3. One person, one approved investor per tenant, found by the national id's keyed hash (a unique
//     partial index enforces it again).
//  4. The national id, the contact details and the ID images are stored only sealed under the tenant's
//     data key (sealed.ts); the tenant never gets them back, the dealer sees the masked id.
//  5. Another tenant's application or investor is unknown (404), and so is another broker's for a
//     dealer. Every refusal is a value (an Outcome); decisions, views of images and status changes are
//     audited.
import type { DocumentSide, KycDeclineReason, KycState, AccountStatus, Questionnaire } from '../contract/kyc.js';
import type { KycCreateInput } from '../contract/schemas/onboarding.js';
import type { OnboardingCtx, OnboardingDeps, Reviewer } from './context.js';
import { createOnboardingRepo } from './repo.js';
import { createApplication, getApplication, putDocument, submit } from './applications.js';
import { clear, decline, queue, viewDocument } from './review.js';
import { recordSuitability } from './suitability.js';
import { changeStatus, getAccount, investorView, listAccounts, listBrokerAccounts } from './accounts.js';

export function createOnboardingService(deps: OnboardingDeps) {
  const { db, ids, keys, audit, clock, market, investors, nowIso } = deps;
  const ctx: OnboardingCtx = { db, ids, keys, audit, clock, market, investors, nowIso, repo: createOnboardingRepo(db) };
  return {
    createApplication: (tenantId: string, input: KycCreateInput, actor: string) =>
      createApplication(ctx, tenantId, input, actor),
    putDocument: (tenantId: string, id: string, side: DocumentSide, bytes: Buffer) =>
      putDocument(ctx, tenantId, id, side, bytes),
    submit: (tenantId: string, id: string, actor: string) => submit(ctx, tenantId, id, actor),
    getApplication: (tenantId: string, id: string) => getApplication(ctx, tenantId, id),
    queue: (op: Reviewer, query: { state: KycState | 'all'; tenant_id?: string; limit: number }) =>
      queue(ctx, op, query),
    clear: (op: Reviewer, id: string) => clear(ctx, op, id),
    decline: (op: Reviewer, id: string, reasonCode: KycDeclineReason, note?: string) =>
      decline(ctx, op, id, reasonCode, note),
    viewDocument: (op: Reviewer, id: string, side: DocumentSide) => viewDocument(ctx, op, id, side),
    recordSuitability: (
      tenantId: string,
      investorId: string,
      questionnaire: Questionnaire,
      riskAcknowledged: boolean,
      actor: string,
    ) => recordSuitability(ctx, tenantId, investorId, questionnaire, riskAcknowledged, actor),
    investorView: (tenantId: string, investorId: string) => investorView(ctx, tenantId, investorId),
    listAccounts: (tenantId: string, status: AccountStatus | undefined, limit: number) =>
      listAccounts(ctx, tenantId, status, limit),
    getAccount: (tenantId: string, id: string) => getAccount(ctx, tenantId, id),
    listBrokerAccounts: (op: Reviewer, query: { status?: AccountStatus; tenant_id?: string; limit: number }) =>
      listBrokerAccounts(ctx, op, query),
    changeStatus: (op: Reviewer, id: string, status: AccountStatus, reason: string) =>
      changeStatus(ctx, op, id, status, reason),
  };
}

export type OnboardingService = ReturnType<typeof createOnboardingService>;
