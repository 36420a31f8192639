// "One resource, one idempotency scope": a path in any spelling but its canonical one is refused with
// 400 NON_CANONICAL_PATH before routing, authentication, idempotency and the journal (docs/api.md,
// "Paths"), so one key is one effect and every journal the daemon writes names paths replay accepts.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { onboardInvestor } from '../helpers/onboarding.js';
import { canonicalPath } from '../../daemon/http/canonical-path.js';
import { sign } from '../../daemon/contract/signing.js';

let t: TestApp;
let investorId: string;
let port: number;
beforeAll(async () => {
  t = await makeApp();
  ({ investorId } = await onboardInvestor(t));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

/** The path sent byte for byte over a socket (inject and URL-based clients would resolve dot segments first). */
function rawPost(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path, headers: { ...headers, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
afterAll(() => t.close());

const count = (sql: string) => (t.deps.db.prepare(sql).get() as { n: number }).n;
const ALIASES = [
  '/v1/transfers/',
  '/v1/%74ransfers',
  '/v1/%74%72ansfers',
  '//v1/transfers',
  '/v1//transfers',
  '/v1/./transfers',
  '/v1/x/../transfers',
  '/v1/%2e/transfers',
  '/./v1/transfers',
];

describe('canonicalPath', () => {
  it.each([
    ['/v1/transfers', '/v1/transfers'],
    ['/v1/transfers/', '/v1/transfers'],
    ['/v1/%74ransfers', '/v1/transfers'],
    ['//v1//transfers//', '/v1/transfers'],
    ['/v1/a/./b/../transfers', '/v1/a/transfers'],
    ['/v1/%2E%2e/transfers', '/transfers'],
    ['/v1/orders/a%2fb', '/v1/orders/a%2Fb'],
    ['/', '/'],
  ])('%s is spelled %s', (path, canonical) => {
    expect(canonicalPath(path)).toBe(canonical);
  });
});

describe('one resource, one path', () => {
  it('every alias of POST /v1/transfers is refused with 400 NON_CANONICAL_PATH naming the canonical path, and a key used on one applies once', async () => {
    const body = { investor_id: investorId, direction: 'deposit', amount_micros: 1_000_000_000 };
    const first = await t.req('POST', '/v1/transfers', { body, idempotencyKey: 'one-key' });
    expect(first.status).toBe(201);
    const transfers = count('SELECT COUNT(*) AS n FROM transfers');
    const journal = count('SELECT COUNT(*) AS n FROM journal');
    const idem = count('SELECT COUNT(*) AS n FROM idempotency');
    for (const alias of ALIASES) {
      // Signed over the alias as sent: before this rule the signature passed and the alias was a new scope.
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = sign(t.creds.tenant.signing_secret, {
        timestamp,
        method: 'POST',
        path: alias,
        rawQuery: '',
        idempotencyKey: 'one-key',
        body: JSON.stringify(body),
      });
      const headers = {
        authorization: `Bearer ${t.creds.tenant.api_key}`,
        'idempotency-key': 'one-key',
        'x-svc-timestamp': timestamp,
        'x-svc-signature': signature,
      };
      const res = await rawPost(alias, JSON.stringify(body), headers);
      expect([alias, res.status, res.body.error.code]).toEqual([alias, 400, 'NON_CANONICAL_PATH']);
      expect(res.body.error.message).toContain('send /v1/transfers');
      expect(res.body.request_id).toMatch(/^req_/);
    }
    expect(count('SELECT COUNT(*) AS n FROM transfers')).toBe(transfers);
    expect(count('SELECT COUNT(*) AS n FROM journal')).toBe(journal);
    expect(count('SELECT COUNT(*) AS n FROM idempotency')).toBe(idem);
  });

  it('reads are held to the same rule, the query string is not part of it, and an unknown canonical path is still 404', async () => {
    const ok = await t.req('GET', `/v1/investors/${investorId}?x=1/`);
    expect(ok.status).toBe(200);
    const alias = await t.req('GET', `/v1/investors/${investorId}/`);
    expect([alias.status, alias.body.error.code]).toEqual([400, 'NON_CANONICAL_PATH']);
    const escaped = await t.req('GET', `/v1/investors/${investorId.replace('inv', '%69nv')}`);
    expect([escaped.status, escaped.body.error.code]).toEqual([400, 'NON_CANONICAL_PATH']);
    const unknown = await t.req('GET', '/v1/nowhere');
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'ROUTE_NOT_FOUND']);
    const unknownAlias = await t.req('GET', '/v1/nowhere/');
    expect([unknownAlias.status, unknownAlias.body.error.code]).toEqual([400, 'NON_CANONICAL_PATH']);
  });

  it('every path the journal holds is canonical', async () => {
    const paths = t.deps.db.prepare('SELECT path FROM journal').all() as { path: string }[];
    expect(paths.length).toBeGreaterThan(0);
    for (const { path } of paths) expect(canonicalPath(path)).toBe(path);
  });
});
