// Signed market orders as load: the same requests for the daemon (suites/orders.ts, suites/floor.ts)
// and for the floor server (servers/floor.mjs), and for test/bench/profile.ts. Each request is a 1-share
// market buy with a fresh Idempotency-Key, timestamp and v1 signature (daemon/contract/signing.ts),
// round-robin over a few funded investors.
import { randomUUID } from 'node:crypto';
import { sign } from '../../daemon/contract/signing.js';
import { call } from './client.js';
import type { BenchContext, DaemonHandle } from './context.js';
import type { LoadTarget } from './load.js';
import { applicant, BALANCED } from '../helpers/onboarding.js';

const EGP = 1_000_000;
export const ORDER_SYMBOL = 'VLMRA';

/** A server under signed-order load: the target to hand to ctx.measure / ctx.compare, and its stop. */
export interface OrderServer {
  target: LoadTarget;
  pid: number;
  stop(): Promise<void>;
}

/** An approved, suitable investor with `depositsEgp` deposited (completes after the clock moves 3 minutes). */
export async function fundedInvestor(d: DaemonHandle, depositsEgp: number[]): Promise<string> {
  const app = await call(d, 'POST', '/v1/kyc/applications', applicant());
  await call(d, 'POST', `/v1/kyc/applications/${app.application_id}/submit`);
  const investorId = (await call(d, 'GET', `/v1/kyc/applications/${app.application_id}`)).investor_id as string;
  await call(d, 'PUT', `/v1/investors/${investorId}/suitability`, { questionnaire: BALANCED, risk_acknowledged: true });
  for (const egp of depositsEgp)
    await call(d, 'POST', '/v1/transfers', { investor_id: investorId, direction: 'deposit', amount_micros: egp * EGP });
  return investorId;
}

/** autocannon requests: one signed market buy per request, a fresh key each. */
export function signedOrders(
  baseUrl: string,
  pid: number,
  creds: { api_key: string; signing_secret: string },
  investors: string[],
): LoadTarget {
  let n = 0;
  const bearer = `Bearer ${creds.api_key}`;
  return {
    url: `${baseUrl}/v1/orders`,
    serverPid: pid,
    requests: [
      {
        method: 'POST',
        path: '/v1/orders',
        setupRequest: (req: Record<string, unknown>) => {
          const body = JSON.stringify({
            investor_id: investors[n++ % investors.length],
            symbol: ORDER_SYMBOL,
            side: 'buy',
            type: 'market',
            qty: 1,
          });
          const key = randomUUID();
          const timestamp = String(Math.floor(Date.now() / 1000));
          const signature = sign(creds.signing_secret, {
            timestamp,
            method: 'POST',
            path: '/v1/orders',
            rawQuery: '',
            idempotencyKey: key,
            body,
          });
          return {
            ...req,
            method: 'POST',
            body,
            headers: {
              authorization: bearer,
              'content-type': 'application/json',
              'idempotency-key': key,
              'x-svc-timestamp': timestamp,
              'x-svc-signature': signature,
            },
          };
        },
      },
    ],
  };
}

/**
 * A fresh daemon ready for signed market orders that fill: `investors` investors with 200,000 EGP each
 * (a day's deposit limit; a 1-share VLMRA market order costs about 5.6 EGP with its fees), the clock
 * five minutes into a session, and one probe order that must fill.
 */
export async function daemonForOrders(
  ctx: BenchContext,
  investors = 4,
  nodeArgs?: string[],
  entry?: string,
): Promise<OrderServer & { daemon: DaemonHandle }> {
  const d = await ctx.startDaemon({ nodeArgs, entry });
  try {
    const ids: string[] = [];
    for (let i = 0; i < investors; i++) ids.push(await fundedInvestor(d, [70_000, 70_000, 60_000]));
    await call(d, 'POST', '/admin/sandbox/clock-advance', { until: 'next_open' }, true);
    await call(d, 'POST', '/admin/sandbox/clock-advance', { minutes: 5 }, true);
    const probe = await call(d, 'POST', '/v1/orders', {
      investor_id: ids[0],
      symbol: ORDER_SYMBOL,
      side: 'buy',
      type: 'market',
      qty: 1,
    });
    if (probe.status !== 'filled') throw new Error(`the probe order is ${probe.status}, not filled`);
    return { daemon: d, pid: d.pid, target: signedOrders(d.baseUrl, d.pid, d.creds, ids), stop: () => d.stop() };
  } catch (err) {
    await d.stop();
    throw err;
  }
}

/** The floor server (servers/floor.mjs) on a fresh database, after one probe order that must answer 201. */
export async function floorForOrders(ctx: BenchContext, nodeArgs?: string[]): Promise<OrderServer> {
  const f = await ctx.startFloor({ nodeArgs });
  try {
    const target = signedOrders(f.baseUrl, f.pid, f, f.investors);
    const body = JSON.stringify({
      investor_id: f.investors[0],
      symbol: ORDER_SYMBOL,
      side: 'buy',
      type: 'market',
      qty: 1,
    });
    const key = randomUUID();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(f.signing_secret, {
      timestamp,
      method: 'POST',
      path: '/v1/orders',
      rawQuery: '',
      idempotencyKey: key,
      body,
    });
    const res = await fetch(`${f.baseUrl}/v1/orders`, {
      method: 'POST',
      body,
      headers: {
        authorization: `Bearer ${f.api_key}`,
        'content-type': 'application/json',
        'idempotency-key': key,
        'x-svc-timestamp': timestamp,
        'x-svc-signature': signature,
      },
      signal: AbortSignal.timeout(5000),
    });
    const text = await res.text();
    if (res.status !== 201 || (JSON.parse(text) as { status?: string }).status !== 'filled')
      throw new Error(`the floor's probe order answered ${res.status}: ${text.slice(0, 300)}`);
    return { pid: f.pid, target, stop: f.stop };
  } catch (err) {
    await f.stop();
    throw err;
  }
}
