// The order body is described once: POST /v1/orders validates with OrderCreateBody and /openapi.json
// shows that very schema as OrderRequest, with the fields' real types. A body the schema accepts never
// gets a shape refusal on the wire, and a body it refuses always does (VALIDATION_FAILED or one of the
// five field codes, in their precedence: test/api/orders.test.ts walks it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeApp, type TestApp } from '../helpers/app.js';
import { trader } from '../helpers/trading.js';
import { OrderCreateBody } from '../../daemon/contract/schemas/trading.js';
import { moneyAsInt64, type Json } from '../../daemon/http/openapi-schemas.js';

const SHAPE_CODES = [
  'VALIDATION_FAILED',
  'INVALID_SIDE',
  'INVALID_TYPE',
  'INVALID_QTY',
  'INVALID_PRICE',
  'INVALID_TIME_IN_FORCE',
];

let t: TestApp;
let investor: string;
beforeAll(async () => {
  t = await makeApp();
  investor = await trader(t, 1_000_000);
});
afterAll(async () => t.close());

/** Variations of a valid market order, one field at a time, and the same for a limit order. */
function samples(): Array<Record<string, unknown>> {
  const market = { investor_id: investor, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 };
  const limit = { ...market, type: 'limit', limit_price_micros: 80_000_000 };
  const variations: Array<Record<string, unknown>> = [
    {},
    { side: 'sell' },
    { side: 'hold' },
    { side: null },
    { side: 1 },
    { type: 'stop' },
    { type: null },
    { qty: 0 },
    { qty: -1 },
    { qty: 1.5 },
    { qty: '1' },
    { qty: 1_000_000_000 },
    { qty: 1_000_000_001 },
    { qty: null },
    { time_in_force: 'gtc' },
    { time_in_force: 'ioc' },
    { time_in_force: 'week' },
    { time_in_force: null },
    { time_in_force: 1 },
    { client_order_id: '' },
    { client_order_id: 'x'.repeat(129) },
    { symbol: '' },
    { investor_id: 5 },
    { extra: true },
  ];
  const out: Array<Record<string, unknown>> = [];
  for (const base of [market, limit]) for (const v of variations) out.push({ ...base, ...v });
  for (const drop of ['side', 'type', 'qty', 'investor_id', 'symbol', 'limit_price_micros']) {
    const rest: Record<string, unknown> = { ...limit };
    delete rest[drop];
    out.push(rest);
  }
  out.push(
    { ...market, limit_price_micros: 80_000_000 },
    { ...market, limit_price_micros: null },
    { ...limit, limit_price_micros: null },
    { ...limit, limit_price_micros: 0 },
    { ...limit, limit_price_micros: 8.5 },
    { ...limit, limit_price_micros: '80' },
  );
  return out;
}

describe('OrderRequest in /openapi.json is the schema POST /v1/orders validates with', () => {
  it('the document shows the route schema itself, with the real type of every field', async () => {
    const doc = (await t.req('GET', '/openapi.json')).body;
    const op = doc.paths['/v1/orders'].post;
    expect(op.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OrderRequest' });
    const shown = doc.components.schemas.OrderRequest;
    // the route schema converted on its own (named OrderRequest by its meta id, so zod puts it in $defs)
    // (every integer *_micros shown as int64, as the document does for all money)
    const own = z.toJSONSchema(OrderCreateBody, { io: 'input', target: 'draft-2020-12' }).$defs?.OrderRequest;
    expect(shown).toEqual(moneyAsInt64(own as Json));
    expect(shown.required).toEqual(['investor_id', 'symbol', 'side', 'type', 'qty']);
    expect(shown.additionalProperties).toBe(false);
    const p = shown.properties;
    expect(p.side.enum).toEqual(['buy', 'sell']);
    expect(p.type.enum).toEqual(['market', 'limit']);
    expect(p.qty).toMatchObject({ type: 'integer', minimum: 1, maximum: 1_000_000_000 });
    expect(p.limit_price_micros.anyOf).toEqual([
      expect.objectContaining({ type: 'integer', minimum: 1 }),
      { type: 'null' },
    ]);
    expect(p.time_in_force.anyOf).toEqual([{ type: 'string', enum: ['day', 'gtc', 'ioc', 'fok'] }, { type: 'null' }]);
  });

  it('accepted by the schema <=> no shape refusal on the wire', async () => {
    const disagreements: string[] = [];
    for (const body of samples()) {
      const res = await t.req('POST', '/v1/orders', { body });
      const shapeRefused = res.status === 422 && SHAPE_CODES.includes(res.body.error.code);
      if (OrderCreateBody.safeParse(body).success === shapeRefused)
        disagreements.push(`${JSON.stringify(body)} -> ${res.status} ${res.text}`);
    }
    expect(disagreements).toEqual([]);
  });

  it('a market order may carry limit_price_micros null, and the document says so', async () => {
    const body = {
      investor_id: investor,
      symbol: 'COMI',
      side: 'buy',
      type: 'market',
      qty: 1,
      limit_price_micros: null,
    };
    const res = await t.req('POST', '/v1/orders', { body });
    expect(SHAPE_CODES).not.toContain(res.body.error?.code);
    expect(OrderCreateBody.safeParse(body).success).toBe(true);
  });
});
