// Tenant isolation (issue 7): tenant B using tenant A's ids gets 404 NOT_FOUND — never 403, never A's
// data — on every /v1 route that takes an id (a path parameter, or investor_id in the body or the
// query), and no list shows B anything of A's. The routes come from /openapi.json, so routes added
// later are covered; the only explicit table is how to build a valid body for a route family.
//
// How: both tenants get the same resources (an onboarded, funded investor, KYC applications, a
// transfer, an order and a fund order when those routes exist). Every id that appears in A's answers
// and never in B's is a candidate. B sends each route each candidate first; then A sends the same
// requests: wherever the id means something to A (A's answer is not a 404), B's answer must be 404
// NOT_FOUND. A's own state, read by A, must be unchanged by everything B sent.
import { afterAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type Res } from '../helpers/app.js';
import { BALANCED, SAMPLE_FRONT, applicant, onboardInvestor } from '../helpers/onboarding.js';
import { fillPath, loadOpenApi, operationsOf, type JsonSchema, type Operation } from '../helpers/fuzz.js';

const t = await makeApp();
const doc = await loadOpenApi(t);
const ops = operationsOf(doc);
const has = (key: string) => ops.some((o) => o.key === key);

type Tenant = { api_key: string; signing_secret: string; tenant_id: string };
const A: Tenant = t.creds.tenant;
const B: Tenant = (await t.req('POST', '/admin/tenants', { body: { name: 'isolation-b' } })).body;

interface World {
  tenant: Tenant;
  name: string;
  investorId: string;
  accountNumber: string;
  answers: string[];
}

const symbol = (
  (await t.req('GET', '/v1/instruments?security_type=equity')).body.instruments as Array<{ symbol: string }>
)[0].symbol;

function ok(res: Res, what: string): Res {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res;
}

/** The smallest body a JSON Schema accepts, with investor_id and symbol filled in. */
function minimalBody(
  schema: JsonSchema | undefined,
  root: JsonSchema,
  ctx: { investorId: string },
  name = '',
): unknown {
  let s = schema ?? {};
  while (typeof s.$ref === 'string') s = root.$defs?.[s.$ref.replace('#/$defs/', '')] ?? {};
  if (name === 'investor_id') return ctx.investorId;
  if (name === 'symbol') return symbol;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.anyOf || s.oneOf) return minimalBody((s.anyOf ?? s.oneOf)[0], root, ctx, name);
  switch (Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.properties ? 'object' : 'string'))) {
    case 'object':
      return Object.fromEntries(
        ((s.required ?? []) as string[]).map((k) => [k, minimalBody(s.properties?.[k], root, ctx, k)]),
      );
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => minimalBody(s.items, root, ctx, name));
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 0, s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1, 1);
    case 'boolean':
      return false;
    default:
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }
}

// How to build a valid body per route family; anything else gets minimalBody() from its schema.
const BODIES: Array<{ route: RegExp; body: (ctx: { investorId: string }) => unknown }> = [
  {
    route: /^POST \/v1\/transfers$/,
    body: ({ investorId }) => ({ investor_id: investorId, direction: 'deposit', amount_micros: 1_000_000 }),
  },
  {
    route: /^POST \/v1\/orders$/,
    body: ({ investorId }) => ({ investor_id: investorId, symbol, side: 'buy', type: 'market', qty: 1 }),
  },
  {
    route: /^PUT \/v1\/investors\/\{id\}\/suitability$/,
    body: () => ({ questionnaire: BALANCED, risk_acknowledged: true }),
  },
  { route: /^POST \/v1\/kyc\/applications$/, body: () => applicant() },
  {
    route: /^POST \/v1\/reports$/,
    body: ({ investorId }) => ({
      investor_id: investorId,
      type: 'client_statement',
      period_start: '2026-11-22',
      period_end: '2026-11-22',
    }),
  },
  {
    route: /^POST \/v1\/fund-orders$/,
    body: ({ investorId }) => ({
      investor_id: investorId,
      fund_code: 'NILSK',
      side: 'subscribe',
      amount_micros: 500_000_000,
    }),
  },
];

function bodyFor(op: Operation, investorId: string): { body?: unknown; raw?: Buffer; contentType?: string } {
  if (op.rawBodyTypes.length)
    return { raw: SAMPLE_FRONT, contentType: op.rawBodyTypes.includes('image/png') ? 'image/png' : op.rawBodyTypes[0] };
  if (!op.jsonBody) return {};
  const fam = BODIES.find((b) => b.route.test(op.key));
  return { body: fam ? fam.body({ investorId }) : minimalBody(op.jsonBody, op.jsonBody, { investorId }) };
}

function idsIn(value: unknown, out = new Set<string>(), key = ''): Set<string> {
  if (Array.isArray(value)) for (const v of value) idsIn(v, out, key);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) idsIn(v, out, k);
  else if (typeof value === 'string' && (key === 'id' || key.endsWith('_id')) && /^[a-z]{2,5}_[0-9a-z]+$/.test(value))
    out.add(value);
  return out;
}

async function buildTenant(tenant: Tenant, name: string): Promise<World> {
  const answers: string[] = [];
  const keep = (res: Res) => {
    answers.push(res.text);
    return res;
  };
  const inv = await onboardInvestor(t, { tenant, fullName: name });
  keep(ok(await t.req('GET', `/v1/kyc/applications/${inv.applicationId}`, { tenant }), 'application'));
  keep(
    ok(
      await t.req('POST', '/v1/kyc/applications', { body: applicant({ full_name: name }), tenant }),
      'second application',
    ),
  );
  keep(
    ok(
      await t.req('POST', '/v1/transfers', {
        body: { investor_id: inv.investorId, direction: 'deposit', amount_micros: 20_000_000_000 },
        tenant,
      }),
      'deposit',
    ),
  );
  if (has('POST /v1/reports')) {
    const op = ops.find((o) => o.key === 'POST /v1/reports')!;
    keep(ok(await t.req('POST', '/v1/reports', { ...bodyFor(op, inv.investorId), tenant }), 'report'));
  }
  return { tenant, name, investorId: inv.investorId, accountNumber: '', answers };
}

const worlds = { A: await buildTenant(A, 'Aisha Alpha-Tenant'), B: await buildTenant(B, 'Bassem Beta-Tenant') };
await advance(t, { minutes: 5 });
for (const w of Object.values(worlds)) {
  const keep = (res: Res) => {
    w.answers.push(res.text);
    return res;
  };
  if (has('POST /v1/orders')) {
    keep(
      ok(
        await t.req('POST', '/v1/orders', {
          body: { investor_id: w.investorId, symbol, side: 'buy', type: 'market', qty: 1 },
          tenant: w.tenant,
        }),
        'order',
      ),
    );
  }
  if (has('POST /v1/fund-orders')) {
    const op = ops.find((o) => o.key === 'POST /v1/fund-orders')!;
    const res = await t.req('POST', '/v1/fund-orders', { ...bodyFor(op, w.investorId), tenant: w.tenant });
    keep(ok(res, 'fund order (add a body for POST /v1/fund-orders to BODIES)'));
  }
  w.accountNumber = keep(
    ok(await t.req('GET', `/v1/accounts/${w.investorId}`, { tenant: w.tenant }), 'account'),
  ).body.account_number;
  // Every list and every by-id read of the tenant's own ids, for the ids they show (activities, fills...).
  for (const op of ops) {
    if (op.method !== 'GET' || op.auth.kind !== 'tenant' || op.pathParams.length) continue;
    const q = op.queryParams.some((p) => p.name === 'investor_id') ? `?investor_id=${w.investorId}` : '';
    keep(await t.req('GET', op.path + q, { tenant: w.tenant }));
  }
  const own = new Set<string>();
  for (const a of w.answers) idsIn(parseAnswer(a), own);
  for (const op of ops) {
    if (op.method !== 'GET' || op.auth.kind !== 'tenant' || !op.pathParams.length) continue;
    for (const id of own) {
      const values = Object.fromEntries(
        op.pathParams.map((p) => [p.name, Array.isArray(p.schema.enum) ? String(p.schema.enum[0]) : id]),
      );
      keep(await t.req('GET', fillPath(op.path, values), { tenant: w.tenant }));
    }
  }
}
function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
const parse = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
const idsOf = (w: World) => {
  const s = new Set<string>();
  for (const a of w.answers) idsIn(parse(a), s);
  return s;
};
const bIds = idsOf(worlds.B);
const aOnly = [...idsOf(worlds.A)].filter((id) => !bIds.has(id) && !id.startsWith('req_'));
// A's secrets-in-the-clear that must never show up in B's answers.
const aMarkers = [worlds.A.name, worlds.A.accountNumber];

/** Slots a tenant id can go in: non-enum path parameters, investor_id in the query or the body. */
function slots(op: Operation): Array<'path' | 'query' | 'body'> {
  const out: Array<'path' | 'query' | 'body'> = [];
  if (op.pathParams.some((p) => !Array.isArray(p.schema.enum))) out.push('path');
  if (op.queryParams.some((p) => p.name === 'investor_id')) out.push('query');
  const bodyProps = op.jsonBody
    ? ((op.jsonBody.$ref ? op.jsonBody.$defs?.[op.jsonBody.$ref.replace('#/$defs/', '')] : op.jsonBody)?.properties ??
      {})
    : {};
  if ('investor_id' in bodyProps) out.push('body');
  return out;
}

interface Probe {
  op: Operation;
  slot: 'path' | 'query' | 'body';
  id: string;
}

function request(p: Probe, as: World): Promise<Res> {
  const own = as.investorId;
  const params: Record<string, string> = {};
  for (const q of p.op.pathParams)
    params[q.name] = Array.isArray(q.schema.enum) ? String(q.schema.enum[0]) : p.slot === 'path' ? p.id : own;
  let url = fillPath(p.op.path, params);
  if (p.slot === 'query') url += `?investor_id=${encodeURIComponent(p.id)}`;
  const b = bodyFor(p.op, p.slot === 'body' ? p.id : own);
  return t.req(p.op.method, url, { ...b, tenant: as.tenant });
}

// /v1/ai/* answers 200 by design (outcome not_found / abstained, never 403 or 404): test/api/assistant.test.ts
// proves B's answer for A's order equals its answer for an unknown id, and glossary terms and error codes are not ids.
const tenantOps = ops.filter(
  (o) => o.auth.kind === 'tenant' && o.path.startsWith('/v1/') && !o.path.startsWith('/v1/ai/'),
);
const probes: Probe[] = [];
for (const op of tenantOps) {
  for (const slot of slots(op)) {
    for (const id of aOnly) probes.push({ op, slot, id });
  }
}
// Reads first, then state changes (B's and then A's), so every probe sees A's resources as created.
const order = (p: Probe) => (p.op.method === 'GET' ? 0 : 1);
probes.sort((x, y) => order(x) - order(y));

/** An answer without its request_id (which differs on every request). */
const stable = (res: Res) => `${res.status} ${res.text.replace(/"request_id":"req_[0-9a-z]+"/, '')}`;

/** A's view of its own resources: every read route with each of A's ids. */
async function aView(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const op of tenantOps) {
    if (op.method !== 'GET') continue;
    if (!op.pathParams.length) {
      const q = op.queryParams.some((p) => p.name === 'investor_id') ? `?investor_id=${worlds.A.investorId}` : '';
      out.set(op.key, stable(await t.req('GET', op.path + q)));
      continue;
    }
    for (const id of aOnly) out.set(`${op.key} ${id}`, stable(await request({ op, slot: 'path', id }, worlds.A)));
  }
  return out;
}

const bAnswers = new Map<Probe, Res>();
const aAnswers = new Map<Probe, Res>();

describe("tenant B with tenant A's ids", () => {
  it('the world has something to isolate: A holds ids B does not (investor, applications, transfer, order...)', () => {
    for (const prefix of ['inv_', 'kyc_', 'trf_', ...(has('POST /v1/orders') ? ['ord_'] : [])]) {
      expect(
        aOnly.some((id) => id.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
    expect(probes.length).toBeGreaterThan(50);
  });

  it("B gets 404 NOT_FOUND on every route for every id of A (never 403, never A's data), and changes nothing of A's", async () => {
    const viewBefore = await aView();
    const problems: string[] = [];
    for (const p of probes) {
      const res = await request(p, worlds.B);
      bAnswers.set(p, res);
      if (res.status === 403) problems.push(`${p.op.key} [${p.slot} ${p.id}] -> 403 (must be 404)`);
      if (res.status < 300) problems.push(`${p.op.key} [${p.slot} ${p.id}] -> ${res.status} ${res.text.slice(0, 200)}`);
      const leaked = [...aMarkers, ...aOnly.filter((id) => id !== p.id)].filter((m) => m && res.text.includes(m));
      if (leaked.length)
        problems.push(`${p.op.key} [${p.slot} ${p.id}] shows A's ${leaked.join(', ')}: ${res.text.slice(0, 200)}`);
    }
    const viewAfter = await aView();
    expect(problems).toEqual([]);
    const changed = [...viewBefore]
      .filter(([k, v]) => viewAfter.get(k) !== v)
      .map(([k, v]) => `${k}: ${v.slice(0, 200)} -> ${viewAfter.get(k)?.slice(0, 200)}`);
    expect(changed, "A's reads of its own resources changed while B probed").toEqual([]);
  });

  it("wherever an id of A means something to A, B's answer was exactly 404 NOT_FOUND", async () => {
    const problems: string[] = [];
    for (const p of probes) {
      const res = await request(p, worlds.A);
      aAnswers.set(p, res);
      const b = bAnswers.get(p)!;
      const resolvesForA = res.status !== 404;
      if (resolvesForA && (b.status !== 404 || b.body?.error?.code !== 'NOT_FOUND')) {
        problems.push(
          `${p.op.key} [${p.slot} ${p.id}]: A gets ${res.status}, B gets ${b.status} ${b.text.slice(0, 160)}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('every /v1 route that takes an id is exercised with an id that resolves for A (market data aside)', () => {
    const PUBLIC_DATA = /^\/v1\/(instruments|markets|news|bonds|calendar|clock)(\/|$)/;
    const withSlots = tenantOps.filter((op) => slots(op).length && !PUBLIC_DATA.test(op.path));
    const unexercised = withSlots
      .filter((op) => ![...aAnswers].some(([p, r]) => p.op === op && r.status !== 404))
      .map((op) => op.key);
    // A route listed here takes an id but none of A's resources reached it: give the world that resource.
    expect(unexercised).toEqual([]);
    expect(withSlots.length).toBeGreaterThanOrEqual(10);
  });
});

describe('lists never show B anything of A', () => {
  const lists = tenantOps.filter((op) => op.method === 'GET' && !op.pathParams.length);

  it.each(lists.map((op) => [op.key, op] as const))('%s', async (_k, op) => {
    for (const query of ['', '?limit=200', '?status=closed', '?state=completed']) {
      const res = await t.req('GET', op.path + query, { tenant: B });
      if (res.status !== 200) continue;
      const leaked = [...aMarkers, ...aOnly].filter((m) => res.text.includes(m));
      expect(leaked, `${op.key}${query} as B`).toEqual([]);
    }
  });

  it("A's own lists do show A's records (the check above can see them)", async () => {
    let shown = 0;
    for (const op of lists) {
      const res = await t.req(
        'GET',
        op.path + (op.queryParams.some((p) => p.name === 'investor_id') ? `?investor_id=${worlds.A.investorId}` : ''),
      );
      if (aOnly.some((id) => res.text.includes(id))) shown++;
    }
    expect(shown).toBeGreaterThanOrEqual(3);
  });
});

afterAll(async () => {
  console.log(
    `isolation: ${probes.length} probes (route x slot x id of A) over ` +
      `${new Set(probes.map((p) => p.op.key)).size} routes, ${aOnly.length} ids of A, each sent by B then by A`,
  );
  await t.close();
});
