// The console-user bases of maker-checker, through the API: security proposes, the approver approves
// (stepped up) and the change happens in the approving transaction. A created identity enrols a
// passkey with the one-time code the approval answers (once: it is not stored with the action) and
// signs in; a disabled identity's next request is 401 (key and session) until it is enabled again; a
// role given grants its routes at the next request and a role taken is 403 at the next; a passkey
// unlock removes the passkeys and answers a fresh code; an IdP configuration is recorded and readable.
// Bad params are 422 INVALID_ACTION_PARAMS naming the field; a refused approval changes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { consoleApp, type ConsoleApp } from '../helpers/console-app.js';
import { softPasskey } from '../helpers/soft-passkey.js';

let c: ConsoleApp;
let t: TestApp;

beforeEach(async () => {
  c = await consoleApp();
  t = c.t;
});
afterEach(async () => c.close());

const idOf = (name: string) =>
  t.deps.db.prepare<[string], string>('SELECT id FROM operators WHERE name = ?').pluck().get(name)!;
const propose = (action: string, params: Record<string, unknown>) =>
  t.req('POST', '/admin/actions', { as: 'security', body: { action, params, reason: 'console access change' } });
const approve = (id: string) => t.req('POST', `/admin/actions/${id}/approve`, { as: 'approver', body: {} });
async function approved(action: string, params: Record<string, unknown>) {
  const p = await propose(action, params);
  expect(p.status, p.text).toBe(201);
  const a = await approve(p.body.action_id);
  expect(a.status, a.text).toBe(200);
  expect(a.body.state).toBe('approved');
  return a.body;
}
const stillProposed = async (id: string) =>
  (await t.req('GET', '/admin/actions?state=proposed', { as: 'security' })).body.actions.some(
    (x: { action_id: string }) => x.action_id === id,
  );

const call: ConsoleApp['call'] = (...a) => c.call(...a);
const enrol: ConsoleApp['enrol'] = (...a) => c.enrol(...a);
const signIn: ConsoleApp['signIn'] = (...a) => c.signIn(...a);

describe('console-users:manage', () => {
  it('creates an identity holding the role in its scope; the one-time code the approval answers enrols its passkey, and the code is not stored with the action', async () => {
    const a = await approved('console-users:manage', {
      name: 'desk.two',
      display_name: 'Desk Two',
      role: 'dealer',
      scope: `broker:${t.creds.broker_id}`,
    });
    expect(a.result).toMatchObject({
      name: 'desk.two',
      display_name: 'Desk Two',
      role: 'dealer',
      realm: 'console',
      scope: `broker:${t.creds.broker_id}`,
    });
    const code = a.result.answered_once.enrolment_code as string;
    expect(code).toMatch(/^enr_/);
    const listed = (await t.req('GET', '/admin/actions?limit=1', { as: 'security' })).body.actions[0];
    expect(listed.result.identity_id).toBe(a.result.identity_id);
    expect(JSON.stringify(listed)).not.toContain(code);
    expect(JSON.stringify(t.deps.db.prepare('SELECT result FROM admin_actions').all())).not.toContain(code);
    const key = softPasskey();
    expect((await enrol(key, code)).status).toBe(200);
    const s = await signIn(key);
    expect(s.status).toBe(200);
    const me = await call('GET', '/console/api/me', { cookie: s.cookie });
    expect(me.body.identity).toMatchObject({ id: a.result.identity_id, name: 'desk.two', role: 'dealer' });
    expect(me.body.grants).toContainEqual({ grant: 'orders:execute', scopes: [`broker:${t.creds.broker_id}`] });
  });

  it('renames an existing identity for display', async () => {
    const a = await approved('console-users:manage', { identity_id: idOf('dealer'), display_name: 'Head Dealer' });
    expect(a.result).toMatchObject({ identity_id: idOf('dealer'), display_name: 'Head Dealer', disabled: false });
    expect(t.deps.db.prepare('SELECT display_name FROM operators WHERE name = ?').pluck().get('dealer')).toBe(
      'Head Dealer',
    );
  });

  it('a name already taken is refused at approval (422 ACTION_NOT_EXECUTABLE): no identity is added and the proposal stays open', async () => {
    const before = t.deps.db.prepare('SELECT count(*) FROM operators').pluck().get();
    const p = await propose('console-users:manage', { name: 'dealer', role: 'dealer' });
    const a = await approve(p.body.action_id);
    expect([a.status, a.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    expect(t.deps.db.prepare('SELECT count(*) FROM operators').pluck().get()).toBe(before);
    expect(t.deps.db.prepare('SELECT count(*) FROM console_enrolments').pluck().get()).toBe(0);
    expect(await stillProposed(p.body.action_id)).toBe(true);
  });

  it.each([
    [{ role: 'dealer' }, 'name'],
    [{ name: 'Bad Name', role: 'dealer' }, 'name'],
    [{ name: 'ok.name', role: 'superuser' }, 'role'],
    [{ name: 'ok.name', role: 'dealer', scope: 'everywhere' }, 'scope'],
    [{ identity_id: 'opr_x00' }, 'display_name'],
    [{ identity_id: 'opr_x00', role: 'dealer' }, 'role'],
    [{ name: 'ok.name', role: 'dealer', enable: true }, 'enable'],
    [{ name: 'ok.name', role: 'dealer', also: 1 }, 'also'],
  ])('params %j are 422 INVALID_ACTION_PARAMS naming %s', async (params, field) => {
    const p = await propose('console-users:manage', params);
    expect([p.status, p.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
    expect(p.body.error.message).toContain(field);
  });
});

describe('console-users:disable', () => {
  it("a disabled identity's next request is 401 with its key and with its session (revoked at once); enabled again through console-users:manage", async () => {
    const code = (
      await approved('console-users:manage', {
        name: 'desk.three',
        role: 'dealer',
        scope: `broker:${t.creds.broker_id}`,
      })
    ).result.answered_once.enrolment_code;
    const key = softPasskey();
    await enrol(key, code);
    const s = await signIn(key);
    expect((await call('GET', '/console/api/me', { cookie: s.cookie })).status).toBe(200);
    expect((await t.req('GET', '/broker/v1/funding', { as: 'dealer' })).status).toBe(200);

    const d1 = await approved('console-users:disable', { identity_id: idOf('dealer') });
    expect(d1.result).toMatchObject({ identity_id: idOf('dealer'), name: 'dealer' });
    const refused = await t.req('GET', '/broker/v1/funding', { as: 'dealer' });
    expect([refused.status, refused.body.error.code]).toEqual([401, 'IDENTITY_DISABLED']);

    const d2 = await approved('console-users:disable', { identity_id: idOf('desk.three') });
    expect(d2.result.sessions_revoked).toHaveLength(1);
    expect((await call('GET', '/console/api/me', { cookie: s.cookie })).status).toBe(401);
    expect((await signIn(key)).status).toBe(401);

    await approved('console-users:manage', { identity_id: idOf('dealer'), enable: true });
    expect((await t.req('GET', '/broker/v1/funding', { as: 'dealer' })).status).toBe(200);
  });

  it('disabling an identity already disabled, or unknown, changes nothing and keeps the proposal; bad params are 422', async () => {
    await approved('console-users:disable', { identity_id: idOf('dealer') });
    const p = await propose('console-users:disable', { identity_id: idOf('dealer') });
    expect((await approve(p.body.action_id)).body.error.code).toBe('ACTION_NOT_EXECUTABLE');
    expect(await stillProposed(p.body.action_id)).toBe(true);
    const u = await propose('console-users:disable', { identity_id: 'opr_nobody' });
    expect((await approve(u.body.action_id)).body.error.code).toBe('ACTION_NOT_EXECUTABLE');
    const bad = await propose('console-users:disable', { identity: 'x' });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
  });
});

describe('console-roles:assign', () => {
  it('a role given grants its routes at the next request; taken, the next request is 403 and the grants of the roles kept stay', async () => {
    expect((await t.req('GET', '/admin/actions', { as: 'compliance' })).status).toBe(403);
    const g = await approved('console-roles:assign', {
      identity_id: idOf('compliance'),
      role: 'auditor',
      scope: 'global',
    });
    expect(g.result).toMatchObject({ role: 'auditor', scope: 'global', change: 'give' });
    expect((await t.req('GET', '/admin/actions', { as: 'compliance' })).status).toBe(200);
    const tk = await approved('console-roles:assign', {
      identity_id: idOf('compliance'),
      role: 'auditor',
      scope: 'global',
      change: 'take',
    });
    expect(tk.result.grants_removed).toEqual(['actions:read']);
    expect((await t.req('GET', '/admin/actions', { as: 'compliance' })).status).toBe(403);
    expect((await t.req('GET', '/admin/access-review', { as: 'compliance' })).status).toBe(200);
    const roles = t.deps.db
      .prepare('SELECT DISTINCT role FROM operator_grants WHERE operator_id = ?')
      .pluck()
      .all(idOf('compliance'));
    expect(roles).toEqual(['compliance']);
  });

  it('a role of the other realm, a role not held, or a scope naming nothing is refused at approval and changes nothing', async () => {
    const grants = () =>
      t.deps.db
        .prepare('SELECT grant_name, scope, role FROM operator_grants WHERE operator_id = ? ORDER BY 1, 2')
        .all(idOf('compliance'));
    const before = grants();
    for (const params of [
      { identity_id: idOf('compliance'), role: 'dealer', scope: 'global' },
      { identity_id: idOf('compliance'), role: 'auditor', scope: 'global', change: 'take' },
      { identity_id: idOf('compliance'), role: 'auditor', scope: 'tenant:tnt_nothing' },
    ]) {
      const p = await propose('console-roles:assign', params);
      expect((await approve(p.body.action_id)).body.error.code).toBe('ACTION_NOT_EXECUTABLE');
    }
    expect(grants()).toEqual(before);
    const bad = await propose('console-roles:assign', {
      identity_id: idOf('compliance'),
      role: 'auditor',
      scope: 'global',
      change: 'swap',
    });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
    expect(bad.body.error.message).toContain('change');
  });
});

describe('passkey:unlock', () => {
  it("removes the identity's passkeys and ends its sessions; the fresh code answered once enrols a new passkey", async () => {
    const code = (
      await approved('console-users:manage', {
        name: 'desk.four',
        role: 'dealer',
        scope: `broker:${t.creds.broker_id}`,
      })
    ).result.answered_once.enrolment_code;
    const lost = softPasskey();
    await enrol(lost, code);
    const s = await signIn(lost);
    const u = await approved('passkey:unlock', { identity_id: idOf('desk.four') });
    expect(u.result).toMatchObject({ passkeys_removed: 1, sessions_revoked: [expect.any(String)] });
    expect((await call('GET', '/console/api/me', { cookie: s.cookie })).status).toBe(401);
    expect((await signIn(lost)).status).toBe(401);
    expect((await enrol(softPasskey(), code)).status).toBe(401);
    const fresh = softPasskey();
    expect((await enrol(fresh, u.result.answered_once.enrolment_code)).status).toBe(200);
    const s2 = await signIn(fresh);
    expect((await call('GET', '/console/api/me', { cookie: s2.cookie })).body.identity.name).toBe('desk.four');
    expect(JSON.stringify(t.deps.db.prepare('SELECT result FROM admin_actions').all())).not.toContain(
      u.result.answered_once.enrolment_code,
    );
  });

  it('an unknown identity is refused at approval; bad params are 422', async () => {
    const p = await propose('passkey:unlock', { identity_id: 'opr_nobody' });
    expect((await approve(p.body.action_id)).body.error.code).toBe('ACTION_NOT_EXECUTABLE');
    expect(t.deps.db.prepare('SELECT count(*) FROM console_enrolments').pluck().get()).toBe(0);
    const bad = await propose('passkey:unlock', { identity_id: 'x' });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
  });
});

describe('idp-config:update', () => {
  it('records the configuration, readable at GET /admin/idp-config and audited; the console still signs in only with passkeys', async () => {
    expect((await t.req('GET', '/admin/idp-config', { as: 'security' })).body).toEqual({
      sign_in: 'passkeys',
      idp_config: null,
    });
    const a = await approved('idp-config:update', {
      issuer: 'https://login.broker.example/realms/egx',
      client_id: 'svc-console',
      allowed_domains: ['broker.example'],
    });
    const r = await t.req('GET', '/admin/idp-config', { as: 'security' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      sign_in: 'passkeys',
      idp_config: {
        version: 1,
        issuer: 'https://login.broker.example/realms/egx',
        client_id: 'svc-console',
        allowed_domains: ['broker.example'],
        action_id: a.action_id,
      },
    });
    const audit = (await t.req('GET', '/admin/audit?limit=5', { as: 'admin' })).body;
    expect(JSON.stringify(audit)).toContain('idp_config.recorded');
    expect((await t.req('GET', '/admin/idp-config', { as: 'approver' })).status).toBe(403);
  });

  it.each([
    [{ issuer: 'http://login.broker.example', client_id: 'c', allowed_domains: ['broker.example'] }, 'issuer'],
    [
      { issuer: 'https://login.broker.example', client_id: 'has space', allowed_domains: ['broker.example'] },
      'client_id',
    ],
    [{ issuer: 'https://login.broker.example', client_id: 'c', allowed_domains: [] }, 'allowed_domains'],
    [{ issuer: 'https://login.broker.example', client_id: 'c', allowed_domains: ['not a domain'] }, 'allowed_domains'],
  ])('params %j are 422 INVALID_ACTION_PARAMS naming %s', async (params, field) => {
    const p = await propose('idp-config:update', params);
    expect([p.status, p.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
    expect(p.body.error.message).toContain(field);
  });
});
