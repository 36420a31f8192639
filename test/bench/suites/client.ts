// Issue 30: the client library's overhead (client/). Per call, the library (client.market.clock(),
// client.orders.create()) against the same request made by hand with fetch (for an order: the same
// v1 signature, key and timestamp, daemon/contract/signing.ts). Both run one call at a time against
// the same daemon, in short alternating blocks so drift on a shared machine hits both alike; the figure
// is the median over the rounds of (library time / by-hand time) - 1. Goals: <= 10 % on GET /v1/clock,
// <= 5 % per signed order.
import { randomUUID } from 'node:crypto';
import { SvcClient } from '../../../client/src/index.js';
import { sign } from '../../../daemon/contract/signing.js';
import { daemonForOrders, ORDER_SYMBOL } from '../order-load.js';
import type { Figure } from '../registry.js';
import { bench } from '../registry.js';

/** Median over rounds of library/by-hand time - 1, in percent; each round times `block` calls of each, in turn. */
async function overheadPct(
  block: number,
  rounds: number,
  byHand: () => Promise<unknown>,
  library: () => Promise<unknown>,
) {
  for (let i = 0; i < block; i++) {
    await byHand(); // warm-up
    await library();
  }
  const ratios: number[] = [];
  const timeOf = async (f: () => Promise<unknown>) => {
    const t0 = performance.now();
    for (let i = 0; i < block; i++) await f();
    return performance.now() - t0;
  };
  let handMs = 0;
  let libMs = 0;
  for (let r = 0; r < rounds; r++) {
    let hand: number;
    let lib: number;
    if (r % 2 === 0) {
      hand = await timeOf(byHand);
      lib = await timeOf(library);
    } else {
      lib = await timeOf(library);
      hand = await timeOf(byHand);
    }
    ratios.push(lib / hand);
    handMs += hand;
    libMs += lib;
  }
  ratios.sort((x, y) => x - y);
  const calls = block * rounds;
  return {
    pct: Math.round((ratios[(ratios.length - 1) >> 1] - 1) * 1000) / 10,
    details: {
      rounds,
      total_pct: Math.round((libMs / handMs - 1) * 1000) / 10,
      calls_each: calls,
      by_hand_ms_per_call: handMs / calls,
      library_ms_per_call: libMs / calls,
    },
  };
}

bench(
  'client library overhead per call (vs fetch by hand)',
  async (ctx): Promise<Figure[]> => {
    const o = await daemonForOrders(ctx, 2);
    try {
      const d = o.daemon;
      const client = new SvcClient({
        baseUrl: d.baseUrl,
        apiKey: d.creds.api_key,
        signingSecret: d.creds.signing_secret,
      });
      const investors = (await client.orders.list({ limit: 1 })).orders.map((x) => x.investor_id);
      const order = { investor_id: investors[0], symbol: ORDER_SYMBOL, side: 'buy', type: 'market', qty: 1 } as const;

      const clockByHand = async () => (await fetch(`${d.baseUrl}/v1/clock`, { headers: d.bearer })).json();
      const clock = await overheadPct(10, 61, clockByHand, () => client.market.clock());

      const orderByHand = async () => {
        const body = JSON.stringify(order);
        const key = randomUUID();
        const timestamp = String(Math.floor(Date.now() / 1000));
        const input = { timestamp, method: 'POST', path: '/v1/orders', rawQuery: '', idempotencyKey: key, body };
        const headers = {
          ...d.bearer,
          'content-type': 'application/json',
          'idempotency-key': key,
          'x-svc-timestamp': timestamp,
          'x-svc-signature': sign(d.creds.signing_secret, input),
        };
        const res = await fetch(`${d.baseUrl}/v1/orders`, { method: 'POST', headers, body });
        if (res.status !== 201) throw new Error(`an order by hand answered ${res.status}`);
        return res.json();
      };
      const orders = await overheadPct(4, 41, orderByHand, () => client.orders.create(order));
      return [
        {
          metric: 'GET /v1/clock overhead',
          value: clock.pct,
          unit: '%',
          goal: { op: '<=', value: 10 },
          details: clock.details,
        },
        {
          metric: 'signed order overhead',
          value: orders.pct,
          unit: '%',
          goal: { op: '<=', value: 5 },
          details: orders.details,
        },
      ];
    } finally {
      await o.stop();
    }
  },
  { timeoutMs: 300_000 },
);
