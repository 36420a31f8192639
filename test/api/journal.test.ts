// The request journal (docs/snapshots.md): every committed state-changing request that reached its
// handler, in commit order, with principal, simulated time, the headers that matter and the exact
// body, never credentials; the offline rebuild re-runs entries in a fresh sandbox with identical answers;
// GET /admin/sandbox/export packs a consistent snapshot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { advance, makeApp, type Res, type TestApp } from '../helpers/app.js';
import { applicant, BALANCED, SAMPLE_BACK, SAMPLE_FRONT } from '../helpers/onboarding.js';
import { unpackSnapshot } from '../../daemon/contract/snapshot.js';
import type { JournalEntry } from '../../daemon/contract/journal.js';
import { seal } from '../../daemon/store/crypto.js';
import { openEverySealed } from '../helpers/sealed-store.js';
import { injectOf } from '../helpers/replay.js';
import { replayEntry } from '../../daemon/sandbox/replay.js';
import { openSession } from '../../daemon/sandbox/replay-session.js';
import { REPLAY_ACTOR } from '../../daemon/sandbox/replay-offline.js';

const SEED = 2024;
let a: TestApp;
/** What A answered to each journaled request, in order. */
const answers: Res[] = [];
let investorId = '';
let orderId = '';

async function rec(res: Promise<Res>): Promise<Res> {
  const r = await res;
  answers.push(r);
  return r;
}

async function journalOf(t: TestApp): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  let after = 0;
  for (;;) {
    const page = await t.req('GET', `/admin/sandbox/journal?after=${after}&limit=7`);
    expect(page.status).toBe(200);
    out.push(...page.body.entries);
    if (page.body.next_after === null) return out;
    after = page.body.next_after;
  }
}

/** GET /admin/sandbox/journal?format=ndjson (application/x-ndjson: read as text). */
async function ndjson(t: TestApp) {
  return t.app.inject({
    method: 'GET',
    url: '/admin/sandbox/journal?format=ndjson',
    headers: { 'x-admin-key': t.creds.operators.admin_key },
  });
}

beforeAll(async () => {
  a = await makeApp({ seed: SEED });
  // Onboarding: JSON, raw image uploads, submit, suitability.
  const created = await rec(
    a.req('POST', '/v1/kyc/applications', { body: applicant({ full_name: 'Journal Person' }) }),
  );
  const appId = created.body.application_id;
  await rec(
    a.req('PUT', `/v1/kyc/applications/${appId}/documents/national_id_front`, {
      raw: SAMPLE_FRONT,
      contentType: 'image/png',
    }),
  );
  await rec(
    a.req('PUT', `/v1/kyc/applications/${appId}/documents/national_id_back`, {
      raw: SAMPLE_BACK,
      contentType: 'image/png',
    }),
  );
  await rec(a.req('POST', `/v1/kyc/applications/${appId}/submit`));
  investorId = (await a.req('GET', `/v1/kyc/applications/${appId}`)).body.investor_id;
  await rec(
    a.req('PUT', `/v1/investors/${investorId}/suitability`, {
      body: { questionnaire: BALANCED, risk_acknowledged: true },
    }),
  );
  // Deposit (signed), its rail steps by an advance, the open.
  await rec(
    a.req('POST', '/v1/transfers', {
      body: { investor_id: investorId, direction: 'deposit', amount_micros: 50_000_000_000 },
    }),
  );
  await rec(a.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 5 } }));
  await rec(a.req('POST', '/admin/sandbox/clock-advance', { body: { until: 'next_open' } }));
  await rec(a.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 2 } }));
  // Orders: a market buy, a resting limit, a business refusal, a cancel.
  await rec(
    a.req('POST', '/v1/orders', {
      body: { investor_id: investorId, symbol: 'COMI', side: 'buy', type: 'market', qty: 13, time_in_force: 'day' },
    }),
  );
  const quote = await a.req('GET', '/v1/instruments/TMGH/quote');
  const resting = await rec(
    a.req('POST', '/v1/orders', {
      body: {
        investor_id: investorId,
        symbol: 'TMGH',
        side: 'buy',
        type: 'limit',
        qty: 5,
        limit_price_micros: quote.body.band.lower_micros,
        time_in_force: 'gtc',
      },
    }),
  );
  orderId = resting.body.order_id;
  const refused = await rec(
    a.req('POST', '/v1/orders', {
      body: { investor_id: investorId, symbol: 'COMI', side: 'sell', type: 'market', qty: 1000, time_in_force: 'day' },
    }),
  );
  expect(refused.status).toBe(422);
  await rec(a.req('DELETE', `/v1/orders/${orderId}`));
  await rec(a.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 3 } }));
  // off the grid or band: a refusal
  await rec(a.req('POST', '/admin/sandbox/quote', { body: { symbol: 'COMI', price_micros: 1 } }));
  await rec(a.req('POST', '/admin/sandbox/clock-advance', { body: { days: 3 } }));
});
afterAll(() => a?.close());

describe('the journal records every committed state-changing request that reached its handler', () => {
  it('one entry per such request, in order, with the recorded status, principal and simulated time', async () => {
    const entries = await journalOf(a);
    expect(entries.map((e) => e.status)).toEqual(answers.map((r) => r.status));
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_e, i) => i + 1));
    const tenant = `tenant:${a.creds.tenant.tenant_id}`;
    expect(entries[0]).toMatchObject({
      method: 'POST',
      route: 'POST /v1/kyc/applications',
      path: '/v1/kyc/applications',
      query: '',
      principal: tenant,
      content_type: 'application/json',
      body_base64: null,
    });
    expect(entries[0].idempotency_key).toMatch(/^test-/);
    expect(entries.find((e) => e.route === 'POST /admin/sandbox/clock-advance')).toMatchObject({
      principal: 'operator:admin',
      idempotency_key: null,
    });
    // Simulated time never goes back, and matches the clock each ran at.
    for (let i = 1; i < entries.length; i++) expect(entries[i].sim_ms).toBeGreaterThanOrEqual(entries[i - 1].sim_ms);
    const advanceEntry = entries.find((e) => e.body === '{"until":"next_open"}')!;
    expect(advanceEntry.at).toBe('2026-11-22T09:05:00+02:00');
  });

  it('bodies are the exact bytes sent: JSON text, and raw uploads in base64', async () => {
    const entries = await journalOf(a);
    const front = entries.find((e) => e.path.endsWith('/national_id_front'))!;
    expect(front).toMatchObject({ method: 'PUT', content_type: 'image/png', body: null });
    expect(Buffer.from(front.body_base64!, 'base64').equals(SAMPLE_FRONT)).toBe(true);
    expect(JSON.parse(entries[0].body!).full_name).toBe('Journal Person');
    const del = entries.find((e) => e.method === 'DELETE')!;
    expect(del).toMatchObject({ path: `/v1/orders/${orderId}`, body: null, body_base64: null, status: 202 });
  });

  it('a business refusal is journaled with its status; validation and authentication refusals and idempotent replays are not', async () => {
    const before = (await journalOf(a)).length;
    const bad = await a.req('POST', '/v1/transfers', { body: { investor_id: investorId, direction: 'deposit' } });
    expect(bad.status).toBe(422);
    expect((await a.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 1 }, as: 'none' })).status).toBe(
      401,
    );
    expect((await a.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 1 }, as: 'security' })).status).toBe(
      403,
    );
    const unsigned = await a.req('POST', '/v1/transfers', {
      body: { investor_id: investorId, direction: 'deposit', amount_micros: 1_000_000 },
      sign: false,
    });
    expect(unsigned.status).toBe(401);
    const first = await a.req('POST', '/v1/transfers', {
      body: { investor_id: investorId, direction: 'withdrawal', amount_micros: 1_000_000_000_000 },
      idempotencyKey: 'jr-refusal',
    });
    expect(first.status).toBe(422);
    const again = await a.req('POST', '/v1/transfers', {
      body: { investor_id: investorId, direction: 'withdrawal', amount_micros: 1_000_000_000_000 },
      idempotencyKey: 'jr-refusal',
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
    const entries = await journalOf(a);
    expect(entries.length).toBe(before + 1);
    expect(entries[entries.length - 1]).toMatchObject({
      idempotency_key: 'jr-refusal',
      status: 422,
      request_id: first.body.request_id,
    });
    answers.push(first);
  });

  it('holds no credentials: no api key, signing secret, signature or operator key, in the answer or in the database', async () => {
    const text = (await ndjson(a)).body;
    const secrets = [a.creds.tenant.api_key, a.creds.tenant.signing_secret, ...Object.values(a.creds.operators)];
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).not.toMatch(/v1=[0-9a-f]{64}/);
    expect(text.toLowerCase()).not.toContain('x-svc-signature');
    // Bodies are sealed at rest: the national id is not in the journal table in clear.
    const nid = JSON.parse((await journalOf(a))[0].body!).national_id as string;
    const rows = a.deps.db.prepare('SELECT * FROM journal').all();
    expect(JSON.stringify(rows)).not.toContain(nid);
    expect(
      Buffer.concat(
        (rows as Array<{ body_sealed: Buffer | null }>).flatMap((r) => (r.body_sealed ? [r.body_sealed] : [])),
      ).includes(Buffer.from(nid)),
    ).toBe(false);
  });

  it('format=ndjson is a header line then one entry per line; json pages with after, limit and next_after', async () => {
    const res = await ndjson(a);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('application/x-ndjson');
    const lines = res.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      svc_journal: 1,
      svc_version: '0.1.0',
      origin: { seed: SEED, start: '2026-11-22T09:00:00+02:00', clock: 'frozen', speed: 1 },
      complete: true,
      entries: lines.length - 1,
    });
    expect(lines.slice(1)).toEqual(await journalOf(a));
    const page = await a.req('GET', '/admin/sandbox/journal?after=2&limit=3');
    expect(page.body.entries.map((e: JournalEntry) => e.seq)).toEqual([3, 4, 5]);
    expect(page.body.next_after).toBe(5);
    expect((await a.req('GET', '/admin/sandbox/journal?limit=0')).status).toBe(422);
    expect((await a.req('GET', '/admin/sandbox/journal', { as: 'dealer' })).status).toBe(401);
  });
});

describe('an entry with a body and an answer is sealed once (docs/snapshots.md, "How the journal is stored")', () => {
  type Stored = {
    seq: number;
    body_kind: string;
    body_sealed: Buffer | null;
    response_sealed: Buffer | null;
    answer_in_body: number;
  };
  const stored = (t: TestApp) =>
    t.deps.db
      .prepare('SELECT seq, body_kind, body_sealed, response_sealed, answer_in_body FROM journal ORDER BY seq')
      .all() as Stored[];

  it('a body and its answer share one sealed value; an entry without a body seals its answer alone; both read back exactly', async () => {
    const entries = await journalOf(a);
    const rows = new Map(stored(a).map((r) => [r.seq, r]));
    const order = entries.find((e) => e.route === 'POST /v1/orders')!;
    expect(rows.get(order.seq)).toMatchObject({ body_kind: 'text', answer_in_body: 1, response_sealed: null });
    const upload = entries.find((e) => e.path.endsWith('/national_id_front'))!;
    expect(rows.get(upload.seq)).toMatchObject({ body_kind: 'bytes', answer_in_body: 1, response_sealed: null });
    expect(Buffer.from(upload.body_base64!, 'base64').equals(SAMPLE_FRONT)).toBe(true);
    const del = entries.find((e) => e.method === 'DELETE')!;
    expect(rows.get(del.seq)).toMatchObject({ body_kind: 'none', body_sealed: null, answer_in_body: 0 });
    expect(rows.get(del.seq)!.response_sealed).not.toBeNull();
    // every recorded answer is the JSON text the client received, whichever way it was stored
    const recorded = entries.slice(0, answers.length).map((e) => (e.response == null ? null : JSON.parse(e.response)));
    expect(recorded).toEqual(answers.map((r) => r.body));
  });

  it('an entry sealed the earlier way (body and answer apart) still reads back, and a rotation re-seals both kinds', async () => {
    const t = await makeApp();
    try {
      expect((await t.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 1 } })).status).toBe(200);
      const principal = 'operator:admin';
      const body = '{"minutes":2}';
      const answer = '{"earlier":true}';
      t.deps.db
        .prepare(`INSERT INTO journal (request_id, sim_ms, method, route, path, query, principal, idempotency_key,
          content_type, body_kind, body_sealed, status, response_sealed, answer_in_body)
                  VALUES ('req_earlier', ?, 'POST', 'POST /admin/sandbox/clock-advance',
                    '/admin/sandbox/clock-advance', '', ?, NULL, 'application/json', 'text', ?, 200, ?, 0)`)
        .run(
          t.deps.clock.now(),
          principal,
          seal(t.deps.kek, Buffer.from(body), `journal:${principal}`),
          seal(t.deps.kek, Buffer.from(answer), `journal-response:${principal}`),
        );
      const check = async () => {
        const [one, two] = await journalOf(t);
        expect(one).toMatchObject({ body: '{"minutes":1}', status: 200 });
        expect(JSON.parse(one.response!)).toMatchObject({ mode: 'frozen' });
        expect(two).toMatchObject({ request_id: 'req_earlier', body, response: answer });
      };
      await check();
      const p = await t.req('POST', '/admin/actions', {
        as: 'security',
        body: { action: 'keys:rotate-kek', params: {}, reason: 'both kinds of journal entry' },
      });
      const done = await t.req('POST', `/admin/actions/${p.body.action_id}/approve`, { as: 'approver', body: {} });
      expect(done.status).toBe(200);
      // the rotation re-seals in slices after the approval (docs/backoffice.md "Key rotation")
      let rotation = done.body.result.rotation;
      while (rotation.state === 'running') {
        await new Promise((resolve) => setImmediate(resolve));
        const all = (await t.req('GET', '/admin/actions?state=approved')).body.actions as Array<{
          action_id: string;
          result: { rotation: typeof rotation };
        }>;
        rotation = all.find((x) => x.action_id === p.body.action_id)!.result.rotation;
      }
      expect(rotation.state).toBe('done');
      expect(rotation.resealed.journal_answers).toBeGreaterThanOrEqual(1);
      expect(openEverySealed(t.deps.db, t.deps.kek).failures).toEqual([]);
      await check();
    } finally {
      await t.close();
    }
  });

  it('the database refuses an entry that says its answer is in the body but keeps one apart', async () => {
    const r = stored(a).find((x) => x.answer_in_body === 1)!;
    expect(() =>
      a.deps.db
        .prepare(
          'INSERT INTO journal (request_id, sim_ms, method, route, path, query, principal, body_kind, ' +
            "body_sealed, status, response_sealed, answer_in_body) VALUES ('req_x', 0, 'POST', 'r', '/p', '', " +
            "'anonymous', 'text', ?, 200, ?, 1)",
        )
        .run(r.body_sealed, r.body_sealed),
    ).toThrow(/CHECK constraint failed/);
    expect(() =>
      a.deps.db
        .prepare(
          'INSERT INTO journal (request_id, sim_ms, method, route, path, query, principal, body_kind, ' +
            "body_sealed, status, response_sealed, answer_in_body) VALUES ('req_x', 0, 'POST', 'r', '/p', '', " +
            "'anonymous', 'none', NULL, 200, ?, 1)",
        )
        .run(r.body_sealed),
    ).toThrow(/CHECK constraint failed/);
  });
});

describe('the offline rebuild replays the same state into a fresh sandbox, with identical answers', () => {
  let b: TestApp;
  let entries: JournalEntry[];
  beforeAll(async () => {
    entries = await journalOf(a);
    b = await makeApp({ seed: SEED });
    const origin = (await a.req('GET', '/admin/sandbox/journal?limit=1')).body.header.origin;
    expect(openSession(b.deps, REPLAY_ACTOR, origin).ok).toBe(true);
  });
  afterAll(() => b?.close());

  it('every entry answers exactly what the original answered (status and body, request ids included)', async () => {
    for (const [i, e] of entries.entries()) {
      const res = await replayEntry(b.deps, injectOf(b), e, REPLAY_ACTOR);
      if (!res.ok) throw new Error(`entry ${e.seq}: ${res.code} ${res.message}`);
      expect(res.value.status, `entry ${e.seq} ${e.route}`).toBe(e.status);
      expect(res.value.body, `entry ${e.seq} ${e.route}: ${JSON.stringify(res.value.body)}`).toEqual(answers[i].body);
    }
  });

  it('the final state reads byte for byte the same; the journal and the audit chain are identical', async () => {
    for (const url of [
      `/v1/investors/${investorId}`,
      `/v1/investors/${investorId}/balances`,
      `/v1/investors/${investorId}/activities`,
      `/v1/orders?investor_id=${investorId}`,
      `/v1/orders/${orderId}`,
      `/v1/transfers`,
      '/v1/accounts',
      '/v1/clock',
    ]) {
      const ra = await a.req('GET', url);
      const rb = await b.req('GET', url);
      expect(ra.status, url).toBe(200);
      expect(rb.text, url).toBe(ra.text);
    }
    const sa = await a.req('GET', '/admin/sandbox/state');
    expect((await b.req('GET', '/admin/sandbox/state')).text).toBe(sa.text);
    expect(await journalOf(b)).toEqual(entries);
    // The audit chain is A's, except that B's names the replay as the actor of every replayed entry,
    // on the recorded actor's behalf, and records the session's opening.
    expect(b.deps.audit.verify().ok).toBe(true);
    const auditA = a.deps.audit.list({ limit: 10_000 }).reverse();
    const auditB = b.deps.audit.list({ limit: 10_000 }).reverse();
    const boot = auditA.findIndex((r) => r.actor !== 'system');
    expect(auditB[boot]).toMatchObject({
      actor: REPLAY_ACTOR,
      action: 'sandbox.replay_session_opened',
      on_behalf_of: null,
    });
    const replayed = [...auditB.slice(0, boot), ...auditB.slice(boot + 1)];
    expect(
      replayed.map((r) => ({ action: r.action, subject: r.subject, detail: r.detail, by: r.on_behalf_of ?? r.actor })),
    ).toEqual(auditA.map((r) => ({ action: r.action, subject: r.subject, detail: r.detail, by: r.actor })));
    expect(replayed.filter((r) => r.actor !== 'system').every((r) => r.actor === REPLAY_ACTOR)).toBe(true);
    // Ids of what is created next agree too.
    const next = applicant();
    const na = await a.req('POST', '/v1/kyc/applications', { body: next, idempotencyKey: 'next-one' });
    const nb = await b.req('POST', '/v1/kyc/applications', { body: next, idempotencyKey: 'next-one' });
    expect(na.status).toBe(201);
    expect(nb.body).toEqual(na.body);
  });

  it('refuses an entry whose principal does not exist and an entry earlier than the clock; B, having run a request of its own, takes no more', async () => {
    const e = entries[0];
    // B ran a request of its own after the replay (the next ids, above): its session is closed.
    expect(await replayEntry(b.deps, injectOf(b), { ...e, seq: entries.length + 1 }, REPLAY_ACTOR)).toMatchObject({
      ok: false,
      code: 'REPLAY_SESSION_REQUIRED',
    });
    const c = await makeApp({ seed: SEED });
    try {
      const origin = (await a.req('GET', '/admin/sandbox/journal?limit=1')).body.header.origin;
      expect(openSession(c.deps, REPLAY_ACTOR, origin).ok).toBe(true);
      const ghost = await replayEntry(c.deps, injectOf(c), { ...e, principal: 'tenant:tnt_0000000000' }, REPLAY_ACTOR);
      expect(ghost).toMatchObject({ ok: false, code: 'NOT_FOUND', message: expect.stringContaining('tnt_0000000000') });
      const late = await replayEntry(c.deps, injectOf(c), { ...e, sim_ms: 0 }, REPLAY_ACTOR);
      expect(late).toMatchObject({ ok: false, code: 'CLOCK_NOT_ADVANCEABLE' });
    } finally {
      await c.close();
    }
  });

  it('a made-up replay ticket on an ordinary request is refused (401), whatever else it carries', async () => {
    const res = await b.req('POST', '/v1/kyc/applications', {
      body: applicant(),
      headers: { 'x-svc-replay-ticket': 'guess' },
      as: 'none',
    });
    expect(res.status).toBe(401);
  });
});

describe('the journal survives the sandbox reset, which is an entry itself', () => {
  it('reset keeps earlier entries and the origin; the replay of a reset resets the replay sandbox', async () => {
    const t = await makeApp({ seed: 5 });
    try {
      await advance(t, { hours: 1 });
      expect((await t.req('POST', '/admin/sandbox/reset', { body: { seed: 6 } })).status).toBe(200);
      await advance(t, { minutes: 10 });
      const page = await t.req('GET', '/admin/sandbox/journal');
      expect(page.body.entries.map((e: JournalEntry) => e.route)).toEqual([
        'POST /admin/sandbox/clock-advance',
        'POST /admin/sandbox/reset',
        'POST /admin/sandbox/clock-advance',
      ]);
      expect(page.body.header.origin.seed).toBe(5);
      expect(() => t.deps.db.prepare('DELETE FROM journal').run()).toThrow(/append-only/);
    } finally {
      await t.close();
    }
  });
});

describe('GET /admin/sandbox/export', () => {
  it('packs a consistent snapshot: the committed database (an in-flight batch settles first), the KEK and a manifest', async () => {
    const t = await makeApp({ seed: 77 });
    const dir = mkdtempSync(join(tmpdir(), 'svc-export-'));
    try {
      // The advance opens a batch; the export, sent in the same turn, waits for it to commit.
      const [adv, exp] = await Promise.all([
        t.req('POST', '/admin/sandbox/clock-advance', { body: { hours: 2 } }),
        t.req('GET', '/admin/sandbox/export'),
      ]);
      expect(adv.status).toBe(200);
      expect(exp.status).toBe(200);
      expect(exp.headers['content-type']).toBe('application/vnd.svc.snapshot');
      const res = await t.app.inject({
        method: 'GET',
        url: '/admin/sandbox/export',
        headers: { 'x-admin-key': t.creds.operators.admin_key },
      });
      const { manifest, files } = unpackSnapshot(res.rawPayload);
      expect(manifest).toMatchObject({
        format: 'svc-snapshot',
        format_version: 1,
        seed: 77,
        journal_entries: 1,
        clock: { timestamp: '2026-11-22T11:00:00+02:00', mode: 'frozen', speed: 1 },
      });
      expect([...files.keys()]).toEqual(['svc.db', 'kek.key']);
      expect(files.get('kek.key')!.equals(t.kek)).toBe(true);
      writeFileSync(join(dir, 'svc.db'), files.get('svc.db')!);
      const copy = new Database(join(dir, 'svc.db'), { readonly: true });
      expect(copy.prepare('SELECT COUNT(*) AS n FROM journal').get()).toEqual({ n: 1 });
      expect(copy.prepare('SELECT sim_ms FROM sandbox_state').get()).toEqual({
        sim_ms: Date.parse('2026-11-22T11:00:00+02:00'),
      });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      copy.close();
      expect((await t.req('GET', '/admin/sandbox/export', { as: 'security' })).status).toBe(403);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await t.close();
    }
  });
});
