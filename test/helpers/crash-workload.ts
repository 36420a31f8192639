// The crash-safety harness (test/crash/crash.test.ts, test/soak/crash.soak.test.ts): a real daemon on
// one home serves several concurrent clients that send signed orders (market and limit, buys and
// sells), cancels, deposits, withdrawals and fund orders (when the route exists) at a steady rate,
// each with its own Idempotency-Key, while a clock client advances the sandbox clock; the daemon is
// SIGKILLed at a random moment (seeded PRNG), and every request is recorded with whether an answer
// came back and what it was. Then, per cycle:
//
//   1. with the daemon dead, the store is opened read-only: the ledger invariants and the
//      "no half-applied request" checks of storeViolations hold; every acknowledged request's stored
//      answer is byte for byte what the client received, and its object exists exactly once (orders
//      by client_order_id); every unacknowledged one is either wholly there (stored answer, object,
//      audit entry) or wholly absent (none of them);
//   2. the daemon restarts on the same home: the audit chain verifies, the clock is where the last
//      acknowledged advance left it (or one in-flight advance further);
//   3. every request of the cycle is sent again with the same key and body: acknowledged and
//      committed ones replay their original answer (Idempotent-Replayed: true, same bytes); absent ones
//      apply now, once (a second retry replays that answer); the checks of 1 hold again.
//
// At the end every keyed request of every cycle is replayed once more (answers survive all restarts).
import type Database from 'better-sqlite3';
import { Prng } from '../../daemon/sim/prng.js';
import {
  Api,
  call,
  CRASH_START,
  deposit,
  EGP,
  hasRoute,
  killDaemon,
  limitAt,
  onboard,
  openStore,
  quote,
  sleep,
  startDaemon,
  stopDaemon,
  storedAnswer,
  storeViolations,
  tempHome,
  removeHome,
  type Answer,
  type Call,
  type DaemonProc,
  type Quote,
} from './crash-daemon.js';

export type OpKind =
  | 'buy'
  | 'buy_limit'
  | 'sell'
  | 'sell_limit'
  | 'cancel'
  | 'deposit'
  | 'withdrawal'
  | 'subscribe'
  | 'redeem'
  | 'advance';

export interface Op {
  cycle: number;
  client: number;
  kind: OpKind;
  call: Call;
  clientOrderId?: string;
  sentAt: number;
  /** The simulated clock (ms) as last acknowledged when it was sent: its stored answer is at least this new. */
  simAt: number;
  /** The answer received (the request is acknowledged). */
  acked?: Answer;
  /** The transport error instead of an answer (unacknowledged). */
  error?: string;
  /** The client gave up waiting (a reply lost on the way back), the daemon alive. */
  lost?: boolean;
  /** Unacknowledged: its answer was stored (committed before the kill). */
  committed?: boolean;
  /** The answer every later send with this key must replay. */
  expected?: { status: number; text: string };
}

export interface World {
  tenantId: string;
  investors: string[];
  symbols: string[];
  quotes: Map<string, Quote>;
  /** Fund codes (empty while POST /v1/fund-orders does not exist). */
  funds: string[];
  /** Orders acknowledged as resting (cancel candidates). */
  open: string[];
  /** The simulated clock (ms) as last acknowledged. */
  simNow: number;
}

export interface CrashOptions {
  cycles: number;
  seed: number;
  /** Order/transfer clients (the clock client comes on top). */
  clients?: number;
  /** Pause between a client's requests, ms. */
  intervalMs?: number;
  /** Pause between clock advances, ms. */
  advanceEveryMs?: number;
  /** The kill comes uniformly within [min, max] ms after the load starts. */
  killWindowMs?: [number, number];
  investors?: number;
  /** Per cent of requests whose reply the client drops (gives up 1-4 ms after sending). */
  lostReplyPct?: number;
  log?: (msg: string) => void;
}

export interface CycleReport {
  cycle: number;
  killAfterMs: number;
  sent: number;
  acked: number;
  unackedCommitted: number;
  unackedAbsent: number;
  /** Of the unacknowledged: replies the client dropped while the daemon was alive. */
  lostReplies: number;
  /** Of the unacknowledged cut by the kill (not dropped by the client): those found committed. */
  killCutCommitted: number;
  advances: number;
  restartMs: number;
  byKind: Record<string, number>;
}

export interface CrashReport {
  seed: number;
  cycles: CycleReport[];
  totalSent: number;
  totalAcked: number;
  totalCommittedUnacked: number;
  totalAbsentUnacked: number;
  totalLostReplies: number;
  totalKillCutCommitted: number;
  finalReplays: number;
  /** Keyed requests older than the idempotency window at the end, not replayed. */
  finalExpired: number;
  ms: number;
  fundOrders: boolean;
}

const SYMBOLS = ['VLMRA', 'OIH', 'EGCH'];
/** Requests are replayed while younger than this (the idempotency window is 24 simulated hours). */
const REPLAYABLE_MS = 23 * 3600 * 1000;

class Failures {
  readonly list: string[] = [];
  add(msg: string): void {
    if (this.list.length < 200) this.list.push(msg);
  }
  check(cond: boolean, msg: () => string): void {
    if (!cond) this.add(msg());
  }
  throwIfAny(seed: number, where: string): void {
    if (this.list.length === 0) return;
    throw new Error(
      `crash test (seed ${seed}, SVC_CRASH_SEED=${seed} replays it) failed ${where}:\n  ` +
        `${this.list.slice(0, 40).join('\n  ')}` +
        `${this.list.length > 40 ? `\n  ... ${this.list.length - 40} more` : ''}`,
    );
  }
}

/** Onboards and funds the investors, buys shares and lets them settle, subscribes to funds. */
async function buildWorld(d: DaemonProc, investors: number): Promise<World> {
  const api = Api.of(d);
  try {
    const ids: string[] = [];
    for (let i = 0; i < investors; i++) ids.push(await onboard(api));
    for (const id of ids) await deposit(api, id, 140_000);
    await api.advance({ minutes: 3 });
    await api.advance({ until: 'next_open' });
    await api.advance({ minutes: 1 });
    for (const id of ids) {
      for (const symbol of SYMBOLS) {
        const o = await api.expect(
          call('POST', '/v1/orders', { investor_id: id, symbol, side: 'buy', type: 'market', qty: 3000 }),
          201,
        );
        if (o.status !== 'filled') throw new Error(`setup buy ${symbol} is ${o.status}`);
      }
    }
    const funds: string[] = [];
    if (await hasRoute(api, 'POST', '/v1/fund-orders')) {
      const list = (await api.get('/v1/funds')).funds as Array<{
        fund_code: string;
        min_subscription_micros: number;
        shariah_compliant: boolean;
      }>;
      for (const f of list.slice(0, 2)) {
        for (const id of ids) {
          await api.expect(
            call('POST', '/v1/fund-orders', {
              investor_id: id,
              fund_code: f.fund_code,
              side: 'subscribe',
              amount_micros: f.min_subscription_micros,
            }),
            201,
          );
        }
        funds.push(f.fund_code);
      }
    }
    // T+2: the shares settle at the open two business days on
    await api.advance({ until: 'next_open' });
    await api.advance({ until: 'next_open' });
    await api.advance({ minutes: 1 });
    const b = await api.get(`/v1/investors/${ids[0]}/balances`);
    const held = (b.securities as Array<{ symbol: string; settled: number }>).filter((s) => s.settled > 0).length;
    if (held < SYMBOLS.length) throw new Error(`setup shares did not settle: ${JSON.stringify(b.securities)}`);
    const quotes = new Map<string, Quote>();
    for (const s of SYMBOLS) quotes.set(s, await quote(api, s));
    const simNow = Date.parse((await api.get('/v1/clock')).timestamp);
    return { tenantId: d.creds.tenant_id, investors: ids, symbols: SYMBOLS, quotes, funds, open: [], simNow };
  } finally {
    await api.close();
  }
}

function pick<T>(rng: Prng, xs: readonly T[]): T {
  return xs[rng.int(0, xs.length - 1)];
}

/** The next request of a client: a weighted choice, with its body fully determined by the PRNG. */
function nextOp(rng: Prng, w: World, tag: string): { kind: OpKind; call: Call; clientOrderId?: string } {
  const kinds: Array<[OpKind, number]> = [
    ['buy', 28],
    ['buy_limit', 16],
    ['sell', 8],
    ['sell_limit', 6],
    ['cancel', 12],
    ['deposit', 9],
    ['withdrawal', 8],
    ...(w.funds.length > 0
      ? ([
          ['subscribe', 7],
          ['redeem', 6],
        ] as Array<[OpKind, number]>)
      : []),
  ];
  let r = rng.int(
    1,
    kinds.reduce((a, [, n]) => a + n, 0),
  );
  let kind: OpKind = 'buy';
  for (const [k, n] of kinds) {
    if ((r -= n) <= 0) {
      kind = k;
      break;
    }
  }
  if (kind === 'cancel' && w.open.length === 0) kind = 'buy_limit';
  const investor_id = pick(rng, w.investors);
  const symbol = pick(rng, w.symbols);
  const q = w.quotes.get(symbol)!;
  const coid = `crash-${tag}`;
  switch (kind) {
    case 'buy':
      return {
        kind,
        clientOrderId: coid,
        call: call('POST', '/v1/orders', {
          investor_id,
          symbol,
          side: 'buy',
          type: 'market',
          qty: rng.int(1, 20),
          client_order_id: coid,
        }),
      };
    case 'buy_limit':
      return {
        kind,
        clientOrderId: coid,
        call: call('POST', '/v1/orders', {
          investor_id,
          symbol,
          side: 'buy',
          type: 'limit',
          qty: rng.int(1, 20),
          limit_price_micros: limitAt(q, -rng.int(0, 300)),
          time_in_force: pick(rng, ['day', 'gtc'] as const),
          client_order_id: coid,
        }),
      };
    case 'sell':
      return {
        kind,
        clientOrderId: coid,
        call: call('POST', '/v1/orders', {
          investor_id,
          symbol,
          side: 'sell',
          type: 'market',
          qty: rng.int(1, 5),
          client_order_id: coid,
        }),
      };
    case 'sell_limit':
      return {
        kind,
        clientOrderId: coid,
        call: call('POST', '/v1/orders', {
          investor_id,
          symbol,
          side: 'sell',
          type: 'limit',
          qty: rng.int(1, 5),
          limit_price_micros: limitAt(q, rng.int(0, 300)),
          time_in_force: pick(rng, ['day', 'gtc'] as const),
          client_order_id: coid,
        }),
      };
    case 'cancel':
      return { kind, call: call('DELETE', `/v1/orders/${pick(rng, w.open)}`) };
    case 'deposit':
      return {
        kind,
        call: call('POST', '/v1/transfers', {
          investor_id,
          direction: 'deposit',
          amount_micros: rng.int(10, 200) * EGP + rng.int(0, 999_999),
        }),
      };
    case 'withdrawal':
      return {
        kind,
        call: call('POST', '/v1/transfers', {
          investor_id,
          direction: 'withdrawal',
          amount_micros: rng.int(5, 50) * EGP + rng.int(0, 999_999),
        }),
      };
    case 'subscribe':
      return {
        kind,
        call: call('POST', '/v1/fund-orders', {
          investor_id,
          fund_code: pick(rng, w.funds),
          side: 'subscribe',
          amount_micros: rng.int(50, 500) * EGP,
        }),
      };
    case 'redeem':
      return {
        kind,
        call: call('POST', '/v1/fund-orders', {
          investor_id,
          fund_code: pick(rng, w.funds),
          side: 'redeem',
          units_micros: rng.int(1, 5) * 1_000_000,
        }),
      };
    default:
      throw new Error(`no op ${kind}`);
  }
}

function noteAnswer(w: World, op: Op, a: Answer): void {
  if (
    op.call.method === 'POST' &&
    op.call.url === '/v1/orders' &&
    a.status === 201 &&
    ['new', 'accepted', 'partially_filled'].includes(a.json?.status)
  ) {
    w.open.push(a.json.order_id);
  }
  if (op.kind === 'cancel' && (a.status === 202 || a.status === 422)) {
    const id = op.call.url.split('/').pop()!;
    w.open = w.open.filter((x) => x !== id);
  }
}

/** Load from `clients` order/transfer clients and one clock client until the daemon dies. */
async function load(
  d: DaemonProc,
  w: World,
  o: Required<CrashOptions>,
  cycle: number,
  ops: Op[],
  dead: { at: number | null },
): Promise<void> {
  const worker = async (client: number) => {
    const api = Api.of(d);
    const rng = new Prng(`${o.seed}:${cycle}:${client}`);
    try {
      for (let i = 0; dead.at === null; i++) {
        const next = nextOp(rng, w, `${o.seed}-${cycle}-${client}-${i}`);
        const op: Op = {
          cycle,
          client,
          kind: next.kind,
          call: next.call,
          clientOrderId: next.clientOrderId,
          sentAt: Date.now(),
          simAt: w.simNow,
        };
        // Some replies are lost on the way back: the client gives up 1-4 ms after sending, so the
        // daemon may or may not have committed the request (both must come out whole).
        const lossy = rng.int(1, 100) <= o.lostReplyPct;
        ops.push(op);
        try {
          op.acked = await api.send(op.call, lossy ? AbortSignal.timeout(rng.int(1, 4)) : undefined);
          noteAnswer(w, op, op.acked);
        } catch (err) {
          op.error = (err as Error).message;
          if (lossy && dead.at === null && /abort/i.test(`${(err as Error).name} ${op.error}`)) {
            op.lost = true;
            continue;
          }
          return;
        }
        await sleep(o.intervalMs);
      }
    } finally {
      await api.close().catch(() => {});
    }
  };
  const clock = async () => {
    const api = Api.of(d);
    let open = true;
    try {
      while (dead.at === null) {
        const op: Op = {
          cycle,
          client: -1,
          kind: 'advance',
          call: call('POST', '/admin/sandbox/clock-advance', open ? { minutes: 1 } : { until: 'next_open' }, 'admin'),
          sentAt: Date.now(),
          simAt: w.simNow,
        };
        ops.push(op);
        try {
          op.acked = await api.send(op.call);
          open = op.acked.json?.is_open !== false;
          if (op.acked.status === 200) w.simNow = Date.parse(op.acked.json.timestamp);
        } catch (err) {
          op.error = (err as Error).message;
          return;
        }
        await sleep(o.advanceEveryMs);
      }
    } finally {
      await api.close().catch(() => {});
    }
  };
  await Promise.all([...Array.from({ length: o.clients }, (_, i) => worker(i)), clock()]);
}

const isOrderPost = (op: Op) => op.call.method === 'POST' && op.call.url === '/v1/orders';

function orderCount(db: Database.Database, tenantId: string, coid: string): { n: number; id: string | null } {
  const r = db
    .prepare('SELECT COUNT(*) AS n, MAX(id) AS id FROM orders WHERE tenant_id = ? AND client_order_id = ?')
    .get(tenantId, coid) as { n: number; id: string | null };
  return r;
}

function auditCount(db: Database.Database, tenantId: string, key: string): number {
  return (
    db
      .prepare(
        "SELECT COUNT(*) AS n FROM audit_log WHERE tenant_id = ? AND json_extract(detail, '$.idempotency_key') = ?",
      )
      .get(tenantId, key) as { n: number }
  ).n;
}

const OBJECT_FIELD: Record<string, [string, string]> = {
  '/v1/orders': ['orders', 'order_id'],
  '/v1/transfers': ['transfers', 'transfer_id'],
  '/v1/fund-orders': ['fund_orders', 'fund_order_id'],
};

/** The object a stored 201 names exists exactly once (by its id; orders also by client_order_id). */
function checkPresent(
  db: Database.Database,
  w: World,
  op: Op,
  status: number,
  text: string,
  f: Failures,
  when: string,
): void {
  if (op.call.method !== 'POST' || status !== 201) return;
  const [table, field] = OBJECT_FIELD[op.call.url];
  const id = JSON.parse(text)[field] as string;
  const n = (
    db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE tenant_id = ? AND id = ?`).get(w.tenantId, id) as { n: number }
  ).n;
  f.check(n === 1, () => `${when}: ${op.kind} ${op.call.key} answered 201 ${id}, which the store has ${n} times`);
  if (op.clientOrderId) {
    const c = orderCount(db, w.tenantId, op.clientOrderId);
    f.check(
      c.n === 1 && c.id === id,
      () => `${when}: ${op.clientOrderId} answered ${id}; the store has ${c.n} orders with it (${c.id})`,
    );
  }
}

/** Step 1: the store as the kill left it. */
function checkAfterKill(home: string, w: World, ops: Op[], f: Failures): void {
  const db = openStore(home);
  try {
    for (const v of storeViolations(db, w.tenantId)) f.add(`after the kill: ${v}`);
    for (const op of ops) {
      if (op.kind === 'advance') continue;
      if (op.acked && op.acked.status >= 500)
        f.add(`${op.kind} ${op.call.key} answered ${op.acked.status}: ${op.acked.text.slice(0, 200)}`);
      const stored = storedAnswer(db, w.tenantId, op.call);
      if (op.acked) {
        f.check(
          stored !== null,
          () => `acknowledged ${op.kind} ${op.call.key} (${op.acked!.status}) has no stored answer after the kill`,
        );
        if (!stored) continue;
        f.check(
          stored.status === op.acked.status && stored.response === op.acked.text,
          () =>
            `acknowledged ${op.kind} ${op.call.key}: stored ${stored.status} ${stored.response.slice(0, 120)}` +
            ` but the client got ${op.acked!.status} ${op.acked!.text.slice(0, 120)}`,
        );
        op.expected = { status: op.acked.status, text: op.acked.text };
        checkPresent(db, w, op, stored.status, stored.response, f, 'after the kill');
        if (isOrderPost(op) && op.acked.status !== 201) {
          f.check(
            orderCount(db, w.tenantId, op.clientOrderId!).n === 0,
            () => `refused order ${op.clientOrderId} exists`,
          );
        }
      } else {
        op.committed = stored !== null;
        if (stored) {
          op.expected = { status: stored.status, text: stored.response };
          checkPresent(db, w, op, stored.status, stored.response, f, 'unacknowledged but committed');
          if (stored.status < 400)
            f.check(
              auditCount(db, w.tenantId, op.call.key!) === 1,
              () => `committed ${op.kind} ${op.call.key} has no audit entry`,
            );
        } else {
          f.check(
            auditCount(db, w.tenantId, op.call.key!) === 0,
            () => `absent ${op.kind} ${op.call.key} has an audit entry`,
          );
          if (op.clientOrderId)
            f.check(
              orderCount(db, w.tenantId, op.clientOrderId).n === 0,
              () => `absent order ${op.clientOrderId} is in the store without its stored answer`,
            );
        }
      }
    }
  } finally {
    db.close();
  }
}

/** Sends op again (same key and body); checks it replays op.expected, or applies once when absent. */
async function retry(api: Api, op: Op, f: Failures, when: string): Promise<void> {
  const a = await api.send(op.call);
  if (op.expected) {
    f.check(
      a.replayed && a.status === op.expected.status && a.text === op.expected.text,
      () =>
        `${when}: ${op.kind} ${op.call.key} should replay ${op.expected!.status} ` +
        `${op.expected!.text.slice(0, 100)}, got ${a.replayed ? 'replayed ' : ''}${a.status} ` +
        `${a.text.slice(0, 100)}`,
    );
    return;
  }
  // absent before the restart: this send applies it, the next one replays it
  f.check(!a.replayed, () => `${when}: absent ${op.kind} ${op.call.key} answered as a replay (${a.status})`);
  f.check(a.status < 500, () => `${when}: ${op.kind} ${op.call.key} answered ${a.status} ${a.text.slice(0, 200)}`);
  op.expected = { status: a.status, text: a.text };
  const again = await api.send(op.call);
  f.check(
    again.replayed && again.status === a.status && again.text === a.text,
    () => `${when}: the second retry of ${op.kind} ${op.call.key} did not replay the first (${again.status})`,
  );
}

async function inParallel<T>(items: T[], n: number, fn: (item: T, worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async (_, worker) => {
      while (next < items.length) await fn(items[next++], worker);
    }),
  );
}

/** Runs the cycles; throws with every violation found (and the seed) when anything fails. */
export async function runCrashCycles(opts: CrashOptions): Promise<CrashReport> {
  const o: Required<CrashOptions> = {
    clients: 6,
    intervalMs: 5,
    advanceEveryMs: 120,
    killWindowMs: [250, 1500],
    investors: 4,
    lostReplyPct: 4,
    log: () => {},
    ...opts,
  };
  const t0 = Date.now();
  const home = tempHome('crash');
  const kill = new Prng(`${o.seed}:kill`);
  const all: Op[] = [];
  const reports: CycleReport[] = [];
  let d = await startDaemon(home);
  try {
    const w = await buildWorld(d, o.investors);
    o.log(
      `crash: seed ${o.seed}, ${o.investors} investors, fund orders ` +
        `${w.funds.length > 0 ? `on (${w.funds.join(', ')})` : 'not available (no POST /v1/fund-orders)'}`,
    );
    for (let cycle = 1; cycle <= o.cycles; cycle++) {
      const f = new Failures();
      const ops: Op[] = [];
      const dead: { at: number | null } = { at: null };
      const killAfterMs = kill.int(o.killWindowMs[0], o.killWindowMs[1]);
      const started = Date.now();
      const loading = load(d, w, o, cycle, ops, dead);
      await sleep(killAfterMs);
      await killDaemon(d);
      dead.at = Date.now();
      await loading;
      // a transport error is expected only from the kill on
      for (const op of ops) {
        if (op.error && !op.lost && op.sentAt < started + killAfterMs - 50 && !op.acked) {
          // sent well before the kill: it must have been in flight at the kill, never refused earlier
          if (!/other side closed|ECONNRESET|socket|closed/i.test(op.error))
            f.add(`${op.kind} sent before the kill failed with ${op.error}`);
        }
      }
      checkAfterKill(home, w, ops, f);
      f.throwIfAny(o.seed, `after the kill of cycle ${cycle}`);

      const r0 = Date.now();
      d = await startDaemon(home);
      const restartMs = Date.now() - r0;
      const api = Api.of(d);
      try {
        const verify = await api.get('/admin/audit/verify');
        f.check(
          verify.ok === true,
          () => `the audit chain does not verify after the restart: ${JSON.stringify(verify)}`,
        );
        const clock = await api.get('/v1/clock');
        const advances = ops.filter((op) => op.kind === 'advance');
        const lastAcked = [...advances].reverse().find((op) => op.acked && op.acked.status === 200);
        const inFlight = advances.some((op) => !op.acked);
        if (lastAcked) {
          const at = Date.parse(lastAcked.acked!.json.timestamp);
          const now = Date.parse(clock.timestamp);
          f.check(
            inFlight ? now >= at : now === at,
            () =>
              `the clock is ${clock.timestamp} after the restart; the last acknowledged advance answered ` +
              `${lastAcked.acked!.json.timestamp}${inFlight ? ' (one more was in flight)' : ''}`,
          );
        }
        for (const s of w.symbols) w.quotes.set(s, await quote(api, s));
      } finally {
        await api.close();
      }
      const keyed = ops.filter((op) => op.kind !== 'advance');
      // a cycle's requests are all inside the idempotency window at its retries (at most one overnight advance)
      for (const op of keyed)
        f.check(
          w.simNow - op.simAt < REPLAYABLE_MS,
          () => `${op.kind} ${op.call.key} is older than the idempotency window at its retry`,
        );
      const clients = Array.from({ length: 8 }, () => Api.of(d));
      try {
        await inParallel(keyed, clients.length, (op, i) => retry(clients[i], op, f, `retry after restart ${cycle}`));
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
      const db = openStore(home);
      try {
        for (const v of storeViolations(db, w.tenantId)) f.add(`after the retries: ${v}`);
        for (const op of keyed)
          if (op.expected) checkPresent(db, w, op, op.expected.status, op.expected.text, f, 'after the retries');
        for (const op of keyed.filter((x) => isOrderPost(x) && x.expected?.status !== 201)) {
          f.check(
            orderCount(db, w.tenantId, op.clientOrderId!).n === 0,
            () => `refused order ${op.clientOrderId} exists after the retries`,
          );
        }
      } finally {
        db.close();
      }
      f.throwIfAny(o.seed, `after the restart of cycle ${cycle}`);
      // orders that the retries placed and that rest are cancel candidates too
      for (const op of keyed)
        if (isOrderPost(op) && !op.acked && op.expected?.status === 201) {
          const j = JSON.parse(op.expected.text);
          if (['new', 'accepted', 'partially_filled'].includes(j.status)) w.open.push(j.order_id);
        }

      const byKind: Record<string, number> = {};
      for (const op of ops) byKind[op.kind] = (byKind[op.kind] ?? 0) + 1;
      const rep: CycleReport = {
        cycle,
        killAfterMs,
        sent: ops.length,
        acked: ops.filter((x) => x.acked).length,
        unackedCommitted: ops.filter((x) => !x.acked && x.committed).length,
        unackedAbsent: ops.filter((x) => !x.acked && x.kind !== 'advance' && !x.committed).length,
        lostReplies: ops.filter((x) => x.lost).length,
        killCutCommitted: ops.filter((x) => !x.acked && !x.lost && x.committed).length,
        advances: byKind.advance ?? 0,
        restartMs,
        byKind,
      };
      reports.push(rep);
      all.push(...ops);
      o.log(
        `cycle ${cycle}/${o.cycles}: killed after ${killAfterMs} ms; ${rep.sent} requests, ${rep.acked}` +
          ` acknowledged, unacknowledged ${rep.unackedCommitted} committed + ${rep.unackedAbsent} absent (` +
          `${rep.lostReplies} replies dropped by the client, the rest cut by the kill, of which ` +
          `${rep.killCutCommitted} committed); restart ${restartMs} ms`,
      );
    }

    // every keyed request of every cycle still inside the idempotency window (24 simulated hours;
    // older keys are free again by design, docs/api.md), once more: its answer survived every later crash
    const f = new Failures();
    const clients = Array.from({ length: 8 }, () => Api.of(d));
    const simEnd = Date.parse((await clients[0].get('/v1/clock')).timestamp);
    const keyed = all.filter((op) => op.kind !== 'advance' && simEnd - op.simAt < REPLAYABLE_MS);
    const expired = all.filter((op) => op.kind !== 'advance').length - keyed.length;
    try {
      await inParallel(keyed, clients.length, (op, i) => retry(clients[i], op, f, 'final replay'));
      const verify = await clients[0].get('/admin/audit/verify');
      f.check(verify.ok === true, () => `the audit chain does not verify at the end: ${JSON.stringify(verify)}`);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    const db = openStore(home);
    try {
      for (const v of storeViolations(db, w.tenantId)) f.add(`at the end: ${v}`);
    } finally {
      db.close();
    }
    f.throwIfAny(o.seed, 'in the final replay');
    return {
      seed: o.seed,
      cycles: reports,
      totalSent: all.length,
      totalAcked: all.filter((x) => x.acked).length,
      totalCommittedUnacked: reports.reduce((a, r) => a + r.unackedCommitted, 0),
      totalAbsentUnacked: reports.reduce((a, r) => a + r.unackedAbsent, 0),
      totalLostReplies: reports.reduce((a, r) => a + r.lostReplies, 0),
      totalKillCutCommitted: reports.reduce((a, r) => a + r.killCutCommitted, 0),
      finalReplays: keyed.length,
      finalExpired: expired,
      ms: Date.now() - t0,
      fundOrders: w.funds.length > 0,
    };
  } finally {
    await stopDaemon(d).catch(() => {});
    removeHome(home);
  }
}

/** The seed of a run: SVC_CRASH_SEED, else a random one (printed by the tests). */
export function crashSeed(): number {
  const env = process.env.SVC_CRASH_SEED;
  return env ? Number(env) : Math.floor(Math.random() * 2 ** 31);
}

export { CRASH_START };
