// Authority comes from one catalog of grants, given by roles in a scope (global, tenant, broker):
// the server checks the grant in scope on every operator route, and no role but the break-glass
// superuser holds both sides of a maker-checker base.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addConsoleOperator, addOperator, makeApp, type TestApp } from '../helpers/app.js';
import { GRANTS, ROLES, STRICT_BASES } from '../../daemon/contract/grants.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

describe('the grant catalog', () => {
  it('no role but the superuser holds both <base>:propose and <base>:approve of any base', () => {
    for (const [name, role] of Object.entries(ROLES)) {
      const held = new Set<string>(role.grants);
      for (const base of STRICT_BASES) {
        const both = held.has(`${base}:propose`) && held.has(`${base}:approve`);
        expect(both && !('superuser' in role && role.superuser), `${name} holds both sides of ${base}`).toBe(false);
      }
    }
  });

  it('security proposes and approver approves every strict-split base', () => {
    for (const base of STRICT_BASES) {
      expect(ROLES.security.grants).toContain(`${base}:propose`);
      expect(ROLES.approver.grants).toContain(`${base}:approve`);
    }
  });

  it('every role grant and every grant a route asks for is in the catalog', async () => {
    for (const role of Object.values(ROLES)) for (const g of role.grants) expect(GRANTS.has(g), g).toBe(true);
    const doc = (await t.req('GET', '/openapi.json', { as: 'none' })).body as {
      paths: Record<string, Record<string, { 'x-grant'?: string }>>;
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops))
        if (op['x-grant']) expect(GRANTS.has(op['x-grant']), `${m} ${path}: ${op['x-grant']}`).toBe(true);
    }
  });
});

describe('grants are checked in scope', () => {
  it('a grant held only for one tenant does not open a global route: 403 FORBIDDEN naming the scope', async () => {
    const key = addOperator(t, 'tenant-admin', {
      realm: 'admin',
      grants: ['sandbox:control'],
      scope: `tenant:${t.creds.tenant.tenant_id}`,
    });
    const res = await t.req('POST', '/admin/sandbox/clock-advance', {
      as: 'none',
      headers: { 'x-admin-key': key },
      body: { minutes: 1 },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(res.body.error.message).toContain(`tenant:${t.creds.tenant.tenant_id}`);
  });

  it("an auditor of one tenant reads that tenant's audit entries only; another tenant's are 404", async () => {
    const other = await t.req('POST', '/admin/tenants', { body: { name: 'other' } });
    const key = addOperator(t, 'tenant-auditor', {
      realm: 'admin',
      grants: ['audit:read'],
      scope: `tenant:${t.creds.tenant.tenant_id}`,
    });
    const mine = await t.req('GET', '/admin/audit', { as: 'none', headers: { 'x-admin-key': key } });
    expect(mine.status).toBe(200);
    expect(mine.body.entries.length).toBeGreaterThan(0);
    for (const e of mine.body.entries) expect(e.tenant_id).toBe(t.creds.tenant.tenant_id);
    const theirs = await t.req('GET', `/admin/audit?tenant_id=${other.body.tenant_id}`, {
      as: 'none',
      headers: { 'x-admin-key': key },
    });
    expect(theirs.status).toBe(404);
    const verify = await t.req('GET', '/admin/audit/verify', { as: 'none', headers: { 'x-admin-key': key } });
    expect(verify.status).toBe(403);
  });

  it('a desk grant held for every broker (global scope) opens the desk (per-broker scoping: dealer-desk and funding-desk tests)', async () => {
    const global = addConsoleOperator(t, 'global', ['funding:read'], null);
    expect(
      (await t.req('GET', '/broker/v1/funding', { as: 'none', headers: { 'x-console-key': global } })).status,
    ).toBe(200);
  });

  it('a grant revoked in the database stops working at the next request', async () => {
    expect((await t.req('GET', '/admin/audit')).status).toBe(200);
    t.deps.db
      .prepare(
        "DELETE FROM operator_grants WHERE grant_name = 'audit:read' AND operator_id = (SELECT id FROM " +
          "operators WHERE name = 'admin')",
      )
      .run();
    const res = await t.req('GET', '/admin/audit');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });
});
