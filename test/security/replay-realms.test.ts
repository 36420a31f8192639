// Replay is not a way around the realms (docs/snapshots.md, "Replay"): POST /admin/sandbox/replay-entry
// runs an entry as its recorded principal only inside a replay session, which opens only on a fresh
// sandbox created with the journal's origin, takes the entries in journal order, and closes when an
// ordinary request is journaled meanwhile. A replayed request's audit entry names the operator who
// replayed it as the actor and the recorded principal as on_behalf_of; the chain still verifies, and
// a snapshot of the rebuilt sandbox still passes the import's verifier.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { applicant } from '../helpers/onboarding.js';
import type { JournalEntry, JournalOrigin } from '../../daemon/contract/journal.js';
import { verifySnapshot } from '../../daemon/sandbox/verify-snapshot.js';

const SEED = 31;
let a: TestApp;
let entries: JournalEntry[];
let origin: JournalOrigin;
const opened: TestApp[] = [];

async function fresh(): Promise<TestApp> {
  const t = await makeApp({ seed: SEED });
  opened.push(t);
  return t;
}

/** What a replay must not touch: the journal, the audit chain, the clock, the applications. */
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
  expect((await a.req('POST', '/v1/kyc/applications', { body: applicant({ full_name: 'Second Person' }) })).status).toBe(201);
  const page = await a.req('GET', '/admin/sandbox/journal');
  entries = page.body.entries;
  origin = page.body.header.origin;
  expect(entries.map((e) => e.principal)).toEqual([`tenant:${a.creds.tenant.tenant_id}`, 'operator:admin', `tenant:${a.creds.tenant.tenant_id}`]);
});

afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

afterAll(() => a?.close());

describe('replay-entry outside a replay session', () => {
  it('the admin key cannot act as a tenant or as the dealer desk on a running sandbox: 409 REPLAY_SESSION_REQUIRED, nothing changes', async () => {
    const before = fingerprint(a);
    const asTenant = { ...entries[0], seq: entries.length + 1, sim_ms: a.deps.clock.now(), request_id: 'req_zzzz000001' };
    const asDealer: JournalEntry = {
      ...asTenant, seq: entries.length + 2, request_id: 'req_zzzz000002', method: 'POST', route: 'POST /broker/v1/kyc/:application_id/decline',
      path: '/broker/v1/kyc/kyc_0000000000/decline', principal: 'operator:dealer', idempotency_key: null, body: '{"reason":"replayed"}',
    };
    for (const e of [asTenant, asDealer, entries[0]]) {
      const res = await a.req('POST', '/admin/sandbox/replay-entry', { body: e });
      expect(res.status, res.text).toBe(409);
      expect(res.body.error.code).toBe('REPLAY_SESSION_REQUIRED');
    }
    expect(fingerprint(a)).toEqual(before);
  });

  it('a session does not open on a sandbox that has run requests (409 SANDBOX_NOT_FRESH), nor with another origin (409 REPLAY_ORIGIN_MISMATCH)', async () => {
    const before = fingerprint(a);
    const used = await a.req('POST', '/admin/sandbox/replay-session', { body: { origin } });
    expect(used.status).toBe(409);
    expect(used.body.error.code).toBe('SANDBOX_NOT_FRESH');
    expect(fingerprint(a)).toEqual(before);
    const b = await fresh();
    const other = await b.req('POST', '/admin/sandbox/replay-session', { body: { origin: { ...origin, seed: SEED + 1 } } });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('REPLAY_ORIGIN_MISMATCH');
    expect(other.body.error.message).toContain(`seed ${SEED + 1}`);
    expect((await b.req('POST', '/admin/sandbox/replay-entry', { body: entries[0] })).body.error.code).toBe('REPLAY_SESSION_REQUIRED');
    // Opening takes the admin realm's sandbox:control grant, like replay-entry.
    expect((await b.req('POST', '/admin/sandbox/replay-session', { body: { origin }, as: 'security' })).status).toBe(403);
    expect((await b.req('POST', '/admin/sandbox/replay-session', { body: { origin }, as: 'dealer' })).status).toBe(401);
  });
});

describe('inside a replay session on a fresh sandbox', () => {
  it('entries replay in journal order; one out of order is refused (409 REPLAY_OUT_OF_ORDER) and changes nothing', async () => {
    const b = await fresh();
    const s = await b.req('POST', '/admin/sandbox/replay-session', { body: { origin } });
    expect(s.status, s.text).toBe(200);
    expect(s.body).toEqual({ state: 'open', opened_by: 'operator:admin', last_seq: 0, closed_reason: null });
    const before = fingerprint(b);
    const skip = await b.req('POST', '/admin/sandbox/replay-entry', { body: entries[1] });
    expect(skip.status).toBe(409);
    expect(skip.body.error.code).toBe('REPLAY_OUT_OF_ORDER');
    expect(skip.body.error.message).toContain('takes seq 1');
    expect(fingerprint(b)).toEqual(before);
    for (const e of entries) {
      const r = await b.req('POST', '/admin/sandbox/replay-entry', { body: e });
      expect(r.status, r.text).toBe(200);
      expect(r.body.status).toBe(e.status);
    }
    const again = await b.req('POST', '/admin/sandbox/replay-entry', { body: entries[0] });
    expect(again.body.error.code).toBe('REPLAY_OUT_OF_ORDER');
    const page = await b.req('GET', '/admin/sandbox/journal');
    expect(page.body.entries).toEqual(entries);
  });

  it("the audit entry of a replayed request names the replaying operator, on behalf of the recorded principal; the chain and the snapshot verify", async () => {
    const b = await fresh();
    expect((await b.req('POST', '/admin/sandbox/replay-session', { body: { origin } })).status).toBe(200);
    for (const e of entries) expect((await b.req('POST', '/admin/sandbox/replay-entry', { body: e })).status).toBe(200);
    const log = (await b.req('GET', '/admin/audit?limit=100')).body.entries;
    const tenant = `tenant:${a.creds.tenant.tenant_id}`;
    const created = log.find((r: { action: string }) => r.action === 'POST /v1/kyc/applications');
    expect(created).toMatchObject({ actor: 'operator:admin', on_behalf_of: tenant });
    const advanced = log.find((r: { action: string }) => r.action === 'POST /admin/sandbox/clock-advance');
    expect(advanced).toMatchObject({ actor: 'operator:admin', on_behalf_of: 'operator:admin' });
    expect(log.find((r: { action: string }) => r.action === 'sandbox.replay_session_opened')).toMatchObject({ actor: 'operator:admin', on_behalf_of: null });
    // Nothing in B's audit claims the tenant itself acted.
    expect(log.filter((r: { actor: string }) => r.actor === tenant)).toEqual([]);
    // In A, where the tenant acted, the rows have no on_behalf_of.
    const own = (await a.req('GET', '/admin/audit?limit=100')).body.entries.find((r: { action: string }) => r.action === 'POST /v1/kyc/applications');
    expect(own).toMatchObject({ actor: tenant, on_behalf_of: null });
    expect((await b.req('GET', '/admin/audit/verify')).body).toMatchObject({ ok: true, first_bad_seq: null });
    const snap = await b.app.inject({ method: 'GET', url: '/admin/sandbox/export', headers: { 'x-admin-key': b.creds.operators.admin_key } });
    expect(verifySnapshot(snap.rawPayload)).toMatchObject({ ok: true });
  });

  it('an ordinary request journaled during the session closes it: later entries are refused with the reason', async () => {
    const b = await fresh();
    expect((await b.req('POST', '/admin/sandbox/replay-session', { body: { origin } })).status).toBe(200);
    expect((await b.req('POST', '/admin/sandbox/replay-entry', { body: entries[0] })).status).toBe(200);
    expect((await b.req('POST', '/v1/kyc/applications', { body: applicant({ full_name: 'Interloper' }) })).status).toBe(201);
    const before = fingerprint(b);
    const next = await b.req('POST', '/admin/sandbox/replay-entry', { body: entries[1] });
    expect(next.status).toBe(409);
    expect(next.body.error.code).toBe('REPLAY_SESSION_REQUIRED');
    expect(next.body.error.message).toMatch(/closed: the journal gained entry 2 \(POST \/v1\/kyc\/applications by tenant:tnt_\w+\), which is not a replay/);
    expect(fingerprint(b)).toEqual(before);
    // It stays closed, and DELETE says so.
    expect((await b.req('DELETE', '/admin/sandbox/replay-session')).body).toMatchObject({ state: 'closed', last_seq: 1 });
  });

  it('once closed by the operator, the session takes no more entries', async () => {
    const b = await fresh();
    expect((await b.req('POST', '/admin/sandbox/replay-session', { body: { origin } })).status).toBe(200);
    expect((await b.req('POST', '/admin/sandbox/replay-entry', { body: entries[0] })).status).toBe(200);
    const closed = await b.req('DELETE', '/admin/sandbox/replay-session');
    expect(closed.body).toEqual({ state: 'closed', opened_by: 'operator:admin', last_seq: 1, closed_reason: 'closed by operator:admin after seq 1' });
    expect((await b.req('POST', '/admin/sandbox/replay-entry', { body: entries[1] })).body.error.code).toBe('REPLAY_SESSION_REQUIRED');
    // Journaled entries exist now: no new session either.
    expect((await b.req('POST', '/admin/sandbox/replay-session', { body: { origin } })).body.error.code).toBe('SANDBOX_NOT_FRESH');
  });
});
