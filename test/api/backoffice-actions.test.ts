// Maker-checker through the API: security proposes, a different identity holding <base>:approve
// approves with a step-up code, and the action happens in the transaction that records the decision;
// the database itself refuses maker = checker, a second decision and edits of the stored payload.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addOperator, advance, makeApp, type TestApp } from '../helpers/app.js';
import { EGP, trader } from '../helpers/trading.js';
import { STRICT_BASES } from '../../daemon/contract/grants.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const propose = (action: string, params: Record<string, unknown>, reason = 'correcting a booking error') =>
  t.req('POST', '/admin/actions', { as: 'security', body: { action, params, reason } });
const approve = (id: string, as: 'approver' | 'security' | 'admin' = 'approver') =>
  t.req('POST', `/admin/actions/${id}/approve`, { as, body: {} });

describe('ledger:adjust', () => {
  it("proposed by security, approved by approver: a balanced adjustment with its reason shows in the investor's activities", async () => {
    const inv = await trader(t, 1000);
    const before = (await t.req('GET', `/v1/investors/${inv}/balances`)).body;
    const p = await propose('ledger:adjust', {
      tenant_id: t.creds.tenant.tenant_id,
      investor_id: inv,
      amount_micros: 250 * EGP,
    });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ action: 'ledger:adjust', state: 'proposed', maker: 'security', checker: null });
    expect(p.body.payload_sha256).toMatch(/^[0-9a-f]{64}$/);
    const a = await approve(p.body.action_id);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ state: 'approved', checker: 'approver' });
    const acts = (await t.req('GET', `/v1/investors/${inv}/activities`)).body.activities;
    expect(acts[0]).toMatchObject({
      activity_type: 'JNLC',
      net_amount_micros: 250 * EGP,
      description: 'Adjustment: correcting a booking error',
      ref_id: p.body.action_id,
    });
    const after = (await t.req('GET', `/v1/investors/${inv}/balances`)).body;
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(before));
    const ledger = t.deps.ledger.checkInvariants(t.creds.tenant.tenant_id);
    expect(ledger.violations ?? []).toEqual([]);
  });

  it('an adjustment the ledger refuses (taking more than the investor holds) changes nothing and leaves the proposal open', async () => {
    const inv = await trader(t, 10);
    const p = await propose('ledger:adjust', {
      tenant_id: t.creds.tenant.tenant_id,
      investor_id: inv,
      amount_micros: -1000 * EGP,
    });
    const a = await approve(p.body.action_id);
    expect(a.status).toBe(422);
    expect(a.body.error.code).toBe('ACTION_NOT_EXECUTABLE');
    expect(
      (await t.req('GET', '/admin/actions?state=proposed')).body.actions.map((x: { action_id: string }) => x.action_id),
    ).toContain(p.body.action_id);
  });
});

describe('refusals', () => {
  it('an unknown base is 422 UNKNOWN_ACTION; params wrong for the base are 422 INVALID_ACTION_PARAMS naming the field', async () => {
    const u = await propose('ledger:delete', {});
    expect([u.status, u.body.error.code]).toEqual([422, 'UNKNOWN_ACTION']);
    const bad = await propose('ledger:adjust', {
      tenant_id: t.creds.tenant.tenant_id,
      investor_id: 'inv_x00',
      amount_micros: 1.5,
    });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
    expect(bad.body.error.message).toContain('amount_micros');
    const extra = await propose('break-glass', { identity_id: 'opr_x00', minutes: 10, also: true });
    expect([extra.status, extra.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
  });

  it('the approver cannot propose and security cannot approve: 403 FORBIDDEN naming the grant', async () => {
    const p = await t.req('POST', '/admin/actions', {
      as: 'approver',
      body: { action: 'broker:create', params: {}, reason: 'x' },
    });
    expect([p.status, p.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(p.body.error.message).toContain('broker:create:propose');
    const ok = await propose('break-glass', { identity_id: 'opr_x00', minutes: 10 });
    const a = await approve(ok.body.action_id, 'security');
    expect([a.status, a.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('an identity holding both sides cannot approve its own proposal: 403 MAKER_CANNOT_APPROVE', async () => {
    const key = addOperator(t, 'both', {
      realm: 'admin',
      grants: ['actions:read', 'break-glass:propose', 'break-glass:approve'],
      scope: 'global',
    });
    const p = await t.req('POST', '/admin/actions', {
      as: 'none',
      headers: { 'x-admin-key': key },
      body: { action: 'break-glass', params: { identity_id: 'opr_x00', minutes: 5 }, reason: 'r' },
    });
    expect(p.status).toBe(201);
    const a = await t.req('POST', `/admin/actions/${p.body.action_id}/approve`, {
      as: 'none',
      headers: { 'x-admin-key': key },
      body: {},
    });
    expect([a.status, a.body.error.code]).toEqual([403, 'MAKER_CANNOT_APPROVE']);
  });

  it('a decision needs a step-up code: missing, wrong or reused is 401 STEP_UP_REQUIRED', async () => {
    const p = await propose('break-glass', { identity_id: 'opr_x00', minutes: 5 });
    const url = `/admin/actions/${p.body.action_id}/reject`;
    const missing = await t.req('POST', url, { as: 'approver', stepUp: false, body: { reason: 'no' } });
    expect([missing.status, missing.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
    const wrong = await t.req('POST', url, {
      as: 'approver',
      headers: { 'x-step-up-code': '000000' },
      body: { reason: 'no' },
    });
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
    const code = t.stepUpCodeFor(t.creds.operators.approver_key);
    const q = await propose('break-glass', { identity_id: 'opr_x00', minutes: 6 });
    expect(
      (
        await t.req('POST', `/admin/actions/${q.body.action_id}/reject`, {
          as: 'approver',
          headers: { 'x-step-up-code': code },
          body: { reason: 'no' },
        })
      ).status,
    ).toBe(200);
    const reused = await t.req('POST', url, {
      as: 'approver',
      headers: { 'x-step-up-code': code },
      body: { reason: 'no' },
    });
    expect([reused.status, reused.body.error.code]).toEqual([401, 'STEP_UP_REQUIRED']);
  });

  it('a rejected proposal cannot be approved (409 ACTION_ALREADY_DECIDED); a proposal 24 h old has expired (409 ACTION_EXPIRED)', async () => {
    const p = await propose('break-glass', { identity_id: 'opr_x00', minutes: 5 });
    expect(
      (
        await t.req('POST', `/admin/actions/${p.body.action_id}/reject`, {
          as: 'approver',
          body: { reason: 'not needed' },
        })
      ).body.state,
    ).toBe('rejected');
    const again = await approve(p.body.action_id);
    expect([again.status, again.body.error.code]).toEqual([409, 'ACTION_ALREADY_DECIDED']);
    const q = await propose('break-glass', { identity_id: 'opr_x00', minutes: 5 });
    await advance(t, { hours: 24 });
    const late = await approve(q.body.action_id);
    expect([late.status, late.body.error.code]).toEqual([409, 'ACTION_EXPIRED']);
    const expired = (await t.req('GET', '/admin/actions?state=expired')).body.actions;
    expect(expired.map((x: { action_id: string }) => x.action_id)).toEqual([q.body.action_id]);
  });

  it('approving twice in parallel over HTTP: exactly one wins', async () => {
    const inv = await trader(t, 0);
    const p = await propose('ledger:adjust', {
      tenant_id: t.creds.tenant.tenant_id,
      investor_id: inv,
      amount_micros: 5 * EGP,
    });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const key = t.creds.operators.approver_key;
    const send = (code: string) =>
      fetch(`${address}/admin/actions/${p.body.action_id}/approve`, {
        method: 'POST',
        headers: { 'x-admin-key': key, 'x-step-up-code': code, 'content-type': 'application/json' },
        body: '{}',
      });
    const codes = [t.stepUpCodeFor(key), t.stepUpCodeFor(key)];
    const res = await Promise.all(codes.map(send));
    expect(res.map((r) => r.status).sort()).toEqual([200, 409]);
    const acts = (await t.req('GET', `/v1/investors/${inv}/activities`)).body.activities;
    expect(acts.filter((a: { activity_type: string }) => a.activity_type === 'JNLC')).toHaveLength(1);
  });
});

describe('the database holds the rule', () => {
  it('raw SQL cannot set checker = maker, decide twice, edit the stored payload or delete a proposal', async () => {
    // The maker holds both sides, so only the maker = checker rule stands in the way.
    const key = addOperator(t, 'both', {
      realm: 'admin',
      grants: ['actions:read', 'break-glass:propose', 'break-glass:approve'],
      scope: 'global',
    });
    const p = await t.req('POST', '/admin/actions', {
      as: 'none',
      headers: { 'x-admin-key': key },
      body: { action: 'break-glass', params: { identity_id: 'opr_x00', minutes: 5 }, reason: 'r' },
    });
    const id = p.body.action_id;
    const db = t.deps.db;
    expect(() =>
      db
        .prepare(
          "UPDATE admin_actions SET state = 'rejected', checker = maker, decided_at = 'x', decision_reason = " +
            "'r' WHERE id = ?",
        )
        .run(id),
    ).toThrow(/maker cannot decide|CHECK constraint/);
    expect(() =>
      db.prepare('UPDATE admin_actions SET params = \'{"identity_id":"opr_x00","minutes":240}\' WHERE id = ?').run(id),
    ).toThrow(/payload/);
    expect(() => db.prepare('DELETE FROM admin_actions WHERE id = ?').run(id)).toThrow(/never deleted/);
    expect(
      (await t.req('POST', `/admin/actions/${id}/reject`, { as: 'approver', body: { reason: 'no' } })).status,
    ).toBe(200);
    const approverId = (db.prepare("SELECT id FROM operators WHERE name = 'approver'").get() as { id: string }).id;
    expect(() =>
      db.prepare("UPDATE admin_actions SET state = 'approved', decision_reason = NULL WHERE id = ?").run(id),
    ).toThrow(/already decided/);
    expect(() => db.prepare('UPDATE admin_actions SET checker = ? WHERE id = ?').run(approverId, id)).toThrow(
      /already decided/,
    );
  });

  it('raw SQL cannot record an approval by an identity without the approve grant, nor a proposal by one without the propose grant', async () => {
    const db = t.deps.db;
    const adminId = (db.prepare("SELECT id FROM operators WHERE name = 'admin'").get() as { id: string }).id;
    expect(() =>
      db
        .prepare(
          'INSERT INTO admin_actions (id, action, params, reason, payload_sha256, maker, created_at, ' +
            "expires_ms, state) VALUES ('act_raw1', 'break-glass', '{}', 'r', ?, ?, 'x', 0, 'proposed')",
        )
        .run('0'.repeat(64), adminId),
    ).toThrow(/propose grant/);
    const p = await propose('break-glass', { identity_id: 'opr_x00', minutes: 5 });
    expect(() =>
      db
        .prepare(
          "UPDATE admin_actions SET state = 'rejected', checker = ?, decided_at = 'z', decision_reason = 'r' " +
            'WHERE id = ?',
        )
        .run(adminId, p.body.action_id),
    ).toThrow(/approve grant/);
  });
});

describe('other bases', () => {
  it('broker:create adds a broker; binding:update moves an investor to it', async () => {
    const b = await propose('broker:create', {
      name: 'Delta',
      name_ar: 'دلتا',
      fra_license_no: '777/2026',
      contact_email: 'ops@delta.example',
      contact_phone: '+20221234567',
    });
    const made = await approve(b.body.action_id);
    expect(made.status).toBe(200);
    const brokerId = made.body.result.broker_id as string;
    expect(t.deps.db.prepare('SELECT name FROM brokers WHERE id = ?').get(brokerId)).toEqual({ name: 'Delta' });
    const inv = await trader(t, 0);
    const m = await propose('binding:update', {
      tenant_id: t.creds.tenant.tenant_id,
      investor_id: inv,
      broker_id: brokerId,
    });
    expect((await approve(m.body.action_id)).body.result).toMatchObject({
      previous_broker_id: t.creds.broker_id,
      broker_id: brokerId,
    });
    // The investor's orders now reach the other broker's desk, not this one's.
    expect(t.deps.db.prepare('SELECT broker_id FROM investors WHERE id = ?').get(inv)).toEqual({ broker_id: brokerId });
  });

  it('break-glass gives an identity the superuser role for its minutes, flagged for review, then it lapses', async () => {
    const adminId = (t.deps.db.prepare("SELECT id FROM operators WHERE name = 'admin'").get() as { id: string }).id;
    expect(
      (
        await t.req('POST', '/admin/actions', {
          as: 'admin',
          body: { action: 'broker:create', params: {}, reason: 'x' },
        })
      ).status,
    ).toBe(403);
    const p = await propose('break-glass', { identity_id: adminId, minutes: 30 });
    const a = await approve(p.body.action_id);
    expect(a.body.result).toMatchObject({ role: 'superuser', review_required: true });
    const held = await t.req('POST', '/admin/actions', {
      as: 'admin',
      body: { action: 'break-glass', params: { identity_id: adminId, minutes: 1 }, reason: 'x' },
    });
    expect(held.status).toBe(201);
    await advance(t, { minutes: 31 });
    expect(
      (
        await t.req('POST', '/admin/actions', {
          as: 'admin',
          body: { action: 'break-glass', params: { identity_id: adminId, minutes: 1 }, reason: 'x' },
        })
      ).status,
    ).toBe(403);
  });

  it("break-glass leaves the identity's own grants as they were: when it lapses, the approver still approves", async () => {
    const approverId = (t.deps.db.prepare("SELECT id FROM operators WHERE name = 'approver'").get() as { id: string })
      .id;
    const own = t.deps.keys.identities
      .grantRows(approverId)
      .map((g) => `${g.grant_name}@${g.scope}:${g.role}`)
      .sort();
    const checker = addOperator(t, 'glass.checker', {
      realm: 'admin',
      grants: ['actions:read', 'break-glass:approve'],
      scope: 'global',
    });
    const p = await propose('break-glass', { identity_id: approverId, minutes: 30 });
    const a = await t.req('POST', `/admin/actions/${p.body.action_id}/approve`, {
      as: 'none',
      headers: { 'x-admin-key': checker, 'x-step-up-code': t.stepUpCodeFor(checker) },
      body: {},
    });
    expect(a.status).toBe(200);
    await advance(t, { minutes: 31 });
    const after = t.deps.keys.identities
      .grantRows(approverId)
      .map((g) => `${g.grant_name}@${g.scope}:${g.role}`)
      .sort();
    expect(after).toEqual(own);
    const inv = await trader(t, 10);
    const adj = await propose('ledger:adjust', {
      tenant_id: t.creds.tenant.tenant_id,
      investor_id: inv,
      amount_micros: 5 * EGP,
    });
    expect((await approve(adj.body.action_id)).status).toBe(200);
    expect((await t.req('GET', '/admin/actions?limit=1', { as: 'approver' })).status).toBe(200);
  });

  it.each(STRICT_BASES.map((b) => [b]))('%s can be proposed with valid params and is listed', async (base) => {
    const valid: Record<string, Record<string, unknown>> = {
      'ledger:adjust': { tenant_id: 'tnt_x00', investor_id: 'inv_x00', amount_micros: 1 },
      'broker:create': {
        name: 'n',
        name_ar: 'ن',
        fra_license_no: '1/1',
        contact_email: 'a@b.example',
        contact_phone: '+2021234567',
      },
      'fee-schedule:update': { commission_rate_bps_x10: 100 },
      'binding:update': { tenant_id: 'tnt_x00', investor_id: 'inv_x00', broker_id: 'brk_x00' },
      'keys:rotate-kek': {},
      'keys:rotate-dek': { tenant_id: 'tnt_x00' },
      'console-users:manage': { name: 'ops.one', role: 'dealer' },
      'console-users:disable': { identity_id: 'opr_x00' },
      'console-roles:assign': { identity_id: 'opr_x00', role: 'auditor', scope: 'global' },
      'passkey:unlock': { identity_id: 'opr_x00' },
      'break-glass': { identity_id: 'opr_x00', minutes: 5 },
      'idp-config:update': { issuer: 'https://idp.example', client_id: 'svc', allowed_domains: ['broker.example'] },
      'corp-action:process': { kind: 'dividend', dividend_id: 'div_x00' },
      'marketdata:replay': { from: '2026-11-22T10:00:00+02:00', to: '2026-11-22T11:00:00+02:00' },
    };
    const p = await propose(base, valid[base]);
    expect(p.status).toBe(201);
    expect((await t.req('GET', '/admin/actions?limit=1')).body.actions[0].action_id).toBe(p.body.action_id);
  });
});
