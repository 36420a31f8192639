import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { seedInvestor } from '../helpers/investors.js';
import { applicant } from '../helpers/onboarding.js';

const EGP = 1_000_000;

let t: TestApp;
let inv: string;

afterEach(async () => t.close());

async function start(opts: { start?: string } = {}): Promise<void> {
  t = await makeApp(opts);
  inv = seedInvestor(t);
}

async function create(body: Record<string, unknown>, extra: Parameters<TestApp['req']>[2] = {}) {
  return t.req('POST', '/v1/transfers', { body, ...extra });
}

async function deposit(investorId: string, amountMicros: number) {
  return create({ investor_id: investorId, direction: 'deposit', amount_micros: amountMicros });
}

async function withdraw(investorId: string, amountMicros: number) {
  return create({ investor_id: investorId, direction: 'withdrawal', amount_micros: amountMicros });
}

async function get(id: string) {
  const res = await t.req('GET', `/v1/transfers/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

async function cash(investorId: string) {
  const res = await t.req('GET', `/v1/investors/${investorId}/balances`);
  expect(res.status).toBe(200);
  return res.body.cash[0];
}

/** Deposits and lets the rail complete it (three simulated minutes). */
async function funded(investorId: string, amountMicros: number): Promise<void> {
  const res = await deposit(investorId, amountMicros);
  expect(res.status).toBe(201);
  await advance(t, { minutes: 3 });
  expect((await get(res.body.transfer_id)).state).toBe('completed');
}

function expectInvariants(): void {
  expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
}

/** Everything a refused request must leave untouched. */
function worldSnapshot() {
  const db = t.deps.db;
  const all = (sql: string) => db.prepare(sql).all();
  return {
    transfers: all('SELECT * FROM transfers ORDER BY seq'),
    accounts: all('SELECT * FROM ledger_accounts ORDER BY id'),
    entries: all('SELECT * FROM ledger_entries ORDER BY id'),
    holds: all('SELECT * FROM ledger_holds ORDER BY seq'),
    activities: all('SELECT * FROM activities ORDER BY seq'),
    events: all('SELECT * FROM events ORDER BY id'),
    ids: all("SELECT * FROM id_seq WHERE prefix IN ('trf', 'hld', 'rail', 'act') ORDER BY prefix"),
  };
}

describe('Deposit: received -> pending_rail -> at_broker -> completed, one simulated minute per step; completed credits settled cash', () => {
  beforeEach(() => start());

  it('POST /v1/transfers answers 201 with the transfer object in state received', async () => {
    const res = await deposit(inv, 1_500 * EGP);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      transfer_id: expect.stringMatching(/^trf_[0-9a-z]{10}$/),
      investor_id: inv,
      direction: 'deposit',
      amount_micros: 1_500 * EGP,
      state: 'received',
      approval: 'automatic',
      rail_ref: null,
      reason_code: null,
      created_at: '2026-11-22T09:00:00+02:00',
      updated_at: '2026-11-22T09:00:00+02:00',
    });
    expect(await get(res.body.transfer_id)).toEqual(res.body);
  });

  it('each step takes one simulated minute; rail_ref appears at pending_rail; cash is credited only at completed', async () => {
    const id = (await deposit(inv, 1_500 * EGP)).body.transfer_id;
    await advance(t, { minutes: 0.5 });
    expect((await get(id)).state).toBe('received');

    await advance(t, { minutes: 0.5 });
    const pending = await get(id);
    expect(pending).toMatchObject({
      state: 'pending_rail',
      rail_ref: expect.stringMatching(/^rail_/),
      updated_at: '2026-11-22T09:01:00+02:00',
    });
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 0, reserved: 0, unsettled: 0 });

    await advance(t, { minutes: 1 });
    const atBroker = await get(id);
    expect(atBroker).toMatchObject({
      state: 'at_broker',
      rail_ref: pending.rail_ref,
      updated_at: '2026-11-22T09:02:00+02:00',
    });
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 0, reserved: 0, unsettled: 0 });

    await advance(t, { minutes: 1 });
    expect(await get(id)).toMatchObject({
      state: 'completed',
      rail_ref: pending.rail_ref,
      reason_code: null,
      updated_at: '2026-11-22T09:03:00+02:00',
    });
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 1_500 * EGP, reserved: 0, unsettled: 0 });
    expectInvariants();

    await advance(t, { hours: 1 });
    expect((await get(id)).state).toBe('completed');
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 1_500 * EGP, reserved: 0, unsettled: 0 });
  });

  it('the completed deposit appears in the activity feed as CSD, backed by a posting from the rail', async () => {
    const id = (await deposit(inv, 250 * EGP)).body.transfer_id;
    await advance(t, { minutes: 3 });
    const feed = (await t.req('GET', `/v1/investors/${inv}/activities`)).body.activities;
    expect(feed).toEqual([
      expect.objectContaining({
        activity_type: 'CSD',
        net_amount_micros: 250 * EGP,
        ref_type: 'transfer',
        ref_id: id,
        status: 'executed',
        at: '2026-11-22T09:03:00+02:00',
      }),
    ]);
    expect(
      t.deps.ledger
        .entries(t.creds.tenant.tenant_id, id)
        .map((e) => [e.kind, e.debit_owner, e.credit_owner, e.credit_bucket, e.amount]),
    ).toEqual([['deposit', 'system:rail', inv, 'settled', 250 * EGP]]);
  });
});

describe('Withdrawal: holds settled cash at creation; completed debits it, failed releases it', () => {
  beforeEach(() => start());

  it('the hold moves settled to reserved at once; completion posts it out through the rail and books CSW', async () => {
    await funded(inv, 1_000 * EGP);
    const res = await withdraw(inv, 400 * EGP);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ direction: 'withdrawal', state: 'received', amount_micros: 400 * EGP });
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 600 * EGP, reserved: 400 * EGP, unsettled: 0 });
    expectInvariants();

    await advance(t, { minutes: 2 });
    expect((await get(res.body.transfer_id)).state).toBe('at_broker');
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 600 * EGP, reserved: 400 * EGP, unsettled: 0 });

    await advance(t, { minutes: 1 });
    expect((await get(res.body.transfer_id)).state).toBe('completed');
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 600 * EGP, reserved: 0, unsettled: 0 });
    const feed = (await t.req('GET', `/v1/investors/${inv}/activities`)).body.activities;
    expect(feed.map((a: any) => [a.activity_type, a.net_amount_micros])).toEqual([
      ['CSW', -400 * EGP],
      ['CSD', 1_000 * EGP],
    ]);
    expectInvariants();
  });

  it('a withdrawal not covered by settled cash is 422 INSUFFICIENT_SETTLED_CASH; reserved cash does not cover it either', async () => {
    await funded(inv, 1_000 * EGP);
    expect((await withdraw(inv, 700 * EGP)).status).toBe(201);
    const before = worldSnapshot();
    const res = await withdraw(inv, 300 * EGP + 1);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INSUFFICIENT_SETTLED_CASH');
    expect(worldSnapshot()).toEqual(before);
    expect((await withdraw(inv, 300 * EGP)).status).toBe(201);
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 0, reserved: 1_000 * EGP, unsettled: 0 });
    expectInvariants();
  });

  it('a deposit still on the rail is not settled cash: withdrawing it is refused', async () => {
    expect((await deposit(inv, 500 * EGP)).status).toBe(201);
    await advance(t, { minutes: 2 });
    expect((await withdraw(inv, 1)).body.error.code).toBe('INSUFFICIENT_SETTLED_CASH');
  });
});

describe('A sandbox transfer of exactly 666 EGP (666000000 micros) fails at the payment rail and the hold is released (reason_code set)', () => {
  beforeEach(() => start());

  it('a 666 EGP deposit reaches pending_rail, then fails with RAIL_REJECTED and credits nothing', async () => {
    const id = (await deposit(inv, 666 * EGP)).body.transfer_id;
    await advance(t, { minutes: 1 });
    const atRail = await get(id);
    expect(atRail.state).toBe('pending_rail');
    await advance(t, { minutes: 1 });
    expect(await get(id)).toMatchObject({
      state: 'failed',
      reason_code: 'RAIL_REJECTED',
      rail_ref: atRail.rail_ref,
      updated_at: '2026-11-22T09:02:00+02:00',
    });
    await advance(t, { minutes: 10 });
    expect((await get(id)).state).toBe('failed');
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 0, reserved: 0, unsettled: 0 });
    expect((await t.req('GET', `/v1/investors/${inv}/activities`)).body.activities).toEqual([]);
    expect(t.deps.ledger.entries(t.creds.tenant.tenant_id, id)).toEqual([]);
    expectInvariants();
  });

  it('a 666 EGP withdrawal holds the cash, fails at the rail, and the hold is voided back to settled', async () => {
    await funded(inv, 1_000 * EGP);
    const res = await withdraw(inv, 666 * EGP);
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 334 * EGP, reserved: 666 * EGP, unsettled: 0 });
    await advance(t, { minutes: 2 });
    expect(await get(res.body.transfer_id)).toMatchObject({ state: 'failed', reason_code: 'RAIL_REJECTED' });
    expect(await cash(inv)).toEqual({ asset: 'cash:EGP', settled: 1_000 * EGP, reserved: 0, unsettled: 0 });
    expect(
      t.deps.ledger
        .entries(t.creds.tenant.tenant_id, res.body.transfer_id)
        .map((e) => [e.kind, e.debit_bucket, e.credit_bucket, e.amount]),
    ).toEqual([
      ['hold', 'settled', 'reserved', 666 * EGP],
      ['hold.void', 'reserved', 'settled', 666 * EGP],
    ]);
    const feed = (await t.req('GET', `/v1/investors/${inv}/activities`)).body.activities;
    expect(feed.map((a: any) => a.activity_type)).toEqual(['CSD']);
    expectInvariants();
  });

  it('only exactly 666 EGP fails: one micro more or less completes', async () => {
    const a = (await deposit(inv, 666 * EGP + 1)).body.transfer_id;
    const b = (await deposit(inv, 666 * EGP - 1)).body.transfer_id;
    await advance(t, { minutes: 3 });
    expect((await get(a)).state).toBe('completed');
    expect((await get(b)).state).toBe('completed');
    expect((await cash(inv)).settled).toBe(1_332 * EGP);
  });
});

describe('Limits: 70,000 EGP per transfer, 200,000 EGP per investor per Cairo calendar day (failed transfers do not count)', () => {
  it('exactly 70,000 EGP is accepted; one micro more is 422 TRANSFER_LIMIT_EXCEEDED and changes nothing', async () => {
    await start();
    expect((await deposit(inv, 70_000 * EGP)).status).toBe(201);
    const before = worldSnapshot();
    for (const direction of ['deposit', 'withdrawal']) {
      const res = await create({ investor_id: inv, direction, amount_micros: 70_000 * EGP + 1 });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('TRANSFER_LIMIT_EXCEEDED');
    }
    expect(worldSnapshot()).toEqual(before);
  });

  it('deposits and withdrawals of one investor count together up to 200,000 EGP; the next micro is DAILY_TRANSFER_LIMIT_EXCEEDED', async () => {
    await start();
    const other = seedInvestor(t);
    await funded(inv, 70_000 * EGP);
    expect((await deposit(inv, 70_000 * EGP)).status).toBe(201);
    expect((await withdraw(inv, 60_000 * EGP)).status).toBe(201);
    const before = worldSnapshot();
    const res = await deposit(inv, 1);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('DAILY_TRANSFER_LIMIT_EXCEEDED');
    expect(res.body.error.message).toContain('at most 0 more');
    expect((await withdraw(inv, 1)).body.error.code).toBe('DAILY_TRANSFER_LIMIT_EXCEEDED');
    expect(worldSnapshot()).toEqual(before);
    // the limit is per investor
    expect((await deposit(other, 70_000 * EGP)).status).toBe(201);
  });

  it('a failed transfer does not count: once the 666 EGP deposit fails its amount is free again', async () => {
    await start();
    expect((await deposit(inv, 70_000 * EGP)).status).toBe(201);
    expect((await deposit(inv, 70_000 * EGP)).status).toBe(201);
    expect((await deposit(inv, 666 * EGP)).status).toBe(201);
    expect((await deposit(inv, 60_000 * EGP - 666 * EGP)).status).toBe(201);
    expect((await deposit(inv, 1)).body.error.code).toBe('DAILY_TRANSFER_LIMIT_EXCEEDED');
    await advance(t, { minutes: 2 });
    expect((await deposit(inv, 666 * EGP + 1)).body.error.code).toBe('DAILY_TRANSFER_LIMIT_EXCEEDED');
    expect((await deposit(inv, 666 * EGP - 1)).status).toBe(201);
  });

  it('the day is the Africa/Cairo calendar day of the simulated clock: it turns at 00:00 Cairo (22:00 UTC), not at UTC midnight', async () => {
    await start({ start: '2026-11-22T23:30:00+02:00' });
    for (const amount of [70_000, 70_000, 60_000]) expect((await deposit(inv, amount * EGP)).status).toBe(201);
    expect((await deposit(inv, 1)).body.error.code).toBe('DAILY_TRANSFER_LIMIT_EXCEEDED');
    await advance(t, { until: '2026-11-22T23:59:59+02:00' });
    expect((await deposit(inv, 1)).body.error.code).toBe('DAILY_TRANSFER_LIMIT_EXCEEDED');
    // 00:00:01 in Cairo is still 2026-11-22 in UTC: a UTC day would refuse this
    await advance(t, { until: '2026-11-23T00:00:01+02:00' });
    const next = await deposit(inv, 70_000 * EGP);
    expect(next.status).toBe(201);
    expect(next.body.created_at).toBe('2026-11-23T00:00:01+02:00');
  });

  it('in summer (EEST, UTC+3) the day still turns at Cairo midnight', async () => {
    await start({ start: '2026-07-01T23:50:00+03:00' });
    for (const amount of [70_000, 70_000, 60_000]) expect((await deposit(inv, amount * EGP)).status).toBe(201);
    expect((await deposit(inv, 1)).body.error.code).toBe('DAILY_TRANSFER_LIMIT_EXCEEDED');
    await advance(t, { until: '2026-07-01T21:00:00Z' });
    expect((await deposit(inv, 1)).status).toBe(201);
  });
});

describe('POST /v1/transfers is a money endpoint: signed, idempotent', () => {
  beforeEach(() => start());
  const body = () => ({ investor_id: inv, direction: 'deposit', amount_micros: 10 * EGP });

  it('unsigned is 401 SIGNATURE_INVALID; a bad signature is 401 SIGNATURE_INVALID; no bearer key is 401 UNAUTHENTICATED; nothing is created', async () => {
    const before = worldSnapshot();
    const unsigned = await create(body(), { sign: false });
    expect([unsigned.status, unsigned.body.error.code]).toEqual([401, 'SIGNATURE_INVALID']);
    const bad = await create(body(), { headers: { 'x-svc-signature': `v1=${'0'.repeat(64)}` } });
    expect([bad.status, bad.body.error.code]).toEqual([401, 'SIGNATURE_INVALID']);
    const otherSecret = await create(body(), {
      tenant: { api_key: t.creds.tenant.api_key, signing_secret: 'ss_sbx_wrong' },
    });
    expect([otherSecret.status, otherSecret.body.error.code]).toEqual([401, 'SIGNATURE_INVALID']);
    const stale = await create(body(), { headers: { 'x-svc-timestamp': String(Math.floor(Date.now() / 1000) - 301) } });
    expect(stale.status).toBe(401);
    const anonymous = await create(body(), { headers: { authorization: 'Bearer sk_sbx_nope' } });
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect(worldSnapshot()).toEqual(before);
  });

  it('a missing Idempotency-Key is 400 IDEMPOTENCY_KEY_REQUIRED', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/transfers',
      payload: JSON.stringify(body()),
      headers: { authorization: `Bearer ${t.creds.tenant.api_key}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect((await t.req('GET', '/v1/transfers')).body.transfers).toEqual([]);
  });

  it('a replay with the same key and body returns the first response with Idempotent-Replayed: true and creates nothing', async () => {
    const first = await create(body(), { idempotencyKey: 'dep-1' });
    expect(first.status).toBe(201);
    await advance(t, { minutes: 1 });
    const again = await create(body(), { idempotencyKey: 'dep-1' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect((await t.req('GET', '/v1/transfers')).body.transfers).toHaveLength(1);
  });

  it('a refused request replays its refusal too: the key is spent on the answer, not on success', async () => {
    const big = { ...body(), amount_micros: 70_000 * EGP + 1 };
    const first = await create(big, { idempotencyKey: 'dep-2' });
    const again = await create(big, { idempotencyKey: 'dep-2' });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('the same key with a different body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    expect((await create(body(), { idempotencyKey: 'dep-3' })).status).toBe(201);
    const before = worldSnapshot();
    const res = await create({ ...body(), amount_micros: 11 * EGP }, { idempotencyKey: 'dep-3' });
    expect([res.status, res.body.error.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(worldSnapshot()).toEqual(before);
  });
});

describe('Bad input: every field tried wrong is a 4xx with a stable code, and nothing changes', () => {
  beforeEach(() => start());

  it('type, format, range, missing, extra, huge and fractional micros', async () => {
    await funded(inv, 100 * EGP);
    const pending = (await t.req('POST', '/v1/kyc/applications', { body: applicant() })).body.application_id as string;
    const before = worldSnapshot();
    const ok = { investor_id: inv, direction: 'deposit', amount_micros: 10 * EGP };
    const cases: Array<[string, unknown, number, string]> = [
      ['missing investor_id', { direction: 'deposit', amount_micros: 1 }, 422, 'VALIDATION_FAILED'],
      ['missing direction', { investor_id: inv, amount_micros: 1 }, 422, 'VALIDATION_FAILED'],
      ['missing amount', { investor_id: inv, direction: 'deposit' }, 422, 'VALIDATION_FAILED'],
      ['empty body object', {}, 422, 'VALIDATION_FAILED'],
      ['investor_id a number', { ...ok, investor_id: 42 }, 422, 'VALIDATION_FAILED'],
      ['investor_id empty', { ...ok, investor_id: '' }, 422, 'VALIDATION_FAILED'],
      ['investor_id huge', { ...ok, investor_id: `inv_${'x'.repeat(10_000)}` }, 422, 'VALIDATION_FAILED'],
      ['direction unknown', { ...ok, direction: 'transfer' }, 422, 'VALIDATION_FAILED'],
      ['direction upper case', { ...ok, direction: 'DEPOSIT' }, 422, 'VALIDATION_FAILED'],
      ['direction null', { ...ok, direction: null }, 422, 'VALIDATION_FAILED'],
      ['amount a string', { ...ok, amount_micros: '1000000' }, 422, 'VALIDATION_FAILED'],
      ['amount fractional micros', { ...ok, amount_micros: 1.5 }, 422, 'VALIDATION_FAILED'],
      ['amount zero', { ...ok, amount_micros: 0 }, 422, 'VALIDATION_FAILED'],
      ['amount negative', { ...ok, amount_micros: -1 * EGP }, 422, 'VALIDATION_FAILED'],
      ['amount boolean', { ...ok, amount_micros: true }, 422, 'VALIDATION_FAILED'],
      ['amount an object', { ...ok, amount_micros: { value: 1 } }, 422, 'VALIDATION_FAILED'],
      ['amount 2^53', { ...ok, amount_micros: 2 ** 53 }, 422, 'AMOUNT_TOO_LARGE'],
      ['amount 1e20', { ...ok, amount_micros: 1e20 }, 422, 'AMOUNT_TOO_LARGE'],
      [
        'amount above the per-transfer limit',
        { ...ok, amount_micros: Number.MAX_SAFE_INTEGER },
        422,
        'TRANSFER_LIMIT_EXCEEDED',
      ],
      ['extra field', { ...ok, currency: 'EGP' }, 422, 'VALIDATION_FAILED'],
      ['an array', [ok], 422, 'VALIDATION_FAILED'],
      ['a string', 'deposit', 422, 'VALIDATION_FAILED'],
      ['unknown investor', { ...ok, investor_id: 'inv_nobody' }, 404, 'NOT_FOUND'],
      ['the id of its own application not approved yet', { ...ok, investor_id: pending }, 422, 'INVESTOR_NOT_APPROVED'],
      ['a made-up application id', { ...ok, investor_id: 'kyc_0000000001' }, 404, 'NOT_FOUND'],
      [
        'withdrawal beyond settled cash',
        { ...ok, direction: 'withdrawal', amount_micros: 100 * EGP + 1 },
        422,
        'INSUFFICIENT_SETTLED_CASH',
      ],
    ];
    for (const [name, payload, status, code] of cases) {
      const res = await t.req('POST', '/v1/transfers', { body: payload });
      expect(res.status, name).toBe(status);
      expect(res.body.error.code, name).toBe(code);
      expect(res.body.request_id, name).toMatch(/^req_/);
    }
    expect(worldSnapshot()).toEqual(before);
    expectInvariants();
  });

  it('malformed JSON is 400 MALFORMED_JSON; a non-JSON body is 415 UNSUPPORTED_CONTENT_TYPE', async () => {
    const before = worldSnapshot();
    const malformed = await t.req('POST', '/v1/transfers', { raw: '{"investor_id":', contentType: 'application/json' });
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'MALFORMED_JSON']);
    const text = await t.req('POST', '/v1/transfers', { raw: 'investor_id=x', contentType: 'text/plain' });
    expect([text.status, text.body.error.code]).toEqual([415, 'UNSUPPORTED_CONTENT_TYPE']);
    expect(worldSnapshot()).toEqual(before);
  });

  it("another tenant's investor is 404; a closed investor is INVESTOR_CLOSED; a restricted one may still move cash", async () => {
    const other = await t.req('POST', '/admin/tenants', { body: { name: 'other' } });
    const foreign = seedInvestor(t, { tenantId: other.body.tenant_id });
    const closed = seedInvestor(t, { status: 'closed' });
    const restricted = seedInvestor(t, { status: 'restricted' });
    const before = worldSnapshot();
    expect((await deposit(foreign, EGP)).body.error.code).toBe('NOT_FOUND');
    expect((await deposit(closed, EGP)).body.error.code).toBe('INVESTOR_CLOSED');
    expect(worldSnapshot()).toEqual(before);
    expect((await deposit(restricted, EGP)).status).toBe(201);
    expect((await deposit(foreign, EGP)).status).toBe(404);
    const theirs = await t.req('POST', '/v1/transfers', {
      body: { investor_id: foreign, direction: 'deposit', amount_micros: EGP },
      tenant: other.body,
    });
    expect(theirs.status).toBe(201);
  });
});

describe('GET /v1/transfers (newest first, by investor) and GET /v1/transfers/{id}', () => {
  beforeEach(() => start());

  it('lists newest first, filters by investor_id and state, pages by limit and before', async () => {
    const other = seedInvestor(t);
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await deposit(inv, i * EGP)).body.transfer_id);
    const theirs = (await deposit(other, EGP)).body.transfer_id;
    const all = (await t.req('GET', '/v1/transfers')).body;
    expect(all.transfers.map((x: any) => x.transfer_id)).toEqual([theirs, ...[...ids].reverse()]);
    const mine = (await t.req('GET', `/v1/transfers?investor_id=${inv}&limit=2`)).body;
    expect(mine.transfers.map((x: any) => x.transfer_id)).toEqual([ids[4], ids[3]]);
    expect(mine.next_before).toBe(ids[3]);
    const page2 = (await t.req('GET', `/v1/transfers?investor_id=${inv}&limit=2&before=${mine.next_before}`)).body;
    expect(page2.transfers.map((x: any) => x.transfer_id)).toEqual([ids[2], ids[1]]);
    const last = (await t.req('GET', `/v1/transfers?investor_id=${inv}&limit=2&before=${ids[1]}`)).body;
    expect(last).toEqual({ transfers: [expect.objectContaining({ transfer_id: ids[0] })], next_before: null });
    await advance(t, { minutes: 3 });
    expect((await t.req('GET', '/v1/transfers?state=completed')).body.transfers).toHaveLength(6);
    expect((await t.req('GET', '/v1/transfers?state=received')).body.transfers).toHaveLength(0);
  });

  it("another tenant's transfer and investor behave as unknown (404); bad queries are 422", async () => {
    const other = await t.req('POST', '/admin/tenants', { body: { name: 'other' } });
    const foreign = seedInvestor(t, { tenantId: other.body.tenant_id });
    const theirs = await t.req('POST', '/v1/transfers', {
      body: { investor_id: foreign, direction: 'deposit', amount_micros: EGP },
      tenant: other.body,
    });
    const mine = (await deposit(inv, EGP)).body.transfer_id;
    expect((await t.req('GET', `/v1/transfers/${theirs.body.transfer_id}`)).status).toBe(404);
    expect((await t.req('GET', `/v1/transfers/${theirs.body.transfer_id}`, { tenant: other.body })).status).toBe(200);
    expect((await t.req('GET', '/v1/transfers/trf_nope')).body.error.code).toBe('NOT_FOUND');
    expect((await t.req('GET', `/v1/transfers?investor_id=${foreign}`)).status).toBe(404);
    expect(
      (await t.req('GET', '/v1/transfers', { tenant: other.body })).body.transfers.map((x: any) => x.transfer_id),
    ).toEqual([theirs.body.transfer_id]);
    for (const [q, code] of [
      ['limit=0', 'VALIDATION_FAILED'],
      ['limit=201', 'VALIDATION_FAILED'],
      ['limit=x', 'VALIDATION_FAILED'],
      ['state=done', 'VALIDATION_FAILED'],
      ['color=red', 'VALIDATION_FAILED'],
      [`before=${theirs.body.transfer_id}`, 'INVALID_CURSOR'],
      ['before=trf_nope', 'INVALID_CURSOR'],
    ]) {
      const res = await t.req('GET', `/v1/transfers?${q}`);
      expect([res.status, res.body.error.code], q).toEqual([422, code]);
    }
    expect((await t.req('GET', '/v1/transfers?limit=200')).body.transfers.map((x: any) => x.transfer_id)).toEqual([
      mine,
    ]);
    expect((await t.req('GET', '/v1/transfers', { as: 'none' })).status).toBe(401);
  });
});

describe('Sandbox reset wipes transfers, postings and holds (and their pending rail steps)', () => {
  beforeEach(() => start());

  it('after a reset the transfer list is empty and advancing the clock runs no stale step', async () => {
    await funded(inv, 1_000 * EGP);
    await withdraw(inv, 100 * EGP);
    await deposit(inv, 50 * EGP);
    await advance(t, { minutes: 1 });
    const reset = await t.req('POST', '/admin/sandbox/reset', { body: {} });
    expect(reset.status).toBe(200);
    for (const table of ['transfers', 'ledger_entries', 'ledger_holds', 'ledger_accounts', 'activities', 'events']) {
      expect(t.deps.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get(), table).toEqual({ n: 0 });
    }
    await advance(t, { minutes: 5 });
    expect((await t.req('GET', '/v1/transfers')).body.transfers).toEqual([]);
    // the append-only guards are back up after the reset
    const again = seedInvestor(t);
    await funded(again, 5 * EGP);
    expect(() => t.deps.db.prepare('DELETE FROM ledger_entries').run()).toThrow(/immutable/);
    expect(() => t.deps.db.prepare('DELETE FROM transfers').run()).toThrow(/never deleted/);
    expectInvariants();
  });
});

describe('The database refuses transfer rows the state machine would never write (raw SQL)', () => {
  beforeEach(() => start());

  it('no skipped step, no way back from a final state, no edit of the amount', async () => {
    const id = (await deposit(inv, 5 * EGP)).body.transfer_id;
    const sql = (s: string) => () => t.deps.db.prepare(s).run(id);
    expect(sql("UPDATE transfers SET state = 'completed', rail_ref = 'rail_x' WHERE id = ?")).toThrow(
      /not a transition/,
    );
    expect(sql('UPDATE transfers SET amount_micros = 1 WHERE id = ?')).toThrow(/only state, approval/);
    expect(sql("UPDATE transfers SET state = 'failed', reason_code = 'X' WHERE id = ?")).toThrow(/not a transition/);
    await advance(t, { minutes: 1 });
    // pending_rail -> failed is a transition, but a failed transfer needs its reason_code
    expect(sql("UPDATE transfers SET state = 'failed' WHERE id = ?")).toThrow(/CHECK constraint failed/);
    expect(sql("UPDATE transfers SET rail_ref = 'rail_other' WHERE id = ?")).toThrow(/only state, approval/);
    await advance(t, { minutes: 2 });
    expect(sql("UPDATE transfers SET state = 'failed', reason_code = 'X' WHERE id = ?")).toThrow(/final/);
    expect(
      sql(
        'INSERT INTO transfers (id, tenant_id, investor_id, direction, amount_micros, state, approval, ' +
          "local_date, created_ms, created_at, updated_at) SELECT 'trf_big', tenant_id, investor_id, 'deposit', " +
          "70000000001, 'received', 'automatic', local_date, 0, '', '' FROM transfers WHERE id = ?",
      ),
    ).toThrow(/CHECK constraint failed/);
    expect(
      sql(
        'INSERT INTO transfers (id, tenant_id, investor_id, direction, amount_micros, state, approval, ' +
          "local_date, created_ms, created_at, updated_at) SELECT 'trf_nohold', tenant_id, investor_id, " +
          "'withdrawal', 1, 'received', 'automatic', local_date, 0, '', '' FROM transfers WHERE id = ?",
      ),
    ).toThrow(/CHECK constraint failed/);
  });
});
