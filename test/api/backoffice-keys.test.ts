// keys:rotate-dek and keys:rotate-kek through the API: approved, the rotation re-seals what the key
// protects in slices after the approval (test/api/key-rotation-slices.test.ts shows the slices);
// once done, every sealed value opens under the new key and not the old one, and everything built on them (signed
// requests, step-up codes, the audit seal, KYC duplicate detection, the logo) keeps working.
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

interface Rotation {
  state: 'running' | 'done' | 'blocked';
  resealed: Record<string, number>;
  blocked: string | null;
}

/** Waits (reading GET /admin/actions) until the approved rotation is no longer running; its progress. */
async function rotated(actionId: string): Promise<Rotation> {
  for (;;) {
    const all = (await t.req('GET', '/admin/actions?state=approved')).body.actions as Array<{
      action_id: string;
      result: { rotation: Rotation };
    }>;
    const r = all.find((a) => a.action_id === actionId)!.result.rotation;
    if (r.state !== 'running') return r;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
const tenantId = () => t.creds.tenant.tenant_id;

/** An approved application with both ID images, and a logo: something of every sealed kind. */
async function sealedData() {
  const body = applicant();
  const created = await t.req('POST', '/v1/kyc/applications', { body });
  expect(created.status).toBe(201);
  const id = created.body.application_id as string;
  for (const [side, raw] of [
    ['national_id_front', SAMPLE_FRONT],
    ['national_id_back', SAMPLE_BACK],
  ] as const) {
    expect(
      (await t.req('PUT', `/v1/kyc/applications/${id}/documents/${side}`, { raw, contentType: 'image/png' })).status,
    ).toBe(200);
  }
  expect((await t.req('POST', `/v1/kyc/applications/${id}/submit`)).status).toBe(200);
  expect((await t.req('PUT', '/v1/branding/logo', { raw: SAMPLE_FRONT, contentType: 'image/png' })).status).toBe(200);
  return { body, id };
}

const signingSecretRow = () =>
  t.deps.db.prepare('SELECT secret_enc FROM signing_secrets WHERE tenant_id = ?').get(tenantId()) as {
    secret_enc: Buffer;
  };

describe('keys:rotate-dek', () => {
  it("re-seals the tenant's PII, ID images, logo, signing secret and journal under a new data key; the old key opens none of it", async () => {
    const { body, id } = await sealedData();
    const appBefore = (await t.req('GET', `/v1/kyc/applications/${id}`)).body;
    const oldDek = Buffer.from(t.deps.keys.tenantDek(tenantId()));
    const p = await propose('keys:rotate-dek', { tenant_id: tenantId() });
    const a = await approve(p.body.action_id);
    expect(a.status).toBe(200);
    const r = await rotated(p.body.action_id);
    expect(r.state).toBe('done');
    expect(r.resealed).toMatchObject({
      signing_secrets: 1,
      national_ids: 1,
      contact_details: 1,
      id_images: 2,
      logo: 1,
    });
    expect(r.resealed.journal_bodies).toBeGreaterThan(3);
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
    const wrapped = () =>
      (t.deps.db.prepare('SELECT dek_wrapped FROM tenants WHERE id = ?').get(tenantId()) as { dek_wrapped: Buffer })
        .dek_wrapped;
    const [dekBefore, secretBefore] = [wrapped(), signingSecretRow().secret_enc];
    const a = await approve((await propose('keys:rotate-dek', { tenant_id: tenantId() })).body.action_id);
    expect([a.status, a.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    expect(a.body.error.message).toContain(`branding:logo:${tenantId()}`);
    expect(wrapped().equals(dekBefore)).toBe(true);
    expect(signingSecretRow().secret_enc.equals(secretBefore)).toBe(true);
    expect((await t.req('POST', '/v1/kyc/applications', { body: applicant() })).status).toBe(201);
  });

  it('a value found unreadable while re-sealing blocks the rotation (audited, named): both data keys are kept, everything else opens, and no other rotation starts', async () => {
    const { id } = await sealedData();
    t.deps.db.prepare('UPDATE kyc_applications SET details_enc = randomblob(64) WHERE id = ?').run(id);
    const p = await propose('keys:rotate-dek', { tenant_id: tenantId() });
    expect((await approve(p.body.action_id)).status).toBe(200); // checked as it is re-sealed, not at the approval
    const r = await rotated(p.body.action_id);
    expect(r.state).toBe('blocked');
    expect(r.blocked).toContain(`kyc:details:${id}`);
    const audit = t.deps.db.prepare("SELECT subject FROM audit_log WHERE action = 'keys.rotation.blocked'").all();
    expect(audit).toEqual([{ subject: p.body.action_id }]);
    expect(openEverySealed(t.deps.db, t.deps.kek).failures).toEqual([`kyc:details:${id} (${id})`]);
    // signed, sealed under the next key
    expect((await t.req('POST', '/v1/kyc/applications', { body: applicant() })).status).toBe(201);
    const again = await approve((await propose('keys:rotate-kek', {})).body.action_id);
    expect([again.status, again.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    expect(again.body.error.message).toContain(p.body.action_id);
  });

  it('a second rotation approved while one re-seals is 422 ACTION_NOT_EXECUTABLE and stays open; once the first is done it runs', async () => {
    await sealedData();
    const first = await propose('keys:rotate-dek', { tenant_id: tenantId() });
    const second = await propose('keys:rotate-kek', {});
    expect((await approve(first.body.action_id)).status).toBe(200);
    const refused = await approve(second.body.action_id);
    expect([refused.status, refused.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    expect((await rotated(first.body.action_id)).state).toBe('done');
    expect((await approve(second.body.action_id)).status).toBe(200);
    expect((await rotated(second.body.action_id)).state).toBe('done');
    expect(openEverySealed(t.deps.db, t.deps.kek).failures).toEqual([]);
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
    expect(a.body.result).toMatchObject({ kek_version: 2 });
    const r = await rotated(p.body.action_id);
    // one per bootstrap identity
    expect(r).toMatchObject({ state: 'done', resealed: { data_keys: 1, step_up_secrets: 6 } });
    expect(r.resealed.journal_bodies).toBeGreaterThan(0);
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
    expect((await rotated(next.body.action_id)).state).toBe('done');
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
    const p = await propose('keys:rotate-kek', {});
    await approve(p.body.action_id);
    expect((await rotated(p.body.action_id)).state).toBe('done');
    const kek = Buffer.from(t.deps.kek);
    const { dir, creds } = t;
    await t.close({ keepDir: true });
    t = await makeApp({ dir, kek });
    try {
      const verify = await t.req('GET', '/admin/audit/verify', {
        as: 'none',
        headers: { 'x-admin-key': creds.operators.admin_key },
        tenant: creds.tenant,
      });
      expect(verify.body).toMatchObject({ ok: true });
      // a signed request: the signing secret opens under the data key, which opens under the new KEK
      expect((await t.req('POST', '/v1/kyc/applications', { body: applicant(), tenant: creds.tenant })).status).toBe(
        201,
      );
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
