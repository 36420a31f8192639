// Issue 7, item 5: a mixed workload at a fixed rate for a fixed time against one real daemon — reads
// (clock, quotes, balances, order and activity lists, single orders), signed orders (market and limit
// buys, sells, cancels), signed transfers (deposits, withdrawals), signed fund orders when
// POST /v1/fund-orders exists, and a clock advance every second (one simulated minute in session,
// `until: next_open` once the market has closed, so day orders expire and trades settle).
//
// The load is open-loop: request i is sent at start + i / rate whether or not earlier ones have been
// answered (at most `maxInFlight` outstanding; a send that would exceed it is counted as dropped), over
// a pool of keep-alive connections, so a slow answer does not slow the offered rate. Latency is from
// the send to the last byte of the answer. Errors are transport errors, 5xx, and any 4xx other than
// the business refusals the workload can provoke (not enough cash or shares, a cancel that lost to a
// fill, the daily transfer limit); those refusals are counted apart.
//
// runMixed() is also the workload of test/soak/memory.soak.test.ts (10 minutes, RSS sampled).
import { readFileSync } from 'node:fs';
import { Prng } from '../../../daemon/sim/prng.js';
import {
  Api,
  call,
  deposit,
  EGP,
  hasRoute,
  limitAt,
  onboard,
  rssKiB,
  type Answer,
  type Call,
  type Creds,
  type Quote,
} from '../../helpers/crash-daemon.js';
import { bench } from '../registry.js';
import type { Figure } from '../registry.js';

export const MIXED_RATE = Number(process.env.BENCH_MIXED_RATE ?? 300);
export const MIXED_SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 10);
/** BENCH_MIXED_CLOCK=0: no clock advances. */
const MIXED_CLOCK = process.env.BENCH_MIXED_CLOCK !== '0';

const MAX_IN_FLIGHT = 256;
const SYMBOLS = ['VLMRA', 'OIH', 'EGCH', 'BTFH', 'RMDA'];
/** Refusals the workload provokes by design (a random mix on shared accounts), not errors. */
const BUSINESS = new Set([
  'INSUFFICIENT_SETTLED_CASH',
  'INSUFFICIENT_SETTLED_SECURITIES',
  'ORDER_NOT_CANCELLABLE',
  'DAILY_TRANSFER_LIMIT_EXCEEDED',
  'PRICE_BAND_EXCEEDED',
  'FUND_ORDER_TOO_SMALL',
]);

export interface MixedTarget {
  baseUrl: string;
  creds: Creds;
  pid?: number;
}

export interface MixedWorld {
  investors: string[];
  quotes: Map<string, Quote>;
  funds: string[];
  /** Orders seen resting (cancel candidates) and any order (for single-order reads), bounded. */
  open: string[];
  orders: string[];
}

/** Eight funded investors holding settled shares of the workload's symbols (and fund units). */
export async function prepareMixed(t: MixedTarget, investors = 8): Promise<MixedWorld> {
  const api = new Api(t.baseUrl, t.creds);
  try {
    const ids: string[] = [];
    for (let i = 0; i < investors; i++) ids.push(await onboard(api));
    for (const id of ids) await deposit(api, id, 140_000);
    await api.advance({ minutes: 3 });
    await api.advance({ until: 'next_open' });
    await api.advance({ minutes: 1 });
    for (const id of ids)
      for (const symbol of SYMBOLS)
        await api.expect(
          call('POST', '/v1/orders', { investor_id: id, symbol, side: 'buy', type: 'market', qty: 2000 }),
          201,
        );
    const funds: string[] = [];
    if (await hasRoute(api, 'POST', '/v1/fund-orders')) {
      const f = (
        (await api.get('/v1/funds')).funds as Array<{ fund_code: string; min_subscription_micros: number }>
      )[0];
      for (const id of ids)
        await api.expect(
          call('POST', '/v1/fund-orders', {
            investor_id: id,
            fund_code: f.fund_code,
            side: 'subscribe',
            amount_micros: f.min_subscription_micros,
          }),
          201,
        );
      funds.push(f.fund_code);
    }
    await api.advance({ until: 'next_open' });
    await api.advance({ until: 'next_open' });
    await api.advance({ minutes: 1 });
    const quotes = new Map<string, Quote>();
    for (const s of SYMBOLS) {
      const q = await api.get(`/v1/instruments/${s}/quote`);
      quotes.set(s, {
        price: q.price_micros,
        tick: q.tick_micros,
        lower: q.band.lower_micros,
        upper: q.band.upper_micros,
      });
    }
    return { investors: ids, quotes, funds, open: [], orders: [] };
  } finally {
    await api.close();
  }
}

type Kind = 'read' | 'order' | 'cancel' | 'transfer' | 'fund_order' | 'clock';

function pick<T>(rng: Prng, xs: readonly T[]): T {
  return xs[rng.int(0, xs.length - 1)];
}

function nextCall(rng: Prng, w: MixedWorld): { kind: Kind; c: Call } {
  const inv = pick(rng, w.investors);
  const sym = pick(rng, SYMBOLS);
  const q = w.quotes.get(sym)!;
  const r = rng.int(1, 100);
  const funds = w.funds.length > 0;
  // 57 % reads, 28 % orders and cancels, 10 % transfers, 5 % fund orders (reads instead without them)
  if (r <= 10) return { kind: 'read', c: call('GET', '/v1/clock') };
  if (r <= 25) return { kind: 'read', c: call('GET', `/v1/instruments/${sym}/quote`) };
  if (r <= 35) return { kind: 'read', c: call('GET', `/v1/investors/${inv}/balances`) };
  if (r <= 45) return { kind: 'read', c: call('GET', `/v1/orders?investor_id=${inv}&limit=20`) };
  if (r <= 50) return { kind: 'read', c: call('GET', `/v1/investors/${inv}/activities?limit=20`) };
  if (r <= 55)
    return { kind: 'read', c: call('GET', w.orders.length ? `/v1/orders/${pick(rng, w.orders)}` : '/v1/clock') };
  if (r <= 67)
    return {
      kind: 'order',
      c: call('POST', '/v1/orders', { investor_id: inv, symbol: sym, side: 'buy', type: 'market', qty: rng.int(1, 5) }),
    };
  if (r <= 75)
    return {
      kind: 'order',
      c: call('POST', '/v1/orders', {
        investor_id: inv,
        symbol: sym,
        side: 'buy',
        type: 'limit',
        qty: rng.int(1, 20),
        limit_price_micros: limitAt(q, -rng.int(50, 500)),
        time_in_force: 'day',
      }),
    };
  if (r <= 79)
    return {
      kind: 'order',
      c: call('POST', '/v1/orders', {
        investor_id: inv,
        symbol: sym,
        side: 'sell',
        type: 'market',
        qty: rng.int(1, 3),
      }),
    };
  if (r <= 83) {
    if (w.open.length === 0) return { kind: 'read', c: call('GET', '/v1/clock') };
    const i = rng.int(0, w.open.length - 1);
    const id = w.open[i];
    w.open[i] = w.open[w.open.length - 1];
    w.open.pop();
    return { kind: 'cancel', c: call('DELETE', `/v1/orders/${id}`) };
  }
  if (r <= 89)
    return {
      kind: 'transfer',
      c: call('POST', '/v1/transfers', {
        investor_id: inv,
        direction: 'deposit',
        amount_micros: rng.int(50, 500) * EGP,
      }),
    };
  if (r <= 93)
    return {
      kind: 'transfer',
      c: call('POST', '/v1/transfers', {
        investor_id: inv,
        direction: 'withdrawal',
        amount_micros: rng.int(10, 100) * EGP,
      }),
    };
  if (r <= 96 && funds)
    return {
      kind: 'fund_order',
      c: call('POST', '/v1/fund-orders', {
        investor_id: inv,
        fund_code: w.funds[0],
        side: 'subscribe',
        amount_micros: rng.int(100, 500) * EGP,
      }),
    };
  if (funds && r <= 98)
    return {
      kind: 'fund_order',
      c: call('POST', '/v1/fund-orders', {
        investor_id: inv,
        fund_code: w.funds[0],
        side: 'redeem',
        units_micros: rng.int(1, 10) * 1_000_000,
      }),
    };
  return { kind: 'read', c: call('GET', `/v1/instruments/${sym}/quote`) };
}

function learn(w: MixedWorld, c: Call, a: Answer): void {
  if (a.status === 201 && c.url === '/v1/orders') {
    const id = a.json.order_id as string;
    if (w.orders.length < 500) w.orders.push(id);
    else w.orders[Math.floor(Math.random() * w.orders.length)] = id;
    if (['new', 'accepted', 'partially_filled'].includes(a.json.status) && w.open.length < 2000) w.open.push(id);
  } else if (a.status === 200 && c.url.endsWith('/quote')) {
    const q = a.json;
    const sym = c.url.split('/')[3];
    w.quotes.set(sym, {
      price: q.price_micros,
      tick: q.tick_micros,
      lower: q.band.lower_micros,
      upper: q.band.upper_micros,
    });
  }
}

export interface KindStats {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export interface MixedStats {
  seconds: number;
  rate: number;
  sent: number;
  answered: number;
  throughput: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
  errors: number;
  errorSamples: string[];
  refusals: number;
  dropped: number;
  byKind: Record<string, KindStats>;
  statuses: Record<string, number>;
  /** Server CPU over the run, % of one core (null without /proc). */
  serverCpuPct: number | null;
}

function pct(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

export interface RunOptions {
  rate: number;
  seconds: number;
  seed?: number;
  connections?: number;
  maxInFlight?: number;
  /** false: no clock advances (to see what they cost the other requests' latency). */
  clock?: boolean;
  /** Called about once a second with the seconds elapsed (the soak samples RSS here). */
  onSecond?: (elapsedS: number) => void;
}

/** The mixed workload at `rate` requests/s for `seconds`, open-loop. */
export async function runMixed(t: MixedTarget, w: MixedWorld, o: RunOptions): Promise<MixedStats> {
  const api = new Api(t.baseUrl, t.creds, 30_000, o.connections ?? 32);
  const clockApi = new Api(t.baseUrl, t.creds);
  const rng = new Prng(`mixed:${o.seed ?? 1}`);
  const maxInFlight = o.maxInFlight ?? MAX_IN_FLIGHT;
  const lat: Record<string, number[]> = {};
  const all: number[] = [];
  const statuses: Record<string, number> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  let refusals = 0;
  let dropped = 0;
  let sent = 0;
  let inFlight = 0;
  const record = (kind: Kind, c: Call, a: Answer | null, err?: unknown) => {
    if (!a) {
      errors++;
      if (errorSamples.length < 10) errorSamples.push(`${c.method} ${c.url}: ${(err as Error)?.message ?? err}`);
      return;
    }
    const key = `${c.method} ${c.url
      .split('?')[0]
      .replace(/(inv|ord)_\w+/g, '{id}')
      .replace(/instruments\/\w+/, 'instruments/{s}')} ${a.status}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
    if (a.status < 400) {
      (lat[kind] ??= []).push(a.ms);
      all.push(a.ms);
    } else if (a.status === 422 && BUSINESS.has(a.json?.error?.code)) {
      refusals++;
      (lat[kind] ??= []).push(a.ms);
      all.push(a.ms);
    } else {
      errors++;
      if (errorSamples.length < 10) errorSamples.push(`${c.method} ${c.url}: ${a.status} ${a.text.slice(0, 200)}`);
    }
  };
  const fire = (kind: Kind, c: Call, via: Api) => {
    sent++;
    inFlight++;
    return via
      .send(c)
      .then(
        (a) => {
          record(kind, c, a);
          if (a.status < 300) learn(w, c, a);
        },
        (err) => record(kind, c, null, err),
      )
      .finally(() => inFlight--);
  };

  const cpu0 = cpuMs(t.pid);
  const t0 = performance.now();
  const end = t0 + o.seconds * 1000;
  const pending = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  // the clock: one advance a second, sequential
  let marketOpen = true;
  const clock = (async () => {
    for (let s = 1; t0 + s * 1000 < end; s++) {
      const wait = t0 + s * 1000 - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (o.clock !== false) {
        const c = call(
          'POST',
          '/admin/sandbox/clock-advance',
          marketOpen ? { minutes: 1 } : { until: 'next_open' },
          'admin',
        );
        sent++;
        try {
          const a = await clockApi.send(c);
          record('clock', c, a);
          if (a.status === 200) marketOpen = a.json.is_open;
        } catch (err) {
          record('clock', c, null, err);
        }
      }
      o.onSecond?.(s);
    }
  })();
  const interval = 1000 / o.rate;
  for (let i = 0; ; i++) {
    const due = t0 + i * interval;
    if (due >= end) break;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (inFlight >= maxInFlight) {
      dropped++;
      continue;
    }
    const { kind, c } = nextCall(rng, w);
    track(fire(kind, c, api));
  }
  await clock;
  await Promise.all([...pending]);
  const wallS = (performance.now() - t0) / 1000;
  const cpu1 = cpuMs(t.pid);
  await api.close();
  await clockApi.close();

  const sorted = Float64Array.from(all).sort();
  const byKind: Record<string, KindStats> = {};
  for (const [k, xs] of Object.entries(lat)) {
    const s = Float64Array.from(xs).sort();
    byKind[k] = { n: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s[s.length - 1] };
  }
  const answered = sorted.length;
  return {
    seconds: o.seconds,
    rate: o.rate,
    sent,
    answered,
    throughput: answered / wallS,
    p50: pct(sorted, 50),
    p99: pct(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    mean: all.reduce((a, b) => a + b, 0) / Math.max(1, all.length),
    errors,
    errorSamples,
    refusals,
    dropped,
    byKind,
    statuses,
    serverCpuPct: cpu0 !== null && cpu1 !== null ? (100 * (cpu1 - cpu0)) / (wallS * 1000) : null,
  };
}

/** The bench's figures of one run. */
export function mixedFigures(s: MixedStats, rss?: { start: number | null; end: number | null }): Figure[] {
  const kinds = Object.entries(s.byKind)
    .map(([k, v]) => `${k} ${v.n} p99 ${v.p99.toFixed(1)} ms`)
    .join(', ');
  const figures: Figure[] = [
    {
      metric: 'throughput',
      value: s.throughput,
      unit: 'req/s',
      note:
        `offered ${s.rate} req/s for ${s.seconds} s: ${s.sent} sent, ${s.answered} answered, ${s.dropped}` +
        ` dropped (over ${MAX_IN_FLIGHT} in flight)`,
      details: { ...s },
    },
    { metric: 'latency p50', value: s.p50, unit: 'ms' },
    { metric: 'latency p99', value: s.p99, unit: 'ms', note: kinds },
    { metric: 'latency max', value: s.max, unit: 'ms' },
    {
      metric: 'errors',
      value: s.errors,
      unit: '',
      goal: { op: '<=', value: 0 },
      note:
        s.errorSamples.slice(0, 2).join('; ') ||
        `transport errors, 5xx and unexpected 4xx; ${s.refusals} business refusals (cash, shares, cancel lost ` +
          `to a fill) apart`,
    },
  ];
  if (s.serverCpuPct !== null)
    figures.push({ metric: 'server CPU', value: s.serverCpuPct, unit: '%', note: 'of one core over the run' });
  if (rss)
    figures.push({
      metric: 'daemon RSS start / end',
      value: rss.end === null ? null : rss.end / 1024,
      unit: 'MiB',
      note: `start ${rss.start === null ? '?' : (rss.start / 1024).toFixed(1)} MiB (after setup and warm-up)`,
    });
  return figures;
}

bench(
  `mixed workload at ${MIXED_RATE} req/s (reads, signed orders, transfers${MIXED_CLOCK ? ', clock advances' : ''})`,
  async (ctx) => {
    const d = await ctx.startDaemon();
    try {
      const target: MixedTarget = { baseUrl: d.baseUrl, creds: d.creds as Creds, pid: d.pid };
      const w = await prepareMixed(target);
      const warm = ctx.config.load.warmupSeconds;
      if (warm > 0)
        await runMixed(target, w, {
          rate: MIXED_RATE,
          seconds: Math.max(1, Math.round(warm)),
          seed: 0,
          clock: MIXED_CLOCK,
        });
      const rssStart = rssKiB(d.pid);
      const s = await runMixed(target, w, { rate: MIXED_RATE, seconds: MIXED_SECONDS, seed: 1, clock: MIXED_CLOCK });
      const rssEnd = rssKiB(d.pid);
      ctx.log(`  mixed: ${JSON.stringify(s.statuses)}`);
      return mixedFigures(s, { start: rssStart, end: rssEnd });
    } finally {
      await d.stop();
    }
  },
  { timeoutMs: (ctx) => 120_000 + (MIXED_SECONDS + ctx.config.load.warmupSeconds) * 1000 },
);
