// Instructions per signed market order, counted by valgrind (callgrind) instead of timed: on a shared
// machine CPU time swings 2x with the load; an instruction count moves with the load only through
// the batches' sizes (how many orders share a COMMIT) and V8's optimizing compiler, whose thread is
// still tiering up the code in the window and is reported apart (docs/bench.md, "Comparing two
// builds"). It counts the daemon's user-space instructions only (not the kernel's share: socket and
// WAL writes), and not their cost in cycles (cache misses). Usage, after `npm run build`:
//
//   npx tsx test/bench/icount.ts [main.js ...]     # default dist/daemon/main.js; ICOUNT_ORDERS=300
//   npx tsx test/bench/icount.ts bench-results/dist-before/daemon/main.js dist/daemon/main.js
//   ICOUNT_GET=/v1/clock npx tsx test/bench/icount.ts OLD NEW   # per GET of a read route instead
//   npx tsx test/bench/icount.ts floor dist/daemon/main.js   # the floor (servers/floor.mjs) beside the daemon
//
// Each daemon runs under `valgrind --tool=callgrind --instr-atstart=no`, gets the bench's four funded
// investors and ICOUNT_WARM (200) unmeasured orders; then counting is switched on for ICOUNT_ORDERS
// orders sent by 10 connections (so batches share their COMMIT as under the bench's load), and off.
// With ICOUNT_GET=<path>, the load is GETs of that path with the tenant's bearer key instead
// (ICOUNT_REQUESTS, default 3000, after ICOUNT_WARM_GETS, default 3000), counted per request.
// With ICOUNT_KEEP=1 the callgrind file stays in bench-results/ (callgrind_annotate reads it).
import { execFileSync } from 'node:child_process';
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sign } from '../../daemon/contract/signing.js';
import { COMPILER, inclusiveOf, majorGc } from './callgrind.js';
import { BenchContext, DAEMON_ENTRY, ROOT, configFromEnv, type DaemonHandle } from './context.js';
import { call } from './client.js';
import { fundedInvestor, ORDER_SYMBOL } from './order-load.js';
import { installCleanup } from './proc.js';

const GET_PATH = process.env.ICOUNT_GET;
const ORDERS = GET_PATH ? Number(process.env.ICOUNT_REQUESTS ?? 3000) : Number(process.env.ICOUNT_ORDERS ?? 300);
const WARM = GET_PATH ? Number(process.env.ICOUNT_WARM_GETS ?? 3000) : Number(process.env.ICOUNT_WARM ?? 200);
const UNIT = GET_PATH ? `GET ${GET_PATH}` : 'order';
const CONNECTIONS = 10;
const FLOOR = 'floor'; // as an entry: the floor server instead of a daemon build
const entries = process.argv.slice(2).map((p) => (p === FLOOR ? p : resolve(p)));
if (entries.length === 0) entries.push(DAEMON_ENTRY);
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const ctx = new BenchContext(configFromEnv(), log);
installCleanup(entries.length * 30 * 60_000);

/** What the load needs of a server under count: the daemon's handle, or the floor's in its shape. */
type Counted = Pick<DaemonHandle, 'baseUrl' | 'pid' | 'stop' | 'bearer'> & { creds: { signing_secret: string } };

async function order(d: Counted, investorId: string): Promise<void> {
  const body = JSON.stringify({ investor_id: investorId, symbol: ORDER_SYMBOL, side: 'buy', type: 'market', qty: 1 });
  const key = randomUUID();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(d.creds.signing_secret, {
    timestamp,
    method: 'POST',
    path: '/v1/orders',
    rawQuery: '',
    idempotencyKey: key,
    body,
  });
  const res = await fetch(`${d.baseUrl}/v1/orders`, {
    method: 'POST',
    body,
    headers: {
      authorization: d.bearer.authorization,
      'content-type': 'application/json',
      'idempotency-key': key,
      'x-svc-timestamp': timestamp,
      'x-svc-signature': signature,
    },
    signal: AbortSignal.timeout(600_000),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /v1/orders answered ${res.status}: ${text.slice(0, 300)}`);
}

/** n GETs of path as the bench sends them (autocannon: its few headers, keep-alive), all 200. */
async function reads(d: Counted, path: string, n: number): Promise<void> {
  const r = await autocannon({
    url: d.baseUrl + path,
    headers: d.bearer,
    connections: CONNECTIONS,
    amount: n,
    timeout: 600,
  });
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0)
    throw new Error(`GET ${path}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
}

/** n orders (or GETs of ICOUNT_GET) over CONNECTIONS concurrent clients, round-robin over the investors. */
async function orders(d: Counted, investors: string[], n: number): Promise<void> {
  if (GET_PATH) return reads(d, GET_PATH, n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      await order(d, investors[i % investors.length]);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

/** The daemon build (funded investors, the clock five minutes into a session) or the floor, under wrap. */
async function start(entry: string, wrap: string[]): Promise<{ d: Counted; investors: string[] }> {
  if (entry === FLOOR) {
    if (GET_PATH) throw new Error('the floor serves orders only');
    const f = await ctx.startFloor({ wrap, readyMs: 600_000 });
    return {
      d: { baseUrl: f.baseUrl, pid: f.pid, stop: f.stop, creds: f, bearer: { authorization: `Bearer ${f.api_key}` } },
      investors: f.investors,
    };
  }
  const d = await ctx.startDaemon({ entry, wrap, healthyMs: 600_000 });
  const investors: string[] = [];
  if (!GET_PATH) {
    for (let k = 0; k < 4; k++) investors.push(await fundedInvestor(d, [70_000, 70_000, 60_000]));
    await call(d, 'POST', '/admin/sandbox/clock-advance', { until: 'next_open' }, true, 600_000);
    await call(d, 'POST', '/admin/sandbox/clock-advance', { minutes: 5 }, true, 600_000);
  }
  return { d, investors };
}

function control(pid: number, ...args: string[]): string {
  return execFileSync('callgrind_control', [...args, String(pid)], { encoding: 'utf8' });
}

async function count(entry: string, i: number): Promise<Split> {
  const dir = join(ROOT, 'bench-results');
  const name = `callgrind.${process.env.ICOUNT_TAG ?? ''}${i}.out`; // ICOUNT_TAG: runs side by side
  const out = join(dir, name);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith(name)) rmSync(join(dir, f), { force: true });
  const wrap = [
    'valgrind',
    '--tool=callgrind',
    '--instr-atstart=no',
    '--smc-check=all-non-file',
    `--callgrind-out-file=${out}`,
  ];
  const { d, investors } = await start(entry, wrap);
  try {
    await orders(d, investors, WARM);
    control(d.pid, '--instr=on');
    await orders(d, investors, ORDERS);
    control(d.pid, '--instr=off');
    // a dump now (the daemon's exit may take longer than its stop's grace under valgrind): <out>.1
    control(d.pid, '--dump=measured');
  } finally {
    await d.stop();
  }
  const dumped = readdirSync(dir)
    .filter((f) => f.startsWith(name))
    .map((f) => join(dir, f));
  const file = dumped.find((f) => /^desc: Trigger: .*measured/m.test(readFileSync(f, 'utf8')));
  if (file === undefined) throw new Error(`no measured dump among ${dumped.join(', ')}`);
  const split = breakdown(file);
  if (process.env.ICOUNT_KEEP !== '1') for (const f of dumped) rmSync(f, { force: true });
  return split;
}

/** Inclusive instructions of a few functions, per order: the total, and what to read it against. */
interface Split {
  total: number;
  /** V8's optimizing compiler (its own thread): tier-up still running in the window, not the request's work. */
  compiler: number;
  gc: number;
  /**
   * A major GC cycle (concurrent marking and sweeping on helper threads, the mark-compact pause, the
   * start of incremental marking): it falls in one window and not in another, so it is reported apart.
   */
  major: number;
  sqlite: number;
}

function breakdown(file: string): Split {
  const inclusive = inclusiveOf(file, ORDERS);
  return {
    total: inclusive(/PROGRAM TOTALS/),
    compiler: inclusive(COMPILER),
    gc: inclusive(/v8::internal::Heap::CollectGarbage\(/),
    major: majorGc(inclusive),
    sqlite: inclusive(/:sqlite3_step \[/),
  };
}

const k = (n: number) => `${(n / 1000).toLocaleString('en', { maximumFractionDigits: n < 1e6 ? 1 : 0 })} k`;
try {
  const results: number[] = [];
  for (const [i, entry] of entries.entries()) {
    const s = await count(entry, i);
    const work = s.total - s.compiler - s.major;
    results.push(work);
    process.stdout.write(
      `${entry}: ${k(work)} instructions per ${UNIT} without the optimizing compiler and a major GC (` +
        `${k(s.total)} in all, compiler ${k(s.compiler)}, major GC ${k(s.major)}; ` +
        `of the rest: SQLite ${k(s.sqlite)}, GC ${k(s.gc)}; ${ORDERS} × ${UNIT})\n`,
    );
  }
  if (results.length > 1)
    process.stdout.write(
      `second/first ${(results[1] / results[0]).toFixed(4)} (${k(results[1] - results[0])} instructions per ${UNIT})\n`,
    );
} finally {
  await ctx.close();
}
