// Retries that cannot duplicate money: a scripted proxy (test/helpers/fault-proxy.ts) in front of a real
// daemon fails chosen requests; the library retries them with the same Idempotency-Key, and the daemon's
// idempotency makes exactly one order and one transfer. The client's clock is injected: nothing sleeps.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Attempt, isSvcError, Sandbox, SvcConnectionError, type SvcClient } from '../../client/src/index.js';
import { type ClientSandbox, clientSandbox, onboard } from '../helpers/client-sandbox.js';
import { type FaultProxy, faultProxy } from '../helpers/fault-proxy.js';

let s: ClientSandbox;
let proxy: FaultProxy;
let investorId: string;
let sleeps: number[];
let attempts: Attempt[];
let client: SvcClient;

beforeAll(async () => {
  s = await clientSandbox();
  proxy = await faultProxy(s.baseUrl);
  investorId = await onboard(s.client);
  await s.client.transfers.create({ investor_id: investorId, direction: 'deposit', amount_micros: 50_000_000_000 });
  await s.sandbox.clock.advanceUntil('next_open');
  client = s.tenant({
    baseUrl: proxy.url,
    clock: { sleep: async (ms) => void sleeps.push(ms) },
    random: () => 0.5,
    onAttempt: (a) => attempts.push(a),
  });
});
beforeEach(() => {
  sleeps = [];
  attempts = [];
  proxy.seen.length = 0;
});
afterAll(async () => {
  await proxy.close();
  await s.close();
});

const keysOf = (route: string) =>
  proxy.seen.filter((r) => `${r.method} ${r.url.split('?')[0]}` === route).map((r) => r.headers['idempotency-key']);

const buy = { symbol: 'COMI', side: 'buy', type: 'market', qty: 5 } as const;

describe('retries with the same Idempotency-Key never duplicate money', () => {
  it('an order met by a 503, then by a connection dropped after the daemon committed it, exists once', async () => {
    proxy.script('POST /v1/orders', { status: 503 }, 'drop-after');
    const order = await client.orders.create({ ...buy, investor_id: investorId, client_order_id: 'retry-1' });
    const keys = keysOf('POST /v1/orders');
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(proxy.seen.at(-1)?.upstreamHeaders?.['idempotent-replayed']).toBe('true');
    const orders = await s.client.orders.list({ investor_id: investorId });
    expect(orders.orders.filter((o) => o.client_order_id === 'retry-1').map((o) => o.order_id)).toEqual([
      order.order_id,
    ]);
    expect(attempts.map((a) => [a.status, a.retryInMs])).toEqual([
      [503, 188],
      [undefined, 375],
      [201, undefined],
    ]);
    expect(sleeps).toEqual([188, 375]);
  });

  it('a transfer whose answer is lost after commit, then met by a 503, exists exactly once', async () => {
    const before = await s.client.transfers.list({ investor_id: investorId });
    proxy.script('POST /v1/transfers', 'drop-after', { status: 503 });
    const t = await client.transfers.create({
      investor_id: investorId,
      direction: 'deposit',
      amount_micros: 1_000_000,
    });
    const keys = keysOf('POST /v1/transfers');
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    const after = await s.client.transfers.list({ investor_id: investorId });
    expect(after.transfers.length).toBe(before.transfers.length + 1);
    expect(after.transfers.filter((x) => x.transfer_id === t.transfer_id)).toHaveLength(1);
  });

  it("a caller's own Idempotency-Key is sent as given on every attempt; reusing it replays the order", async () => {
    proxy.script('POST /v1/orders', { status: 502 });
    const key = 'caller-key-0001';
    const body = { ...buy, investor_id: investorId, client_order_id: 'retry-own-key' };
    const first = await client.orders.create(body, { idempotencyKey: key });
    const again = await client.orders.create(body, { idempotencyKey: key });
    expect(again.order_id).toBe(first.order_id);
    expect(keysOf('POST /v1/orders')).toEqual([key, key, key]);
  });

  it('the generic request() reaches a money route with the same signature, key and retries', async () => {
    proxy.script('POST /v1/orders', { status: 503 });
    const body = { ...buy, investor_id: investorId, client_order_id: 'retry-generic' };
    const order = await client.request('post', '/v1/orders', { body });
    const keys = keysOf('POST /v1/orders');
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    expect(proxy.seen.at(-1)?.headers['x-svc-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    const again = await client.request('get', '/v1/orders/{id}', { path: { id: order.order_id } });
    expect(again).toMatchObject({ order_id: order.order_id, client_order_id: 'retry-generic' });
  });

  it('a 429 is waited out for its Retry-After on the injected clock, then retried', async () => {
    proxy.script('GET /v1/clock', { status: 429, code: 'RATE_LIMITED', headers: { 'retry-after': '7' } });
    const clock = await client.market.clock();
    expect(clock.timestamp).toMatch(/^20/);
    expect(sleeps).toEqual([7000]);
    expect(proxy.seen).toHaveLength(2);
  });

  it('a Retry-After beyond the limit is not waited: the 429 is the answer, a typed RATE_LIMITED', async () => {
    proxy.script('GET /v1/clock', { status: 429, code: 'RATE_LIMITED', headers: { 'retry-after': '3600' } });
    const e = await client.market.clock().catch((x: unknown) => x);
    expect(isSvcError(e, 'RATE_LIMITED') && e.status).toBe(429);
    expect(sleeps).toEqual([]);
  });

  it('a GET whose connection drops before reaching the daemon, or hangs past its deadline, is retried', async () => {
    proxy.script('GET /v1/clock', 'drop-before', 'hang');
    await client.market.clock({ timeoutMs: 300 });
    expect(proxy.seen.map((r) => r.fault)).toEqual(['drop-before', 'hang', 'forward']);
  });

  it('gives up after maxAttempts, every attempt reported, and throws the last answer as an SvcError', async () => {
    const limited = s.tenant({
      baseUrl: proxy.url,
      retry: { maxAttempts: 3 },
      clock: { sleep: async (ms) => void sleeps.push(ms) },
      random: () => 0,
      onAttempt: (a) => attempts.push(a),
    });
    proxy.script('GET /v1/clock', { status: 504 }, { status: 504 }, { status: 504 });
    const e = await limited.market.clock().catch((x: unknown) => x);
    expect(isSvcError(e) && [e.status, e.requestId]).toEqual([504, 'req_proxy']);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(sleeps).toEqual([125, 250]);
  });

  it('raw() answers the last refusal as it came, for tools that show answers, after the same retries', async () => {
    proxy.script('GET /v1/clock', { status: 503 }, { status: 503, code: 'RATE_LIMITED' });
    const creds = client.credentials('GET', '/v1/clock');
    const answer = await client.core.raw({ method: 'GET', path: '/v1/clock' }, creds);
    expect(answer.status).toBe(200);
    proxy.script('GET /v1/clock', { status: 404, code: 'NOT_FOUND' });
    const refused = await client.core.raw({ method: 'GET', path: '/v1/clock' }, creds);
    expect([refused.status, refused.data]).toEqual([
      404,
      { error: { code: 'NOT_FOUND', message: 'the proxy answered 404' }, request_id: 'req_proxy' },
    ]);
  });

  it('no answer on any attempt is an SvcConnectionError naming the attempts', async () => {
    proxy.script('GET /v1/clock', 'drop-before', 'drop-before', 'drop-before', 'drop-before');
    const e = await client.market.clock().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SvcConnectionError);
    expect((e as SvcConnectionError).attempts).toBe(4);
  });

  it("a call whose signal aborts is not retried: it rejects with the signal's reason", async () => {
    proxy.script('GET /v1/clock', 'hang');
    const stop = new AbortController();
    const call = client.market.clock({ signal: stop.signal });
    while (proxy.seen.length === 0) await new Promise((r) => setTimeout(r, 10));
    stop.abort(new Error('the caller gave up'));
    await expect(call).rejects.toThrow('the caller gave up');
    expect(proxy.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a write without an Idempotency-Key (an operator action) is never retried', async () => {
    const sandbox = new Sandbox({
      baseUrl: proxy.url,
      key: s.t.creds.operators.admin_key,
      clock: { sleep: async (ms: number) => void sleeps.push(ms) },
    });
    proxy.script('POST /admin/sandbox/clock-advance', { status: 503 });
    const e = await sandbox.clock.advance({ minutes: 1 }).catch((x: unknown) => x);
    expect(isSvcError(e) && e.status).toBe(503);
    expect(proxy.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});
