import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { ERROR_CODES } from '../../daemon/contract/errors.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

function expectErrorBody(body: any, code: string) {
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.request_id).toMatch(/^req_[0-9a-z]{10}$/);
  expect(Object.keys(body).sort()).toEqual(['error', 'request_id']);
}

describe('Error body: JSON { error: { code, message }, request_id } with request_id starting req_', () => {
  it('an unknown route answers 404 with the error body', async () => {
    const res = await t.req('GET', '/v1/nope');
    expect(res.status).toBe(404);
    expectErrorBody(res.body, 'ROUTE_NOT_FOUND');
  });

  it('malformed JSON is 400 MALFORMED_JSON', async () => {
    const res = await t.req('POST', '/admin/sandbox/quote', {
      raw: '{"symbol": "COMI",',
      contentType: 'application/json',
    });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 'MALFORMED_JSON');
  });

  it('a JSON route given another content type is 415 UNSUPPORTED_CONTENT_TYPE', async () => {
    const res = await t.req('POST', '/admin/sandbox/quote', {
      raw: 'symbol=COMI',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(415);
    expectErrorBody(res.body, 'UNSUPPORTED_CONTENT_TYPE');
  });

  it('JSON declared in a charset other than UTF-8 is 415 UNSUPPORTED_CONTENT_TYPE and changes nothing; utf-8 in any spelling is read', async () => {
    const body = JSON.stringify({ symbol: 'COMI', price_micros: 86_000_000 });
    for (const charset of ['utf-16', 'UTF-16LE', '"iso-8859-1"', 'latin1']) {
      const res = await t.req('POST', '/admin/sandbox/quote', {
        raw: body,
        contentType: `application/json; charset=${charset}`,
      });
      expect(res.status, charset).toBe(415);
      expectErrorBody(res.body, 'UNSUPPORTED_CONTENT_TYPE');
      expect(res.body.error.message, charset).toContain('UTF-8');
    }
    const before = (await t.req('GET', '/v1/instruments/COMI/quote')).body.price_micros;
    expect(before).not.toBe(86_000_000);
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"', 'utf8']) {
      const res = await t.req('POST', '/admin/sandbox/quote', {
        raw: body,
        contentType: `application/json; charset=${charset}`,
      });
      expect(res.status, charset).toBe(200);
    }
    expect((await t.req('GET', '/v1/instruments/COMI/quote')).body.price_micros).toBe(86_000_000);
  });

  it('a body that fails its schema is 422 VALIDATION_FAILED naming the field path', async () => {
    const res = await t.req('POST', '/admin/sandbox/quote', { body: { symbol: 'COMI', price_micros: 'lots' } });
    expect(res.status).toBe(422);
    expectErrorBody(res.body, 'VALIDATION_FAILED');
    expect(res.body.error.message).toContain('body.price_micros');
  });

  it('a JSON body over 1 MiB is 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.req('POST', '/admin/sandbox/quote', {
      raw: JSON.stringify({ symbol: 'x'.repeat(1_100_000) }),
      contentType: 'application/json',
    });
    expect(res.status).toBe(413);
    expectErrorBody(res.body, 'PAYLOAD_TOO_LARGE');
  });

  it('every registered code has a status, message, cause and remedy', () => {
    for (const [code, e] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(e.status).toBeGreaterThanOrEqual(400);
      expect(e.message.length && e.cause.length && e.remedy.length).toBeGreaterThan(0);
    }
  });

  it('request ids are distinct per request', async () => {
    const a = await t.req('GET', '/v1/nope');
    const b = await t.req('GET', '/v1/nope');
    expect(a.body.request_id).not.toBe(b.body.request_id);
  });
});

describe('GET /openapi.json: the OpenAPI 3 document generated from the route schemas', () => {
  it('lists every route with its security and the error schema', async () => {
    const res = await t.req('GET', '/openapi.json', { as: 'none' });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/v1/clock'].get.security).toEqual([{ bearer: [] }]);
    expect(
      doc.paths['/v1/markets/{market_id}/instruments/{symbol}/ohlcv'].get.parameters.map((p: any) => p.name),
    ).toEqual(['market_id', 'symbol', 'days']);
    expect(doc.paths['/admin/sandbox/clock-advance'].post.requestBody).toBeDefined();
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toContain('NOT_FOUND');
  });
});

describe('GET /healthz', () => {
  it('answers ok without credentials', async () => {
    const res = await t.req('GET', '/healthz', { as: 'none' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });
});
