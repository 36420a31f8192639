// A machine key's step-up window (docs/backoffice.md, "Step-up"): one code makes that key step-up-fresh
// for 5 minutes of the wall clock, in which its money and approval actions need no new code; another
// key gains nothing; rotating or revoking the key, or revoking the identity's sessions, ends it; a row
// written into the database without the key-encryption key is no window; every step-up and every
// action that uses one is audited.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOperator, advance, makeApp, type TestApp } from '../helpers/app.js';
import { order, trader } from '../helpers/trading.js';

const MIN = 60_000;
let t: TestApp;
let wall: number;

beforeEach(async () => {
  wall = Date.parse('2026-11-28T00:00:00Z');
  t = await makeApp({ wallNow: () => wall });
});
afterEach(async () => t.close());

const idOf = (name: string) =>
  t.deps.db.prepare<[string], string>('SELECT id FROM operators WHERE name = ?').pluck().get(name)!;

/** A proposal by security, open for a decision. */
async function proposal(): Promise<string> {
  const p = await t.req('POST', '/admin/actions', {
    as: 'security',
    body: { action: 'passkey:unlock', params: { identity_id: idOf('dealer') }, reason: 'lost device' },
  });
  expect(p.status).toBe(201);
  return p.body.action_id;
}

/** The approver rejects a proposal: with its next code (stepUp true) or with no code at all. */
const reject = async (
  actionId: string,
  stepUp: boolean,
  as: 'approver' | 'none' = 'approver',
  headers: Record<string, string> = {},
) => t.req('POST', `/admin/actions/${actionId}/reject`, { as, stepUp, headers, body: { reason: 'not now' } });

/** The audit entries of one action, newest first, each detail parsed (the API answers it as JSON text). */
const audit = async (action: string): Promise<Array<{ actor: string; subject: string; detail: Record<string, any> }>> =>
  (await t.req('GET', `/admin/audit?action=${encodeURIComponent(action)}&limit=200`)).body.entries.map(
    (e: { detail: string }) => ({ ...e, detail: JSON.parse(e.detail) }),
  );

describe("a step-up code opens the key's step-up window", () => {
  it('after one code, the same key decides three more proposals with no code, and each decision is audited as using the window', async () => {
    const ids = [await proposal(), await proposal(), await proposal(), await proposal()];
    const first = await reject(ids[0], true);
    expect(first.status).toBe(200);
    for (const id of ids.slice(1)) expect((await reject(id, false)).status).toBe(200);
    const steps = await audit('step_up');
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ actor: 'operator:approver', subject: idOf('approver') });
    expect(steps[0].detail).toMatchObject({
      route: 'POST /admin/actions/:id/reject',
      fresh_until: new Date(wall + 5 * MIN).toISOString(),
    });
    const decisions = (await audit('POST /admin/actions/:id/reject')).reverse();
    expect(decisions.map((e) => e.detail.step_up.via)).toEqual(['code', 'window', 'window', 'window']);
  });

  it('with no window open, a decision without a code is 401 STEP_UP_REQUIRED and the message says a code opens one', async () => {
    const r = await reject(await proposal(), false);
    expect([r.status, r.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
    expect(r.body.error.message).toContain('5-minute step-up window');
  });

  it("another key gains nothing from the approver's window", async () => {
    const other = addOperator(t, 'approver2', {
      realm: 'admin',
      grants: ['passkey:unlock:approve', 'actions:read'],
      scope: 'global',
    });
    expect((await reject(await proposal(), true)).status).toBe(200);
    const r = await reject(await proposal(), false, 'none', { 'x-admin-key': other });
    expect([r.status, r.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
    const d = await t.req('POST', `/broker/v1/funding/trf_nothing/approve`, { as: 'dealer', stepUp: false, body: {} });
    expect([d.status, d.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
  });

  it('the window ends 5 minutes of the wall clock after the step-up, whatever the sandbox clock does', async () => {
    expect((await reject(await proposal(), true)).status).toBe(200);
    await t.req('POST', '/admin/sandbox/clock-advance', { body: { minutes: 600 } });
    wall += 5 * MIN - 1;
    expect((await reject(await proposal(), false)).status).toBe(200);
    wall += 1;
    const r = await reject(await proposal(), false);
    expect([r.status, r.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
  });

  it('a code on an action refused on its merits still opens the window; one refused as unauthorised opens none', async () => {
    const decided = await proposal();
    expect((await reject(decided, true)).status).toBe(200);
    wall += 6 * MIN; // the first window is over
    const again = await reject(decided, true);
    expect([again.status, again.body.error.code]).toEqual([409, 'ACTION_ALREADY_DECIDED']);
    expect((await reject(await proposal(), false)).status).toBe(200);
    const auditor = await t.req('POST', `/admin/actions/${await proposal()}/reject`, {
      as: 'auditor',
      body: { reason: 'x' },
    });
    expect([auditor.status, auditor.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await audit('step_up')).map((e) => e.actor)).toEqual(['operator:approver', 'operator:approver']);
  });

  it('a code sent inside the window is still checked: a wrong one is refused', async () => {
    expect((await reject(await proposal(), true)).status).toBe(200);
    const r = await reject(await proposal(), false, 'approver', { 'x-step-up-code': '000000' });
    expect([r.status, r.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
  });
});

describe('the dealer desk (scenario 12)', () => {
  it('the dealer executes an order in three parts and refuses one bad price with one code: one step_up, then the window', async () => {
    const inv = await trader(t, 50_000);
    await t.req('POST', '/admin/sandbox/auto-fill', { body: { enabled: false } });
    await advance(t, { until: '2026-11-22T10:05:00+02:00' });
    const o = (await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 })).body
      .order_id;
    const exec = (body: Record<string, unknown>, stepUp: boolean) =>
      t.req('POST', `/broker/v1/queue/${o}/execute`, { stepUp, body });
    // refused on its merits: the code still opens the window
    const bad = await exec({ price_micros: 1_000_000_000 }, true);
    expect([bad.status, bad.body.error.code]).toEqual([422, 'PRICE_BAND_EXCEEDED']);
    expect((await exec({ qty: 3 }, false)).body).toMatchObject({ filled_qty: 3 });
    expect((await exec({ qty: 3 }, false)).body).toMatchObject({ filled_qty: 6 });
    expect((await exec({}, false)).body).toMatchObject({ status: 'filled', filled_qty: 10 });
    expect((await audit('step_up')).map((e) => [e.actor, e.detail.route])).toEqual([
      ['operator:dealer', 'POST /broker/v1/queue/:id/execute'],
    ]);
    expect((await audit('POST /broker/v1/queue/:id/execute')).map((e) => e.detail.step_up.via)).toEqual([
      'window',
      'window',
      'window',
    ]);
  });
});

describe('what ends a window', () => {
  it('rotating the key ends it: the new key steps up again', async () => {
    expect((await reject(await proposal(), true)).status).toBe(200);
    const rot = await t.req('POST', '/admin/keys/rotate', { as: 'security', body: { identity_id: idOf('approver') } });
    expect(rot.status).toBe(200);
    const r = await reject(await proposal(), false, 'none', { 'x-admin-key': rot.body.operator_key });
    expect([r.status, r.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
  });

  it("revoking the identity's sessions ends it, and the revocation is audited with the window", async () => {
    expect((await reject(await proposal(), true)).status).toBe(200);
    expect(
      (await t.req('POST', '/admin/sessions/revoke', { as: 'security', body: { identity_id: idOf('approver') } }))
        .status,
    ).toBe(200);
    const r = await reject(await proposal(), false);
    expect([r.status, r.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
    expect((await audit('console_session.revoked'))[0].detail).toMatchObject({ step_up_window_ended: true });
  });

  it('revoking the key ends it: no window row is left', async () => {
    expect((await reject(await proposal(), true)).status).toBe(200);
    expect(
      (await t.req('POST', '/admin/keys/revoke', { as: 'security', body: { identity_id: idOf('approver') } })).status,
    ).toBe(200);
    expect(
      t.deps.db
        .prepare('SELECT count(*) FROM operator_step_up_windows WHERE operator_id = ?')
        .pluck()
        .get(idOf('approver')),
    ).toBe(0);
  });
});

describe('the window row needs the key-encryption key', () => {
  it('a window row inserted into the database by hand is no window', async () => {
    const id = idOf('approver');
    const keyHash = t.deps.db.prepare<[string], string>('SELECT key_hash FROM operators WHERE id = ?').pluck().get(id)!;
    t.deps.db
      .prepare(
        'INSERT INTO operator_step_up_windows (operator_id, key_hash, stepped_up_at, fresh_until, mac) VALUES ' +
          '(?, ?, ?, ?, ?)',
      )
      .run(id, keyHash, new Date(wall - MIN).toISOString(), new Date(wall + 4 * MIN).toISOString(), 'f'.repeat(64));
    const r = await reject(await proposal(), false);
    expect([r.status, r.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
  });

  it('a window pushed later by hand is no window', async () => {
    expect((await reject(await proposal(), true)).status).toBe(200);
    t.deps.db
      .prepare('UPDATE operator_step_up_windows SET fresh_until = ?')
      .run(new Date(wall + 60 * MIN).toISOString());
    wall += 6 * MIN;
    const r = await reject(await proposal(), false);
    expect([r.status, r.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
  });
});
