// Wire schemas of onboarding: KYC applications, documents, the dealer's review, suitability, investor
// and account objects. Field rules come from contract/kyc.ts so the CLI wizard validates the same way.
import { z } from 'zod';
import { calendarDate, timestamp } from './formats.js';
import type { ErrorCode } from '../errors.js';
import { drawableText } from '../font-coverage.js';
import {
  ACCOUNT_STATUSES,
  DOCUMENT_SIDES,
  EXPERIENCE_LEVELS,
  HORIZON_BANDS,
  INCOME_BANDS,
  KYC_DECLINE_REASONS,
  KYC_PATHS,
  KYC_STATES,
  NET_WORTH_BANDS,
  OBJECTIVES,
  RISK_TOLERANCES,
  checkNationalId,
  isValidAddress,
  isValidEmail,
  isValidFullName,
  isValidPhone,
  parseIsoDate,
} from '../kyc.js';

export const ApplicationIdParams = z.strictObject({ id: z.string().min(1).max(64) });
export const DealerApplicationParams = z.strictObject({ application_id: z.string().min(1).max(64) });
export const DocumentParams = z.strictObject({ id: z.string().min(1).max(64), side: z.enum(DOCUMENT_SIDES) });
export const DealerDocumentParams = z.strictObject({
  application_id: z.string().min(1).max(64),
  side: z.enum(DOCUMENT_SIDES),
});
export const InvestorIdParams = z.strictObject({ id: z.string().min(1).max(64) });

const text = (max: number) =>
  z
    .string()
    .max(max * 4)
    .trim();

export const KycCreateBody = z
  .strictObject({
    full_name: drawableText(
      text(120).refine(
        isValidFullName,
        'letters (any script) with spaces, apostrophes, hyphens or periods between words, 2-120 characters',
      ),
    ),
    national_id: z
      .string()
      .max(64)
      .superRefine((v, ctx) => {
        const r = checkNationalId(v);
        if (!r.ok) ctx.addIssue({ code: 'custom', message: r.reason });
      }),
    date_of_birth: calendarDate()
      .max(32)
      .refine((v) => parseIsoDate(v) !== null, 'a real date as YYYY-MM-DD'),
    email: z.string().max(320).refine(isValidEmail, 'an email address such as name@example.com'),
    phone: z.string().max(32).refine(isValidPhone, 'an Egyptian mobile: 01[0125]XXXXXXXX or +201[0125]XXXXXXXX'),
    address: text(300).refine(isValidAddress, '5-300 characters, no control characters'),
  })
  .meta({ id: 'KycApplicationCreate' });
export type KycCreateInput = z.infer<typeof KycCreateBody>;

const CREATE_FIELD_CODES: Record<string, ErrorCode> = {
  full_name: 'INVALID_FULL_NAME',
  national_id: 'INVALID_NATIONAL_ID',
  date_of_birth: 'INVALID_DATE_OF_BIRTH',
  email: 'INVALID_EMAIL',
  phone: 'INVALID_PHONE',
  address: 'INVALID_ADDRESS',
};

export function kycCreateIssueCode(path: readonly PropertyKey[], where: string): ErrorCode | undefined {
  const field = String(path[0]);
  return where === 'body' && Object.hasOwn(CREATE_FIELD_CODES, field) ? CREATE_FIELD_CODES[field] : undefined;
}

export function documentIssueCode(path: readonly PropertyKey[], where: string): ErrorCode | undefined {
  return where === 'params' && path[0] === 'side' ? 'UNKNOWN_DOCUMENT_SIDE' : undefined;
}

export const KycCreateResponse = z
  .object({ application_id: z.string(), state: z.enum(KYC_STATES) })
  .meta({ id: 'KycApplicationCreated' });

export const DocumentSummary = z.object({
  side: z.enum(DOCUMENT_SIDES),
  content_type: z.enum(['image/jpeg', 'image/png']),
  size_bytes: z.int(),
  sha256: z.string(),
  uploaded_at: timestamp(),
});

export const DocumentUploadResponse = z
  .object({
    application_id: z.string(),
    side: z.enum(DOCUMENT_SIDES),
    content_type: z.enum(['image/jpeg', 'image/png']),
    size_bytes: z.int(),
    sha256: z.string(),
    state: z.enum(KYC_STATES),
  })
  .meta({ id: 'KycDocumentUploaded' });

export const SubmitResponse = z
  .object({
    state: z.enum(KYC_STATES),
    investor_id: z
      .string()
      .optional()
      .describe('Present when the submit itself approved the application (the dossier-only path).'),
  })
  .meta({ id: 'KycSubmitted' });

export const KycApplicationSchema = z
  .object({
    application_id: z.string(),
    state: z.enum(KYC_STATES),
    investor_id: z.string().nullable(),
    path: z.enum(KYC_PATHS).nullable(),
    documents: z.array(DocumentSummary),
    reason_code: z.enum(KYC_DECLINE_REASONS).nullable(),
    created_at: timestamp(),
    submitted_at: timestamp().nullable(),
    decided_at: timestamp().nullable(),
    updated_at: timestamp(),
  })
  .meta({ id: 'KycApplication' });

export const DealerKycQuery = z.strictObject({
  state: z.enum([...KYC_STATES, 'all']).default('screening_referred'),
  tenant_id: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const DealerKycItem = KycApplicationSchema.extend({
  tenant_id: z.string(),
  full_name: z.string(),
  national_id_masked: z.string(),
  date_of_birth: calendarDate(),
}).meta({ id: 'DealerKycApplication' });

export const DeclineBody = z.strictObject({
  reason_code: z.enum(KYC_DECLINE_REASONS),
  note: z.string().max(500).optional(),
});

export function declineIssueCode(path: readonly PropertyKey[], where: string): ErrorCode | undefined {
  return where === 'body' && path[0] === 'reason_code' ? 'INVALID_REASON_CODE' : undefined;
}

export const QuestionnaireSchema = z
  .strictObject({
    investment_experience: z.enum(EXPERIENCE_LEVELS),
    horizon: z.enum(HORIZON_BANDS),
    risk_tolerance: z.enum(RISK_TOLERANCES),
    annual_income_band: z.enum(INCOME_BANDS),
    net_worth_band: z.enum(NET_WORTH_BANDS),
    objectives: z
      .array(z.enum(OBJECTIVES))
      .min(1)
      .max(OBJECTIVES.length)
      .refine((a) => new Set(a).size === a.length, 'objectives must not repeat'),
    shariah_only: z.boolean().default(false),
  })
  .meta({ id: 'SuitabilityQuestionnaire' });

export const SuitabilityBody = z
  .strictObject({ questionnaire: QuestionnaireSchema, risk_acknowledged: z.boolean() })
  .meta({ id: 'SuitabilityRequest' });

export function suitabilityIssueCode(path: readonly PropertyKey[], where: string): ErrorCode | undefined {
  return where === 'body' && path[0] === 'questionnaire' ? 'INVALID_QUESTIONNAIRE' : undefined;
}

export const SuitabilityView = z.object({
  tier: z.int().min(0).max(3),
  recorded: z.boolean(),
  risk_acknowledged: z.boolean(),
});

export const SuitabilityResponse = z
  .object({
    investor_id: z.string(),
    suitability: SuitabilityView.extend({ score: z.int() }),
    shariah_only: z.boolean(),
  })
  .meta({ id: 'SuitabilityRecorded' });

const BrokerContact = {
  name: z.string(),
  fra_license_no: z.string(),
  contact_email: z.string(),
  contact_phone: z.string(),
};

export const InvestorSchema = z
  .object({
    investor_id: z.string(),
    full_name: z.string(),
    status: z.enum(ACCOUNT_STATUSES),
    broker_account_ref: z.string(),
    suitability_recorded: z.boolean(),
    risk_acknowledged: z.boolean(),
    shariah_only: z.boolean(),
    broker: z.object(BrokerContact),
  })
  .meta({ id: 'Investor' });

export const AccountSchema = z
  .object({
    id: z.string(),
    account_number: z.string(),
    status: z.enum(ACCOUNT_STATUSES),
    currency: z.literal('EGP'),
    name: z.string(),
    shariah_only: z.boolean(),
    suitability: SuitabilityView,
    broker: z.object({ id: z.string(), ...BrokerContact }),
    created_at: timestamp(),
  })
  .meta({ id: 'Account' });

export const AccountsQuery = z.strictObject({
  status: z.enum(ACCOUNT_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const DealerAccountsQuery = AccountsQuery.extend({ tenant_id: z.string().max(64).optional() });

export function accountsIssueCode(path: readonly PropertyKey[], where: string): ErrorCode | undefined {
  return (where === 'query' || where === 'body') && path[0] === 'status' ? 'INVALID_ACCOUNT_STATUS' : undefined;
}

export const DealerAccountSchema = AccountSchema.extend({ tenant_id: z.string() }).meta({ id: 'DealerAccount' });

export const AccountStatusBody = z.strictObject({
  status: z.enum(ACCOUNT_STATUSES),
  reason: z.string().trim().min(1).max(500),
});

// The response types, named as /openapi.json names them: the CLI's client is typed with these.
export type KycApplicationCreated = z.infer<typeof KycCreateResponse>;
export type KycDocumentUploaded = z.infer<typeof DocumentUploadResponse>;
export type KycSubmitted = z.infer<typeof SubmitResponse>;
export type KycApplication = z.infer<typeof KycApplicationSchema>;
export type DealerKycApplication = z.infer<typeof DealerKycItem>;
export type SuitabilityRecorded = z.infer<typeof SuitabilityResponse>;
export type Investor = z.infer<typeof InvestorSchema>;
export type Account = z.infer<typeof AccountSchema>;
export type DealerAccount = z.infer<typeof DealerAccountSchema>;
