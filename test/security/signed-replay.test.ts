// "A captured signed request can never apply twice": the signature check accepts a request for a
// window of wall-clock time (X-Svc-Timestamp within 300 s of the server), whatever the simulated
// clock does; the idempotency record that turns a second arrival into a replay must outlive every
// moment at which the same bytes could still pass that check (docs/api.md, "Idempotency").
import { afterEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { onboardInvestor } from '../helpers/onboarding.js';
import { sign } from '../../daemon/contract/signing.js';
import { IDEMPOTENCY_WALL_TTL_MS } from '../../daemon/http/mutation.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** One signed deposit as a client sends it: the exact headers and bytes an eavesdropper could capture. */
function capturedDeposit(app: TestApp, investorId: string, wallMs: number) {
  const body = JSON.stringify({ investor_id: investorId, direction: 'deposit', amount_micros: 5_000_000_000 });
  const timestamp = String(Math.floor(wallMs / 1000));
  const key = 'captured-1';
  const signature = sign(app.creds.tenant.signing_secret, {
    timestamp,
    method: 'POST',
    path: '/v1/transfers',
    rawQuery: '',
    idempotencyKey: key,
    body,
  });
  const headers = {
    authorization: `Bearer ${app.creds.tenant.api_key}`,
    'content-type': 'application/json',
    'idempotency-key': key,
    'x-svc-timestamp': timestamp,
    'x-svc-signature': signature,
  };
  return () => app.app.inject({ method: 'POST', url: '/v1/transfers', headers, payload: body });
}

const transfers = (app: TestApp) =>
  (app.deps.db.prepare('SELECT COUNT(*) AS n FROM transfers').get() as { n: number }).n;

describe('a captured signed request can never apply twice', () => {
  it('on a frozen clock advanced 24 hours and a minute, the same bytes replay the first answer and create nothing', async () => {
    let wall = Date.parse('2026-11-23T10:00:00Z');
    t = await makeApp({ wallNow: () => wall });
    const { investorId } = await onboardInvestor(t);
    const send = capturedDeposit(t, investorId, wall);
    const first = await send();
    expect(first.statusCode).toBe(201);
    const before = transfers(t);

    await advance(t, { minutes: 24 * 60 + 1 });
    wall += 250_000; // still inside the signature window
    const again = await send();
    expect([again.statusCode, again.body, again.headers['idempotent-replayed']]).toEqual([201, first.body, 'true']);
    expect(transfers(t)).toBe(before);
  });

  it('a timestamp signed 300 s ahead of the server still passes 600 s after the first arrival, and still replays', async () => {
    let wall = Date.parse('2026-11-23T10:00:00Z');
    t = await makeApp({ wallNow: () => wall });
    const { investorId } = await onboardInvestor(t);
    const send = capturedDeposit(t, investorId, wall + 300_000);
    expect((await send()).statusCode).toBe(201);
    const before = transfers(t);
    await advance(t, { minutes: 24 * 60 + 1 });
    wall += 600_000;
    const again = await send();
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(transfers(t)).toBe(before);
    wall += IDEMPOTENCY_WALL_TTL_MS;
    const late = await send();
    expect([late.statusCode, late.json().error.code]).toEqual([401, 'SIGNATURE_EXPIRED']);
    expect(transfers(t)).toBe(before);
  });

  it('on a running clock at 1000x (a simulated day in 87 wall seconds), the same bytes replay without any admin action', async () => {
    let wall = Date.parse('2026-11-23T10:00:00Z');
    t = await makeApp({ wallNow: () => wall, clock: 'running', speedMilli: 1_000_000 });
    const { investorId } = await onboardInvestor(t);
    const send = capturedDeposit(t, investorId, wall);
    const first = await send();
    expect(first.statusCode).toBe(201);
    const before = transfers(t);
    const simBefore = t.deps.clock.now();

    wall += 100_000;
    const again = await send();
    expect(t.deps.clock.now() - simBefore).toBeGreaterThan(24 * 3600 * 1000);
    expect([again.statusCode, again.body, again.headers['idempotent-replayed']]).toEqual([201, first.body, 'true']);
    expect(transfers(t)).toBe(before);
  });

  it('once both windows have passed the key is free: a freshly signed request under it is a new request', async () => {
    let wall = Date.parse('2026-11-23T10:00:00Z');
    t = await makeApp({ wallNow: () => wall });
    const { investorId } = await onboardInvestor(t);
    expect((await capturedDeposit(t, investorId, wall)()).statusCode).toBe(201);
    const before = transfers(t);
    await advance(t, { minutes: 24 * 60 + 1 });
    wall += IDEMPOTENCY_WALL_TTL_MS + 1000;
    const fresh = await capturedDeposit(t, investorId, wall)();
    expect(fresh.statusCode).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(transfers(t)).toBe(before + 1);
  });
});
