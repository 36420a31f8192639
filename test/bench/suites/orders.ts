// Issue 4: trading.
// - Signed POST /v1/orders with market orders that fill (each request: signature check, validation,
//   reservation, fill with fees and stamp duty, activities, settlement event, idempotency record and
//   audit entry in one transaction) against the bare fastify baseline. Informational: the order goal
//   is now judged against the floor (suites/floor.ts), the simplest server doing the same durable work;
//   a quarter of a hello-world was out of reach for any server that writes before it answers.
// - Advancing the clock one simulated year with 1,000 resting gtc limit orders over the whole equity
//   catalog (fills, settlements, the order source's wake-ups). Goal: <= 1 s.
import { call } from '../client.js';
import { comparisonFigures } from '../figures.js';
import { daemonForOrders, fundedInvestor } from '../order-load.js';
import { bench } from '../registry.js';

export const YEAR_ADVANCE_GOAL_S = 1;

bench('daemon signed POST /v1/orders (market orders that fill)', async (ctx) => {
  const d = await daemonForOrders(ctx);
  try {
    const c = await ctx.compare(d.target);
    if (c.stats.non2xx > 0) throw new Error(`${c.stats.non2xx} orders were refused (funds exhausted?)`);
    return comparisonFigures(c);
  } finally {
    await d.stop();
  }
});

bench(
  'advance one simulated year with 1,000 resting limit orders',
  async (ctx) => {
    const d = await ctx.startDaemon();
    try {
      const investors = [await fundedInvestor(d, [70_000]), await fundedInvestor(d, [70_000])];
      await call(d, 'POST', '/admin/sandbox/clock-advance', { until: 'next_open' }, true);
      await call(d, 'POST', '/admin/sandbox/clock-advance', { minutes: 5 }, true);
      const catalog = (await call(d, 'GET', '/v1/instruments')).instruments as Array<{
        symbol: string;
        security_type: string;
      }>;
      const equities = catalog.filter((i) => i.security_type === 'equity').map((i) => i.symbol);
      const quotes = new Map<string, { price: number; lower: number; tick: number }>();
      for (const s of equities) {
        const q = await call(d, 'GET', `/v1/instruments/${s}/quote`);
        quotes.set(s, { price: q.price_micros, lower: q.band.lower_micros, tick: q.tick_micros });
      }
      for (let k = 0; k < 1000; k++) {
        const symbol = equities[k % equities.length];
        const q = quotes.get(symbol)!;
        // 0.5 % to 15 % below the price, on the grid, inside the band: each rests until the tape comes down
        const offsetBps = 50 + ((k * 7919) % 1450);
        const raw = Math.floor((q.price * (10_000 - offsetBps)) / 10_000 / q.tick) * q.tick;
        const limit = Math.max(q.lower, Math.min(raw, q.price - q.tick));
        await call(d, 'POST', '/v1/orders', {
          investor_id: investors[k % 2],
          symbol,
          side: 'buy',
          type: 'limit',
          qty: 1,
          limit_price_micros: limit,
          time_in_force: 'gtc',
        });
      }
      const open = async () => {
        const res = await fetch(`${d.baseUrl}/broker/v1/exposure`, {
          headers: { 'x-console-key': d.creds.dealer_key },
        });
        const e = (await res.json()) as { open_orders: Array<{ orders: number }> };
        return e.open_orders.reduce((a, o) => a + o.orders, 0);
      };
      const before = await open();
      const t0 = performance.now();
      const adv = await call(d, 'POST', '/admin/sandbox/clock-advance', { days: 365 }, true);
      const seconds = (performance.now() - t0) / 1000;
      const after = await open();
      return [
        {
          metric: 'wall time',
          value: seconds,
          unit: 's',
          goal: { op: '<=', value: YEAR_ADVANCE_GOAL_S },
          note:
            `${adv.instants_processed} instants; ` +
            `${before} resting orders before, ${after} after (the others filled)`,
        },
      ];
    } finally {
      await d.stop();
    }
  },
  { timeoutMs: 300_000 },
);
