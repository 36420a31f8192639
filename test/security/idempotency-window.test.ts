// The idempotency guarantees docs/api.md states: a key is kept per tenant, method and path while it is
// young by either clock (24 simulated hours, or the signature's wall-clock window of 660 s); inside
// the window the first answer is replayed byte for byte (a business refusal too) and a different body
// is 422 IDEMPOTENCY_KEY_REUSED; after both windows the key is free again; a request refused by
// authentication or validation stores nothing, so the fixed request can reuse its key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { applicant, onboardInvestor } from '../helpers/onboarding.js';
import { IDEMPOTENCY_WALL_TTL_MS } from '../../daemon/http/mutation.js';

let t: TestApp;
let wall = Date.parse('2026-11-23T10:00:00Z');
let other: { api_key: string; signing_secret: string };
beforeAll(async () => {
  t = await makeApp({ wallNow: () => wall });
  other = (await t.req('POST', '/admin/tenants', { body: { name: 'idem-other' } })).body;
});
afterAll(() => t.close());

const count = (table: string) => (t.deps.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const create = (body: unknown, key: string, tenant?: typeof other) =>
  t.req('POST', '/v1/kyc/applications', { body, idempotencyKey: key, tenant });

describe('idempotency window: 24 simulated hours (and the signature window of wall time), scoped by tenant, method and path', () => {
  it('replays the first answer byte for byte inside the window, creates nothing new, and frees the key after it', async () => {
    const body = applicant();
    const first = await create(body, 'win-1');
    expect(first.status).toBe(201);
    const apps = count('kyc_applications');

    await advance(t, { minutes: 24 * 60 - 1 });
    const replay = await create(body, 'win-1');
    expect([replay.status, replay.text, replay.headers['idempotent-replayed']]).toEqual([201, first.text, 'true']);
    expect(count('kyc_applications')).toBe(apps);
    const reused = await create(applicant(), 'win-1');
    expect([reused.status, reused.body.error.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);

    await advance(t, { minutes: 2 });
    wall += IDEMPOTENCY_WALL_TTL_MS + 1000;
    const after = await create(body, 'win-1');
    expect(after.status).toBe(201);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.body.application_id).not.toBe(first.body.application_id);
    expect(count('kyc_applications')).toBe(apps + 1);
  });

  it('the same key on another path, or for another tenant, is a different request', async () => {
    const body = applicant();
    expect((await create(body, 'scope-1')).status).toBe(201);
    const mine = await create(applicant(), 'scope-1');
    expect(mine.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const theirs = await create(applicant(), 'scope-1', other);
    expect(theirs.status).toBe(201);
    const { investorId } = await onboardInvestor(t, { suitability: false });
    const put = await t.req('PUT', `/v1/investors/${investorId}/suitability`, {
      body: { questionnaire: { investment_experience: 'none' }, risk_acknowledged: true },
      idempotencyKey: 'scope-1',
    });
    expect(put.body.error.code).not.toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a business refusal is stored and replayed like a success', async () => {
    const refused = await t.req('POST', '/v1/transfers', {
      body: { investor_id: 'inv_nobody0000', direction: 'deposit', amount_micros: 1_000_000 },
      idempotencyKey: 'biz-1',
    });
    expect([refused.status, refused.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const again = await t.req('POST', '/v1/transfers', {
      body: { investor_id: 'inv_nobody0000', direction: 'deposit', amount_micros: 1_000_000 },
      idempotencyKey: 'biz-1',
    });
    expect([again.status, again.text, again.headers['idempotent-replayed']]).toEqual([404, refused.text, 'true']);
  });

  it('a request refused by authentication or validation stores nothing: the fixed request reuses the key', async () => {
    const rows = count('idempotency');
    const unsigned = await t.req('POST', '/v1/transfers', {
      body: { investor_id: 'inv_x', direction: 'deposit', amount_micros: 1 },
      idempotencyKey: 'fix-1',
      sign: false,
    });
    expect(unsigned.body.error.code).toBe('SIGNATURE_INVALID');
    const invalid = await create({ ...applicant(), national_id: 'not-an-id' }, 'fix-1');
    expect(invalid.status).toBe(422);
    const malformed = await t.req('POST', '/v1/kyc/applications', {
      raw: '{"full_name":',
      contentType: 'application/json',
      idempotencyKey: 'fix-1',
    });
    expect(malformed.body.error.code).toBe('MALFORMED_JSON');
    expect(count('idempotency')).toBe(rows);
    const fixed = await create(applicant(), 'fix-1');
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });
});
