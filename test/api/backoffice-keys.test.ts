// keys:rotate-dek and keys:rotate-kek through the API: approved, the rotation re-seals what the key
// protects in the approving transaction; afterwards every sealed value opens under the new key and not
// the old one, and everything built on them (signed requests, step-up codes, the audit seal, KYC
// duplicate detection, the logo) keeps working.
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { applicant, SAMPLE_BACK, SAMPLE_FRONT } from '../helpers/onboarding.js';
import { openEverySealed } from '../helpers/sealed-store.js';
import { open } from '../../daemon/store/crypto.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const propose = (action: string, params: Record<string, unknown>) =>
  t.req('POST', '/admin/actions', { as: 'security', body: { action, params, reason: 'scheduled key rotation' } });
const approve = (id: string) => t.req('POST', `/admin/actions/${id}/approve`, { as: 'approver', body: {} });
const tenantId = () => t.creds.tenant.tenant_id;

/** An approved application with both ID images, and a logo: something of every sealed kind. */
async function sealedData() {
  const body = applicant();
  const created = await t.req('POST', '/v1/kyc/applications', { body });
  expect(created.status).toBe(201);
  const id = created.body.application_id as string;
  for (const [side, raw] of [['national_id_front', SAMPLE_FRONT], ['national_id_back', SAMPLE_BACK]] as const) {
    expect((await t.req('PUT', `/v1/kyc/applications/${id}/documents/${side}`, { raw, contentType: 'image/png' })).status).toBe(200);
  }
  expect((await t.req('POST', `/v1/kyc/applications/${id}/submit`)).status).toBe(200);
  expect((await t.req('PUT', '/v1/branding/logo', { raw: SAMPLE_FRONT, contentType: 'image/png' })).status).toBe(200);
  return { body, id };
}

const signingSecretRow = () => t.deps.db.prepare('SELECT secret_enc FROM signing_secrets WHERE tenant_id = ?').get(tenantId()) as { secret_enc: Buffer };

describe('keys:rotate-dek', () => {
  it('re-seals the tenant\'s PII, ID images, logo, signing secret and journal under a new data key; the old key opens none of it', async () => {
    const { body, id } = await sealedData();
    const appBefore = (await t.req('GET', `/v1/kyc/applications/${id}`)).body;
    const oldDek = Buffer.from(t.deps.keys.tenantDek(tenantId()));
    const p = await propose('keys:rotate-dek', { tenant_id: tenantId() });
    const a = await approve(p.body.action_id);
    expect(a.status).toBe(200);
    expect(a.body.result.resealed).toMatchObject({ signing_secrets: 1, national_ids: 1, contact_details: 1, id_images: 2, logo: 1 });
    expect(a.body.result.resealed.journal_bodies).toBeGreaterThan(3);
    const newDek = t.deps.keys.tenantDek(tenantId());
    expect(newDek.equals(oldDek)).toBe(false);

    const report = openEverySealed(t.deps.db, t.deps.kek);
    expect(report.failures).toEqual([]);
    expect(report.opened).toBeGreaterThan(10);
    expect(() => open(oldDek, signingSecretRow().secret_enc, `secret:${tenantId()}`)).toThrow();

    // what is built on the key still works: reads, the logo, signed writes, duplicate detection
    expect((await t.req('GET', `/v1/kyc/applications/${id}`)).body).toEqual(appBefore);
    expect(Buffer.from((await t.req('GET', '/v1/branding/logo')).body, 'binary').length).toBeGreaterThan(0);
    const again = await t.req('POST', '/v1/kyc/applications', { body });
    expect([again.status, again.body.error?.code]).toEqual([409, 'DUPLICATE_NATIONAL_ID']);
    expect((await t.req('POST', '/v1/kyc/applications', { body: applicant() })).status).toBe(201);
  });

  it('an unknown tenant is 422 ACTION_NOT_EXECUTABLE: nothing changes and the proposal stays open', async () => {
    const before = signingSecretRow().secret_enc;
    const p = await propose('keys:rotate-dek', { tenant_id: 'tnt_nope' });
    const a = await approve(p.body.action_id);
    expect([a.status, a.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    expect(signingSecretRow().secret_enc.equals(before)).toBe(true);
    expect((await t.req('GET', '/admin/actions?state=proposed')).body.actions).toHaveLength(1);
  });

  it('a sealed value that does not open refuses the whole rotation (422 ACTION_NOT_EXECUTABLE naming it): nothing is re-sealed', async () => {
    await sealedData();
    t.deps.db.prepare('UPDATE brandings SET logo_sealed = randomblob(64) WHERE tenant_id = ?').run(tenantId());
    const wrapped = () => (t.deps.db.prepare('SELECT dek_wrapped FROM tenants WHERE id = ?').get(tenantId()) as { dek_wrapped: Buffer }).dek_wrapped;
    const [dekBefore, secretBefore] = [wrapped(), signingSecretRow().secret_enc];
    const a = await approve((await propose('keys:rotate-dek', { tenant_id: tenantId() })).body.action_id);
    expect([a.status, a.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    expect(a.body.error.message).toContain(`branding:logo:${tenantId()}`);
    expect(wrapped().equals(dekBefore)).toBe(true);
    expect(signingSecretRow().secret_enc.equals(secretBefore)).toBe(true);
    expect((await t.req('POST', '/v1/kyc/applications', { body: applicant() })).status).toBe(201);
  });

  it.each([
    ['tenant_id', {}],
    ['tenant_id', { tenant_id: 42 }],
    ['tenant_id', { tenant_id: 'no spaces allowed' }],
    ['extra', { tenant_id: 'tnt_x00', extra: true }],
  ])('a bad %s is 422 INVALID_ACTION_PARAMS naming it', async (field, params) => {
    const r = await propose('keys:rotate-dek', params);
    expect([r.status, r.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
    expect(r.body.error.message).toContain(field);
  });
});

describe('keys:rotate-kek', () => {
  it('re-wraps every data key and re-seals step-up secrets and operator journal entries under a new KEK; the old KEK opens none of them', async () => {
    await sealedData();
    const oldKek = Buffer.from(t.deps.kek);
    const p = await propose('keys:rotate-kek', {});
    const a = await approve(p.body.action_id);
    expect(a.status).toBe(200);
    expect(a.body.result).toMatchObject({ kek_version: 2, resealed: { data_keys: 1, step_up_secrets: 6 } }); // one per bootstrap identity
    expect(a.body.result.resealed.journal_bodies).toBeGreaterThan(0);
    expect(t.deps.kek.equals(oldKek)).toBe(false);

    const report = openEverySealed(t.deps.db, t.deps.kek);
    expect(report.failures).toEqual([]);
    const stale = openEverySealed(t.deps.db, oldKek);
    expect(stale.failures).toContain(`data key of ${tenantId()}`);
    expect(stale.failures.filter((f) => f.startsWith('step-up secret'))).toHaveLength(6);

    // the audit head is signed under the new key; step-up codes and signed requests still work
    expect((await t.req('GET', '/admin/audit/verify')).body).toMatchObject({ ok: true });
    const next = await propose('keys:rotate-kek', {});
    expect((await approve(next.body.action_id)).body.result).toMatchObject({ kek_version: 3 });
    expect((await t.req('POST', '/v1/kyc/applications', { body: applicant() })).status).toBe(201);
    expect(openEverySealed(t.deps.db, t.deps.kek).failures).toEqual([]);
  });

  it('a sealed value that does not open refuses the whole rotation: the KEK and every wrapped key stay as they were', async () => {
    await sealedData();
    const adminId = (t.deps.db.prepare("SELECT id FROM operators WHERE name = 'admin'").get() as { id: string }).id;
    t.deps.db.prepare('UPDATE operator_step_up SET secret_sealed = randomblob(60) WHERE operator_id = ?').run(adminId);
    const kekBefore = Buffer.from(t.deps.kek);
    const a = await approve((await propose('keys:rotate-kek', {})).body.action_id);
    expect([a.status, a.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    expect(a.body.error.message).toContain(`stepup:${adminId}`);
    expect(t.deps.kek.equals(kekBefore)).toBe(true);
    const report = openEverySealed(t.deps.db, kekBefore);
    expect(report.failures).toEqual([`step-up secret of ${adminId}`]);
    expect((await t.req('GET', '/admin/audit/verify')).body).toMatchObject({ ok: true });
    expect((await t.req('POST', '/v1/kyc/applications', { body: applicant() })).status).toBe(201);
  });

  it('the store reopens under the new KEK', async () => {
    await sealedData();
    await approve((await propose('keys:rotate-kek', {})).body.action_id);
    const kek = Buffer.from(t.deps.kek);
    const { dir, creds } = t;
    await t.close({ keepDir: true });
    t = await makeApp({ dir, kek });
    try {
      const verify = await t.req('GET', '/admin/audit/verify', { as: 'none', headers: { 'x-admin-key': creds.operators.admin_key }, tenant: creds.tenant });
      expect(verify.body).toMatchObject({ ok: true });
      // a signed request: the signing secret opens under the data key, which opens under the new KEK
      expect((await t.req('POST', '/v1/kyc/applications', { body: applicant(), tenant: creds.tenant })).status).toBe(201);
      expect(openEverySealed(t.deps.db, kek).failures).toEqual([]);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
      t = await makeApp();
    }
  });

  it('params other than {} are 422 INVALID_ACTION_PARAMS naming the field', async () => {
    const r = await propose('keys:rotate-kek', { tenant_id: 'tnt_x00' });
    expect([r.status, r.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
    expect(r.body.error.message).toContain('tenant_id');
  });
});
