// The console's passkeys and sessions over real HTTP (the app listening on a port, as the page sees it):
// a one-time enrolment code (stored hashed, used once, expiring) registers a passkey; an assertion with
// a signature counter of 0 signs in, again and again; the session cookie is HttpOnly and SameSite=Strict
// and opens operator routes to the identity's own grants; a money action needs a passkey step-up in the
// last 5 minutes; a state change from another origin or without the CSRF token is refused; a signed-out
// session is refused at its next call. Challenges live in the database: a ceremony survives a daemon
// restart, is finished once (of two identical finishes at once, one wins), expires after two minutes
// and serves only its purpose. The request journal keeps no one-time code, session token or challenge,
// and a journal with enrolments and approvals still replays with every answer matching its record.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeApp, type TestApp } from '../helpers/app.js';
import { consoleApp, type ConsoleApp } from '../helpers/console-app.js';
import { softPasskey, type SoftPasskey } from '../helpers/soft-passkey.js';
import { sha256 } from '../../daemon/store/crypto.js';
import { JOURNAL_SECRET, type JournalEntry } from '../../daemon/contract/journal.js';
import { firstDifference } from '../../cli/json-diff.js';
import { rebuild } from '../helpers/replay.js';

let c: ConsoleApp;
let t: TestApp;

beforeEach(async () => {
  c = await consoleApp();
  t = c.t;
});
afterEach(async () => c.close());

const call: ConsoleApp['call'] = (...a) => c.call(...a);
const signIn: ConsoleApp['signIn'] = (...a) => c.signIn(...a);

async function enrolCode(role = 'dealer'): Promise<string> {
  const res = await t.req('POST', '/admin/console/enrolments', { body: { role } });
  expect(res.status, res.text).toBe(201);
  return res.body.enrolment_token;
}

async function enrol(key: SoftPasskey, code: string) {
  const res = await c.enrol(key, code);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

describe('enrolment codes', () => {
  it('an admin issues a one-time code that the database keeps only as its hash; a dealer key cannot issue one', async () => {
    const code = await enrolCode('dealer');
    expect(code).toMatch(/^enr_/);
    const rows = t.deps.db.prepare('SELECT * FROM console_enrolments').all();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect((rows[0] as { code_hash: string }).code_hash).toBe(sha256(code));
    expect((await t.req('POST', '/admin/console/enrolments', { body: { role: 'dealer' }, as: 'dealer' })).status).toBe(
      401,
    );
    // the request inspector shows the answer with the code redacted
    const seen = await t.req('GET', '/admin/sandbox/requests?limit=50');
    expect(JSON.stringify(seen.body)).toContain('/admin/console/enrolments');
    expect(JSON.stringify(seen.body)).not.toContain(code);
  });

  it('a code enrols once, and not after it expires', async () => {
    const code = await enrolCode();
    expect((await enrol(softPasskey(), code)).status).toBe(200);
    const again = await call('POST', '/console/api/enroll/options', { body: { code } });
    expect([again.status, again.body.error.code]).toEqual([401, 'ENROLMENT_CODE_INVALID']);
    const late = await enrolCode();
    c.moveWall(16 * 60_000);
    const expired = await call('POST', '/console/api/enroll/options', { body: { code: late } });
    expect(expired.body.error.code).toBe('ENROLMENT_CODE_INVALID');
  });
});

describe('passkey sign-in and the session', () => {
  it('a passkey whose signature counter stays 0 signs in every time; the cookie is HttpOnly, SameSite=Strict, Path=/', async () => {
    const key = softPasskey();
    expect((await enrol(key, await enrolCode())).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const { res, cookie } = await signIn(key, 0);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(
        /^svc_console=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/,
      );
      const me = await call('GET', '/console/api/me', { cookie });
      expect(me.body.identity).toMatchObject({ name: 'dealer', role: 'dealer', realm: 'console' });
      expect(me.body.grants.map((g: { grant: string }) => g.grant)).toContain('orders:execute');
    }
    expect(t.deps.db.prepare('SELECT counter FROM console_passkeys').pluck().all()).toEqual([0]);
  });

  it('a passkey that is not enrolled, or an assertion for another origin, does not sign in', async () => {
    const stranger = await signIn(softPasskey());
    expect([stranger.res.status, stranger.res.body.error.code]).toEqual([401, 'PASSKEY_REJECTED']);
    const key = softPasskey();
    await enrol(key, await enrolCode());
    const opts = await call('POST', '/console/api/login/options');
    const res = await call('POST', '/console/api/login/verify', {
      body: { response: key.assert(opts.body.options.challenge, 'http://evil.example', 0) },
    });
    expect(res.body.error.code).toBe('PASSKEY_REJECTED');
  });

  it("the session reaches the identity's routes only: a desk read for the dealer, the admin realm refused", async () => {
    const key = softPasskey();
    await enrol(key, await enrolCode('dealer'));
    const { cookie } = await signIn(key);
    expect((await call('GET', '/broker/v1/queue', { cookie })).status).toBe(200);
    const admin = await call('GET', '/admin/actions', { cookie });
    expect([admin.status, admin.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await call('GET', '/broker/v1/queue')).status).toBe(401);
  });

  it('a money action needs a passkey assertion in the last 5 minutes; a step-up restores it', async () => {
    const key = softPasskey();
    await enrol(key, await enrolCode('dealer'));
    const { cookie, csrf } = await signIn(key);
    const execute = () => call('POST', '/broker/v1/queue/ord_unknown000/execute', { cookie, csrf, body: {} });
    expect((await execute()).body.error.code).toBe('NOT_FOUND'); // stepped up by the sign-in: past auth
    c.moveWall(5 * 60_000 + 1000);
    const stale = await execute();
    expect([stale.status, stale.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
    const opts = await call('POST', '/console/api/step-up/options', { cookie, csrf });
    expect(opts.body.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([key.credentialId]);
    const up = await call('POST', '/console/api/step-up/verify', {
      cookie,
      csrf,
      body: { response: key.assert(opts.body.options.challenge, c.origin, 0) },
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect((await execute()).body.error.code).toBe('NOT_FOUND');
  });

  it('a state change from another origin or without the CSRF token is refused; a signed-out session is refused next time', async () => {
    const key = softPasskey();
    await enrol(key, await enrolCode('dealer'));
    const { cookie, csrf } = await signIn(key);
    const path = '/broker/v1/queue/ord_unknown000/reject';
    const body = { reason_code: 'DEALER_REJECTED' };
    expect((await call('POST', path, { cookie, body, csrf, origin: 'http://evil.example' })).body.error.code).toBe(
      'CSRF_REFUSED',
    );
    expect((await call('POST', path, { cookie, body, csrf, origin: null })).body.error.code).toBe('CSRF_REFUSED');
    expect((await call('POST', path, { cookie, body })).body.error.code).toBe('CSRF_REFUSED');
    expect((await call('POST', path, { cookie, body, csrf: `${csrf.slice(1)}A` })).body.error.code).toBe(
      'CSRF_REFUSED',
    );
    expect((await call('POST', path, { cookie, body, csrf })).body.error.code).toBe('NOT_FOUND');
    expect((await call('POST', '/console/api/logout', { cookie, csrf })).status).toBe(200);
    const after = await call('GET', '/broker/v1/queue', { cookie });
    expect([after.status, after.body.error.code]).toEqual([401, 'SESSION_INVALID']);
  });
});

describe('an identity that may not hold a session cannot open one', () => {
  const openSessionsOf = async (id: string) =>
    (await t.req('GET', '/admin/sessions', { as: 'security' })).body.sessions.filter(
      (s: { identity_id: string; revoked_at: string | null }) => s.identity_id === id && s.revoked_at === null,
    );

  it.each([
    ['whose key was revoked', 'revoke', 'KEY_REVOKED'],
    ['that is disabled', 'disable', 'IDENTITY_DISABLED'],
  ])(
    'a passkey sign-in by an identity %s is 401, opens no session and is audited as refused',
    async (_what, how, code) => {
      const key = softPasskey();
      await enrol(key, await enrolCode('dealer'));
      const dealer = t.deps.db.prepare("SELECT id FROM operators WHERE name = 'dealer'").pluck().get() as string;
      if (how === 'revoke')
        expect(
          (await t.req('POST', '/admin/keys/revoke', { as: 'security', body: { identity_id: dealer } })).status,
        ).toBe(200);
      else
        t.deps.db
          .prepare(
            "UPDATE operators SET disabled_at = '2026-11-22T09:00:00+02:00', disabled_by = (SELECT id FROM " +
              "operators WHERE name = 'security') WHERE id = ?",
          )
          .run(dealer);
      const rowsBefore = t.deps.db.prepare('SELECT count(*) FROM console_sessions').pluck().get();
      const { res } = await signIn(key);
      expect([res.status, res.body.error.code]).toEqual([401, code]);
      expect(String(res.headers['set-cookie'] ?? '')).not.toContain('svc_console=');
      expect(t.deps.db.prepare('SELECT count(*) FROM console_sessions').pluck().get()).toBe(rowsBefore);
      expect(await openSessionsOf(dealer)).toEqual([]);
      const audit = t.deps.db
        .prepare("SELECT action, detail FROM audit_log WHERE action LIKE 'console.sign%' ORDER BY seq")
        .all() as { action: string; detail: string }[];
      expect(audit.map((a) => a.action)).toEqual(['console.sign_in_refused']);
      expect(audit[0].detail).toContain(code);
    },
  );
});

describe('passkey challenges', () => {
  const loginOptions = async () => (await call('POST', '/console/api/login/options')).body.options.challenge as string;
  const loginVerify = (key: SoftPasskey, challenge: string, origin = c.origin) =>
    call('POST', '/console/api/login/verify', { body: { response: key.assert(challenge, origin, 0) } });
  const openChallenges = () =>
    c.t.deps.db.prepare('SELECT * FROM console_challenges').all() as Array<{
      challenge_sha256: string;
      purpose: string;
    }>;

  it("a ceremony started before a daemon restart finishes after it, on the same database; only the challenge's hash is stored", async () => {
    const key = softPasskey();
    const code = await enrolCode('dealer');
    const opts = await call('POST', '/console/api/enroll/options', { body: { code } });
    expect(openChallenges()).toEqual([
      expect.objectContaining({ challenge_sha256: sha256(opts.body.options.challenge), purpose: 'enrol' }),
    ]);
    expect(JSON.stringify(openChallenges())).not.toContain(opts.body.options.challenge);
    await c.restart();
    const enrolled = await call('POST', '/console/api/enroll/verify', {
      body: { code, response: key.register(opts.body.options, c.origin) },
    });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
    const challenge = await loginOptions();
    await c.restart();
    const signedIn = await loginVerify(key, challenge);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0];
    expect((await call('GET', '/console/api/me', { cookie })).body.identity.name).toBe('dealer');
    expect(openChallenges()).toEqual([]);
  });

  it('the same assertion sent twice at once opens exactly one session; the other is PASSKEY_REJECTED', async () => {
    const key = softPasskey();
    await enrol(key, await enrolCode('dealer'));
    const before = c.t.deps.db.prepare('SELECT count(*) FROM console_sessions').pluck().get() as number;
    const response = key.assert(await loginOptions(), c.origin, 0);
    const both = await Promise.all([0, 1].map(() => call('POST', '/console/api/login/verify', { body: { response } })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(both.find((r) => r.status === 401)!.body.error.code).toBe('PASSKEY_REJECTED');
    expect(c.t.deps.db.prepare('SELECT count(*) FROM console_sessions').pluck().get()).toBe(before + 1);
  });

  it('a challenge answers for two minutes of wall-clock time; after that it is refused, and its row is purged', async () => {
    const key = softPasskey();
    await enrol(key, await enrolCode('dealer'));
    const fresh = await loginOptions();
    c.moveWall(2 * 60_000 - 1000);
    expect((await loginVerify(key, fresh)).status).toBe(200);
    const stale = await loginOptions();
    c.moveWall(2 * 60_000 + 1000);
    const late = await loginVerify(key, stale);
    expect([late.status, late.body.error.code]).toEqual([401, 'PASSKEY_REJECTED']);
    await loginOptions();
    expect(openChallenges().map((r) => r.challenge_sha256)).not.toContain(sha256(stale));
    expect(openChallenges()).toHaveLength(1);
  });

  it('a challenge issued for one purpose is refused for another (sign-in, step-up of another session, enrolment) and stays open for its own', async () => {
    const key = softPasskey();
    await enrol(key, await enrolCode('dealer'));
    const a = await signIn(key);
    const b = await signIn(key);
    const stepUp = (s: { cookie: string; csrf: string }, challenge: string) =>
      call('POST', '/console/api/step-up/verify', {
        cookie: s.cookie,
        csrf: s.csrf,
        body: { response: key.assert(challenge, c.origin, 0) },
      });
    const forA = (await call('POST', '/console/api/step-up/options', { cookie: a.cookie, csrf: a.csrf })).body.options
      .challenge as string;
    expect((await loginVerify(key, forA)).body.error.code).toBe('PASSKEY_REJECTED');
    expect((await stepUp(b, forA)).body.error.code).toBe('PASSKEY_REJECTED');
    expect((await stepUp(a, forA)).status).toBe(200);
    const login = await loginOptions();
    expect((await stepUp(a, login)).body.error.code).toBe('PASSKEY_REJECTED');
    expect((await loginVerify(key, login)).status).toBe(200);
    const enrolOpts = await call('POST', '/console/api/enroll/options', { body: { code: await enrolCode('dealer') } });
    expect((await loginVerify(key, enrolOpts.body.options.challenge)).body.error.code).toBe('PASSKEY_REJECTED');
    expect(openChallenges()).toEqual([expect.objectContaining({ purpose: 'enrol' })]);
  });

  it('a challenge is tried once: after a response that does not verify, the right one is refused too', async () => {
    const key = softPasskey();
    await enrol(key, await enrolCode('dealer'));
    const challenge = await loginOptions();
    expect((await loginVerify(key, challenge, 'http://evil.example')).body.error.code).toBe('PASSKEY_REJECTED');
    expect((await loginVerify(key, challenge)).body.error.code).toBe('PASSKEY_REJECTED');
  });
});

describe('the request journal and one-time secrets', () => {
  async function approved(action: string, params: Record<string, unknown>) {
    const p = await t.req('POST', '/admin/actions', {
      as: 'security',
      body: { action, params, reason: 'console access' },
    });
    expect(p.status, p.text).toBe(201);
    const a = await t.req('POST', `/admin/actions/${p.body.action_id}/approve`, { as: 'approver', body: {} });
    expect(a.status, a.text).toBe(200);
    return a.body.result.answered_once.enrolment_code as string;
  }

  /** Enrolment by an admin code and by two approvals, sign-ins, a step-up and a desk call with the session: every
   * secret they showed. */
  async function consoleWork(): Promise<string[]> {
    const dealer = softPasskey();
    const adminCode = await enrolCode('dealer');
    await enrol(dealer, adminCode);
    const s = await signIn(dealer);
    const token = s.cookie.slice('svc_console='.length);
    expect(
      (
        await call('POST', '/broker/v1/queue/ord_unknown000/reject', {
          cookie: s.cookie,
          csrf: s.csrf,
          body: { reason_code: 'DEALER_REJECTED' },
        })
      ).status,
    ).toBe(404);
    const stepUp = (await call('POST', '/console/api/step-up/options', { cookie: s.cookie, csrf: s.csrf })).body.options
      .challenge as string;
    expect(
      (
        await call('POST', '/console/api/step-up/verify', {
          cookie: s.cookie,
          csrf: s.csrf,
          body: { response: dealer.assert(stepUp, c.origin, 0) },
        })
      ).status,
    ).toBe(200);
    const createdCode = await approved('console-users:manage', {
      name: 'desk.two',
      role: 'dealer',
      scope: `broker:${t.creds.broker_id}`,
    });
    await enrol(softPasskey(), createdCode);
    const compliance = t.deps.db
      .prepare<[], string>("SELECT id FROM operators WHERE name = 'compliance'")
      .pluck()
      .get()!;
    const unlockCode = await approved('passkey:unlock', { identity_id: compliance });
    return [adminCode, createdCode, unlockCode, token, s.csrf, stepUp];
  }

  it('keeps no one-time code, session token or challenge: the answers that showed a code read "[secret]" in the opened entries and on disk', async () => {
    const secrets = await consoleWork();
    // opened with the KEK and tenant keys, as GET /admin/sandbox/journal does
    const entries = c.t.deps.journal.list(0, 10_000);
    expect(entries.map((e) => e.route)).toEqual(
      expect.arrayContaining([
        'POST /admin/console/enrolments',
        'POST /admin/actions/:id/approve',
        'POST /broker/v1/queue/:id/reject',
      ]),
    );
    expect(entries.filter((e) => e.path.startsWith('/console/'))).toEqual([]);
    const text = JSON.stringify(entries);
    for (const secret of secrets) expect(text).not.toContain(secret);
    const issued = JSON.parse(entries.find((e) => e.route === 'POST /admin/console/enrolments')!.response!);
    expect(issued).toMatchObject({ name: 'dealer', enrolment_token: JOURNAL_SECRET, expires_at: JOURNAL_SECRET });
    const approvals = entries
      .filter((e) => e.route === 'POST /admin/actions/:id/approve')
      .map((e) => JSON.parse(e.response!).result);
    expect(approvals).toHaveLength(2);
    for (const r of approvals)
      expect(r.answered_once).toEqual({
        enrolment_code: JOURNAL_SECRET,
        enrolment_path: JOURNAL_SECRET,
        expires_at: JOURNAL_SECRET,
      });
    expect(approvals[0]).toMatchObject({ name: 'desk.two', role: 'dealer' });
    const onDisk = Buffer.concat(['svc.db', 'svc.db-wal'].map((f) => readFileSync(join(c.t.dir, f))));
    for (const secret of secrets) expect(onDisk.includes(Buffer.from(secret)), secret).toBe(false);
  });

  it('a journal with console enrolments and approvals replays into a fresh sandbox with every answer matching its redacted record', async () => {
    await consoleWork();
    const entries: JournalEntry[] = (await t.req('GET', '/admin/sandbox/journal?limit=1000')).body.entries;
    const b = await makeApp();
    try {
      const header = (await t.req('GET', '/admin/sandbox/journal?limit=1')).body.header;
      const r = await rebuild(b, header, entries);
      expect(r.code, JSON.stringify(r.lines.at(-1))).toBe(0);
      for (const [i, e] of entries.entries()) {
        const res = r.results[i];
        expect(res.status, `${e.seq} ${e.route} ${JSON.stringify(res.body)}`).toBe(e.status);
        expect(
          firstDifference(JSON.parse(e.response!), res.body, 'body', JOURNAL_SECRET),
          `${e.seq} ${e.route}`,
        ).toBeNull();
      }
      expect(entries.filter((e) => e.route === 'POST /admin/actions/:id/approve')).toHaveLength(2);
    } finally {
      await b.close();
    }
  });
});
