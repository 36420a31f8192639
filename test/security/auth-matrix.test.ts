// Authentication matrix (issue 7, "Authentication and isolation"), derived from /openapi.json so every
// route, including routes added later, is covered: the auth mode comes from `security` (bearer,
// idempotencyKey, signature; adminKey or consoleKey) and the grant from `x-grant`; the operator
// identities and their grants from daemon/tenancy/keys.ts OPERATOR_ROLES.
//
// Requests that pass authentication carry a body the route's strict schema refuses ({"__auth_probe__":
// true}) or an id that does not exist, so nothing here changes state except where a test says so.
import { afterAll, describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app.js';
import { sign, splitUrl } from '../../daemon/contract/signing.js';
import { tenantAuthFor } from '../../daemon/contract/routes-auth.js';
import { OPERATOR_ROLES } from '../../daemon/tenancy/keys.js';
import { STEP_UP_ROUTES } from '../../daemon/contract/grants.js';
import { SAMPLE_FRONT } from '../helpers/onboarding.js';
import { injectSettled } from '../helpers/inject-settled.js';
import {
  errorShapeProblem,
  fillPath,
  loadOperations,
  operatorKey,
  realmHeader,
  rolesHolding,
  type Operation,
  type Res,
} from '../helpers/fuzz.js';

let wall = Date.parse('2030-06-01T12:00:00Z');
const t = await makeApp({ wallNow: () => wall });
const ops = await loadOperations(t);
const other = (await t.req('POST', '/admin/tenants', { body: { name: 'auth-matrix-other' } })).body as {
  api_key: string;
  signing_secret: string;
};

const tenantOps = ops.filter((o) => o.auth.kind === 'tenant');
const operatorOps = ops.filter((o) => o.auth.kind === 'operator');
const signedOps = tenantOps.filter((o) => o.auth.kind === 'tenant' && o.auth.mode === 'S');
const keyedOps = tenantOps.filter((o) => o.auth.kind === 'tenant' && o.auth.mode !== 'B');
const publicOps = ops.filter((o) => o.auth.kind === 'none');
const ROLES = Object.keys(OPERATOR_ROLES) as Array<keyof typeof OPERATOR_ROLES>;
const PROBE_BODY = JSON.stringify({ __auth_probe__: true });

/** The route's URL with enum parameters at a valid value and ids that do not exist. */
function probeUrl(op: Operation, id = 'zz_probe0001'): string {
  const values: Record<string, string> = {};
  for (const p of op.pathParams) values[p.name] = Array.isArray(p.schema.enum) ? String(p.schema.enum[0]) : id;
  return fillPath(op.path, values);
}

function probePayload(op: Operation): { payload?: Buffer; contentType?: string } {
  if (op.jsonBody) return { payload: Buffer.from(PROBE_BODY), contentType: 'application/json' };
  if (op.rawBodyTypes.length)
    return {
      payload: SAMPLE_FRONT,
      contentType: op.rawBodyTypes.includes('image/png') ? 'image/png' : op.rawBodyTypes[0],
    };
  return {};
}

let keyN = 0;
let sent = 0;
const newKey = () => `am-${++keyN}`;

interface Send {
  url?: string;
  headers?: Record<string, string | undefined>;
  payload?: Buffer;
}

async function send(op: Operation, o: Send = {}): Promise<Res> {
  const { payload, contentType } = probePayload(op);
  const headers: Record<string, string> = {};
  if (contentType) headers['content-type'] = contentType;
  for (const [k, v] of Object.entries(o.headers ?? {})) if (v !== undefined) headers[k] = v;
  // Money and approval routes also need a step-up code of the identity (the request helper's clock).
  const opKey = headers['x-admin-key'] ?? headers['x-console-key'];
  if (
    opKey &&
    t.stepUpSecrets.has(opKey) &&
    STEP_UP_ROUTES.has(`${op.method} ${op.path.replace(/\{([a-z_]+)\}/g, ':$1')}`)
  )
    headers['x-step-up-code'] ??= t.stepUpCodeFor(opKey);
  const res = await injectSettled(t.app, {
    method: op.method as 'GET',
    url: o.url ?? probeUrl(op),
    headers,
    payload: o.payload ?? payload,
  });
  sent++;
  let body: any;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text: res.body, body };
}

/** Headers of a correctly signed request (signature over exactly what `send` puts on the wire). */
function signedHeaders(
  op: Operation,
  o: {
    url?: string;
    payload?: Buffer;
    key?: string;
    ts?: number;
    secret?: string;
    apiKey?: string;
    signUrl?: string;
    signPayload?: Buffer;
    signKey?: string;
  } = {},
) {
  const url = o.url ?? probeUrl(op);
  const payload = o.payload ?? probePayload(op).payload ?? Buffer.alloc(0);
  const key = o.key ?? newKey();
  const ts = String(o.ts ?? Math.floor(wall / 1000));
  const { path, rawQuery } = splitUrl(o.signUrl ?? url);
  const signature = sign(o.secret ?? t.creds.tenant.signing_secret, {
    timestamp: ts,
    method: op.method,
    path,
    rawQuery,
    idempotencyKey: o.signKey ?? key,
    body: o.signPayload ?? payload,
  });
  return {
    authorization: `Bearer ${o.apiKey ?? t.creds.tenant.api_key}`,
    'idempotency-key': key,
    'x-svc-timestamp': ts,
    'x-svc-signature': signature,
  };
}

/** Valid credentials for the route (signed for S routes), so the request reaches validation. */
function validHeaders(op: Operation): Record<string, string> {
  if (op.auth.kind === 'operator')
    return { [realmHeader(op.auth.realm)]: operatorKey(t, rolesHolding(op.auth.realm, op.auth.grant)[0]) };
  if (op.auth.kind === 'tenant' && op.auth.mode === 'S') return signedHeaders(op);
  if (op.auth.kind === 'tenant' && op.auth.mode === 'I')
    return { authorization: `Bearer ${t.creds.tenant.api_key}`, 'idempotency-key': newKey() };
  return { authorization: `Bearer ${t.creds.tenant.api_key}` };
}

function expectError(res: Res, status: number, code: string, what: string): void {
  expect(errorShapeProblem(res), `${what}: ${res.status} ${res.text}`).toBeNull();
  expect([res.status, res.body.error.code], `${what}: ${res.text}`).toEqual([status, code]);
}

function expectPastAuth(res: Res, what: string): void {
  expect(res.status, `${what}: ${res.text}`).toBeLessThan(500);
  expect([401, 403], `${what} must pass authentication: ${res.status} ${res.text}`).not.toContain(res.status);
}

const GARBAGE = {
  authorization: 'Bearer sk_sbx_garbage0000000000000000000000',
  'x-admin-key': 'ak_sbx_garbage000000000000000000000',
  'x-console-key': 'ck_sbx_garbage000000000000000000000',
};

describe('the route inventory', () => {
  it('is read from /openapi.json: every route declares how it authenticates', () => {
    expect(ops.length).toBeGreaterThan(40);
    expect(tenantOps.length + operatorOps.length + publicOps.length).toBe(ops.length);
  });

  it('public routes are reads outside /v1, /admin and /broker (static assets)', () => {
    for (const op of publicOps) {
      expect(op.method, op.key).toBe('GET');
      expect(op.path, op.key).not.toMatch(/^\/(v1|admin|broker)\//);
    }
  });

  it('every operator grant is held by some operator identity (no route nobody can call)', () => {
    for (const op of operatorOps) {
      if (op.auth.kind !== 'operator') continue;
      expect(rolesHolding(op.auth.realm, op.auth.grant), op.key).not.toEqual([]);
    }
  });

  it("the clients' signing table (daemon/contract/routes-auth.ts) agrees with every /v1 route's security", () => {
    for (const op of tenantOps) {
      if (op.auth.kind !== 'tenant') continue;
      expect(tenantAuthFor(op.method, probeUrl(op)), op.key).toBe(op.auth.mode);
    }
  });
});

describe.each(tenantOps.map((op) => [op.key, op] as const))('%s (tenant realm)', (_k, op) => {
  it('without credentials: 401 UNAUTHENTICATED', async () => {
    expectError(await send(op), 401, 'UNAUTHENTICATED', 'no key');
  });

  it('with a garbage key, a malformed Authorization or another scheme: 401 UNAUTHENTICATED', async () => {
    for (const authorization of [
      GARBAGE.authorization,
      'Bearer',
      'Bearer  ',
      t.creds.tenant.api_key,
      `Basic ${Buffer.from(`u:${t.creds.tenant.api_key}`).toString('base64')}`,
      `Bearer ${t.creds.tenant.api_key}x`,
      `Bearer ${t.creds.tenant.api_key.slice(0, -1)}`,
      `Bearer ${'k'.repeat(5000)}`,
    ]) {
      expectError(
        await send(op, { headers: { ...validHeaders(op), authorization } }),
        401,
        'UNAUTHENTICATED',
        authorization.slice(0, 40),
      );
    }
  });

  it('with operator keys only (X-Admin-Key, X-Console-Key, or an operator key as the bearer): 401 UNAUTHENTICATED', async () => {
    const { authorization: _a, ...rest } = validHeaders(op);
    const o = t.creds.operators;
    expectError(
      await send(op, { headers: { ...rest, 'x-admin-key': o.admin_key, 'x-console-key': o.dealer_key } }),
      401,
      'UNAUTHENTICATED',
      'operator headers',
    );
    for (const k of [o.admin_key, o.dealer_key, o.security_key, o.approver_key, o.compliance_key, o.auditor_key]) {
      expectError(
        await send(op, { headers: { ...rest, authorization: `Bearer ${k}` } }),
        401,
        'UNAUTHENTICATED',
        'operator key as bearer',
      );
    }
  });

  it('with valid credentials the request gets past authentication', async () => {
    expectPastAuth(await send(op, { headers: validHeaders(op) }), 'valid');
  });
});

describe.each(keyedOps.map((op) => [op.key, op] as const))('%s (Idempotency-Key required)', (_k, op) => {
  it('without an Idempotency-Key, or with an empty one: 400 IDEMPOTENCY_KEY_REQUIRED', async () => {
    const { 'idempotency-key': _key, ...rest } = validHeaders(op);
    expectError(await send(op, { headers: rest }), 400, 'IDEMPOTENCY_KEY_REQUIRED', 'missing key');
    expectError(
      await send(op, { headers: { ...rest, 'idempotency-key': '' } }),
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
      'empty key',
    );
  });

  it('with a key over 255 characters or with control characters: 400 IDEMPOTENCY_KEY_INVALID', async () => {
    for (const key of ['k'.repeat(256), 'a\tb']) {
      const headers =
        op.auth.kind === 'tenant' && op.auth.mode === 'S'
          ? signedHeaders(op, { key })
          : { ...validHeaders(op), 'idempotency-key': key };
      expectError(await send(op, { headers }), 400, 'IDEMPOTENCY_KEY_INVALID', JSON.stringify(key.slice(0, 10)));
    }
  });
});

describe.each(signedOps.map((op) => [op.key, op] as const))('%s (signed)', (_k, op) => {
  const bodyOf = () => probePayload(op).payload ?? Buffer.alloc(0);
  const url = () => probeUrl(op);

  it('a correctly signed request gets past authentication (the baseline for the refusals below)', async () => {
    expectPastAuth(await send(op, { headers: signedHeaders(op) }), 'signed');
  });

  it('unsigned, or without the timestamp: 401 SIGNATURE_INVALID', async () => {
    const { 'x-svc-signature': _s, ...noSig } = signedHeaders(op);
    expectError(await send(op, { headers: noSig }), 401, 'SIGNATURE_INVALID', 'no signature');
    const { 'x-svc-timestamp': _ts, ...noTs } = signedHeaders(op);
    expectError(await send(op, { headers: noTs }), 401, 'SIGNATURE_INVALID', 'no timestamp');
  });

  it('a tampered body (other bytes, even the same JSON with a space added): 401 SIGNATURE_INVALID', async () => {
    for (const sent of [
      Buffer.concat([bodyOf(), Buffer.from(' ')]),
      Buffer.from('{"__auth_probe__":false}'),
      Buffer.from('{}'),
    ]) {
      expectError(
        await send(op, { headers: signedHeaders(op), payload: sent }),
        401,
        'SIGNATURE_INVALID',
        `body ${sent.toString().slice(0, 30)}`,
      );
    }
  });

  it('a tampered path: signed for another path, 401 SIGNATURE_INVALID; sent with a trailing slash, 400 NON_CANONICAL_PATH before the signature is looked at', async () => {
    const u = url();
    const otherPath = op.pathParams.length ? probeUrl(op, 'zz_other0001') : `${u}x`;
    expectError(
      await send(op, { headers: signedHeaders(op, { signUrl: otherPath }) }),
      401,
      'SIGNATURE_INVALID',
      'signed for another path',
    );
    expectError(
      await send(op, { url: `${u}/`, headers: signedHeaders(op, { signUrl: u }) }),
      400,
      'NON_CANONICAL_PATH',
      'trailing slash',
    );
  });

  it('a tampered query (a parameter added to, or removed from, what was signed): 401 SIGNATURE_INVALID', async () => {
    const u = url();
    expectError(
      await send(op, { url: `${u}?x=1`, headers: signedHeaders(op, { signUrl: u }) }),
      401,
      'SIGNATURE_INVALID',
      'query added',
    );
    expectError(
      await send(op, { url: u, headers: signedHeaders(op, { signUrl: `${u}?x=1` }) }),
      401,
      'SIGNATURE_INVALID',
      'query removed',
    );
    expectError(
      await send(op, { url: `${u}?x=2`, headers: signedHeaders(op, { url: `${u}?x=2`, signUrl: `${u}?x=1` }) }),
      401,
      'SIGNATURE_INVALID',
      'query changed',
    );
  });

  it('a stale or future timestamp (301 s off the wall clock): 401 SIGNATURE_EXPIRED', async () => {
    const now = Math.floor(wall / 1000);
    for (const ts of [now - 301, now + 301, now - 86_400, 0]) {
      expectError(await send(op, { headers: signedHeaders(op, { ts }) }), 401, 'SIGNATURE_EXPIRED', `ts ${ts - now}`);
    }
    expectPastAuth(await send(op, { headers: signedHeaders(op, { ts: now - 299 }) }), '299 s old');
  });

  it('a signature replayed with a NEW Idempotency-Key: 401 SIGNATURE_INVALID (the key is inside the signed string)', async () => {
    const first = signedHeaders(op);
    expectPastAuth(await send(op, { headers: first }), 'first');
    expectError(
      await send(op, { headers: { ...first, 'idempotency-key': newKey() } }),
      401,
      'SIGNATURE_INVALID',
      'replayed with a new key',
    );
  });

  it('the same signed request replayed after the window: 401 SIGNATURE_EXPIRED, whatever the key', async () => {
    const first = signedHeaders(op);
    expectPastAuth(await send(op, { headers: first }), 'first');
    const saved = wall;
    wall += 301_000;
    try {
      expectError(await send(op, { headers: first }), 401, 'SIGNATURE_EXPIRED', 'same key, later');
      expectError(
        await send(op, { headers: { ...first, 'idempotency-key': newKey() } }),
        401,
        'SIGNATURE_EXPIRED',
        'new key, later',
      );
    } finally {
      wall = saved;
    }
  });

  it("signed with another tenant's secret, or with this tenant's secret under another tenant's key: 401 SIGNATURE_INVALID", async () => {
    expectError(
      await send(op, { headers: signedHeaders(op, { secret: other.signing_secret }) }),
      401,
      'SIGNATURE_INVALID',
      'other secret',
    );
    expectError(
      await send(op, { headers: signedHeaders(op, { apiKey: other.api_key }) }),
      401,
      'SIGNATURE_INVALID',
      'other key',
    );
  });

  it('a signature for another method, or a garbled one: 401 SIGNATURE_INVALID', async () => {
    const h = signedHeaders(op);
    const m = op.method === 'POST' ? 'PUT' : 'POST';
    const { path, rawQuery } = splitUrl(url());
    const forOther = sign(t.creds.tenant.signing_secret, {
      timestamp: h['x-svc-timestamp'],
      method: m,
      path,
      rawQuery,
      idempotencyKey: h['idempotency-key'],
      body: bodyOf(),
    });
    expectError(
      await send(op, { headers: { ...h, 'x-svc-signature': forOther } }),
      401,
      'SIGNATURE_INVALID',
      'other method',
    );
    for (const sig of [
      'v1=',
      'v1=zz',
      h['x-svc-signature'].slice(0, -1),
      h['x-svc-signature'].replace('v1=', 'v2='),
      h['x-svc-signature'].replace('v1=', ''),
      `v1=${'0'.repeat(64)}`,
    ]) {
      expectError(
        await send(op, { headers: { ...h, 'x-svc-signature': sig } }),
        401,
        'SIGNATURE_INVALID',
        sig.slice(0, 12),
      );
    }
  });
});

describe.each(operatorOps.map((op) => [op.key, op] as const))('%s (operator realm)', (_k, op) => {
  if (op.auth.kind !== 'operator') return;
  const { realm, grant } = op.auth;
  const header = realmHeader(realm);
  const otherHeader = realmHeader(realm === 'admin' ? 'console' : 'admin');

  it("without credentials, with a garbage key, or with the key in the other realm's header: 401 UNAUTHENTICATED", async () => {
    expectError(await send(op), 401, 'UNAUTHENTICATED', 'no key');
    expectError(
      await send(op, { headers: { [header]: GARBAGE[header as 'x-admin-key'] } }),
      401,
      'UNAUTHENTICATED',
      'garbage',
    );
    expectError(
      await send(op, { headers: { [otherHeader]: operatorKey(t, rolesHolding(realm, grant)[0]) } }),
      401,
      'UNAUTHENTICATED',
      'other header',
    );
  });

  it('with a tenant key (as the bearer, or in the operator header): 401 UNAUTHENTICATED', async () => {
    expectError(
      await send(op, { headers: { authorization: `Bearer ${t.creds.tenant.api_key}` } }),
      401,
      'UNAUTHENTICATED',
      'tenant bearer',
    );
    expectError(
      await send(op, { headers: { [header]: t.creds.tenant.api_key } }),
      401,
      'UNAUTHENTICATED',
      'tenant key in operator header',
    );
  });

  it.each(ROLES.map((r) => [r] as const))(
    `identity %s: holds ${grant} -> past authentication; lacks it -> 403 FORBIDDEN; other realm -> 401`,
    async (role) => {
      const key = operatorKey(t, role);
      const res = await send(op, { headers: { [header]: key } });
      if (OPERATOR_ROLES[role].realm !== realm) {
        expectError(res, 401, 'UNAUTHENTICATED', `${role} is not of realm ${realm}`);
      } else if ((OPERATOR_ROLES[role].grants as readonly string[]).includes(grant)) {
        expectPastAuth(res, `${role} holds ${grant}`);
      } else {
        expectError(res, 403, 'FORBIDDEN', `${role} lacks ${grant}`);
        expect(res.body.error.message).toContain(grant);
      }
    },
  );
});

afterAll(async () => {
  console.log(
    `auth matrix: ${sent} requests over ${ops.length} operations (${tenantOps.length} tenant, ` +
      `${signedOps.length} signed, ${keyedOps.length} keyed, ${operatorOps.length} operator, ` +
      `${publicOps.length} public)`,
  );
  await t.close();
});
