// GET /openapi.json documents what every route answers, and the documented answers are the real ones:
// each route given a response schema is driven through the real app with real data, and its reply
// must parse with that schema and come back unchanged (zod objects drop keys they do not declare, so
// an undeclared field fails like a missing or a mistyped one).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { advance, makeApp, type Res, type TestApp } from '../helpers/app.js';
import { onboardInvestor, SAMPLE_FRONT } from '../helpers/onboarding.js';
import { creditShares, order, priceNow, trader } from '../helpers/trading.js';
import { dealerReasons } from '../../daemon/trading/reject-codes.js';
import {
  AutoFillSchema,
  BlotterSchema,
  DeskOrderSchema,
  DeskQueueSchema,
  ExposureSchema,
  OrderBookSchema,
} from '../../daemon/contract/schemas/trading.js';
import { HaltSchema, IndexOhlcvSchema, LiveQuoteSchema } from '../../daemon/contract/schemas/market.js';
import { ClockModeSchema } from '../../daemon/contract/schemas/sandbox.js';
import { AuditListSchema, AuditVerifySchema } from '../../daemon/contract/schemas/backoffice.js';
import { moneyAsInt64, type Json } from '../../daemon/http/openapi-schemas.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

/** The routes whose success reply is bytes, not JSON, and the content type they answer. */
const NOT_JSON: Record<string, string> = {
  'GET /assets/logos/{file}': 'image/svg+xml',
  'GET /assets/news/{file}': 'image/svg+xml',
  'GET /admin/sandbox/export': 'application/vnd.svc.snapshot',
  'GET /broker/v1/kyc/{application_id}/documents/{side}': 'image/png',
  'GET /admin/sandbox/events': 'text/event-stream',
  'GET /v1/branding/logo': 'image/png',
  'GET /v1/reports/{id}/download': 'application/pdf',
};

/** The response schemas this file checks against real replies, by route as the document names it. */
const SCHEMAS: Record<string, z.ZodType> = {
  'GET /broker/v1/queue': DeskQueueSchema,
  'POST /broker/v1/queue/{id}/execute': DeskOrderSchema,
  'POST /broker/v1/queue/{id}/reject': DeskOrderSchema,
  'GET /broker/v1/blotter': BlotterSchema,
  'GET /broker/v1/exposure': ExposureSchema,
  'GET /broker/v1/markets/{m}/instruments/{s}/book': OrderBookSchema,
  'POST /admin/sandbox/auto-fill': AutoFillSchema,
  'GET /v1/markets/{market_id}/index/EGX30/ohlcv': IndexOhlcvSchema,
  'POST /admin/sandbox/clock': ClockModeSchema,
  'POST /admin/sandbox/quote': LiveQuoteSchema,
  'POST /admin/sandbox/halt': HaltSchema,
  'GET /admin/audit': AuditListSchema,
  'GET /admin/audit/verify': AuditVerifySchema,
};

interface Operation {
  route: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

let components: Record<string, unknown> = {};

async function operations(): Promise<Operation[]> {
  const res = await t.req('GET', '/openapi.json', { as: 'none' });
  expect(res.status).toBe(200);
  components = res.body.components.schemas;
  return Object.entries<Record<string, { responses: Operation['responses'] }>>(res.body.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, responses: op.responses })),
  );
}

/** The schema with every `$ref` of `prefix` replaced by its definition (a named schema used twice is inlined twice). */
function inline(node: unknown, defs: Record<string, unknown>, prefix: string, depth = 0): unknown {
  if (depth > 50) throw new Error('a reference cycle');
  if (Array.isArray(node)) return node.map((n) => inline(n, defs, prefix, depth));
  if (node === null || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  if (typeof o.$ref === 'string' && o.$ref.startsWith(prefix)) {
    const def = defs[o.$ref.slice(prefix.length)];
    expect(def, `${o.$ref} resolves`).toBeDefined();
    return inline(def, defs, prefix, depth + 1);
  }
  return Object.fromEntries(
    Object.entries(o)
      .filter(([k]) => k !== '$defs')
      .map(([k, v]) => [k, inline(v, defs, prefix, depth)]),
  );
}

/** Every $ref in the document, as written. */
function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refsOf(n, out);
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
    }
  }
  return out;
}

function successJsonSchema(op: Operation): unknown {
  const ok = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
  return ok.length === 1 ? op.responses[ok[0]].content?.['application/json']?.schema : undefined;
}

/** The reply is the route's documented success, exactly: parsed, then compared with what was sent. */
function expectDocumented(route: string, res: Res, status = 200): any {
  expect(res.status, `${route}: ${res.text}`).toBe(status);
  const schema = SCHEMAS[route];
  expect(schema, `no schema listed for ${route}`).toBeDefined();
  expect(schema.parse(res.body), route).toStrictEqual(res.body);
  return res.body;
}

describe('GET /openapi.json declares a response schema for every route that answers JSON', () => {
  it('every operation declares one 2xx application/json schema, except the routes that answer bytes', async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(60);
    const undocumented = ops.filter((op) => !(op.route in NOT_JSON) && !successJsonSchema(op)).map((op) => op.route);
    expect(undocumented).toEqual([]);
    const bytesWithSchema = ops.filter((op) => op.route in NOT_JSON && successJsonSchema(op)).map((op) => op.route);
    expect(bytesWithSchema).toEqual([]);
    expect(ops.map((op) => op.route)).toEqual(expect.arrayContaining(Object.keys(NOT_JSON)));
  });

  it('the routes without a JSON schema really answer bytes of another content type', async () => {
    const { applicationId, investorId } = await onboardInvestor(t);
    expect((await t.req('PUT', '/v1/branding/logo', { raw: SAMPLE_FRONT, contentType: 'image/png' })).status).toBe(200);
    const today = '2026-11-22';
    const report = await t.req('POST', '/v1/reports', {
      body: { investor_id: investorId, type: 'client_statement', period_start: today, period_end: today },
    });
    expect(report.status).toBe(201);
    await advance(t, { minutes: 2 });
    const replies: Record<string, Res> = {
      'GET /assets/logos/{file}': await t.req('GET', '/assets/logos/COMI.svg', { as: 'none' }),
      'GET /assets/news/{file}': await t.req(
        'GET',
        `/assets/news/${(await t.req('GET', '/v1/news')).body.news[0].id}.svg`,
        { as: 'none' },
      ),
      'GET /admin/sandbox/export': await t.req('GET', '/admin/sandbox/export'),
      'GET /broker/v1/kyc/{application_id}/documents/{side}': await t.req(
        'GET',
        `/broker/v1/kyc/${applicationId}/documents/national_id_front`,
      ),
      // a stream that does not end: its status and headers only
      'GET /admin/sandbox/events': await t.app
        .inject({
          method: 'GET',
          url: '/admin/sandbox/events',
          headers: { 'x-admin-key': t.creds.operators.admin_key },
          payloadAsStream: true,
        })
        .then((r) => {
          r.stream().destroy();
          return { status: r.statusCode, headers: r.headers, body: null, text: '' };
        }),
      'GET /v1/branding/logo': await t.req('GET', '/v1/branding/logo'),
      'GET /v1/reports/{id}/download': await t.req('GET', `/v1/reports/${report.body.report_id}/download`),
    };
    for (const [route, type] of Object.entries(NOT_JSON)) {
      expect(replies[route].status, route).toBe(200);
      expect(String(replies[route].headers['content-type']), route).toContain(type);
    }
  });

  it('the document shows, for each route checked here, the very schema its replies are checked against', async () => {
    const ops = new Map((await operations()).map((op) => [op.route, op]));
    for (const [route, schema] of Object.entries(SCHEMAS)) {
      expect(ops.has(route), route).toBe(true);
      // the document is zod's conversion with money written as int64 (openapi-schemas.ts, moneyAsInt64)
      const converted = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' });
      const zod = moneyAsInt64(converted as Json) as { $defs?: Record<string, unknown> };
      expect(inline(successJsonSchema(ops.get(route)!), components, '#/components/schemas/'), route).toEqual(
        inline(zod, zod.$defs ?? {}, '#/$defs/'),
      );
    }
  });

  it('every $ref of the document resolves inside it: named schemas and parameters live in components', async () => {
    await operations();
    const res = await t.req('GET', '/openapi.json', { as: 'none' });
    const refs = refsOf(res.body);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of new Set(refs)) {
      const m = /^#\/components\/(schemas|parameters)\/([A-Za-z0-9_.]+)$/.exec(ref);
      expect(m, ref).not.toBeNull();
      expect(res.body.components[m![1]][m![2]], ref).toBeDefined();
    }
    expect(JSON.stringify(res.body)).not.toContain('"$defs"');
  });
});

describe('real replies match their documented schema', () => {
  it('the check refuses an undeclared, a missing and a mistyped field', async () => {
    const res = await t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: true } });
    expectDocumented('POST /admin/sandbox/halt', res);
    const { as_of: _asOf, ...missing } = res.body;
    for (const body of [{ ...res.body, extra: 1 }, missing, { ...res.body, halted: 'true' }]) {
      expect(() => expectDocumented('POST /admin/sandbox/halt', { ...res, body })).toThrow();
    }
  });

  it('dealer desk: auto-fill, queue, execute, reject, blotter, exposure and book, with desk and tape fills of both sides', async () => {
    const inv = await trader(t, 100_000);
    creditShares(t, inv, 'COMI', 100);
    expect(
      expectDocumented(
        'POST /admin/sandbox/auto-fill',
        await t.req('POST', '/admin/sandbox/auto-fill', { body: { enabled: false } }),
      ),
    ).toEqual({ auto_fill: false });
    await advance(t, { until: '2026-11-22T10:05:00+02:00' });

    const buy = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    const sell = await order(t, { investor_id: inv, symbol: 'COMI', side: 'sell', type: 'market', qty: 5 });
    const limit = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 3,
      limit_price_micros: priceNow(t, 'COMI'),
      time_in_force: 'gtc',
    });
    for (const o of [buy, sell, limit]) expect(o.body.status, o.text).toBe('pending_new');

    const queue = expectDocumented('GET /broker/v1/queue', await t.req('GET', '/broker/v1/queue'));
    expect(queue.orders.map((o: any) => o.order_id)).toEqual([
      buy.body.order_id,
      sell.body.order_id,
      limit.body.order_id,
    ]);

    const part = expectDocumented(
      'POST /broker/v1/queue/{id}/execute',
      await t.req('POST', `/broker/v1/queue/${buy.body.order_id}/execute`, { body: { qty: 4 } }),
    );
    expect(part).toMatchObject({ status: 'partially_filled', routing: 'desk' });
    const sold = expectDocumented(
      'POST /broker/v1/queue/{id}/execute',
      await t.req('POST', `/broker/v1/queue/${sell.body.order_id}/execute`, { body: {} }),
    );
    expect(sold.status).toBe('filled');
    const rejected = expectDocumented(
      'POST /broker/v1/queue/{id}/reject',
      await t.req('POST', `/broker/v1/queue/${limit.body.order_id}/reject`, {
        body: { reason_code: dealerReasons()[0] },
      }),
    );
    expect(rejected).toMatchObject({ status: 'rejected', reason_code: dealerReasons()[0] });

    expectDocumented(
      'POST /admin/sandbox/auto-fill',
      await t.req('POST', '/admin/sandbox/auto-fill', { body: { enabled: true } }),
    );
    expect(
      (await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 2 })).body.status,
    ).toBe('filled');

    const blotter = expectDocumented('GET /broker/v1/blotter', await t.req('GET', '/broker/v1/blotter'));
    expect(blotter.executions.map((x: any) => [x.venue, x.side, x.executed_by === null])).toEqual([
      ['tape', 'buy', true],
      ['desk', 'sell', false],
      ['desk', 'buy', false],
    ]);

    const exposure = expectDocumented('GET /broker/v1/exposure', await t.req('GET', '/broker/v1/exposure'));
    expect(exposure.open_orders.map((r: any) => r.side)).toEqual(['buy']);
    expect(exposure.unsettled.map((r: any) => r.side)).toEqual(['buy', 'sell']);
    expect(exposure.traded_today.map((r: any) => r.symbol)).toEqual(['COMI']);

    const book = expectDocumented(
      'GET /broker/v1/markets/{m}/instruments/{s}/book',
      await t.req('GET', '/broker/v1/markets/XCAI/instruments/COMI/book'),
    );
    expect(book.bids.length).toBeGreaterThan(0);
    expect(book.asks.length).toBeGreaterThan(0);
  });

  it('market and sandbox controls: EGX30 candles, clock mode, quote override, halt', async () => {
    await advance(t, { until: '2026-11-22T11:00:00+02:00' });
    const index = expectDocumented(
      'GET /v1/markets/{market_id}/index/EGX30/ohlcv',
      await t.req('GET', '/v1/markets/XCAI/index/EGX30/ohlcv?days=5'),
    );
    expect(index.candles).toHaveLength(5);

    expect(
      expectDocumented(
        'POST /admin/sandbox/clock',
        await t.req('POST', '/admin/sandbox/clock', { body: { mode: 'running', speed: 2 } }),
      ),
    ).toMatchObject({ mode: 'running', speed: 2 });
    expect(
      expectDocumented(
        'POST /admin/sandbox/clock',
        await t.req('POST', '/admin/sandbox/clock', { body: { mode: 'frozen' } }),
      ).mode,
    ).toBe('frozen');

    const price = priceNow(t, 'COMI');
    expect(
      expectDocumented(
        'POST /admin/sandbox/quote',
        await t.req('POST', '/admin/sandbox/quote', { body: { symbol: 'COMI', price_micros: price } }),
      ).price_micros,
    ).toBe(price);
    expect(
      expectDocumented(
        'POST /admin/sandbox/halt',
        await t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: true } }),
      ).halted,
    ).toBe(true);
  });

  it('back office: the audit log (entries with and without a tenant) and its verification', async () => {
    await onboardInvestor(t);
    await t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: true } });
    const audit = expectDocumented('GET /admin/audit', await t.req('GET', '/admin/audit'));
    expect(audit.entries.some((e: any) => e.tenant_id === null)).toBe(true);
    expect(audit.entries.some((e: any) => e.tenant_id !== null)).toBe(true);
    expect(expectDocumented('GET /admin/audit/verify', await t.req('GET', '/admin/audit/verify'))).toMatchObject({
      ok: true,
      first_bad_seq: null,
      reason: null,
    });
  });
});

describe('the document says what a generated client needs', () => {
  interface Op {
    route: string;
    op: {
      security?: unknown[];
      parameters?: Array<{ $ref?: string; name?: string; in?: string }>;
      requestBody?: { content: Record<string, unknown> };
      responses: Record<string, { content?: Record<string, unknown>; 'x-error-codes'?: string[] }>;
    };
  }
  async function document(): Promise<{ doc: any; ops: Op[] }> {
    const doc = (await t.req('GET', '/openapi.json', { as: 'none' })).body;
    const ops = Object.entries<Record<string, Op['op']>>(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
    );
    return { doc, ops };
  }

  it('each operation lists its error statuses, each with the codes the registry gives that status', async () => {
    const { ops } = await document();
    const { ERROR_CODES } = await import('../../daemon/contract/errors.js');
    for (const { route, op } of ops) {
      const errors = Object.entries(op.responses).filter(([s]) => /^[45]\d\d$/.test(s));
      if (route === 'GET /healthz' || route === 'GET /openapi.json') continue;
      expect(
        errors.some(([s]) => s.startsWith('4')),
        route,
      ).toBe(true);
      for (const [status, res] of errors) {
        expect(res['x-error-codes']?.length, `${route} ${status}`).toBeGreaterThan(0);
        for (const code of res['x-error-codes'] ?? [])
          expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status, `${route} ${code}`).toBe(Number(status));
      }
    }
    const order = ops.find((o) => o.route === 'POST /v1/orders')!.op.responses;
    expect(order['422']['x-error-codes']).toEqual(
      expect.arrayContaining(['INVALID_SIDE', 'INVALID_QTY', 'INSUFFICIENT_SETTLED_CASH', 'IDEMPOTENCY_KEY_REUSED']),
    );
    expect(order['401']['x-error-codes']).toEqual(['UNAUTHENTICATED', 'SIGNATURE_INVALID', 'SIGNATURE_EXPIRED']);
  });

  it('servers, security on every operation (public ones: []), and the signing headers where the route needs them', async () => {
    const { doc, ops } = await document();
    expect(doc.servers[0].url).toMatch(/^http:\/\//);
    for (const { route, op } of ops) expect(op.security, route).toBeDefined();
    for (const route of ['GET /healthz', 'GET /openapi.json', 'GET /assets/logos/{file}', 'GET /assets/news/{file}'])
      expect(ops.find((o) => o.route === route)?.op.security, route).toEqual([]);
    const { tenantAuthFor } = await import('../../daemon/contract/routes-auth.js');
    for (const { route, op } of ops) {
      const [method, path] = route.split(' ');
      if (!path.startsWith('/v1/')) continue;
      const headers = (op.parameters ?? []).flatMap((p) =>
        p.$ref ? [p.$ref.slice('#/components/parameters/'.length)] : [],
      );
      const read = method === 'GET';
      const expected = {
        B: read ? [] : ['OptionalIdempotencyKey'],
        I: ['IdempotencyKey'],
        S: ['IdempotencyKey', 'SvcTimestamp', 'SvcSignature'],
      }[tenantAuthFor(method, path.replace(/\{[^}]+\}/g, 'x'))];
      expect(headers, route).toEqual(expected);
    }
    expect(Object.values<any>(doc.components.parameters).map((p) => [p.name, p.required])).toEqual([
      ['Idempotency-Key', true],
      ['Idempotency-Key', false],
      ['X-Svc-Timestamp', true],
      ['X-Svc-Signature', true],
    ]);
  });

  it('non-JSON bodies carry their real media types', async () => {
    const { ops } = await document();
    const op = (route: string) => ops.find((o) => o.route === route)!.op;
    for (const [route, type] of Object.entries(NOT_JSON))
      expect(Object.keys(op(route).responses['200'].content ?? {}), route).toContain(type);
    expect(Object.keys(op('GET /broker/v1/kyc/{application_id}/documents/{side}').responses['200'].content!)).toEqual([
      'image/jpeg',
      'image/png',
    ]);
    expect(Object.keys(op('GET /admin/sandbox/journal').responses['200'].content!)).toEqual([
      'application/json',
      'application/x-ndjson',
    ]);
    expect(Object.keys(op('PUT /v1/kyc/applications/{id}/documents/{side}').requestBody!.content)).toEqual([
      'image/jpeg',
      'image/png',
    ]);
  });

  it('timestamps carry format date-time and calendar dates format date', async () => {
    const { doc } = await document();
    const missing: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (Array.isArray(node)) {
        node.forEach((n, i) => {
          visit(n, `${where}[${i}]`);
        });
        return;
      }
      if (node === null || typeof node !== 'object') return;
      const o = node as Record<string, any>;
      for (const [name, prop] of Object.entries<any>(o.properties ?? {})) {
        // a bond's issue and maturity dates are RFC 3339 date-times, as the spec's bond table says
        const want =
          /(_at|^as_of|^at|^timestamp|^sim_time|^next_open|^next_close|^start|^issue_date|^maturity_date)$/.test(name)
            ? 'date-time'
            : /(_date|^date)$/.test(name)
              ? 'date'
              : null;
        const strings = [prop, ...(prop.anyOf ?? [])].filter(
          (s: any) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string')),
        );
        if (want && strings.length > 0 && !strings.some((s: any) => s.format === want))
          missing.push(`${where}.${name}: want ${want}`);
      }
      for (const [k, v] of Object.entries(o)) visit(v, `${where}.${k}`);
    };
    visit(doc.components.schemas, 'schemas');
    expect(missing).toEqual([]);
    expect(doc.components.schemas.Order.properties.created_at.format).toBe('date-time');
    expect(doc.components.schemas.ContractNote.properties.trade_date.format).toBe('date');
  });
});
