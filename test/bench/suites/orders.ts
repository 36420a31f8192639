// Issue 4: trading.
// - Signed POST /v1/orders with market orders that fill (each request: signature check, validation,
//   reservation, fill with fees and stamp duty, activities, settlement event, idempotency record and
//   audit entry in one transaction) as a ratio of the bare fastify baseline. Goal: >= 25 %.
// - Advancing the clock one simulated year with 1,000 resting gtc limit orders over the whole equity
//   catalog (fills, settlements, the order source's wake-ups). Goal: <= 1 s.
import { randomUUID } from 'node:crypto';
import { sign } from '../../../daemon/contract/signing.js';
import { call } from '../client.js';
import { comparisonFigures } from '../figures.js';
import { bench } from '../registry.js';
import type { DaemonHandle } from '../context.js';
import { applicant, BALANCED } from '../../helpers/onboarding.js';

export const ORDER_GOAL_PCT = 25;
export const YEAR_ADVANCE_GOAL_S = 1;
const EGP = 1_000_000;

/** An approved, suitable investor with `depositsEgp` deposited (completes after the clock moves 3 minutes). */
async function fundedInvestor(d: DaemonHandle, depositsEgp: number[]): Promise<string> {
  const app = await call(d, 'POST', '/v1/kyc/applications', applicant());
  await call(d, 'POST', `/v1/kyc/applications/${app.application_id}/submit`);
  const investorId = (await call(d, 'GET', `/v1/kyc/applications/${app.application_id}`)).investor_id as string;
  await call(d, 'PUT', `/v1/investors/${investorId}/suitability`, { questionnaire: BALANCED, risk_acknowledged: true });
  for (const egp of depositsEgp) await call(d, 'POST', '/v1/transfers', { investor_id: investorId, direction: 'deposit', amount_micros: egp * EGP });
  return investorId;
}

bench('daemon signed POST /v1/orders (market orders that fill)', async (ctx) => {
  const d = await ctx.startDaemon();
  try {
    // 200,000 EGP per investor per day; a 1-share VLMRA market order costs about 5.6 EGP with its fees
    const investors: string[] = [];
    for (let i = 0; i < 4; i++) investors.push(await fundedInvestor(d, [70_000, 70_000, 60_000]));
    await call(d, 'POST', '/admin/sandbox/clock-advance', { until: 'next_open' }, true);
    await call(d, 'POST', '/admin/sandbox/clock-advance', { minutes: 5 }, true);
    const probe = await call(d, 'POST', '/v1/orders', { investor_id: investors[0], symbol: 'VLMRA', side: 'buy', type: 'market', qty: 1 });
    if (probe.status !== 'filled') throw new Error(`the probe order is ${probe.status}, not filled`);
    let n = 0;
    const c = await ctx.compare({
      url: d.baseUrl + '/v1/orders',
      serverPid: d.pid,
      requests: [
        {
          method: 'POST',
          path: '/v1/orders',
          setupRequest: (req: Record<string, unknown>) => {
            const body = JSON.stringify({ investor_id: investors[n++ % investors.length], symbol: 'VLMRA', side: 'buy', type: 'market', qty: 1 });
            const key = randomUUID();
            const timestamp = String(Math.floor(Date.now() / 1000));
            const signature = sign(d.creds.signing_secret, { timestamp, method: 'POST', path: '/v1/orders', rawQuery: '', idempotencyKey: key, body });
            return {
              ...req,
              method: 'POST',
              body,
              headers: { ...d.bearer, 'content-type': 'application/json', 'idempotency-key': key, 'x-svc-timestamp': timestamp, 'x-svc-signature': signature },
            };
          },
        },
      ],
    });
    if (c.stats.non2xx > 0) throw new Error(`${c.stats.non2xx} orders were refused (funds exhausted?)`);
    return comparisonFigures(c, ORDER_GOAL_PCT);
  } finally {
    await d.stop();
  }
});

bench('advance one simulated year with 1,000 resting limit orders', async (ctx) => {
  const d = await ctx.startDaemon();
  try {
    const investors = [await fundedInvestor(d, [70_000]), await fundedInvestor(d, [70_000])];
    await call(d, 'POST', '/admin/sandbox/clock-advance', { until: 'next_open' }, true);
    await call(d, 'POST', '/admin/sandbox/clock-advance', { minutes: 5 }, true);
    const catalog = (await call(d, 'GET', '/v1/instruments')).instruments as Array<{ symbol: string; security_type: string }>;
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
      await call(d, 'POST', '/v1/orders', { investor_id: investors[k % 2], symbol, side: 'buy', type: 'limit', qty: 1, limit_price_micros: limit, time_in_force: 'gtc' });
    }
    const open = async () => {
      const res = await fetch(d.baseUrl + '/broker/v1/exposure', { headers: { 'x-console-key': d.creds.dealer_key } });
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
        metric: 'wall time', value: seconds, unit: 's', goal: { op: '<=', value: YEAR_ADVANCE_GOAL_S },
        note: `${adv.instants_processed} instants; ${before} resting orders before, ${after} after (the others filled)`,
      },
    ];
  } finally {
    await d.stop();
  }
}, { timeoutMs: 300_000 });
