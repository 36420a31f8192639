// The request inspector (docs/inspector.md): the daemon keeps its last N answers in memory and shows
// them on /admin/sandbox/requests with secrets and personal data redacted; a refused signature shows
// the string the daemon signed (never the secret), so an integrator can diff it against their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { applicant, SAMPLE_FRONT } from '../helpers/onboarding.js';
import { sha256Hex, stringToSign } from '../../daemon/contract/signing.js';

let t: TestApp;
const WALL = Date.parse('2030-06-01T12:00:00Z');

beforeAll(async () => {
  t = await makeApp({ wallNow: () => WALL });
});
afterAll(() => t.close());

async function newest(query = '') {
  const res = await t.req('GET', `/admin/sandbox/requests${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { requests: Array<Record<string, any>>; capacity: number; last_seq: number };
}

async function detail(requestId: string) {
  const res = await t.req('GET', `/admin/sandbox/requests/${requestId}`);
  expect(res.status, res.text).toBe(200);
  return res;
}

describe('request inspector', () => {
  it('records each answered request with method, path, status, error code, principal and latency', async () => {
    await t.req('GET', '/v1/clock');
    const refused = await t.req('GET', '/v1/orders/ord_nope');
    expect(refused.status).toBe(404);
    const list = await newest('?limit=2');
    expect(list.capacity).toBe(1000);
    const [clock, miss] = list.requests;
    expect(clock).toMatchObject({
      method: 'GET',
      path: '/v1/clock',
      status: 200,
      error_code: null,
      principal: `tenant:${t.creds.tenant.tenant_id}`,
    });
    expect(miss).toMatchObject({
      method: 'GET',
      path: '/v1/orders/ord_nope',
      status: 404,
      error_code: 'NOT_FOUND',
      request_id: refused.body.request_id,
    });
    expect(typeof miss.latency_ms).toBe('number');
    expect(miss.at).toMatch(/^2026-11-22T09:00:00/);
  });

  it('filters by status class and path prefix, and does not record its own reads', async () => {
    await t.req('GET', '/v1/orders?limit=1');
    await t.req('GET', '/v1/orders/ord_also_missing');
    const before = (await newest()).last_seq;
    const fours = await newest('?status=4xx&path=/v1/orders');
    expect(fours.requests.length).toBeGreaterThanOrEqual(2);
    expect(fours.requests.every((r) => r.status >= 400 && r.status < 500 && r.path.startsWith('/v1/orders'))).toBe(
      true,
    );
    expect(fours.requests.at(-1)!.path).toBe('/v1/orders/ord_also_missing');
    expect((await newest()).last_seq).toBe(before);
  });

  it('redacts national ids, names, emails, phones, addresses and the api key, and shows no ID image bytes', async () => {
    const person = applicant({
      full_name: 'Nadia Inspector',
      email: 'nadia.inspector@example.com',
      phone: '01098765432',
    });
    const created = await t.req('POST', '/v1/kyc/applications', { body: person });
    expect(created.status, created.text).toBe(201);
    const appId = created.body.application_id as string;
    const upload = await t.req('PUT', `/v1/kyc/applications/${appId}/documents/national_id_front`, {
      raw: SAMPLE_FRONT,
      contentType: 'image/png',
    });
    expect(upload.status, upload.text).toBeLessThan(300);

    const list = await newest('?path=/v1/kyc/applications&method=POST&limit=1');
    const shown = await detail(list.requests[0].request_id);
    for (const secret of [
      person.national_id,
      person.full_name,
      person.email,
      person.phone,
      person.address,
      person.date_of_birth,
      t.creds.tenant.api_key,
    ]) {
      expect(shown.text).not.toContain(secret);
    }
    expect(shown.body.request.body).toMatchObject({
      national_id: '[redacted:national_id]',
      full_name: '[redacted:name]',
      email: '[redacted:email]',
    });
    expect(shown.body.request_headers.authorization).toBe('Bearer [redacted:credential]');

    const put = await newest('?method=PUT&limit=1');
    const image = await detail(put.requests[0].request_id);
    expect(image.body.request.body).toBe(`[redacted:bytes] (${SAMPLE_FRONT.length} bytes, image/png)`);
    expect(image.body.request.size_bytes).toBe(SAMPLE_FRONT.length);
  });

  it('shows the canonical string of a refused signature, never the signing secret', async () => {
    const body = JSON.stringify({ investor_id: 'inv_x', direction: 'deposit', amount_micros: 1_000_000 });
    const ts = String(Math.floor(WALL / 1000));
    const res = await t.req('POST', '/v1/transfers?probe=1', {
      raw: body,
      contentType: 'application/json',
      idempotencyKey: 'inspect-sig-1',
      headers: { 'x-svc-timestamp': ts, 'x-svc-signature': `v1=${'0'.repeat(64)}` },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('SIGNATURE_INVALID');
    // the client's body never carries the canonical string: it is for the inspector only
    expect(res.text).not.toContain('v1\n');

    const shown = await detail(res.body.request_id);
    const expected = stringToSign({
      timestamp: ts,
      method: 'POST',
      path: '/v1/transfers',
      rawQuery: 'probe=1',
      idempotencyKey: 'inspect-sig-1',
      body,
    });
    expect(shown.body.signature.canonical_string).toBe(expected);
    expect(expected.split('\n').at(-1)).toBe(sha256Hex(body));
    expect(shown.body.error_code).toBe('SIGNATURE_INVALID');
    expect(shown.body.principal).toBe(`tenant:${t.creds.tenant.tenant_id}`);
    expect(shown.text).not.toContain(t.creds.tenant.signing_secret);
    expect(shown.body.request_headers['x-svc-signature']).toBe('[redacted:credential]');
  });

  it('keeps a long body truncated and still redacts it by field name', async () => {
    const raw = JSON.stringify({
      email: 'long.body@example.com',
      note: 'x'.repeat(70_000),
      full_name: 'Hidden Person',
    });
    const res = await t.req('POST', '/v1/kyc/applications', { raw, contentType: 'application/json' });
    expect(res.status).toBe(422);
    const shown = await detail(res.body.request_id);
    expect(shown.body.request.size_bytes).toBe(raw.length);
    // refused by validation, after authentication: the caller is known
    expect(shown.body.principal).toBe(`tenant:${t.creds.tenant.tenant_id}`);
    expect(shown.body.request.body).toMatch(/^\{"email":"\[redacted:email\]","note":"x+ \[truncated\]$/);
    expect(shown.text).not.toContain('long.body@example.com');
  });

  it('keeps the answer as sent whoever sent it: a route, a HEAD of it, the router 404, a path refusal, a console page', async () => {
    const answers = [
      await t.req('GET', '/v1/clock'),
      await t.req('GET', '/v1/no-such-route'),
      await t.req('GET', '/v1//clock'),
      await t.req('GET', '/console'),
    ];
    const list = await newest('?limit=4');
    expect(list.requests.map((r) => [r.path, r.status])).toEqual(
      answers.map((a, i) => [['/v1/clock', '/v1/no-such-route', '/v1//clock', '/console'][i], a.status]),
    );
    for (const [i, a] of answers.entries()) {
      const shown = await detail(list.requests[i].request_id);
      expect(shown.body.response.size_bytes, a.text).toBe(Buffer.byteLength(a.text));
    }
    expect(list.requests.slice(1, 3).map((r) => r.error_code)).toEqual(['ROUTE_NOT_FOUND', 'NON_CANONICAL_PATH']);
    const head = await t.req('HEAD', '/v1/clock');
    expect(head.status).toBe(200);
    const [headed] = (await newest('?limit=1')).requests;
    expect(headed).toMatchObject({ method: 'HEAD', path: '/v1/clock', status: 200 });
    // the body a GET would have had: what the route answered, before HEAD dropped it
    expect((await detail(headed.request_id)).body.response.size_bytes).toBe(Buffer.byteLength(answers[0].text));
  });

  it('answers 404 NOT_FOUND for a request id it does not hold', async () => {
    const res = await t.req('GET', '/admin/sandbox/requests/req_unknown');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('request inspector ring', () => {
  it('keeps only the newest N requests (SVC_INSPECTOR_SIZE)', async () => {
    const prior = process.env.SVC_INSPECTOR_SIZE;
    process.env.SVC_INSPECTOR_SIZE = '5';
    const small = await makeApp();
    try {
      for (let i = 0; i < 8; i++) await small.req('GET', `/v1/orders/ord_ring${i}`);
      const res = await small.req('GET', '/admin/sandbox/requests?limit=100');
      expect(res.body.capacity).toBe(5);
      expect(res.body.last_seq).toBe(8);
      expect(res.body.requests.map((r: { path: string }) => r.path)).toEqual(
        [3, 4, 5, 6, 7].map((i) => `/v1/orders/ord_ring${i}`),
      );
      const oldest = await small.req('GET', '/admin/sandbox/requests?limit=100');
      expect(oldest.body.requests[0].seq).toBe(4);
    } finally {
      if (prior === undefined) delete process.env.SVC_INSPECTOR_SIZE;
      else process.env.SVC_INSPECTOR_SIZE = prior;
      await small.close();
    }
  });
});
