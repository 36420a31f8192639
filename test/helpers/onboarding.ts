// Onboarding through the real routes: valid national ids, the bundled sample ID images, and
// onboardInvestor(t), which leaves an approved investor with suitability on file (for funding and
// trading tests). Each national id is unique within a test file (a counter), so repeated calls never
// collide with the one-account-per-person rule.
import { readFileSync } from 'node:fs';
import type { Questionnaire } from '../../daemon/contract/kyc.js';
import type { TestApp } from './app.js';

export const SAMPLE_FRONT = readFileSync(new URL('../../fixtures/documents/national_id_front.png', import.meta.url));
export const SAMPLE_BACK = readFileSync(new URL('../../fixtures/documents/national_id_back.png', import.meta.url));

let counter = 0;

/**
 * A structurally valid national id: century 2, a birth date in 1970-1997, governorate 01 (Cairo).
 * The last four digits are `suffix` when given (the magic 0000 / 9999), else 1000-9998.
 */
export function nationalId(suffix?: string): { nationalId: string; dateOfBirth: string } {
  const n = ++counter;
  const year = 1970 + (n % 28);
  const month = 1 + (Math.floor(n / 28) % 12);
  const day = 1 + (Math.floor(n / 336) % 28);
  const pad = (v: number) => String(v).padStart(2, '0');
  const last4 = suffix ?? String(1000 + (Math.floor(n / 9408) % 8999));
  const id = `2${pad(year % 100)}${pad(month)}${pad(day)}01${Math.floor(n / 9408) % 10}${last4}`;
  return { nationalId: id, dateOfBirth: `${year}-${pad(month)}-${pad(day)}` };
}

export function applicant(over: Record<string, unknown> = {}, suffix?: string) {
  const { nationalId: id, dateOfBirth } = nationalId(suffix);
  return {
    full_name: 'Mona Hassan',
    national_id: id,
    date_of_birth: dateOfBirth,
    email: 'mona.hassan@example.com',
    phone: '01012345678',
    address: '12 Tahrir Street, Downtown, Cairo',
    ...over,
  };
}

export const BALANCED: Questionnaire = {
  investment_experience: 'moderate',
  horizon: '3_5y',
  risk_tolerance: 'medium',
  annual_income_band: '300k_1m',
  net_worth_band: '1m_5m',
  objectives: ['growth'],
  shariah_only: false,
};

function expectStatus(res: { status: number; text: string }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
}

export interface OnboardOptions {
  /** Tenant credentials (default: the bootstrap tenant). */
  tenant?: { api_key: string; signing_secret: string };
  fullName?: string;
  /** false: leave suitability unrecorded. */
  suitability?: Partial<Questionnaire> | false;
  riskAcknowledged?: boolean;
  /** Skip the ID images (dossier-only path). */
  dossier?: boolean;
}

export interface Onboarded {
  investorId: string;
  applicationId: string;
  nationalId: string;
}

/** Creates an approved investor through the real routes; by default balanced (tier 2), risk acknowledged. */
export async function onboardInvestor(t: TestApp, opts: OnboardOptions = {}): Promise<Onboarded> {
  const tenant = opts.tenant;
  const body = applicant(opts.fullName ? { full_name: opts.fullName } : {});
  const created = await t.req('POST', '/v1/kyc/applications', { body, tenant });
  expectStatus(created, 201, 'create application');
  const id = created.body.application_id as string;
  if (!opts.dossier) {
    for (const [side, raw] of [
      ['national_id_front', SAMPLE_FRONT],
      ['national_id_back', SAMPLE_BACK],
    ] as const) {
      expectStatus(
        await t.req('PUT', `/v1/kyc/applications/${id}/documents/${side}`, { raw, contentType: 'image/png', tenant }),
        200,
        `upload ${side}`,
      );
    }
  }
  expectStatus(await t.req('POST', `/v1/kyc/applications/${id}/submit`, { tenant }), 200, 'submit');
  const app = await t.req('GET', `/v1/kyc/applications/${id}`, { tenant });
  if (app.body.state !== 'approved') throw new Error(`application ${id} is ${app.body.state}, not approved`);
  const investorId = app.body.investor_id as string;
  if (opts.suitability !== false) {
    const res = await t.req('PUT', `/v1/investors/${investorId}/suitability`, {
      body: {
        questionnaire: { ...BALANCED, ...(opts.suitability ?? {}) },
        risk_acknowledged: opts.riskAcknowledged ?? true,
      },
      tenant,
    });
    expectStatus(res, 200, 'suitability');
  }
  return { investorId, applicationId: id, nationalId: body.national_id };
}
