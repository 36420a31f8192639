// Console sessions: a sign-in answers its token once and stores only its hash; a session is refused
// when unknown, revoked or idle for 30 minutes, and counts as stepped up for 5 minutes after a passkey
// re-authentication. The back office lists sessions and revokes them by id or by identity, and the
// revoked session's next request is refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, proposeAndApprove, type TestApp } from '../helpers/app.js';
import {
  authenticateSession,
  listSessions,
  markSteppedUp,
  openSession,
  revokeSessions,
} from '../../daemon/backoffice/sessions.js';
import { sha256 } from '../../daemon/store/crypto.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const T0 = Date.parse('2026-11-23T10:00:00Z');
const MIN = 60_000;
const idOf = (name: string) =>
  t.deps.db.prepare<[string], string>('SELECT id FROM operators WHERE name = ?').pluck().get(name)!;

describe('console sessions (data layer)', () => {
  it('a session opens with a 32-byte base64url token, of which only the SHA-256 is stored', () => {
    const { session_id, token } = openSession(t.deps, idOf('dealer'), T0);
    expect(session_id).toMatch(/^ses_[0-9a-z]{10}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const row = t.deps.db.prepare('SELECT * FROM console_sessions WHERE id = ?').get(session_id) as Record<
      string,
      unknown
    >;
    expect(row.token_sha256).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(openSession(t.deps, idOf('dealer'), T0).token).not.toBe(token);
  });

  it('the database refuses a session row for an identity whose key was revoked or that is disabled, whatever path writes it', () => {
    t.deps.db
      .prepare("UPDATE operators SET revoked_at = '2026-11-23T10:00:00Z', revoked_by = ? WHERE id = ?")
      .run(idOf('security'), idOf('dealer'));
    expect(() => openSession(t.deps, idOf('dealer'), T0)).toThrow(/revoked or is disabled/);
    t.deps.db
      .prepare("UPDATE operators SET disabled_at = '2026-11-23T10:00:00Z', disabled_by = ? WHERE id = ?")
      .run(idOf('security'), idOf('auditor'));
    expect(() => openSession(t.deps, idOf('auditor'), T0)).toThrow(/revoked or is disabled/);
    expect(t.deps.db.prepare('SELECT count(*) FROM console_sessions').pluck().get()).toBe(0);
  });

  it('the token authenticates its identity and each use moves last_seen_at', () => {
    const s = openSession(t.deps, idOf('dealer'), T0);
    const a = authenticateSession(t.deps, s.token, T0 + 10 * MIN);
    expect(a).toEqual({
      ok: true,
      value: { session_id: s.session_id, identity_id: idOf('dealer'), stepped_up: false },
    });
    // 10 minutes after the first use and 20 after the start: still alive, because it was used.
    expect(authenticateSession(t.deps, s.token, T0 + 35 * MIN).ok).toBe(true);
    expect(listSessions(t.deps)[0].last_seen_at).toBe(new Date(T0 + 35 * MIN).toISOString());
  });

  it('an unknown token, and a session idle for more than 30 minutes, are refused SESSION_INVALID', () => {
    expect(authenticateSession(t.deps, 'nope', T0)).toMatchObject({ ok: false, code: 'SESSION_INVALID' });
    const s = openSession(t.deps, idOf('dealer'), T0);
    expect(authenticateSession(t.deps, s.token, T0 + 30 * MIN).ok).toBe(true);
    const idle = authenticateSession(t.deps, s.token, T0 + 60 * MIN + 1);
    expect(idle).toMatchObject({ ok: false, code: 'SESSION_INVALID' });
    expect((idle as { message: string }).message).toContain('idle');
  });

  it('a session is stepped up for 5 minutes after markSteppedUp, then no longer', () => {
    const s = openSession(t.deps, idOf('approver'), T0);
    markSteppedUp(t.deps, s.session_id, T0 + MIN);
    expect(authenticateSession(t.deps, s.token, T0 + 2 * MIN)).toMatchObject({ ok: true, value: { stepped_up: true } });
    expect(authenticateSession(t.deps, s.token, T0 + 6 * MIN + 1)).toMatchObject({
      ok: true,
      value: { stepped_up: false },
    });
    expect(listSessions(t.deps)[0].stepped_up_until).toBe(new Date(T0 + 6 * MIN).toISOString());
  });

  it('revoking by id or by identity ends exactly those sessions; the next use is refused', () => {
    const a = openSession(t.deps, idOf('dealer'), T0);
    const b = openSession(t.deps, idOf('dealer'), T0);
    const c = openSession(t.deps, idOf('approver'), T0);
    expect(revokeSessions(t.deps, { session_ids: [a.session_id] }, 'operator:security', T0 + MIN)).toEqual({
      ok: true,
      value: { revoked: [a.session_id] },
    });
    expect(authenticateSession(t.deps, a.token, T0 + 2 * MIN)).toMatchObject({ ok: false, code: 'SESSION_INVALID' });
    expect(authenticateSession(t.deps, b.token, T0 + 2 * MIN).ok).toBe(true);
    expect(revokeSessions(t.deps, { identity_id: idOf('dealer') }, 'operator:security', T0 + 3 * MIN)).toEqual({
      ok: true,
      value: { revoked: [b.session_id] },
    });
    expect(authenticateSession(t.deps, b.token, T0 + 4 * MIN).ok).toBe(false);
    expect(authenticateSession(t.deps, c.token, T0 + 4 * MIN).ok).toBe(true);
    const listed = listSessions(t.deps).find((x) => x.session_id === b.session_id)!;
    expect(listed).toMatchObject({
      identity_name: 'dealer',
      revoked_by: 'operator:security',
      revoked_at: new Date(T0 + 3 * MIN).toISOString(),
    });
  });

  it('an unknown session or identity is NOT_FOUND and revokes nothing', () => {
    const a = openSession(t.deps, idOf('dealer'), T0);
    expect(revokeSessions(t.deps, { session_ids: [a.session_id, 'ses_unknown'] }, 'x')).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
    expect(revokeSessions(t.deps, { identity_id: 'opr_nobody' }, 'x')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(authenticateSession(t.deps, a.token, T0 + MIN).ok).toBe(true);
  });

  it("the database keeps a revocation final and a session's token and identity fixed", () => {
    const a = openSession(t.deps, idOf('dealer'), T0);
    revokeSessions(t.deps, { session_ids: [a.session_id] }, 'operator:security', T0);
    expect(() =>
      t.deps.db
        .prepare('UPDATE console_sessions SET revoked_at = NULL, revoked_by = NULL WHERE id = ?')
        .run(a.session_id),
    ).toThrow(/stays revoked/);
    const b = openSession(t.deps, idOf('dealer'), T0);
    expect(() =>
      t.deps.db.prepare('UPDATE console_sessions SET operator_id = ? WHERE id = ?').run(idOf('admin'), b.session_id),
    ).toThrow(/cannot change/);
    expect(() =>
      t.deps.db.prepare('UPDATE console_sessions SET token_sha256 = ? WHERE id = ?').run('0'.repeat(64), b.session_id),
    ).toThrow(/cannot change/);
  });
});

describe('session rows need the KEK', () => {
  it('a row edited in the file (step-up for a year, another identity, a revocation taken back) is refused and not listed', () => {
    const db = t.deps.db;
    const a = openSession(t.deps, idOf('dealer'), T0);
    db.prepare("UPDATE console_sessions SET stepped_up_until = '2027-11-23T10:00:00.000Z' WHERE id = ?").run(
      a.session_id,
    );
    expect(authenticateSession(t.deps, a.token, T0 + MIN)).toMatchObject({ ok: false, code: 'SESSION_INVALID' });
    expect(listSessions(t.deps).map((x) => x.session_id)).not.toContain(a.session_id);
    const b = openSession(t.deps, idOf('dealer'), T0);
    revokeSessions(t.deps, { session_ids: [b.session_id] }, 'operator:security', T0);
    const guard = db
      .prepare<[], string>("SELECT sql FROM sqlite_master WHERE name = 'console_sessions_revocation_final'")
      .pluck()
      .get()!;
    db.exec('DROP TRIGGER console_sessions_revocation_final');
    db.prepare('UPDATE console_sessions SET revoked_at = NULL, revoked_by = NULL WHERE id = ?').run(b.session_id);
    db.exec(guard);
    expect(authenticateSession(t.deps, b.token, T0 + MIN)).toMatchObject({ ok: false, code: 'SESSION_INVALID' });
  });

  it('the same row under another KEK opens nothing; revoking a forged row never gives it a valid MAC', () => {
    const a = openSession(t.deps, idOf('approver'), T0);
    expect(authenticateSession({ db: t.deps.db, kek: Buffer.alloc(32, 7) }, a.token, T0 + MIN)).toMatchObject({
      ok: false,
      code: 'SESSION_INVALID',
    });
    t.deps.db
      .prepare(
        'INSERT INTO console_sessions (id, operator_id, token_sha256, created_at, last_seen_at) VALUES ' +
          "('ses_forged', ?, ?, ?, ?)",
      )
      .run(idOf('approver'), sha256('forged'), new Date(T0).toISOString(), new Date(T0).toISOString());
    expect(revokeSessions(t.deps, { session_ids: ['ses_forged'] }, 'operator:security', T0)).toEqual({
      ok: true,
      value: { revoked: ['ses_forged'] },
    });
    expect(authenticateSession(t.deps, 'forged', T0 + MIN)).toMatchObject({ ok: false, code: 'SESSION_INVALID' });
    expect(listSessions(t.deps).map((x) => x.session_id)).toEqual([a.session_id]);
  });

  it('a MAC column holding 64 characters that are not hex is refused like any other, not an error', () => {
    const a = openSession(t.deps, idOf('approver'), T0);
    t.deps.db.prepare('UPDATE console_sessions SET mac = ? WHERE id = ?').run('z'.repeat(64), a.session_id);
    expect(authenticateSession(t.deps, a.token, T0 + MIN)).toMatchObject({ ok: false, code: 'SESSION_INVALID' });
    expect(listSessions(t.deps)).toEqual([]);
  });

  it('a KEK rotation keeps every genuine session open (re-MACed under the new key) and a forged one refused', async () => {
    const now = Date.now();
    const a = openSession(t.deps, idOf('dealer'), now);
    markSteppedUp(t.deps, a.session_id, now);
    t.deps.db
      .prepare(
        'INSERT INTO console_sessions (id, operator_id, token_sha256, created_at, last_seen_at) VALUES ' +
          "('ses_forged', ?, ?, ?, ?)",
      )
      .run(idOf('approver'), sha256('forged'), new Date(now).toISOString(), new Date(now).toISOString());
    let rotation = (await proposeAndApprove(t, 'keys:rotate-kek', {})).rotation as {
      action_id?: string;
      state: string;
      resealed: Record<string, number>;
    };
    // the rotation re-seals in slices after the approval and switches over at the end (docs/backoffice.md "Key
    // rotation")
    while (rotation.state === 'running') {
      await new Promise((resolve) => setImmediate(resolve));
      const all = (await t.req('GET', '/admin/actions?state=approved')).body.actions as Array<{
        action: string;
        result: { rotation: typeof rotation };
      }>;
      rotation = all.filter((x) => x.action === 'keys:rotate-kek').pop()!.result.rotation;
    }
    expect(rotation).toMatchObject({ state: 'done', resealed: { console_rows: 1 } });
    expect(authenticateSession(t.deps, a.token, now + MIN)).toMatchObject({
      ok: true,
      value: { session_id: a.session_id, stepped_up: true },
    });
    expect(authenticateSession(t.deps, 'forged', now + MIN)).toMatchObject({ ok: false, code: 'SESSION_INVALID' });
  });
});

describe('GET /admin/sessions and POST /admin/sessions/revoke', () => {
  it('lists console sessions with identity, created_at, last_seen_at and stepped_up_until, to holders of sessions:read', async () => {
    const s = openSession(t.deps, idOf('dealer'), T0);
    markSteppedUp(t.deps, s.session_id, T0);
    const r = await t.req('GET', '/admin/sessions', { as: 'admin' });
    expect(r.status).toBe(200);
    expect(r.body.sessions).toEqual([
      expect.objectContaining({
        session_id: s.session_id,
        identity_id: idOf('dealer'),
        identity_name: 'dealer',
        created_at: new Date(T0).toISOString(),
        last_seen_at: new Date(T0).toISOString(),
        stepped_up_until: new Date(T0 + 5 * MIN).toISOString(),
        revoked_at: null,
      }),
    ]);
    expect(JSON.stringify(r.body)).not.toContain(s.token);
    expect((await t.req('GET', '/admin/sessions', { as: 'approver' })).status).toBe(403);
  });

  it("each session shows its identity's display name and, once the identity is disabled, when (null before and after enabling)", async () => {
    const s = openSession(t.deps, idOf('dealer'), T0);
    const row = async () =>
      (await t.req('GET', '/admin/sessions', { as: 'admin' })).body.sessions.find(
        (x: { session_id: string }) => x.session_id === s.session_id,
      );
    expect(await row()).toMatchObject({ identity_display_name: null, identity_disabled_at: null });
    const decide = (action: string, params: Record<string, unknown>) => proposeAndApprove(t, action, params, 'people');
    await decide('console-users:manage', { identity_id: idOf('dealer'), display_name: 'Head Dealer' });
    expect(await row()).toMatchObject({
      identity_name: 'dealer',
      identity_display_name: 'Head Dealer',
      identity_disabled_at: null,
    });
    const off = await decide('console-users:disable', { identity_id: idOf('dealer') });
    const disabled = await row();
    expect(disabled.identity_disabled_at).toBe(off.disabled_at);
    expect(disabled.revoked_at).not.toBeNull();
    await decide('console-users:manage', { identity_id: idOf('dealer'), enable: true });
    expect(await row()).toMatchObject({ identity_display_name: 'Head Dealer', identity_disabled_at: null });
  });

  it('security revokes a session: its next use is refused, the revocation is audited; admin (no sessions:revoke) is 403', async () => {
    const now = Date.now();
    const s = openSession(t.deps, idOf('dealer'), now);
    expect(
      (await t.req('POST', '/admin/sessions/revoke', { as: 'admin', body: { session_ids: [s.session_id] } })).status,
    ).toBe(403);
    const r = await t.req('POST', '/admin/sessions/revoke', { as: 'security', body: { session_ids: [s.session_id] } });
    expect([r.status, r.body]).toEqual([200, { revoked: [s.session_id] }]);
    expect(authenticateSession(t.deps, s.token, now + MIN)).toMatchObject({ ok: false, code: 'SESSION_INVALID' });
    const audit = (await t.req('GET', '/admin/audit?action=console_session.revoked')).body.entries;
    expect(audit[0]).toMatchObject({ actor: 'operator:security' });
    expect(JSON.parse(audit[0].detail)).toEqual({ grant: 'sessions:revoke', revoked: [s.session_id] });
  });

  it('revokes every session of an identity; naming neither is 422, an unknown session 404', async () => {
    const now = Date.now();
    const a = openSession(t.deps, idOf('approver'), now);
    const b = openSession(t.deps, idOf('approver'), now);
    const r = await t.req('POST', '/admin/sessions/revoke', {
      as: 'security',
      body: { identity_id: idOf('approver') },
    });
    expect(r.body.revoked.sort()).toEqual([a.session_id, b.session_id].sort());
    expect((await t.req('POST', '/admin/sessions/revoke', { as: 'security', body: {} })).status).toBe(422);
    const u = await t.req('POST', '/admin/sessions/revoke', { as: 'security', body: { session_ids: ['ses_nope'] } });
    expect([u.status, u.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('operator keys: rotate and revoke', () => {
  it('rotating a key answers a new key once; the old key is refused at its next request, the new one works with the same grants', async () => {
    const old = t.creds.operators.admin_key;
    expect((await t.req('GET', '/admin/audit', { headers: { 'x-admin-key': old } })).status).toBe(200);
    const r = await t.req('POST', '/admin/keys/rotate', { as: 'security', body: { identity_id: idOf('admin') } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ identity_id: idOf('admin'), name: 'admin', role: 'admin', realm: 'admin' });
    expect(r.body.operator_key).toMatch(/^ak_sbx_/);
    const refused = await t.req('GET', '/admin/audit', { headers: { 'x-admin-key': old } });
    expect([refused.status, refused.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await t.req('GET', '/admin/audit', { headers: { 'x-admin-key': r.body.operator_key } })).status).toBe(200);
    // the request journal keeps no copy of the new key
    const journal = await t.app.inject({
      method: 'GET',
      url: '/admin/sandbox/journal?format=ndjson',
      headers: { 'x-admin-key': r.body.operator_key },
    });
    expect(journal.statusCode).toBe(200);
    expect(journal.body).toContain('/admin/keys/rotate');
    expect(journal.body).toContain('operator_key');
    expect(journal.body).not.toContain(r.body.operator_key);
    const entries = (await t.req('GET', '/admin/audit?action=operator_key.rotated', { as: 'security' })).body.entries;
    expect(entries[0]).toMatchObject({ actor: 'operator:security', subject: idOf('admin') });
  });

  it('revoking a key refuses its next request with 401 KEY_REVOKED and ends its console sessions; a revoked key cannot be rotated back', async () => {
    const s = openSession(t.deps, idOf('dealer'), Date.now());
    expect((await t.req('GET', '/broker/v1/queue', { as: 'dealer' })).status).toBe(200);
    const r = await t.req('POST', '/admin/keys/revoke', { as: 'security', body: { identity_id: idOf('dealer') } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      identity_id: idOf('dealer'),
      name: 'dealer',
      revoked_by: 'security',
      sessions_revoked: [s.session_id],
    });
    const next = await t.req('GET', '/broker/v1/queue', { as: 'dealer' });
    expect([next.status, next.body.error.code]).toEqual([401, 'KEY_REVOKED']);
    expect(authenticateSession(t.deps, s.token, Date.now()).ok).toBe(false);
    const again = await t.req('POST', '/admin/keys/rotate', { as: 'security', body: { identity_id: idOf('dealer') } });
    expect([again.status, again.body.error.code]).toEqual([401, 'KEY_REVOKED']);
    expect(() =>
      t.deps.db.prepare('UPDATE operators SET revoked_at = NULL, revoked_by = NULL WHERE id = ?').run(idOf('dealer')),
    ).toThrow(/stays revoked/);
  });

  it('only holders of operator-keys:* rotate or revoke; an identity cannot revoke its own key; an unknown identity is 404', async () => {
    expect(
      (await t.req('POST', '/admin/keys/rotate', { as: 'admin', body: { identity_id: idOf('dealer') } })).status,
    ).toBe(403);
    expect(
      (await t.req('POST', '/admin/keys/revoke', { as: 'approver', body: { identity_id: idOf('dealer') } })).status,
    ).toBe(403);
    expect(
      (await t.req('POST', '/admin/keys/revoke', { as: 'security', body: { identity_id: idOf('security') } })).status,
    ).toBe(422);
    expect(
      (await t.req('POST', '/admin/keys/revoke', { as: 'security', body: { identity_id: 'opr_nope' } })).status,
    ).toBe(404);
  });
});
