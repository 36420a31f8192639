// "Signatures over bytes": the signature and the body hash cover the raw bytes sent; a JSON body that
// is not valid UTF-8 is 400 MALFORMED_JSON (never a lossy decode whose hash then fails as a 401), and
// an ID-image upload is judged by its magic bytes whatever its Content-Type says (docs/api.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { applicant, onboardInvestor, SAMPLE_FRONT } from '../helpers/onboarding.js';
import { sign } from '../../daemon/contract/signing.js';

let t: TestApp;
let investorId: string;
beforeAll(async () => {
  t = await makeApp();
  ({ investorId } = await onboardInvestor(t));
});
afterAll(() => t.close());

const count = (table: string) => (t.deps.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

/** A signed POST of exactly these bytes, signed over exactly these bytes. */
function signedPost(path: string, bytes: Buffer, key: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(t.creds.tenant.signing_secret, {
    timestamp,
    method: 'POST',
    path,
    rawQuery: '',
    idempotencyKey: key,
    body: bytes,
  });
  return t.app.inject({
    method: 'POST',
    url: path,
    payload: bytes,
    headers: {
      authorization: `Bearer ${t.creds.tenant.api_key}`,
      'content-type': 'application/json',
      'idempotency-key': key,
      'x-svc-timestamp': timestamp,
      'x-svc-signature': signature,
    },
  });
}

const deposit = (investor: string) => `{"investor_id":"${investor}","direction":"deposit","amount_micros":1000000}`;

describe('signatures over bytes', () => {
  it.each([
    ['a lone 0xFF byte', Buffer.from([0xff])],
    ['a truncated two-byte sequence', Buffer.from([0xc3])],
    ['an overlong encoding of "/"', Buffer.from([0xc0, 0xaf])],
    ['a UTF-16 surrogate encoded as UTF-8', Buffer.from([0xed, 0xa0, 0x80])],
  ])('a correctly signed body holding %s is 400 MALFORMED_JSON, not 401, and stores nothing', async (_name, bad) => {
    const text = deposit(investorId);
    const at = text.indexOf('"direction"') - 2;
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), bad, Buffer.from(text.slice(at))]);
    const before = [count('idempotency'), count('journal'), count('transfers')];
    const res = await signedPost('/v1/transfers', bytes, `bad-utf8-${bad.toString('hex')}`);
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'MALFORMED_JSON']);
    expect(res.json().error.message).toContain('UTF-8');
    expect([count('idempotency'), count('journal'), count('transfers')]).toEqual(before);
  });

  it('a body with a byte-order mark is malformed JSON, and the mark is not silently dropped from what was signed', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(deposit(investorId))]);
    const res = await signedPost('/v1/transfers', bytes, 'bom-1');
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'MALFORMED_JSON']);
  });

  it('multi-byte UTF-8 (an Arabic name) is read as sent, and a signed body is verified over its bytes', async () => {
    const bytes = Buffer.from(JSON.stringify(applicant({ full_name: 'منى حسن' })), 'utf8');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/kyc/applications',
      payload: bytes,
      headers: {
        authorization: `Bearer ${t.creds.tenant.api_key}`,
        'content-type': 'application/json; charset=utf-8',
        'idempotency-key': 'arabic-1',
      },
    });
    expect(res.statusCode).toBe(201);
    const deposited = await signedPost('/v1/transfers', Buffer.from(deposit(investorId)), 'plain-1');
    expect(deposited.statusCode).toBe(201);
  });
});

describe('an upload is judged by its magic bytes, whatever its Content-Type', () => {
  async function application(): Promise<string> {
    const res = await t.req('POST', '/v1/kyc/applications', { body: applicant() });
    expect(res.status).toBe(201);
    return res.body.application_id;
  }
  const upload = (id: string, raw: Buffer, contentType: string) =>
    t.req('PUT', `/v1/kyc/applications/${id}/documents/national_id_front`, { raw, contentType });

  it.each([
    'application/json',
    'application/json; charset=latin1',
    'text/plain',
    'image/jpeg',
    'application/octet-stream',
  ])('a PNG sent as %s is stored as image/png', async (contentType) => {
    const id = await application();
    const res = await upload(id, SAMPLE_FRONT, contentType);
    expect([res.status, res.body.content_type, res.body.size_bytes]).toEqual([200, 'image/png', SAMPLE_FRONT.length]);
  });

  it('bytes that are not an image are 415 UNSUPPORTED_MEDIA_TYPE even when labelled image/png or application/json', async () => {
    const id = await application();
    for (const contentType of ['image/png', 'application/json']) {
      const res = await upload(id, Buffer.from('{"not":"an image"}'), contentType);
      expect([contentType, res.status, res.body.error.code]).toEqual([contentType, 415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
  });
});
