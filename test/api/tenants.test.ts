import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

describe('POST /admin/tenants {name} returns {tenant_id, api_key, signing_secret}', () => {
  it('provisions a tenant whose api key authenticates', async () => {
    const res = await t.req('POST', '/admin/tenants', { body: { name: 'second app' } });
    expect(res.status).toBe(201);
    expect(res.body.tenant_id).toMatch(/^tnt_[0-9a-z]{10}$/);
    expect(res.body.api_key).toMatch(/^sk_sbx_/);
    expect(res.body.signing_secret).toMatch(/^ss_sbx_/);
    const clock = await t.req('GET', '/v1/clock', {
      as: 'none',
      headers: { authorization: `Bearer ${res.body.api_key}` },
    });
    expect(clock.status).toBe(200);
  });

  it('api keys are stored hashed: the database never holds a key or a secret in clear', async () => {
    const res = await t.req('POST', '/admin/tenants', { body: { name: 'third app' } });
    const dump = JSON.stringify([
      t.deps.db.prepare('SELECT * FROM api_keys').all(),
      t.deps.db.prepare('SELECT tenant_id, hex(secret_enc) FROM signing_secrets').all(),
      t.deps.db.prepare('SELECT * FROM operators').all(),
    ]);
    expect(dump).not.toContain(res.body.api_key);
    expect(dump).not.toContain(res.body.signing_secret);
    expect(dump).not.toContain(t.creds.operators.admin_key);
  });

  it('a duplicate name is 409 TENANT_NAME_TAKEN; a bad body is 422; without the grant 403', async () => {
    expect((await t.req('POST', '/admin/tenants', { body: { name: t.creds.tenant.name } })).body.error.code).toBe(
      'TENANT_NAME_TAKEN',
    );
    expect((await t.req('POST', '/admin/tenants', { body: { name: '' } })).status).toBe(422);
    expect((await t.req('POST', '/admin/tenants', { body: { name: 'x', extra: 1 } })).status).toBe(422);
    expect((await t.req('POST', '/admin/tenants', { body: { name: 'y' }, as: 'approver' })).status).toBe(403);
  });
});
