import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { makeApp, type TestApp } from '../helpers/app.js';

// An independent implementation of the v1 signature (docs/api.md, "Signing"): openssl, not our signing module.
function opensslHex(args: string[], input: string): string {
  return execFileSync('openssl', ['dgst', '-sha256', '-r', ...args], { input })
    .toString()
    .split(' ')[0];
}

function opensslSign(
  secret: string,
  ts: string,
  method: string,
  path: string,
  query: string,
  key: string,
  body: string,
): string {
  const sts = ['v1', ts, method, path, query, key, opensslHex([], body)].join('\n');
  return `v1=${opensslHex(['-hmac', secret], sts)}`;
}

let t: TestApp;
const WALL = Date.parse('2030-06-01T12:00:00Z');
beforeAll(async () => {
  t = await makeApp({ wallNow: () => WALL });
});
afterAll(() => t.close());

const now = () => String(Math.floor(WALL / 1000));
// A body that passes authentication but fails validation: the answer shows whether auth accepted it.
const body = JSON.stringify({ investor_id: 'inv_unknown', direction: 'deposit', amount_micros: 1_000_000 });

async function send(headers: Record<string, string>, url = '/v1/transfers', payload = body, method = 'POST') {
  return t.req(method, url, {
    as: 'none',
    raw: payload,
    contentType: 'application/json',
    headers: { authorization: `Bearer ${t.creds.tenant.api_key}`, ...headers },
  });
}

function signed(
  over: Partial<{
    ts: string;
    key: string;
    path: string;
    query: string;
    body: string;
    method: string;
    secret: string;
  }> = {},
) {
  const ts = over.ts ?? now();
  const key = over.key ?? `k-${Math.random()}`;
  const sig = opensslSign(
    over.secret ?? t.creds.tenant.signing_secret,
    ts,
    over.method ?? 'POST',
    over.path ?? '/v1/transfers',
    over.query ?? '',
    key,
    over.body ?? body,
  );
  return { 'x-svc-timestamp': ts, 'x-svc-signature': sig, 'idempotency-key': key };
}

describe('Signing: HMAC-SHA256 over "v1\\n" + timestamp + method + path + raw_query + idempotency_key + hex(sha256(body))', () => {
  it('a signature made by openssl is accepted (the request gets past authentication)', async () => {
    const res = await send(signed());
    // Past authentication, the unknown investor is what the request trips on.
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('several comma-separated v1= values are accepted when one matches (secret rotation)', async () => {
    const h = signed();
    h['x-svc-signature'] = `v1=${'0'.repeat(64)}, ${h['x-svc-signature']}`;
    expect((await send(h)).body.error.code).toBe('NOT_FOUND');
  });

  it.each([
    ['a tampered body', () => send(signed(), '/v1/transfers', body.replace('1000000', '2000000'))],
    ['a tampered path', () => send(signed({ path: '/v1/transfer' }))],
    ['a tampered query', () => send(signed(), '/v1/transfers?x=1')],
    ['another method signed', () => send(signed({ method: 'PUT' }))],
    ['another idempotency key signed', async () => send({ ...signed(), 'idempotency-key': 'other' })],
    ['the wrong secret', () => send(signed({ secret: 'ss_sbx_wrong' }))],
    [
      'an uppercase hex signature',
      async () => {
        const h = signed();
        return send({ ...h, 'x-svc-signature': h['x-svc-signature'].toUpperCase().replace('V1=', 'v1=') });
      },
    ],
    [
      'no signature header',
      async () => {
        const { 'x-svc-signature': _s, ...h } = signed();
        return send(h);
      },
    ],
    [
      'no timestamp header',
      async () => {
        const { 'x-svc-timestamp': _t, ...h } = signed();
        return send(h);
      },
    ],
    ['a non-integer timestamp', () => send(signed({ ts: '2030-06-01T12:00:00Z' }))],
  ])('%s is 401 SIGNATURE_INVALID', async (_name, make) => {
    const res = await make();
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('SIGNATURE_INVALID');
  });

  it.each([
    ['301 s in the past', -301],
    ['301 s in the future', 301],
  ])('a timestamp %s is 401 SIGNATURE_EXPIRED with the server time in the message', async (_n, delta) => {
    const res = await send(signed({ ts: String(Math.floor(WALL / 1000) + delta) }));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('SIGNATURE_EXPIRED');
    expect(res.body.error.message).toContain(String(Math.floor(WALL / 1000)));
  });

  it('a timestamp 299 s off is inside the window', async () => {
    expect((await send(signed({ ts: String(Math.floor(WALL / 1000) - 299) }))).body.error.code).toBe('NOT_FOUND');
  });

  it('the window is checked against the wall clock, never the simulated clock', async () => {
    await t.req('POST', '/admin/sandbox/clock-advance', { body: { days: 30 } });
    expect((await send(signed())).body.error.code).toBe('NOT_FOUND');
  });

  it('money endpoints need an Idempotency-Key: 400 IDEMPOTENCY_KEY_REQUIRED', async () => {
    const { 'idempotency-key': _k, ...h } = signed();
    const res = await send(h);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('an Idempotency-Key over 255 characters is 400 IDEMPOTENCY_KEY_INVALID', async () => {
    const res = await send(signed({ key: 'k'.repeat(256) }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_INVALID');
  });

  it('a missing or unknown bearer key is 401 UNAUTHENTICATED before the signature is looked at', async () => {
    const res = await t.req('POST', '/v1/transfers', {
      as: 'none',
      raw: body,
      contentType: 'application/json',
      headers: signed(),
    });
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
    const other = await t.req('POST', '/v1/transfers', {
      as: 'none',
      raw: body,
      contentType: 'application/json',
      headers: { ...signed(), authorization: 'Bearer sk_sbx_nope' },
    });
    expect(other.body.error.code).toBe('UNAUTHENTICATED');
  });

  it("another tenant's signing secret does not sign for this tenant", async () => {
    const other = (await t.req('POST', '/admin/tenants', { body: { name: 'signing-other' } })).body;
    const res = await send(signed({ secret: other.signing_secret }));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('SIGNATURE_INVALID');
  });
});
