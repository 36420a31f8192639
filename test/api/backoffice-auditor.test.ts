// The auditor identity the first start mints (its own key and step-up secret, like compliance): it reads
// the audit log and verifies the chain, and holds nothing else of note: proposing, approving, revoking
// sessions and keys are 403 FORBIDDEN naming the grant, and the dealer desk (console keys only) does not
// take its back-office key at all.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { ROLES } from '../../daemon/contract/grants.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const idOf = (name: string) =>
  t.deps.db.prepare<[string], string>('SELECT id FROM operators WHERE name = ?').pluck().get(name)!;

describe('the bootstrap auditor identity', () => {
  it('is minted at first start with its own key and step-up secret, holding exactly the auditor role globally', () => {
    const o = t.creds.operators;
    expect(o.auditor_key).toMatch(/^ak_sbx_/);
    expect(new Set(Object.values(o)).size).toBe(Object.keys(o).length);
    expect(t.creds.step_up.auditor).toMatch(/^[A-Z2-7]{32}$/);
    expect(new Set(Object.values(t.creds.step_up)).size).toBe(Object.keys(t.creds.step_up).length);
    const row = t.deps.db.prepare("SELECT role, realm, broker_id FROM operators WHERE name = 'auditor'").get();
    expect(row).toEqual({ role: 'auditor', realm: 'admin', broker_id: null });
    const grants = t.deps.db
      .prepare('SELECT grant_name, scope, role FROM operator_grants WHERE operator_id = ? ORDER BY grant_name')
      .all(idOf('auditor'));
    expect(grants).toEqual(
      [...ROLES.auditor.grants].sort().map((g) => ({ grant_name: g, scope: 'global', role: 'auditor' })),
    );
  });

  it('reads GET /admin/audit (filtered too) and verifies the chain', async () => {
    const all = await t.req('GET', '/admin/audit?limit=5', { as: 'auditor' });
    expect(all.status, all.text).toBe(200);
    expect(all.body.entries.map((e: { action: string }) => e.action)).toContain('sandbox.bootstrap');
    const filtered = await t.req('GET', '/admin/audit?action=sandbox.bootstrap', { as: 'auditor' });
    expect(filtered.body.entries).toHaveLength(1);
    const verify = await t.req('GET', '/admin/audit/verify', { as: 'auditor' });
    expect(verify.status, verify.text).toBe(200);
    expect(verify.body.ok).toBe(true);
  });

  it('is refused 403 FORBIDDEN, naming the grant, on propose, approve, reject, sessions revoke and key rotation; nothing changes', async () => {
    const p = await t.req('POST', '/admin/actions', {
      as: 'security',
      body: { action: 'break-glass', params: { identity_id: idOf('admin'), minutes: 5 }, reason: 'drill' },
    });
    expect(p.status, p.text).toBe(201);
    const auditBefore = t.deps.db.prepare('SELECT count(*) FROM audit_log').pluck().get();
    const refused = [
      [
        'POST',
        '/admin/actions',
        { action: 'broker:create', params: { name: 'x' }, reason: 'r' },
        'broker:create:propose',
      ],
      ['POST', `/admin/actions/${p.body.action_id}/approve`, {}, 'break-glass:approve'],
      ['POST', `/admin/actions/${p.body.action_id}/reject`, { reason: 'no' }, 'break-glass:approve'],
      ['POST', '/admin/sessions/revoke', { identity_id: idOf('dealer') }, 'sessions:revoke'],
      ['GET', '/admin/sessions', undefined, 'sessions:read'],
      ['POST', '/admin/keys/rotate', { identity_id: idOf('admin') }, 'operator-keys:rotate'],
      ['POST', '/admin/sandbox/clock-advance', { minutes: 1 }, 'sandbox:control'],
    ] as const;
    for (const [method, url, body, grant] of refused) {
      const r = await t.req(method, url, { as: 'auditor', body });
      expect(r.status, `${method} ${url}: ${r.text}`).toBe(403);
      expect(r.body.error.code).toBe('FORBIDDEN');
      expect(r.body.error.message).toContain(grant);
    }
    const still = await t.req('GET', '/admin/actions?state=proposed', { as: 'auditor' });
    expect(still.body.actions.map((a: { action_id: string }) => a.action_id)).toEqual([p.body.action_id]);
    // Refusals write nothing: the audit log is as it was.
    expect(t.deps.db.prepare('SELECT count(*) FROM audit_log').pluck().get()).toBe(auditBefore);
  });

  it('gets no dealer-desk data: the desk takes console keys, so its back-office key is 401 there (as X-Admin-Key or X-Console-Key)', async () => {
    const key = t.creds.operators.auditor_key;
    for (const url of [
      '/broker/v1/queue',
      '/broker/v1/eod',
      '/broker/v1/reference/instruments',
      '/broker/v1/funding',
    ]) {
      for (const header of ['x-admin-key', 'x-console-key']) {
        const r = await t.req('GET', url, { as: 'none', headers: { [header]: key } });
        expect(r.status, `${url} ${header}`).toBe(401);
        expect(r.body.error.code).toBe('UNAUTHENTICATED');
      }
    }
  });
});
