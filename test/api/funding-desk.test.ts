import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addConsoleOperator, advance, makeApp, type TestApp } from '../helpers/app.js';
import { seedInvestor } from '../helpers/investors.js';

const EGP = 1_000_000;

let t: TestApp;
let inv: string;

beforeEach(async () => {
  t = await makeApp();
  inv = seedInvestor(t, { fullName: 'Omar Farouk' });
});
afterEach(async () => t.close());

async function transfer(direction: 'deposit' | 'withdrawal', amountMicros: number, investorId = inv) {
  const res = await t.req('POST', '/v1/transfers', {
    body: { investor_id: investorId, direction, amount_micros: amountMicros },
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function get(id: string) {
  return (await t.req('GET', `/v1/transfers/${id}`)).body;
}

async function manual(enabled: boolean) {
  const res = await t.req('POST', '/admin/sandbox/manual-funding', { body: { enabled } });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ manual_funding: enabled });
}

async function cash(investorId = inv) {
  return (await t.req('GET', `/v1/investors/${investorId}/balances`)).body.cash[0];
}

let operatorCount = 0;

/** A console identity holding only the given grants (the dealer role holds them all). */
function consoleKey(grants: string[], brokerId: string = t.creds.broker_id): string {
  return addConsoleOperator(
    t,
    `funding_${++operatorCount}_${grants.join('_').replace(/:/g, '_') || 'none'}`,
    grants,
    brokerId,
  );
}

function expectInvariants(): void {
  expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
}

describe('Funding approval by the dealer desk is automatic unless switched to manual', () => {
  it('by default a transfer is approved automatically and nothing waits on the desk', async () => {
    const trf = await transfer('deposit', 10 * EGP);
    expect(trf.approval).toBe('automatic');
    expect((await t.req('GET', '/broker/v1/funding')).body).toEqual({ funding: [] });
    const approve = await t.req('POST', `/broker/v1/funding/${trf.transfer_id}/approve`);
    expect([approve.status, approve.body.error.code]).toEqual([422, 'TRANSFER_NOT_PENDING_APPROVAL']);
    const all = (await t.req('GET', '/broker/v1/funding?approval=any')).body.funding;
    expect(all.map((x: any) => [x.transfer_id, x.approval])).toEqual([[trf.transfer_id, 'automatic']]);
  });

  it('POST /admin/sandbox/manual-funding {enabled} switches it; the sandbox state shows it', async () => {
    await manual(true);
    expect((await t.req('GET', '/admin/sandbox/state')).body.manual_funding).toBe(true);
    await manual(false);
    expect((await t.req('GET', '/admin/sandbox/state')).body.manual_funding).toBe(false);
    for (const body of [{}, { enabled: 'yes' }, { enabled: 1 }, { enabled: true, extra: 1 }]) {
      const res = await t.req('POST', '/admin/sandbox/manual-funding', { body });
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([422, 'VALIDATION_FAILED']);
    }
    expect((await t.req('POST', '/admin/sandbox/manual-funding', { body: { enabled: true }, as: 'none' })).status).toBe(
      401,
    );
    expect(
      (await t.req('POST', '/admin/sandbox/manual-funding', { body: { enabled: true }, as: 'security' })).status,
    ).toBe(403);
    expect((await t.req('GET', '/admin/sandbox/state')).body.manual_funding).toBe(false);
  });
});

describe('Manual funding: a transfer waits in received (approval: pending) until a dealer approves or rejects it', () => {
  beforeEach(() => manual(true));

  it('an approved deposit starts its rail steps one minute after the approval and completes', async () => {
    const trf = await transfer('deposit', 2_000 * EGP);
    expect(trf).toMatchObject({ state: 'received', approval: 'pending' });
    await advance(t, { minutes: 30 });
    expect(await get(trf.transfer_id)).toMatchObject({ state: 'received', approval: 'pending', rail_ref: null });

    const queue = (await t.req('GET', '/broker/v1/funding')).body.funding;
    expect(queue).toEqual([
      {
        ...(await get(trf.transfer_id)),
        tenant_id: t.creds.tenant.tenant_id,
        account_number: expect.stringMatching(/^ACC-/),
        investor_name: 'Omar Farouk',
        decided_by: null,
        decided_at: null,
      },
    ]);

    const approved = await t.req('POST', `/broker/v1/funding/${trf.transfer_id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      state: 'received',
      approval: 'approved',
      decided_by: expect.stringMatching(/^opr_/),
      decided_at: '2026-11-22T09:30:00+02:00',
    });
    expect((await t.req('GET', '/broker/v1/funding')).body.funding).toEqual([]);

    await advance(t, { minutes: 1 });
    expect((await get(trf.transfer_id)).state).toBe('pending_rail');
    await advance(t, { minutes: 2 });
    expect(await get(trf.transfer_id)).toMatchObject({ state: 'completed', approval: 'approved' });
    expect((await cash()).settled).toBe(2_000 * EGP);

    const again = await t.req('POST', `/broker/v1/funding/${trf.transfer_id}/approve`);
    expect([again.status, again.body.error.code]).toEqual([422, 'TRANSFER_NOT_PENDING_APPROVAL']);
    expectInvariants();
  });

  it('a withdrawal holds cash while it waits; a rejection fails it with the reason_code and releases the hold', async () => {
    await manual(false);
    const dep = await transfer('deposit', 1_000 * EGP);
    await advance(t, { minutes: 3 });
    expect((await get(dep.transfer_id)).state).toBe('completed');
    await manual(true);

    const wd = await transfer('withdrawal', 800 * EGP);
    expect(await cash()).toEqual({ asset: 'cash:EGP', settled: 200 * EGP, reserved: 800 * EGP, unsettled: 0 });
    const rejected = await t.req('POST', `/broker/v1/funding/${wd.transfer_id}/reject`, {
      body: { reason_code: 'SOURCE_OF_FUNDS_UNVERIFIED' },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      state: 'failed',
      approval: 'rejected',
      reason_code: 'SOURCE_OF_FUNDS_UNVERIFIED',
      rail_ref: null,
    });
    expect(await get(wd.transfer_id)).toMatchObject({ state: 'failed', reason_code: 'SOURCE_OF_FUNDS_UNVERIFIED' });
    expect(await cash()).toEqual({ asset: 'cash:EGP', settled: 1_000 * EGP, reserved: 0, unsettled: 0 });
    await advance(t, { minutes: 5 });
    expect((await get(wd.transfer_id)).state).toBe('failed');
    const again = await t.req('POST', `/broker/v1/funding/${wd.transfer_id}/reject`, {
      body: { reason_code: 'AML_REVIEW' },
    });
    expect(again.body.error.code).toBe('TRANSFER_NOT_PENDING_APPROVAL');
    expectInvariants();
  });

  it('a pending transfer counts toward the daily limit; a rejected one does not', async () => {
    const a = await transfer('deposit', 70_000 * EGP);
    await transfer('deposit', 70_000 * EGP);
    await transfer('deposit', 60_000 * EGP);
    const over = await t.req('POST', '/v1/transfers', {
      body: { investor_id: inv, direction: 'deposit', amount_micros: EGP },
    });
    expect(over.body.error.code).toBe('DAILY_TRANSFER_LIMIT_EXCEEDED');
    await t.req('POST', `/broker/v1/funding/${a.transfer_id}/reject`, { body: { reason_code: 'LIMIT_POLICY' } });
    await transfer('deposit', 70_000 * EGP);
  });

  it('switching manual approval off does not decide for the dealer: waiting transfers keep waiting', async () => {
    const trf = await transfer('deposit', 5 * EGP);
    await manual(false);
    await advance(t, { minutes: 10 });
    expect(await get(trf.transfer_id)).toMatchObject({ state: 'received', approval: 'pending' });
    expect((await transfer('deposit', 5 * EGP)).approval).toBe('automatic');
    expect((await t.req('GET', '/broker/v1/funding')).body.funding.map((x: any) => x.transfer_id)).toEqual([
      trf.transfer_id,
    ]);
  });

  it('the desk list filters by approval and state, newest first', async () => {
    const a = await transfer('deposit', 1 * EGP);
    const b = await transfer('deposit', 2 * EGP);
    await t.req('POST', `/broker/v1/funding/${a.transfer_id}/reject`, { body: { reason_code: 'NAME_MISMATCH' } });
    const q = async (query: string) =>
      (await t.req('GET', `/broker/v1/funding?${query}`)).body.funding.map((x: any) => x.transfer_id);
    expect(await q('')).toEqual([b.transfer_id]);
    expect(await q('approval=rejected')).toEqual([a.transfer_id]);
    expect(await q('approval=any')).toEqual([b.transfer_id, a.transfer_id]);
    expect(await q('approval=any&state=failed')).toEqual([a.transfer_id]);
    expect(await q('approval=any&limit=1')).toEqual([b.transfer_id]);
    for (const bad of ['approval=maybe', 'state=done', 'limit=0', 'limit=201', 'tenant_id=x']) {
      const res = await t.req('GET', `/broker/v1/funding?${bad}`);
      expect([res.status, res.body.error.code], bad).toEqual([422, 'VALIDATION_FAILED']);
    }
  });

  it('a reject needs a known reason_code: INVALID_FUNDING_REASON otherwise, and nothing changes', async () => {
    const trf = await transfer('deposit', 3 * EGP);
    const url = `/broker/v1/funding/${trf.transfer_id}/reject`;
    for (const [body, code] of [
      [{}, 'INVALID_FUNDING_REASON'],
      [{ reason_code: 'BECAUSE' }, 'INVALID_FUNDING_REASON'],
      [{ reason_code: 42 }, 'INVALID_FUNDING_REASON'],
      [{ reason_code: 'AML_REVIEW', note: 'x' }, 'VALIDATION_FAILED'],
    ] as const) {
      const res = await t.req('POST', url, { body });
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([422, code]);
    }
    expect(await get(trf.transfer_id)).toMatchObject({ state: 'received', approval: 'pending' });
    expect((await t.req('POST', '/broker/v1/funding/trf_nope/approve')).body.error.code).toBe('NOT_FOUND');
    expect(
      (await t.req('POST', '/broker/v1/funding/trf_nope/reject', { body: { reason_code: 'AML_REVIEW' } })).status,
    ).toBe(404);
  });

  it('dealer decisions are written to the audit log', async () => {
    const trf = await transfer('deposit', 3 * EGP);
    await t.req('POST', `/broker/v1/funding/${trf.transfer_id}/approve`);
    const entries = (await t.req('GET', '/admin/audit')).body.entries;
    expect(entries[0]).toMatchObject({
      actor: 'operator:dealer',
      action: 'POST /broker/v1/funding/:id/approve',
      subject: `/broker/v1/funding/${trf.transfer_id}/approve`,
    });
  });
});

describe('Dealer desk auth: X-Console-Key with funding:read / funding:approve', () => {
  beforeEach(() => manual(true));

  it('no key, a tenant key or the admin key on /broker routes is 401 UNAUTHENTICATED (wrong realm); a console identity without the grant is 403 FORBIDDEN', async () => {
    const trf = await transfer('deposit', 4 * EGP);
    const approveUrl = `/broker/v1/funding/${trf.transfer_id}/approve`;
    const checks: Array<[string, string, Record<string, string>, number, string]> = [
      ['GET', '/broker/v1/funding', {}, 401, 'UNAUTHENTICATED'],
      ['GET', '/broker/v1/funding', { 'x-console-key': t.creds.operators.admin_key }, 401, 'UNAUTHENTICATED'],
      ['GET', '/broker/v1/funding', { 'x-admin-key': t.creds.operators.admin_key }, 401, 'UNAUTHENTICATED'],
      ['GET', '/broker/v1/funding', { authorization: `Bearer ${t.creds.tenant.api_key}` }, 401, 'UNAUTHENTICATED'],
      ['POST', approveUrl, { 'x-console-key': t.creds.operators.admin_key }, 401, 'UNAUTHENTICATED'],
      ['GET', '/broker/v1/funding', { 'x-console-key': consoleKey(['queue:read']) }, 403, 'FORBIDDEN'],
      ['POST', approveUrl, { 'x-console-key': consoleKey(['funding:read']) }, 403, 'FORBIDDEN'],
    ];
    for (const [method, url, headers, status, code] of checks) {
      const res = await t.req(method, url, { as: 'none', headers });
      expect([res.status, res.body.error.code], `${method} ${url} ${JSON.stringify(Object.keys(headers))}`).toEqual([
        status,
        code,
      ]);
    }
    expect(await get(trf.transfer_id)).toMatchObject({ state: 'received', approval: 'pending' });
    const reader = consoleKey(['funding:read']);
    expect(
      (await t.req('GET', '/broker/v1/funding', { as: 'none', headers: { 'x-console-key': reader } })).status,
    ).toBe(200);
    const approver = consoleKey(['funding:approve']);
    expect((await t.req('POST', approveUrl, { as: 'none', headers: { 'x-console-key': approver } })).status).toBe(200);
  });

  it("a dealer of another broker sees nothing of this broker's investors and cannot decide their transfers (404)", async () => {
    t.deps.db
      .prepare(
        'INSERT INTO brokers (id, name, name_ar, fra_license_no, contact_email, contact_phone) VALUES ' +
          "('brk_other', 'Other', 'Other', '999', 'a@b.c', '0')",
      )
      .run();
    const otherDealer = consoleKey(['funding:read', 'funding:approve'], 'brk_other');
    const trf = await transfer('deposit', 4 * EGP);
    const as = { as: 'none' as const, headers: { 'x-console-key': otherDealer } };
    expect((await t.req('GET', '/broker/v1/funding?approval=any', as)).body.funding).toEqual([]);
    expect((await t.req('POST', `/broker/v1/funding/${trf.transfer_id}/approve`, as)).status).toBe(404);
    expect(await get(trf.transfer_id)).toMatchObject({ approval: 'pending' });
  });
});
