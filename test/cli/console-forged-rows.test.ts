// Session, step-up, passkey and enrolment rows are useless without the key material
// (docs/reliability.md, "Threat model"). The attacker can write the home but not read kek.key: while a
// real daemon runs they write svc.db with their own connection. An inserted console session (the
// approver's, stepped up for a year), a genuine session edited (another identity, a year of step-up,
// its revocation taken back, its guard triggers dropped and put back), a passkey row moved to the
// approver, an enrolment code inserted for the approver: each must open nothing (401) and an inserted
// session must not be listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { softPasskey, type SoftPasskey } from '../helpers/soft-passkey.js';

let sbx: CliSandbox;
let base: string;
let origin: string;
let agent: Agent;

beforeAll(async () => {
  sbx = await startSandbox();
  base = sbx.info.base_url;
  origin = `http://localhost:${new URL(base).port}`;
  agent = new Agent();
}, 60_000);
afterAll(async () => {
  await agent.close();
  await sbx.stop();
});

interface Call {
  status: number;
  body: any;
  cookie: string;
}

async function call(
  method: 'GET' | 'POST',
  path: string,
  o: { body?: unknown; cookie?: string; csrf?: string; admin?: boolean } = {},
): Promise<Call> {
  const headers: Record<string, string> = {};
  if (method === 'POST') Object.assign(headers, { 'content-type': 'application/json', origin });
  if (o.cookie) headers.cookie = o.cookie;
  if (o.csrf) headers['x-csrf-token'] = o.csrf;
  if (o.admin) headers['x-admin-key'] = sbx.info.admin_key;
  const res = await request(base + path, {
    dispatcher: agent,
    method,
    headers,
    body: method === 'POST' ? JSON.stringify(o.body ?? {}) : undefined,
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    body: text ? JSON.parse(text) : null,
    cookie: String(res.headers['set-cookie'] ?? '').split(';')[0],
  };
}

/** The attacker's own connection to the running daemon's database. */
function attacker<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(join(sbx.home, 'svc.db'));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const csrfOf = (token: string) => createHash('sha256').update(`csrf:${token}`).digest('base64url');
const idOf = (name: string) =>
  attacker((db) => db.prepare<[string], string>('SELECT id FROM operators WHERE name = ?').pluck().get(name)!);

async function enrol(key: SoftPasskey, code: string): Promise<Call> {
  const started = await call('POST', '/console/api/enroll/options', { body: { code } });
  if (started.status !== 200) return started;
  return call('POST', '/console/api/enroll/verify', {
    body: { code, response: key.register(started.body.options, origin) },
  });
}

async function signIn(key: SoftPasskey): Promise<Call> {
  const started = await call('POST', '/console/api/login/options');
  return call('POST', '/console/api/login/verify', {
    body: { response: key.assert(started.body.options.challenge, origin, 0) },
  });
}

/** A genuine dealer session: an admin's enrolment code, a passkey, a sign-in. */
async function dealerSession(): Promise<{ key: SoftPasskey; cookie: string; token: string; sessionId: string }> {
  const code = await call('POST', '/admin/console/enrolments', { admin: true, body: { role: 'dealer' } });
  expect(code.status).toBe(201);
  const key = softPasskey();
  expect((await enrol(key, code.body.enrolment_token)).status).toBe(200);
  const signed = await signIn(key);
  expect(signed.status).toBe(200);
  return { key, cookie: signed.cookie, token: signed.cookie.split('=')[1], sessionId: signed.body.session_id };
}

/** Runs an edit with the named guard trigger dropped, then puts the trigger back exactly as it was. */
function withoutTrigger(db: Database.Database, name: string, edit: () => void): void {
  const sql = db
    .prepare<[string], string>("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?")
    .pluck()
    .get(name)!;
  db.exec(`DROP TRIGGER ${name}`);
  edit();
  db.exec(sql);
}

describe('forged console rows open nothing', () => {
  it('a console_sessions row inserted for the approver, stepped up for a year, is refused 401 and not listed', async () => {
    const token = randomBytes(32).toString('base64url');
    const now = new Date().toISOString();
    attacker((db) =>
      db
        .prepare(`INSERT INTO console_sessions (id, operator_id, token_sha256, created_at, last_seen_at,
          stepped_up_until)
      VALUES ('ses_forged0001', ?, ?, ?, ?, ?)`)
        .run(idOf('approver'), sha256(token), now, now, new Date(Date.now() + 365 * 86_400_000).toISOString()),
    );
    const cookie = `svc_console=${token}`;
    const me = await call('GET', '/console/api/me', { cookie });
    expect(me.status).toBe(401);
    expect(me.body.error.code).toBe('SESSION_INVALID');
    const approve = await call('POST', '/admin/actions/act_0000000000/approve', {
      cookie,
      csrf: csrfOf(token),
      body: {},
    });
    expect(approve.status).toBe(401);
    expect(approve.body.error.code).toBe('SESSION_INVALID');
    const listed = await call('GET', '/admin/sessions', { admin: true });
    expect(listed.status).toBe(200);
    expect(listed.body.sessions.map((s: { session_id: string }) => s.session_id)).not.toContain('ses_forged0001');
  }, 60_000);

  it("a genuine session's row edited (its identity, a year of step-up) is refused 401", async () => {
    const a = await dealerSession();
    expect((await call('GET', '/console/api/me', { cookie: a.cookie })).status).toBe(200);
    attacker((db) =>
      withoutTrigger(db, 'console_sessions_frozen', () => {
        db.prepare('UPDATE console_sessions SET operator_id = ? WHERE id = ?').run(idOf('approver'), a.sessionId);
      }),
    );
    expect((await call('GET', '/console/api/me', { cookie: a.cookie })).body.error?.code).toBe('SESSION_INVALID');

    const b = await dealerSession();
    attacker((db) =>
      db
        .prepare('UPDATE console_sessions SET stepped_up_until = ? WHERE id = ?')
        .run(new Date(Date.now() + 365 * 86_400_000).toISOString(), b.sessionId),
    );
    const me = await call('GET', '/console/api/me', { cookie: b.cookie });
    expect(me.status).toBe(401);
    expect(
      (await call('GET', '/admin/sessions', { admin: true })).body.sessions.map(
        (s: { session_id: string }) => s.session_id,
      ),
    ).not.toContain(b.sessionId);
  }, 60_000);

  it('a revoked session whose revocation is taken back in the file stays refused', async () => {
    const a = await dealerSession();
    const csrf = (await call('GET', '/console/api/me', { cookie: a.cookie })).body.csrf_token;
    expect((await call('POST', '/console/api/logout', { cookie: a.cookie, csrf })).status).toBe(200);
    attacker((db) =>
      withoutTrigger(db, 'console_sessions_revocation_final', () => {
        db.prepare('UPDATE console_sessions SET revoked_at = NULL, revoked_by = NULL WHERE id = ?').run(a.sessionId);
      }),
    );
    const me = await call('GET', '/console/api/me', { cookie: a.cookie });
    expect(me.status).toBe(401);
    expect(me.body.error.code).toBe('SESSION_INVALID');
  }, 60_000);

  it("the dealer's passkey row moved to the approver signs nobody in", async () => {
    const a = await dealerSession();
    attacker((db) =>
      db
        .prepare('UPDATE console_passkeys SET operator_id = ? WHERE credential_id = ?')
        .run(idOf('approver'), a.key.credentialId),
    );
    const signed = await signIn(a.key);
    expect(signed.status).toBe(401);
    expect(signed.body.error.code).toBe('PASSKEY_REJECTED');
  }, 60_000);

  it('an enrolment code inserted for the approver enrols nothing', async () => {
    const code = `enr_${randomBytes(18).toString('base64url')}`;
    attacker((db) =>
      db
        .prepare(
          'INSERT INTO console_enrolments (code_hash, operator_id, created_at, expires_at_ms) VALUES (?, ?, ?, ?)',
        )
        .run(sha256(code), idOf('approver'), new Date().toISOString(), Date.now() + 3_600_000),
    );
    const enrolled = await enrol(softPasskey(), code);
    expect(enrolled.status).toBe(401);
    expect(enrolled.body.error.code).toBe('ENROLMENT_CODE_INVALID');
  }, 60_000);

  it('a genuine sign-in still works and is stepped up', async () => {
    const a = await dealerSession();
    const me = await call('GET', '/console/api/me', { cookie: a.cookie });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ identity: { name: 'dealer' }, stepped_up: true });
  }, 60_000);
});
