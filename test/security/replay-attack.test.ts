// Replay cannot be used to act as someone else (docs/reliability.md, "Replay is offline"). The attack
// of issue 26, item 4: on a fresh sandbox, the admin key alone opens a replay session and replays a
// proposal as `security` and its approval as `approver` (no step-up code), receives the one-time
// enrolment code of a new approver identity `mallory` from the replayed answer, and has a replayed
// break-glass make `admin` superuser. Replay now rebuilds a sandbox offline, in a process of its own
// (`node dist/daemon/main.js --replay`), so no route of a running daemon takes a journal entry: every
// step is 404 ROUTE_NOT_FOUND and nothing changes, whoever sends it. The secret a replayed answer
// showed once never leaves the rebuild either (replay-realms.test.ts, test/cli/replay.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import type { JournalEntry } from '../../daemon/contract/journal.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp({ seed: 77 });
});
afterEach(async () => t.close());

/** What the attack must not change: identities, grants, actions, the journal, the audit chain. */
function fingerprint() {
  const all = (sql: string) => t.deps.db.prepare(sql).all();
  return {
    operators: all('SELECT id, name, role, grants FROM operators ORDER BY id'),
    grants: all('SELECT * FROM operator_grants ORDER BY 1, 2, 3'),
    actions: all('SELECT id, action, state FROM admin_actions ORDER BY id'),
    journal: t.deps.journal.lastSeq(),
    audit: t.deps.audit.verify(),
    clock: t.deps.clock.now(),
  };
}

let n = 0;
function entry(principal: string, method: string, path: string, body: unknown): JournalEntry {
  n++;
  return {
    seq: n,
    request_id: `req_zzzz00000${n}`,
    at: t.deps.nowIso(),
    sim_ms: t.deps.clock.now(),
    method: method as 'POST',
    route: `${method} ${path}`,
    path,
    query: '',
    principal,
    idempotency_key: null,
    content_type: 'application/json',
    body: JSON.stringify(body),
    body_base64: null,
    status: 200,
  };
}

describe("the issue's attack: the admin key alone, on a fresh sandbox", () => {
  it('cannot open a replay session, replay a proposal as security and its approval as approver, obtain an enrolment code, or break glass: every step is 404 ROUTE_NOT_FOUND and nothing changes', async () => {
    n = 0;
    const before = fingerprint();
    const origin = (await t.req('GET', '/admin/sandbox/journal?limit=1')).body.header.origin;
    const seen: Array<[string, number, string]> = [];
    const send = async (label: string, method: string, url: string, body?: unknown) => {
      const res = await t.req(method, url, { body, as: 'admin', stepUp: false });
      seen.push([label, res.status, res.status === 404 ? res.body.error.code : res.text]);
      return res;
    };
    await send('open a session', 'POST', '/admin/sandbox/replay-session', { origin });
    const proposal = await send(
      'propose mallory as security',
      'POST',
      '/admin/sandbox/replay-entry',
      entry('operator:security', 'POST', '/admin/actions', {
        action: 'console-users:manage',
        params: { name: 'mallory', role: 'approver' },
        reason: 'replayed',
      }),
    );
    const actionId = proposal.body?.body?.action_id ?? 'act_0000000000';
    const approval = await send(
      'approve as approver, no step-up',
      'POST',
      '/admin/sandbox/replay-entry',
      entry('operator:approver', 'POST', `/admin/actions/${actionId}/approve`, {}),
    );
    const adminId = (t.deps.db.prepare("SELECT id FROM operators WHERE name = 'admin'").get() as { id: string }).id;
    const glass = await send(
      'propose break-glass as security',
      'POST',
      '/admin/sandbox/replay-entry',
      entry('operator:security', 'POST', '/admin/actions', {
        action: 'break-glass',
        params: { identity_id: adminId, minutes: 240 },
        reason: 'replayed',
      }),
    );
    await send(
      'approve break-glass as approver',
      'POST',
      '/admin/sandbox/replay-entry',
      entry(
        'operator:approver',
        'POST',
        `/admin/actions/${glass.body?.body?.action_id ?? 'act_0000000001'}/approve`,
        {},
      ),
    );
    await send('close the session', 'DELETE', '/admin/sandbox/replay-session');

    expect(seen.map(([label, status, code]) => [label, status, code])).toEqual(
      seen.map(([label]) => [label, 404, 'ROUTE_NOT_FOUND']),
    );
    // No enrolment code reached the caller, no identity was made, the admin is no superuser.
    expect(JSON.stringify(approval.body)).not.toMatch(/enrolment_code/);
    expect(fingerprint()).toEqual(before);
    expect(
      (
        await t.req('POST', '/admin/actions', {
          as: 'admin',
          body: { action: 'broker:create', params: {}, reason: 'x' },
        })
      ).status,
    ).toBe(403);
  });

  it('no route of the running daemon takes a journal entry or a replay session (the API lists none)', async () => {
    const doc = (await t.req('GET', '/openapi.json', { as: 'none' })).body;
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/admin/sandbox/replay'))).toEqual([]);
  });

  it('a replay ticket header on an ordinary request is refused (401) and changes nothing, whoever sends it', async () => {
    const before = fingerprint();
    for (const as of ['admin', 'none'] as const) {
      const res = await t.req('POST', '/admin/actions', {
        as,
        headers: { 'x-svc-replay-ticket': 'rt_guess' },
        body: { action: 'break-glass', params: { identity_id: 'opr_x00', minutes: 5 }, reason: 'x' },
      });
      expect(res.status, res.text).toBe(401);
    }
    expect(fingerprint()).toEqual(before);
  });
});
