// Suitability, the investor and account objects, account lists, and account status changes by the
// dealer desk and the back office.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp, addConsoleOperator } from '../helpers/app.js';
import { BALANCED, applicant, onboardInvestor } from '../helpers/onboarding.js';
import { scoreQuestionnaire } from '../../daemon/onboarding/suitability.js';
import type { Questionnaire } from '../../daemon/contract/kyc.js';

let t: TestApp;
let other: { tenant_id: string; api_key: string; signing_secret: string };

beforeAll(async () => {
  t = await makeApp();
  other = (await t.req('POST', '/admin/tenants', { body: { name: 'second-app' } })).body;
});
afterAll(() => t.close());

const BROKER = {
  id: 'brk_sandbox0001',
  name: 'Nile Securities Brokerage (Sandbox)',
  fra_license_no: '417/2009',
  contact_email: 'support@nile-securities.example',
  contact_phone: '+20227350100',
};

const CONSERVATIVE: Questionnaire = {
  investment_experience: 'none',
  horizon: 'under_1y',
  risk_tolerance: 'low',
  annual_income_band: 'under_120k',
  net_worth_band: 'under_250k',
  objectives: ['capital_preservation'],
  shariah_only: false,
};
const GROWTH: Questionnaire = {
  investment_experience: 'extensive',
  horizon: 'over_5y',
  risk_tolerance: 'high',
  annual_income_band: 'over_1m',
  net_worth_band: 'over_5m',
  objectives: ['growth', 'speculation'],
  shariah_only: false,
};

const putSuitability = (id: string, body: unknown, tenant?: typeof other) =>
  t.req('PUT', `/v1/investors/${id}/suitability`, { body, tenant });

const consoleKey = (name: string, grants: string[], brokerId?: string) => addConsoleOperator(t, name, grants, brokerId);

describe('PUT /v1/investors/{id}/suitability: questionnaire (object) and risk_acknowledged (bool)', () => {
  it('a balanced questionnaire records tier 2 with the flags; the response has investor_id, suitability and shariah_only', async () => {
    const { investorId } = await onboardInvestor(t, { suitability: false });
    const res = await putSuitability(investorId, { questionnaire: BALANCED, risk_acknowledged: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      investor_id: investorId,
      suitability: { tier: 2, score: 11, recorded: true, risk_acknowledged: true },
      shariah_only: false,
    });
    const account = (await t.req('GET', `/v1/accounts/${investorId}`)).body;
    expect(account.suitability).toEqual({ tier: 2, recorded: true, risk_acknowledged: true });
  });

  it('suitability.tier: 1 conservative, 2 balanced, 3 growth, computed by the documented scoring', async () => {
    const { investorId } = await onboardInvestor(t, { suitability: false });
    for (const [q, tier] of [
      [CONSERVATIVE, 1],
      [BALANCED, 2],
      [GROWTH, 3],
    ] as const) {
      const res = await putSuitability(investorId, { questionnaire: q, risk_acknowledged: true });
      expect(res.body.suitability.tier).toBe(tier);
    }
  });

  it('scoring: points add to a score 0-18; bands 0-6, 7-12, 13-18; caps by risk tolerance, horizon and experience', () => {
    expect(scoreQuestionnaire(CONSERVATIVE)).toEqual({ score: 0, tier: 1 });
    expect(scoreQuestionnaire(GROWTH)).toEqual({ score: 18, tier: 3 });
    expect(scoreQuestionnaire(BALANCED)).toEqual({ score: 11, tier: 2 });
    // Capacity is the weaker of income and net worth; the objective counts its highest choice.
    expect(scoreQuestionnaire({ ...GROWTH, annual_income_band: 'under_120k' }).score).toBe(15);
    expect(scoreQuestionnaire({ ...GROWTH, objectives: ['capital_preservation'] }).score).toBe(15);
    // Caps: low tolerance -> at most 1, medium -> at most 2; a horizon under a year -> 1; no experience -> at most 2.
    expect(scoreQuestionnaire({ ...GROWTH, risk_tolerance: 'low' })).toEqual({ score: 12, tier: 1 });
    expect(scoreQuestionnaire({ ...GROWTH, risk_tolerance: 'medium' })).toEqual({ score: 15, tier: 2 });
    expect(scoreQuestionnaire({ ...GROWTH, horizon: 'under_1y' }).tier).toBe(1);
    expect(scoreQuestionnaire({ ...GROWTH, investment_experience: 'none' })).toEqual({ score: 15, tier: 2 });
  });

  it('recorded is true once the questionnaire is on file; risk_acknowledged only once the disclosure is accepted', async () => {
    const { investorId } = await onboardInvestor(t, { suitability: false });
    const before = (await t.req('GET', `/v1/investors/${investorId}`)).body;
    expect(before).toMatchObject({ suitability_recorded: false, risk_acknowledged: false });
    expect((await t.req('GET', `/v1/accounts/${investorId}`)).body.suitability).toEqual({
      tier: 0,
      recorded: false,
      risk_acknowledged: false,
    });
    await putSuitability(investorId, { questionnaire: BALANCED, risk_acknowledged: false });
    expect((await t.req('GET', `/v1/investors/${investorId}`)).body).toMatchObject({
      suitability_recorded: true,
      risk_acknowledged: false,
    });
    await putSuitability(investorId, { questionnaire: BALANCED, risk_acknowledged: true });
    expect((await t.req('GET', `/v1/investors/${investorId}`)).body).toMatchObject({
      suitability_recorded: true,
      risk_acknowledged: true,
    });
  });

  it('shariah_only is the investor-elected screen, elected in the questionnaire; a later PUT replaces it', async () => {
    const { investorId } = await onboardInvestor(t, { suitability: false });
    const res = await putSuitability(investorId, {
      questionnaire: { ...BALANCED, shariah_only: true },
      risk_acknowledged: true,
    });
    expect(res.body.shariah_only).toBe(true);
    expect((await t.req('GET', `/v1/investors/${investorId}`)).body.shariah_only).toBe(true);
    expect((await t.req('GET', `/v1/accounts/${investorId}`)).body.shariah_only).toBe(true);
    const { shariah_only: _omitted, ...withoutElection } = BALANCED;
    await putSuitability(investorId, { questionnaire: withoutElection, risk_acknowledged: true });
    expect((await t.req('GET', `/v1/investors/${investorId}`)).body.shariah_only).toBe(false);
  });

  it('the recording is audited with the tier', async () => {
    const { investorId } = await onboardInvestor(t);
    const entries = (await t.req('GET', '/admin/audit?limit=50')).body.entries;
    const e = entries.find((x: any) => x.subject === investorId && x.action === 'investor.suitability_recorded');
    expect(JSON.parse(e.detail)).toEqual({ tier: 2, score: 11, risk_acknowledged: true, shariah_only: false });
  });

  describe('Bad input: 422 with a stable code and the investor unchanged', () => {
    const wrong: Array<[string, unknown, string]> = [
      ['no questionnaire', { risk_acknowledged: true }, 'INVALID_QUESTIONNAIRE'],
      ['questionnaire not an object', { questionnaire: 'balanced', risk_acknowledged: true }, 'INVALID_QUESTIONNAIRE'],
      [
        'investment_experience unknown',
        { questionnaire: { ...BALANCED, investment_experience: 'expert' }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      [
        'horizon missing',
        { questionnaire: { ...BALANCED, horizon: undefined }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      [
        'horizon as years',
        { questionnaire: { ...BALANCED, horizon: 5 }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      [
        'risk_tolerance unknown',
        { questionnaire: { ...BALANCED, risk_tolerance: 'extreme' }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      [
        'annual_income_band unknown',
        { questionnaire: { ...BALANCED, annual_income_band: '1m' }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      [
        'net_worth_band unknown',
        { questionnaire: { ...BALANCED, net_worth_band: 'rich' }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      [
        'objectives empty',
        { questionnaire: { ...BALANCED, objectives: [] }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      [
        'objectives repeated',
        { questionnaire: { ...BALANCED, objectives: ['growth', 'growth'] }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      [
        'objectives unknown',
        { questionnaire: { ...BALANCED, objectives: ['yolo'] }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      [
        'shariah_only not a bool',
        { questionnaire: { ...BALANCED, shariah_only: 'yes' }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      [
        'questionnaire extra field',
        { questionnaire: { ...BALANCED, favourite_stock: 'COMI' }, risk_acknowledged: true },
        'INVALID_QUESTIONNAIRE',
      ],
      ['risk_acknowledged missing', { questionnaire: BALANCED }, 'VALIDATION_FAILED'],
      ['risk_acknowledged a string', { questionnaire: BALANCED, risk_acknowledged: 'true' }, 'VALIDATION_FAILED'],
      ['an extra field', { questionnaire: BALANCED, risk_acknowledged: true, tier: 3 }, 'VALIDATION_FAILED'],
    ];
    for (const [name, body, code] of wrong) {
      it(`${name}: 422 ${code}`, async () => {
        const { investorId } = await onboardInvestor(t, { suitability: false });
        const res = await putSuitability(investorId, body);
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe(code);
        expect((await t.req('GET', `/v1/accounts/${investorId}`)).body.suitability).toEqual({
          tier: 0,
          recorded: false,
          risk_acknowledged: false,
        });
      });
    }

    it("unknown or another tenant's investor: 404 NOT_FOUND", async () => {
      expect(
        (await putSuitability('inv_0000000000', { questionnaire: BALANCED, risk_acknowledged: true })).body.error.code,
      ).toBe('NOT_FOUND');
      const { investorId } = await onboardInvestor(t, { suitability: false });
      const res = await putSuitability(investorId, { questionnaire: BALANCED, risk_acknowledged: true }, other);
      expect(res.status).toBe(404);
      expect((await t.req('GET', `/v1/investors/${investorId}`)).body.suitability_recorded).toBe(false);
    });

    it('an application that is not approved yet: 422 INVESTOR_NOT_APPROVED', async () => {
      const created = await t.req('POST', '/v1/kyc/applications', { body: applicant() });
      const res = await putSuitability(created.body.application_id, {
        questionnaire: BALANCED,
        risk_acknowledged: true,
      });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('INVESTOR_NOT_APPROVED');
    });

    it('without an Idempotency-Key: 400 IDEMPOTENCY_KEY_REQUIRED', async () => {
      const { investorId } = await onboardInvestor(t, { suitability: false });
      const res = await t.req('PUT', `/v1/investors/${investorId}/suitability`, {
        body: { questionnaire: BALANCED, risk_acknowledged: true },
        headers: { 'idempotency-key': '' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    });
  });
});

describe('GET /v1/investors/{id}: the investor object', () => {
  it('has exactly investor_id, full_name, status, broker_account_ref, suitability_recorded, risk_acknowledged, shariah_only, broker', async () => {
    const { investorId } = await onboardInvestor(t, { fullName: 'Karim Adel' });
    const res = await t.req('GET', `/v1/investors/${investorId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      investor_id: investorId,
      full_name: 'Karim Adel',
      status: 'active',
      broker_account_ref: expect.stringMatching(/^NSB-\d{8}$/),
      suitability_recorded: true,
      risk_acknowledged: true,
      shariah_only: false,
      broker: {
        name: BROKER.name,
        fra_license_no: BROKER.fra_license_no,
        contact_email: BROKER.contact_email,
        contact_phone: BROKER.contact_phone,
      },
    });
  });

  it("unknown, another tenant's, or a pending application's id: 404 NOT_FOUND", async () => {
    const { investorId } = await onboardInvestor(t);
    expect((await t.req('GET', `/v1/investors/${investorId}`, { tenant: other })).status).toBe(404);
    expect((await t.req('GET', '/v1/investors/inv_0000000000')).body.error.code).toBe('NOT_FOUND');
    const pending = await t.req('POST', '/v1/kyc/applications', { body: applicant() });
    const res = await t.req('GET', `/v1/investors/${pending.body.application_id}`);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('/v1/kyc/applications/');
  });
});

describe('GET /v1/accounts/{id}: the account object, not wrapped', () => {
  it('has every field of the spec: id, account_number, status, currency, name, shariah_only, suitability, broker, created_at', async () => {
    const { investorId } = await onboardInvestor(t, {
      fullName: 'Salma Youssef',
      suitability: { ...GROWTH, shariah_only: true },
    });
    const res = await t.req('GET', `/v1/accounts/${investorId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: investorId,
      account_number: expect.stringMatching(/^NSB-\d{8}$/),
      status: 'active',
      currency: 'EGP',
      name: 'Salma Youssef',
      shariah_only: true,
      suitability: { tier: 3, recorded: true, risk_acknowledged: true },
      broker: BROKER,
      created_at: '2026-11-22T09:00:00+02:00',
    });
    const investor = (await t.req('GET', `/v1/investors/${investorId}`)).body;
    expect(investor.broker_account_ref).toBe(res.body.account_number);
  });

  it("unknown or another tenant's: 404 NOT_FOUND", async () => {
    const { investorId } = await onboardInvestor(t);
    const res = await t.req('GET', `/v1/accounts/${investorId}`, { tenant: other });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await t.req('GET', '/v1/accounts/inv_0000000000')).status).toBe(404);
  });
});

describe('GET /v1/accounts: { accounts: [account] }, newest first, tenant-scoped; status filter; limit 1-200 default 100', () => {
  let local: TestApp;
  const ids: string[] = [];
  beforeAll(async () => {
    local = await makeApp();
    for (let i = 0; i < 4; i++) {
      ids.push((await onboardInvestor(local)).investorId);
      await local.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 1 } });
    }
    ids.push((await onboardInvestor(local)).investorId);
    await local.req('POST', `/broker/v1/accounts/${ids[1]}/status`, {
      body: { status: 'restricted', reason: 'pending documents' },
    });
    await local.req('POST', `/broker/v1/accounts/${ids[2]}/status`, {
      body: { status: 'closed', reason: 'client request' },
    });
  });
  afterAll(() => local.close());

  it("lists the tenant's accounts newest first", async () => {
    const res = await local.req('GET', '/v1/accounts');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['accounts']);
    expect(res.body.accounts.map((a: any) => a.id)).toEqual([...ids].reverse());
    const created = res.body.accounts.map((a: any) => a.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(res.body.accounts[0]).toMatchObject({ currency: 'EGP', broker: BROKER });
  });

  it('filters by status', async () => {
    expect((await local.req('GET', '/v1/accounts?status=restricted')).body.accounts.map((a: any) => a.id)).toEqual([
      ids[1],
    ]);
    expect((await local.req('GET', '/v1/accounts?status=closed')).body.accounts.map((a: any) => a.id)).toEqual([
      ids[2],
    ]);
    expect((await local.req('GET', '/v1/accounts?status=active')).body.accounts).toHaveLength(3);
  });

  it('limit takes the newest n', async () => {
    expect((await local.req('GET', '/v1/accounts?limit=2')).body.accounts.map((a: any) => a.id)).toEqual([
      ids[4],
      ids[3],
    ]);
    expect((await local.req('GET', '/v1/accounts?limit=200')).body.accounts).toHaveLength(5);
  });

  it('is tenant-scoped: a new tenant sees none', async () => {
    const tenant = (await local.req('POST', '/admin/tenants', { body: { name: 'empty-app' } })).body;
    expect((await local.req('GET', '/v1/accounts', { tenant })).body).toEqual({ accounts: [] });
  });

  it('bad query: 422 with a stable code', async () => {
    for (const [qs, code] of [
      ['status=frozen', 'INVALID_ACCOUNT_STATUS'],
      ['limit=0', 'VALIDATION_FAILED'],
      ['limit=201', 'VALIDATION_FAILED'],
      ['limit=ten', 'VALIDATION_FAILED'],
      ['limit=1.5', 'VALIDATION_FAILED'],
      ['sort=name', 'VALIDATION_FAILED'],
    ]) {
      const res = await local.req('GET', `/v1/accounts?${qs}`);
      expect(res.status, qs).toBe(422);
      expect(res.body.error.code, qs).toBe(code);
    }
  });
});

describe('Account status: active, restricted, closed; changed by the dealer desk (accounts:status), audited', () => {
  it('active -> restricted -> active -> closed, each audited with from, to and reason; the tenant sees the status', async () => {
    const { investorId } = await onboardInvestor(t);
    const steps: Array<[string, string]> = [
      ['restricted', 'margin of error review'],
      ['active', 'review cleared'],
      ['closed', 'client request'],
    ];
    for (const [status, reason] of steps) {
      const res = await t.req('POST', `/broker/v1/accounts/${investorId}/status`, { body: { status, reason } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: investorId, status, tenant_id: t.creds.tenant.tenant_id });
      expect((await t.req('GET', `/v1/accounts/${investorId}`)).body.status).toBe(status);
      expect((await t.req('GET', `/v1/investors/${investorId}`)).body.status).toBe(status);
    }
    const entries = (await t.req('GET', '/admin/audit?limit=100')).body.entries
      .filter((e: any) => e.subject === investorId && e.action === 'account.status_changed')
      .reverse();
    expect(entries.map((e: any) => JSON.parse(e.detail))).toEqual([
      { from: 'active', to: 'restricted', reason: 'margin of error review' },
      { from: 'restricted', to: 'active', reason: 'review cleared' },
      { from: 'active', to: 'closed', reason: 'client request' },
    ]);
    expect(entries.every((e: any) => e.actor === 'operator:dealer' && e.tenant_id === t.creds.tenant.tenant_id)).toBe(
      true,
    );
  });

  it('closed is read-only and final: no reopening (422 INVESTOR_CLOSED), no suitability change', async () => {
    const { investorId } = await onboardInvestor(t);
    await t.req('POST', `/broker/v1/accounts/${investorId}/status`, { body: { status: 'closed', reason: 'deceased' } });
    const reopen = await t.req('POST', `/broker/v1/accounts/${investorId}/status`, {
      body: { status: 'active', reason: 'mistake' },
    });
    expect(reopen.status).toBe(422);
    expect(reopen.body.error.code).toBe('INVESTOR_CLOSED');
    const suit = await putSuitability(investorId, { questionnaire: GROWTH, risk_acknowledged: true });
    expect(suit.body.error.code).toBe('INVESTOR_CLOSED');
    expect((await t.req('GET', `/v1/accounts/${investorId}`)).body).toMatchObject({
      status: 'closed',
      suitability: { tier: 2 },
    });
    expect(t.deps.investors.lookupForMoney(t.creds.tenant.tenant_id, investorId)).toMatchObject({
      ok: false,
      code: 'INVESTOR_CLOSED',
    });
  });

  it('a restricted account may still record suitability (it may sell, not open)', async () => {
    const { investorId } = await onboardInvestor(t);
    await t.req('POST', `/broker/v1/accounts/${investorId}/status`, {
      body: { status: 'restricted', reason: 'aml review' },
    });
    expect((await putSuitability(investorId, { questionnaire: GROWTH, risk_acknowledged: true })).status).toBe(200);
  });

  it('bad input: same status 409 ACCOUNT_STATUS_UNCHANGED; unknown status 422 INVALID_ACCOUNT_STATUS; no reason 422; unknown account 404', async () => {
    const { investorId } = await onboardInvestor(t);
    const url = `/broker/v1/accounts/${investorId}/status`;
    const same = await t.req('POST', url, { body: { status: 'active', reason: 'noop' } });
    expect(same.status).toBe(409);
    expect(same.body.error.code).toBe('ACCOUNT_STATUS_UNCHANGED');
    expect((await t.req('POST', url, { body: { status: 'frozen', reason: 'x' } })).body.error.code).toBe(
      'INVALID_ACCOUNT_STATUS',
    );
    for (const body of [
      { status: 'restricted' },
      { status: 'restricted', reason: '   ' },
      { status: 'restricted', reason: 'x'.repeat(501) },
      { status: 'restricted', reason: 'x', extra: 1 },
    ]) {
      const res = await t.req('POST', url, { body });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect(
      (await t.req('POST', '/broker/v1/accounts/inv_0000000000/status', { body: { status: 'closed', reason: 'x' } }))
        .status,
    ).toBe(404);
    expect((await t.req('GET', `/v1/accounts/${investorId}`)).body.status).toBe('active');
  });

  it('the back office changes status too (X-Admin-Key with accounts:status); security lacks the grant: 403', async () => {
    const { investorId } = await onboardInvestor(t);
    const res = await t.req('POST', `/admin/accounts/${investorId}/status`, {
      body: { status: 'restricted', reason: 'regulator request' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('restricted');
    const denied = await t.req('POST', `/admin/accounts/${investorId}/status`, {
      body: { status: 'active', reason: 'x' },
      as: 'security',
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
  });

  it('grants: a tenant key is 401 on /broker; a console identity without accounts:status is 403 and nothing changes', async () => {
    const { investorId } = await onboardInvestor(t);
    const url = `/broker/v1/accounts/${investorId}/status`;
    expect(
      (
        await t.req('POST', url, {
          body: { status: 'closed', reason: 'x' },
          as: 'none',
          headers: { authorization: `Bearer ${t.creds.tenant.api_key}` },
        })
      ).status,
    ).toBe(401);
    const key = consoleKey('reader', ['exposure:read']);
    const res = await t.req('POST', url, {
      body: { status: 'closed', reason: 'x' },
      headers: { 'x-console-key': key },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await t.req('GET', `/v1/accounts/${investorId}`)).body.status).toBe('active');
  });
});

describe("GET /broker/v1/accounts (exposure:read): accounts at the dealer's broker across its tenants", () => {
  it('lists accounts of every tenant with tenant_id, filtered by tenant and status', async () => {
    const mine = await onboardInvestor(t);
    const theirs = await onboardInvestor(t, { tenant: other });
    const all = (await t.req('GET', '/broker/v1/accounts?limit=200')).body.accounts;
    const byId = new Map(all.map((a: any) => [a.id, a]));
    expect(byId.get(mine.investorId)).toMatchObject({ tenant_id: t.creds.tenant.tenant_id, broker: BROKER });
    expect(byId.get(theirs.investorId)).toMatchObject({ tenant_id: other.tenant_id });
    const onlyOther = (await t.req('GET', `/broker/v1/accounts?tenant_id=${other.tenant_id}`)).body.accounts;
    expect(onlyOther.every((a: any) => a.tenant_id === other.tenant_id)).toBe(true);
    expect((await t.req('GET', '/broker/v1/accounts?status=bogus')).body.error.code).toBe('INVALID_ACCOUNT_STATUS');
    const noGrant = consoleKey('kyc-only', ['kyc:read']);
    expect((await t.req('GET', '/broker/v1/accounts', { headers: { 'x-console-key': noGrant } })).status).toBe(403);
  });

  it("a dealer of another broker sees none of this broker's accounts and cannot change them", async () => {
    t.deps.db
      .prepare(
        'INSERT INTO brokers (id, name, name_ar, fra_license_no, contact_email, contact_phone) VALUES ' +
          "('brk_other000002', 'Delta Brokerage', 'دلتا', '998/2020', 'ops@delta.example', '+20221234567')",
      )
      .run();
    const key = consoleKey('delta-dealer', ['exposure:read', 'accounts:status'], 'brk_other000002');
    const { investorId } = await onboardInvestor(t);
    expect((await t.req('GET', '/broker/v1/accounts', { headers: { 'x-console-key': key } })).body).toEqual({
      accounts: [],
    });
    const res = await t.req('POST', `/broker/v1/accounts/${investorId}/status`, {
      body: { status: 'closed', reason: 'x' },
      headers: { 'x-console-key': key },
    });
    expect(res.status).toBe(404);
  });
});
