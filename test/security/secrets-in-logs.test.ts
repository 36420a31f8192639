// Secrets never reach the logs (issue 7): a real daemon started by `svc sandbox start` serves
// authenticated, signed, refused and successful requests of every realm — onboardings with ID images
// (through the CLI and over plain fetch), deposits (CLI and fetch), dealer views of ID images, a tenant
// created by the back office — and then $SVC_HOME/daemon.log and daemon.out are searched for every api
// key, signing secret, operator key, signature header value, national id, the key-encryption key and
// the image bytes, in the encodings a careless logger would use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { BALANCED, SAMPLE_BACK, SAMPLE_FRONT, applicant, nationalId } from '../helpers/onboarding.js';
import { sign, splitUrl } from '../../daemon/contract/signing.js';

let sbx: CliSandbox;
let info: Record<string, string>;
/** Every secret value that went over the wire or was minted, by what it is. */
const secrets = new Map<string, string>();
const signatures: string[] = [];
let requests = 0;
let logText = '';
let outText = '';
let credentialsText = '';

interface Sent {
  method: string;
  path: string;
  body?: unknown;
  raw?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  key?: string;
  signed?: boolean;
  secret?: string;
  tsOffset?: number;
}

async function call(s: Sent): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...(s.headers ?? {}) };
  const payload = s.raw ?? (s.body !== undefined ? Buffer.from(JSON.stringify(s.body)) : undefined);
  if (payload) headers['content-type'] = s.contentType ?? 'application/json';
  if (s.key) headers['idempotency-key'] = s.key;
  if (s.signed) {
    const ts = String(Math.floor(Date.now() / 1000) + (s.tsOffset ?? 0));
    const { path, rawQuery } = splitUrl(s.path);
    const sig = sign(s.secret ?? info.signing_secret, {
      timestamp: ts,
      method: s.method,
      path,
      rawQuery,
      idempotencyKey: s.key ?? '',
      body: payload ?? '',
    });
    headers['x-svc-timestamp'] = ts;
    headers['x-svc-signature'] = sig;
    signatures.push(sig.slice(3));
  }
  const res = await fetch(info.base_url + s.path, { method: s.method, headers, body: payload });
  requests++;
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* binary */
  }
  return { status: res.status, body };
}

const bearer = () => ({ authorization: `Bearer ${info.api_key}` });
let n = 0;
const key = () => `logs-${++n}`;

beforeAll(async () => {
  // debug: quick successful reads are logged too, so every request has its line to leak into.
  sbx = await startSandbox(['--clock', 'frozen', '--log-level', 'debug']);
  info = sbx.info;
  for (const k of [
    'api_key',
    'signing_secret',
    'admin_key',
    'dealer_key',
    'security_key',
    'approver_key',
    'compliance_key',
    'auditor_key',
  ]) {
    expect(info[k], k).toEqual(expect.any(String));
    secrets.set(k, info[k]);
  }
  secrets.set('kek (hex)', readFileSync(join(sbx.home, 'kek.key')).toString('hex'));
  secrets.set('kek (base64)', readFileSync(join(sbx.home, 'kek.key')).toString('base64'));

  // Onboarding through the CLI (it uploads the sample images and signs nothing but keys everything).
  const cliId = nationalId();
  secrets.set('national id (CLI)', cliId.nationalId);
  const kyc = await sbx.svc([
    'kyc',
    'apply',
    '--full-name',
    'Mona Hassan',
    '--national-id',
    cliId.nationalId,
    '--dob',
    cliId.dateOfBirth,
    '--email',
    'mona@example.com',
    '--phone',
    '01012345678',
    '--address',
    '12 Tahrir Street, Cairo',
    '--sample-documents',
    '--json',
  ]);
  expect(kyc.code, kyc.stderr).toBe(0);
  const cliInvestor = kyc.json.investor_id as string;
  const dep = await sbx.svc(['transfer', 'deposit', '1500', '--investor', cliInvestor, '--json']);
  expect(dep.code, dep.stderr).toBe(0);

  // Onboarding over fetch: create, both ID images, submit, suitability; then a signed deposit.
  const body = applicant();
  secrets.set('national id (fetch)', body.national_id);
  const app = await call({ method: 'POST', path: '/v1/kyc/applications', body, key: key(), headers: bearer() });
  expect(app.status).toBe(201);
  for (const [side, raw] of [
    ['national_id_front', SAMPLE_FRONT],
    ['national_id_back', SAMPLE_BACK],
  ] as const) {
    expect(
      (
        await call({
          method: 'PUT',
          path: `/v1/kyc/applications/${app.body.application_id}/documents/${side}`,
          raw,
          contentType: 'image/png',
          key: key(),
          headers: bearer(),
        })
      ).status,
    ).toBe(200);
  }
  expect(
    (
      await call({
        method: 'POST',
        path: `/v1/kyc/applications/${app.body.application_id}/submit`,
        key: key(),
        headers: bearer(),
      })
    ).status,
  ).toBe(200);
  const investorId = (
    await call({ method: 'GET', path: `/v1/kyc/applications/${app.body.application_id}`, headers: bearer() })
  ).body.investor_id as string;
  expect(investorId).toMatch(/^inv_/);
  expect(
    (
      await call({
        method: 'PUT',
        path: `/v1/investors/${investorId}/suitability`,
        body: { questionnaire: BALANCED, risk_acknowledged: true },
        key: key(),
        headers: bearer(),
      })
    ).status,
  ).toBe(200);
  const deposit = { investor_id: investorId, direction: 'deposit', amount_micros: 2_000_000_000 };
  expect(
    (await call({ method: 'POST', path: '/v1/transfers', body: deposit, key: key(), signed: true, headers: bearer() }))
      .status,
  ).toBe(201);
  expect((await sbx.svc(['clock', 'advance', '--minutes', '5', '--json'])).code).toBe(0);

  // A referred application the dealer reviews, viewing the decrypted ID images.
  const referred = applicant({}, '9999');
  secrets.set('national id (referred)', referred.national_id);
  const ref = await call({
    method: 'POST',
    path: '/v1/kyc/applications',
    body: referred,
    key: key(),
    headers: bearer(),
  });
  for (const [side, raw] of [
    ['national_id_front', SAMPLE_FRONT],
    ['national_id_back', SAMPLE_BACK],
  ] as const) {
    await call({
      method: 'PUT',
      path: `/v1/kyc/applications/${ref.body.application_id}/documents/${side}`,
      raw,
      contentType: 'image/png',
      key: key(),
      headers: bearer(),
    });
  }
  await call({
    method: 'POST',
    path: `/v1/kyc/applications/${ref.body.application_id}/submit`,
    key: key(),
    headers: bearer(),
  });
  const dealer = { 'x-console-key': info.dealer_key };
  expect((await call({ method: 'GET', path: '/broker/v1/kyc', headers: dealer })).status).toBe(200);
  const image = await call({
    method: 'GET',
    path: `/broker/v1/kyc/${ref.body.application_id}/documents/national_id_front`,
    headers: dealer,
  });
  expect(image.status).toBe(200);

  // Operators: reads, a tenant provisioned (its new key and secret are secrets too), a refused grant.
  const admin = { 'x-admin-key': info.admin_key };
  expect((await call({ method: 'GET', path: '/admin/audit?limit=5', headers: admin })).status).toBe(200);
  const tenant = await call({ method: 'POST', path: '/admin/tenants', body: { name: 'logs-second' }, headers: admin });
  expect(tenant.status).toBe(201);
  secrets.set('new tenant api_key', tenant.body.api_key);
  secrets.set('new tenant signing_secret', tenant.body.signing_secret);
  expect(
    (await call({ method: 'GET', path: '/admin/sandbox/state', headers: { 'x-admin-key': info.security_key } })).status,
  ).toBe(403);
  expect(
    (await call({ method: 'GET', path: '/admin/audit?limit=1', headers: { 'x-admin-key': info.approver_key } })).status,
  ).toBe(200);
  expect(
    (await call({ method: 'GET', path: '/v1/clock', headers: { authorization: `Bearer ${tenant.body.api_key}` } }))
      .status,
  ).toBe(200);

  // Refusals: unknown keys (which look like secrets, and must not be logged either), bad and stale signatures, bad
  // JSON.
  const guessed = 'sk_sbx_GuessedKeyThatMustNotBeLogged0001';
  secrets.set('a guessed api key', guessed);
  expect(
    (await call({ method: 'GET', path: '/v1/clock', headers: { authorization: `Bearer ${guessed}` } })).status,
  ).toBe(401);
  expect(
    (
      await call({
        method: 'GET',
        path: '/admin/audit',
        headers: { 'x-admin-key': 'ak_sbx_GuessedAdminKeyNotLogged0001' },
      })
    ).status,
  ).toBe(401);
  secrets.set('a guessed admin key', 'ak_sbx_GuessedAdminKeyNotLogged0001');
  expect(
    (
      await call({
        method: 'POST',
        path: '/v1/transfers',
        body: deposit,
        key: key(),
        signed: true,
        secret: 'ss_sbx_wrong',
        headers: bearer(),
      })
    ).status,
  ).toBe(401);
  expect(
    (
      await call({
        method: 'POST',
        path: '/v1/transfers',
        body: deposit,
        key: key(),
        signed: true,
        tsOffset: -400,
        headers: bearer(),
      })
    ).status,
  ).toBe(401);
  expect(
    (
      await call({
        method: 'POST',
        path: '/v1/transfers',
        raw: Buffer.from('{"investor_id":'),
        key: key(),
        signed: true,
        headers: bearer(),
      })
    ).status,
  ).toBe(400);
  expect(
    (
      await call({
        method: 'POST',
        path: '/v1/transfers',
        body: { ...deposit, amount_micros: -1 },
        key: key(),
        signed: true,
        headers: bearer(),
      })
    ).status,
  ).toBe(422);
  expect((await call({ method: 'GET', path: `/v1/investors/${investorId}/balances`, headers: bearer() })).status).toBe(
    200,
  );
  expect((await sbx.svc(['api', 'GET', '/v1/transfers', '--json'])).code).toBe(0);

  // Stop gracefully so the logger flushes, then read both files.
  expect((await sbx.svc(['sandbox', 'stop'])).code).toBe(0);
  logText = readFileSync(join(sbx.home, 'daemon.log'), 'latin1');
  outText = readFileSync(join(sbx.home, 'daemon.out'), 'latin1');
  credentialsText = readFileSync(join(sbx.home, 'credentials.json'), 'latin1');
}, 120_000);

afterAll(async () => sbx?.stop());

function imageNeedles(img: Buffer): Array<[string, string]> {
  const mid = img.subarray(Math.floor(img.length / 2), Math.floor(img.length / 2) + 48);
  return [
    ['image bytes (raw)', mid.toString('latin1')],
    ['image bytes (base64)', img.subarray(0, 48).toString('base64').slice(0, 40)],
    ['image bytes (base64, middle)', mid.toString('base64').slice(4, 44)],
    ['image bytes (hex)', mid.toString('hex')],
    ['image bytes (utf8-decoded)', mid.toString('utf8')],
    ['image bytes (JSON-escaped)', JSON.stringify(mid.toString('latin1')).slice(1, 41)],
    ['image bytes (JSON-escaped utf8)', JSON.stringify(mid.toString('utf8')).slice(1, 41)],
    ['image bytes (Buffer JSON)', JSON.stringify([...mid.subarray(0, 12)]).slice(1, -1)],
  ];
}

describe('the daemon logs', () => {
  it('exist and record the requests (so the search below looks at a real log)', () => {
    const lines = logText.split('\n').filter((l) => l.includes('"msg":"request"'));
    expect(lines.length).toBeGreaterThanOrEqual(requests);
    expect(requests).toBeGreaterThanOrEqual(25);
    expect(logText).toContain('"method":"GET"');
    expect(logText).toContain('"status":401');
    expect(logText).toContain('"status":403');
  });

  it('the search finds secrets where they are meant to be (credentials.json, mode 0600)', () => {
    for (const k of ['api_key', 'signing_secret', 'admin_key', 'dealer_key'])
      expect(credentialsText.includes(secrets.get(k)!), k).toBe(true);
  });

  it.each(['daemon.log', 'daemon.out'])(
    '%s holds no api key, signing secret, operator key, signature, national id, key-encryption key or image bytes',
    (file) => {
      const text = file === 'daemon.log' ? logText : outText;
      const needles: Array<[string, string]> = [
        ...secrets,
        ...signatures.map((s, i): [string, string] => [`signature #${i + 1}`, s]),
        ...imageNeedles(SAMPLE_FRONT),
        ...imageNeedles(SAMPLE_BACK),
      ];
      expect(signatures.length).toBeGreaterThanOrEqual(5);
      const found = needles.filter(([, v]) => v.length >= 8 && text.includes(v)).map(([what]) => what);
      expect(found, `${file} leaks`).toEqual([]);
      // Header names that carry credentials never appear with a value.
      expect(text).not.toMatch(/"(authorization|x-admin-key|x-console-key|x-svc-signature)":"(?!\[Redacted\])/i);
    },
  );
});
