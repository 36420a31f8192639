// Onboarding routes: KYC applications and ID documents (tenant), the dealer's KYC review, suitability,
// investor and account reads, and account status changes (dealer desk and back office).
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { MAX_DOCUMENT_BYTES } from '../contract/kyc.js';
import { createOnboardingService, type OnboardingService } from './service.js';
import {
  AccountSchema,
  AccountStatusBody,
  AccountsQuery,
  ApplicationIdParams,
  DealerAccountSchema,
  DealerAccountsQuery,
  DealerApplicationParams,
  DealerDocumentParams,
  DealerKycItem,
  DealerKycQuery,
  DeclineBody,
  DocumentParams,
  DocumentUploadResponse,
  InvestorIdParams,
  InvestorSchema,
  KycApplicationSchema,
  KycCreateBody,
  KycCreateResponse,
  SubmitResponse,
  SuitabilityBody,
  SuitabilityResponse,
  accountsIssueCode,
  declineIssueCode,
  documentIssueCode,
  kycCreateIssueCode,
  suitabilityIssueCode,
} from '../contract/schemas/onboarding.js';

const tags = ['onboarding'];

export function onboardingRoutes(deps: Deps): RouteDef[] {
  const svc = createOnboardingService(deps);
  return [...applicationRoutes(svc), ...reviewRoutes(svc), ...investorRoutes(svc), ...accountRoutes(svc)];
}

/** The tenant's KYC application: create, upload the ID images, submit, read. */
function applicationRoutes(svc: OnboardingService): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/kyc/applications',
      auth: 'I',
      tags,
      status: 201,
      summary: 'Create a KYC application. Details are screened at once: the response shows state screened.',
      body: KycCreateBody,
      response: KycCreateResponse,
      issueCode: kycCreateIssueCode,
      errors: [
        'INVALID_FULL_NAME',
        'INVALID_NATIONAL_ID',
        'INVALID_DATE_OF_BIRTH',
        'DATE_OF_BIRTH_MISMATCH',
        'UNDERAGE',
        'INVALID_EMAIL',
        'INVALID_PHONE',
        'INVALID_ADDRESS',
        'DUPLICATE_NATIONAL_ID',
      ],
      handler: ({ tenantId, body, actor }) => svc.createApplication(tenantId!, body, actor),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v1/kyc/applications/:id/documents/:side',
      auth: 'I',
      tags,
      summary:
        'Upload one side of the national id: the raw JPEG or PNG bytes (checked by magic bytes), at most 512 ' +
        'KiB; stored encrypted under the tenant key. A second upload of a side replaces it.',
      params: DocumentParams,
      rawBody: { maxBytes: MAX_DOCUMENT_BYTES },
      response: DocumentUploadResponse,
      issueCode: documentIssueCode,
      errors: [
        'NOT_FOUND',
        'UNKNOWN_DOCUMENT_SIDE',
        'UNSUPPORTED_MEDIA_TYPE',
        'PAYLOAD_TOO_LARGE',
        'APPLICATION_ALREADY_SUBMITTED',
        'APPLICATION_ALREADY_DECIDED',
      ],
      handler: ({ tenantId, params, raw }) =>
        svc.putDocument(tenantId!, params.id, params.side, raw ?? Buffer.alloc(0)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/kyc/applications/:id/submit',
      auth: 'I',
      tags,
      summary:
        'Submit: with both ID sides, screening_referred (the broker reviews; poll the application); with none, ' +
        'the dossier-only path decides directly.',
      params: ApplicationIdParams,
      response: SubmitResponse,
      errors: ['NOT_FOUND', 'DOCUMENTS_INCOMPLETE', 'APPLICATION_ALREADY_SUBMITTED', 'APPLICATION_ALREADY_DECIDED'],
      handler: ({ tenantId, params, actor }) => svc.submit(tenantId!, params.id, actor),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/kyc/applications/:id',
      auth: 'B',
      tags,
      summary:
        'Read a KYC application: state, investor_id once approved, path, documents on file, reason_code when rejected.',
      params: ApplicationIdParams,
      response: KycApplicationSchema,
      errors: ['NOT_FOUND'],
      handler: ({ tenantId, params }) => svc.getApplication(tenantId!, params.id),
    }),
  ];
}

/** The dealer's KYC review: the queue, the ID images, clear and decline. */
function reviewRoutes(svc: OnboardingService): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/broker/v1/kyc',
      auth: { realm: 'console', grant: 'kyc:read' },
      tags,
      summary:
        "The broker's KYC review queue across its tenants, oldest submission first (default state " +
        'screening_referred; state=all for every application).',
      query: DealerKycQuery,
      response: z.object({ applications: z.array(DealerKycItem) }),
      handler: ({ operator, query }) => svc.queue(operator!, query),
    }),
    defineRoute({
      method: 'GET',
      url: '/broker/v1/kyc/:application_id/documents/:side',
      auth: { realm: 'console', grant: 'kyc:read' },
      tags,
      summary: 'View an ID image under review (decrypted). Every view is audited.',
      params: DealerDocumentParams,
      issueCode: documentIssueCode,
      errors: ['NOT_FOUND', 'UNKNOWN_DOCUMENT_SIDE'],
      produces: ['image/jpeg', 'image/png'],
      handler: ({ operator, params }) => svc.viewDocument(operator!, params.application_id, params.side),
    }),
    defineRoute({
      method: 'POST',
      url: '/broker/v1/kyc/:application_id/clear',
      auth: { realm: 'console', grant: 'kyc:decide' },
      tags,
      summary:
        'Clear a screening referral: the application resubmits automatically and is approved; investor_id is assigned.',
      params: DealerApplicationParams,
      response: DealerKycItem,
      errors: ['NOT_FOUND', 'APPLICATION_NOT_REFERRED', 'APPLICATION_ALREADY_DECIDED', 'DUPLICATE_NATIONAL_ID'],
      handler: ({ operator, params }) => svc.clear(operator!, params.application_id),
    }),
    defineRoute({
      method: 'POST',
      url: '/broker/v1/kyc/:application_id/decline',
      auth: { realm: 'console', grant: 'kyc:decide' },
      tags,
      summary: 'Decline a screening referral with a reason_code: the application is rejected.',
      params: DealerApplicationParams,
      body: DeclineBody,
      response: DealerKycItem,
      issueCode: declineIssueCode,
      errors: ['NOT_FOUND', 'INVALID_REASON_CODE', 'APPLICATION_NOT_REFERRED', 'APPLICATION_ALREADY_DECIDED'],
      handler: ({ operator, params, body }) =>
        svc.decline(operator!, params.application_id, body.reason_code, body.note),
    }),
  ];
}

/** Suitability and the investor object. */
function investorRoutes(svc: OnboardingService): RouteDef[] {
  return [
    defineRoute({
      method: 'PUT',
      url: '/v1/investors/:id/suitability',
      auth: 'I',
      tags,
      summary:
        'Record the suitability questionnaire (replaces the previous one) and the risk acknowledgment; the ' +
        'tier is computed from the answers.',
      params: InvestorIdParams,
      body: SuitabilityBody,
      response: SuitabilityResponse,
      issueCode: suitabilityIssueCode,
      errors: ['NOT_FOUND', 'INVESTOR_NOT_APPROVED', 'INVESTOR_CLOSED', 'INVALID_QUESTIONNAIRE'],
      handler: ({ tenantId, params, body, actor }) =>
        svc.recordSuitability(tenantId!, params.id, body.questionnaire, body.risk_acknowledged, actor),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/investors/:id',
      auth: 'B',
      tags,
      summary:
        'The investor object: status, broker account reference, gating flags, shariah election, broker of record.',
      params: InvestorIdParams,
      response: InvestorSchema,
      errors: ['NOT_FOUND'],
      handler: ({ tenantId, params }) => svc.investorView(tenantId!, params.id),
    }),
  ];
}

/** Accounts: the tenant's and the dealer's lists, and status changes (dealer desk and back office). */
function accountRoutes(svc: OnboardingService): RouteDef[] {
  const statusChange = (realm: 'console' | 'admin', url: string) =>
    defineRoute({
      method: 'POST',
      url,
      auth: { realm, grant: 'accounts:status' },
      tags,
      summary: 'Change an account status: active <-> restricted, either -> closed (final). Audited with the reason.',
      params: InvestorIdParams,
      body: AccountStatusBody,
      response: DealerAccountSchema,
      issueCode: accountsIssueCode,
      errors: ['NOT_FOUND', 'INVALID_ACCOUNT_STATUS', 'ACCOUNT_STATUS_UNCHANGED', 'INVESTOR_CLOSED'],
      handler: ({ operator, params, body }) => svc.changeStatus(operator!, params.id, body.status, body.reason),
    });
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/accounts',
      auth: 'B',
      tags,
      summary: "The tenant's accounts, newest first; filter by status; limit 1-200 (default 100).",
      query: AccountsQuery,
      response: z.object({ accounts: z.array(AccountSchema) }),
      issueCode: accountsIssueCode,
      errors: ['INVALID_ACCOUNT_STATUS'],
      handler: ({ tenantId, query }) => svc.listAccounts(tenantId!, query.status, query.limit),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/accounts/:id',
      auth: 'B',
      tags,
      summary: "One account (not wrapped). 404 NOT_FOUND when unknown or another tenant's.",
      params: InvestorIdParams,
      response: AccountSchema,
      errors: ['NOT_FOUND'],
      handler: ({ tenantId, params }) => svc.getAccount(tenantId!, params.id),
    }),
    defineRoute({
      method: 'GET',
      url: '/broker/v1/accounts',
      auth: { realm: 'console', grant: 'exposure:read' },
      tags,
      summary: "Accounts held at the dealer's broker across its tenants, newest first; filter by status and tenant_id.",
      query: DealerAccountsQuery,
      response: z.object({ accounts: z.array(DealerAccountSchema) }),
      issueCode: accountsIssueCode,
      errors: ['INVALID_ACCOUNT_STATUS'],
      handler: ({ operator, query }) => svc.listBrokerAccounts(operator!, query),
    }),
    statusChange('console', '/broker/v1/accounts/:id/status'),
    statusChange('admin', '/admin/accounts/:id/status'),
  ];
}
