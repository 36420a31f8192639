// Replay is not a way around the realms (docs/snapshots.md, "Replay"): a journal entry runs as its
// recorded principal only in the offline rebuild of a new sandbox (daemon/sandbox/replay-offline.ts,
// `main.js --replay` in a process of its own; here on a fresh test app, never listening either). Inside
// it the replay session still holds: it opens only on a fresh sandbox created with the journal's
// origin, takes the entries in journal order, and closes when anything else is journaled meanwhile.
// A replayed request's audit entry names the replay as the actor and the recorded principal as
// on_behalf_of; the chain still verifies, and a snapshot of the rebuilt sandbox passes the import's
// verifier. A replayed answer that showed a secret once hands back "[secret]".
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, proposeAndApprove, type TestApp } from '../helpers/app.js';
import { applicant } from '../helpers/onboarding.js';
import { injectOf, rebuild } from '../helpers/replay.js';
import { JOURNAL_SECRET, type JournalEntry, type JournalHeader } from '../../daemon/contract/journal.js';
import { verifySnapshot } from '../../daemon/sandbox/verify-snapshot.js';
import { replayEntry } from '../../daemon/sandbox/replay.js';
import { closeSession, openSession } from '../../daemon/sandbox/replay-session.js';
import { REPLAY_ACTOR } from '../../daemon/sandbox/replay-offline.js';

const SEED = 31;
let a: TestApp;
let entries: JournalEntry[];
let header: JournalHeader;
const opened: TestApp[] = [];

async function fresh(): Promise<TestApp> {
  const t = await makeApp({ seed: SEED });
  opened.push(t);
  return t;
}

/** What a refused replay must not touch: the journal, the audit chain, the clock, the applications. */
function fingerprint(t: TestApp) {
  return {
    journal: t.deps.journal.lastSeq(),
    audit: t.deps.audit.verify(),
    clock: t.deps.clock.now(),
    applications: t.deps.db.prepare('SELECT COUNT(*) AS n FROM kyc_applications').get(),
  };
}

beforeAll(async () => {
  a = await makeApp({ seed: SEED });
  const created = await a.req('POST', '/v1/kyc/applications', { body: applicant({ full_name: 'Realm Person' }) });
  expect(created.status).toBe(201);
  expect((await a.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 5 } })).status).toBe(200);
  expect(
    (await a.req('POST', '/v1/kyc/applications', { body: applicant({ full_name: 'Second Person' }) })).status,
  ).toBe(201);
  const page = await a.req('GET', '/admin/sandbox/journal');
  entries = page.body.entries;
  header = page.body.header;
  expect(entries.map((e) => e.principal)).toEqual([
    `tenant:${a.creds.tenant.tenant_id}`,
    'operator:admin',
    `tenant:${a.creds.tenant.tenant_id}`,
  ]);
});

afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

afterAll(() => a?.close());

describe("the rebuild opens its session only on a fresh sandbox of the journal's origin", () => {
  it('a sandbox that has run requests is refused (SANDBOX_NOT_FRESH), another origin too (REPLAY_ORIGIN_MISMATCH): nothing replayed, nothing changes', async () => {
    const before = fingerprint(a);
    const used = await rebuild(a, header, entries);
    expect(used.code).toBe(2);
    expect(used.lines).toEqual([{ refused: { line: 1, message: expect.stringContaining('already holds 3 entries') } }]);
    expect(fingerprint(a)).toEqual(before);
    const b = await fresh();
    const other = await rebuild(b, { ...header, origin: { ...header.origin, seed: SEED + 1 } }, entries);
    expect(other.code).toBe(2);
    expect(JSON.stringify(other.lines)).toContain(`seed ${SEED + 1}`);
    expect(b.deps.journal.lastSeq()).toBe(0);
  });

  it('an entry naming a route this svc does not have is refused before anything is replayed', async () => {
    const b = await fresh();
    const before = fingerprint(b);
    const odd = { ...entries[1], path: '/v1/teleport', route: 'POST /v1/teleport' };
    const r = await rebuild(b, header, [entries[0], odd, entries[2]]);
    expect(r.code).toBe(2);
    expect(r.lines).toEqual([
      { refused: { line: 3, message: 'unknown route POST /v1/teleport (not in the API of this svc)' } },
    ]);
    expect(fingerprint(b)).toEqual(before);
  });
});

describe('inside the rebuild', () => {
  it('entries replay in journal order; one out of order is refused (REPLAY_OUT_OF_ORDER) and changes nothing', async () => {
    const b = await fresh();
    expect(openSession(b.deps, REPLAY_ACTOR, header.origin).ok).toBe(true);
    const before = fingerprint(b);
    const skip = await replayEntry(b.deps, injectOf(b), entries[1], REPLAY_ACTOR);
    expect(skip).toMatchObject({
      ok: false,
      code: 'REPLAY_OUT_OF_ORDER',
      message: expect.stringContaining('takes seq 1'),
    });
    expect(fingerprint(b)).toEqual(before);
    for (const e of entries) {
      const r = await replayEntry(b.deps, injectOf(b), e, REPLAY_ACTOR);
      expect(r.ok && r.value.status).toBe(e.status);
    }
    expect(await replayEntry(b.deps, injectOf(b), entries[0], REPLAY_ACTOR)).toMatchObject({
      ok: false,
      code: 'REPLAY_OUT_OF_ORDER',
    });
    expect((await b.req('GET', '/admin/sandbox/journal')).body.entries).toEqual(entries);
  });

  it('the audit entry of a replayed request names the replay, on behalf of the recorded principal; the chain and the snapshot verify', async () => {
    const b = await fresh();
    const r = await rebuild(b, header, entries);
    expect(r.code).toBe(0);
    expect(r.results.map((x) => x.status)).toEqual(entries.map((e) => e.status));
    const log = (await b.req('GET', '/admin/audit?limit=100')).body.entries;
    const tenant = `tenant:${a.creds.tenant.tenant_id}`;
    expect(log.find((x: { action: string }) => x.action === 'POST /v1/kyc/applications')).toMatchObject({
      actor: REPLAY_ACTOR,
      on_behalf_of: tenant,
    });
    expect(log.find((x: { action: string }) => x.action === 'POST /admin/sandbox/clock-advance')).toMatchObject({
      actor: REPLAY_ACTOR,
      on_behalf_of: 'operator:admin',
    });
    expect(log.find((x: { action: string }) => x.action === 'sandbox.replay_session_opened')).toMatchObject({
      actor: REPLAY_ACTOR,
      on_behalf_of: null,
    });
    // Nothing in B's audit claims the tenant or the admin itself acted.
    expect(log.filter((x: { actor: string }) => x.actor === tenant || x.actor === 'operator:admin')).toEqual([]);
    const own = (await a.req('GET', '/admin/audit?limit=100')).body.entries.find(
      (x: { action: string }) => x.action === 'POST /v1/kyc/applications',
    );
    expect(own).toMatchObject({ actor: tenant, on_behalf_of: null });
    expect((await b.req('GET', '/admin/audit/verify')).body).toMatchObject({ ok: true, first_bad_seq: null });
    const snap = await b.app.inject({
      method: 'GET',
      url: '/admin/sandbox/export',
      headers: { 'x-admin-key': b.creds.operators.admin_key },
    });
    expect(verifySnapshot(snap.rawPayload)).toMatchObject({ ok: true });
  });

  it('anything else journaled during the rebuild closes the session: later entries are refused with the reason', async () => {
    const b = await fresh();
    expect(openSession(b.deps, REPLAY_ACTOR, header.origin).ok).toBe(true);
    expect((await replayEntry(b.deps, injectOf(b), entries[0], REPLAY_ACTOR)).ok).toBe(true);
    expect((await b.req('POST', '/v1/kyc/applications', { body: applicant({ full_name: 'Interloper' }) })).status).toBe(
      201,
    );
    const before = fingerprint(b);
    const next = await replayEntry(b.deps, injectOf(b), entries[1], REPLAY_ACTOR);
    expect(next).toMatchObject({ ok: false, code: 'REPLAY_SESSION_REQUIRED' });
    expect(!next.ok && next.message).toMatch(
      /closed: the journal gained entry 2 \(POST \/v1\/kyc\/applications by tenant:tnt_\w+\), which is not a replay/,
    );
    expect(fingerprint(b)).toEqual(before);
    expect(closeSession(b.deps, REPLAY_ACTOR)).toMatchObject({ ok: true, value: { state: 'closed', last_seq: 1 } });
  });

  it('the rebuild closes its session at the end: no entry replays afterwards, and no new session opens', async () => {
    const b = await fresh();
    expect((await rebuild(b, header, entries.slice(0, 1))).code).toBe(0);
    expect(await replayEntry(b.deps, injectOf(b), entries[1], REPLAY_ACTOR)).toMatchObject({
      ok: false,
      code: 'REPLAY_SESSION_REQUIRED',
    });
    expect(openSession(b.deps, REPLAY_ACTOR, header.origin)).toMatchObject({ ok: false, code: 'SANDBOX_NOT_FRESH' });
  });
});

describe('a replayed answer never hands back a secret it showed once', () => {
  it('a provisioned tenant\'s keys and a new identity\'s enrolment code read "[secret]" in the replayed answers', async () => {
    const c = await makeApp({ seed: SEED + 5 });
    try {
      expect((await c.req('POST', '/admin/tenants', { body: { name: 'Second Fintech' } })).status).toBe(201);
      await proposeAndApprove(c, 'console-users:manage', { name: 'ops.new', role: 'approver' });
      const page = (await c.req('GET', '/admin/sandbox/journal')).body;
      const b = await makeApp({ seed: SEED + 5 });
      opened.push(b);
      const r = await rebuild(b, page.header, page.entries);
      expect(r.code).toBe(0);
      const text = JSON.stringify(r.lines);
      const tenant = r.results.find((x) => (x.body as { tenant_id?: string })?.tenant_id && x.status === 201)!
        .body as Record<string, unknown>;
      expect(tenant).toMatchObject({ api_key: JOURNAL_SECRET, signing_secret: JOURNAL_SECRET });
      const approved = r.results.at(-1)!.body as { result: { answered_once: Record<string, string> } };
      expect(approved.result.answered_once).toEqual({
        enrolment_code: JOURNAL_SECRET,
        enrolment_path: JOURNAL_SECRET,
        expires_at: JOURNAL_SECRET,
      });
      expect(text).not.toMatch(/(ak|ck|sk|tk)_sbx_[A-Za-z0-9]/);
    } finally {
      await c.close();
    }
  });
});
