// Instructions per call of the client library (client/) against the same request made by hand with
// fetch, counted by valgrind (callgrind) in the client's process instead of timed: the client side of
// a call is tens of microseconds, which a shared machine's load swamps. The daemon runs as usual (not
// counted). For each pair (clock: GET /v1/clock; order: a signed market order), one node process under
// `valgrind --tool=callgrind --instr-atstart=no` makes ICOUNT_CLIENT_WARM (1000) unmeasured calls of
// each, then counts ICOUNT_CLIENT_ROUNDS (4) rounds of ICOUNT_CLIENT_CALLS (250) calls by hand and as
// many through the library, one at a time, alternating which goes first (a count still moves a little
// with the load: how the answer's bytes arrive, how often the event loop wakes; pairing evens it out).
// Usage, after `npm run build`:
//
//   npx tsx test/bench/client-icount.ts          # both pairs
//   npx tsx test/bench/client-icount.ts clock    # one
//   git archive main client/src | tar -x -C /tmp/old   # another version of the library, e.g. before a change:
//   ICOUNT_CLIENT_SRC=/tmp/old/client/src/index.ts npx tsx test/bench/client-icount.ts
//
// Reported per call: the instructions without V8's optimizing compiler and a major GC (they fall in one
// window and not in another; test/bench/icount.ts), and all of them. With ICOUNT_KEEP=1 the callgrind
// files stay in bench-results/ (callgrind_annotate reads them).
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SvcClient } from '../../client/src/index.js';
import { sign } from '../../daemon/contract/signing.js';
import { COMPILER, inclusiveOf, majorGc } from './callgrind.js';
import { BenchContext, configFromEnv, ROOT } from './context.js';
import { daemonForOrders, ORDER_SYMBOL } from './order-load.js';
import { installCleanup } from './proc.js';

const WARM = Number(process.env.ICOUNT_CLIENT_WARM ?? 1000);
const CALLS = Number(process.env.ICOUNT_CLIENT_CALLS ?? 250);
const ROUNDS = Number(process.env.ICOUNT_CLIENT_ROUNDS ?? 4);
const log = (msg: string) => process.stderr.write(`${msg}\n`);

interface Target {
  baseUrl: string;
  apiKey: string;
  signingSecret: string;
  investorId: string;
}

/** The library counted: this tree's, or the copy ICOUNT_CLIENT_SRC names (its index.ts). */
const library = (): Promise<{ SvcClient: typeof SvcClient }> =>
  import(process.env.ICOUNT_CLIENT_SRC ?? '../../client/src/index.js');

/** One call of each variant, as the bench suite makes it (test/bench/suites/client.ts): `hand-` and `lib-` + pair. */
async function variants(t: Target): Promise<Record<string, () => Promise<unknown>>> {
  const { SvcClient } = await library();
  const client = new SvcClient({ baseUrl: t.baseUrl, apiKey: t.apiKey, signingSecret: t.signingSecret });
  const bearer = { authorization: `Bearer ${t.apiKey}` };
  const order = { investor_id: t.investorId, symbol: ORDER_SYMBOL, side: 'buy', type: 'market', qty: 1 } as const;
  return {
    'hand-clock': async () => (await fetch(`${t.baseUrl}/v1/clock`, { headers: bearer })).json(),
    'lib-clock': () => client.market.clock(),
    'hand-order': async () => {
      const body = JSON.stringify(order);
      const key = randomUUID();
      const timestamp = String(Math.floor(Date.now() / 1000));
      const input = { timestamp, method: 'POST', path: '/v1/orders', rawQuery: '', idempotencyKey: key, body };
      const headers = {
        ...bearer,
        'content-type': 'application/json',
        'idempotency-key': key,
        'x-svc-timestamp': timestamp,
        'x-svc-signature': sign(t.signingSecret, input),
      };
      const res = await fetch(`${t.baseUrl}/v1/orders`, { method: 'POST', headers, body });
      if (res.status !== 201) throw new Error(`an order by hand answered ${res.status}`);
      return res.json();
    },
    'lib-order': () => client.orders.create(order),
  };
}

/** The counted blocks of a pair: round r counts by hand first when r is even, the library first when odd. */
function blocks(pair: string): string[] {
  const out: string[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const both = [`hand-${pair}`, `lib-${pair}`];
    out.push(...(r % 2 === 0 ? both : both.reverse()));
  }
  return out;
}

/**
 * The counted process: warms both variants up, then for each block says "ready", waits for "go",
 * makes the block's calls, says "done" and waits for the driver to have dumped the count.
 */
async function runner(pair: string, t: Target): Promise<void> {
  const all = await variants(t);
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  for (let i = 0; i < WARM; i++) for (const v of ['hand', 'lib']) await all[`${v}-${pair}`]();
  for (const block of blocks(pair)) {
    process.stdout.write('ready\n');
    await lines.next();
    for (let i = 0; i < CALLS; i++) await all[block]();
    process.stdout.write('done\n');
    await lines.next();
  }
  process.exit(0);
}

const control = (pid: number, ...args: string[]) =>
  execFileSync('callgrind_control', [...args, String(pid)], { encoding: 'utf8' });

/** Runs a pair under callgrind; answers the callgrind file of each counted block, by variant. */
async function count(pair: string, t: Target): Promise<Map<string, string[]>> {
  const dir = join(ROOT, 'bench-results');
  const name = `callgrind.client-${process.env.ICOUNT_TAG ?? ''}${pair}.out`; // ICOUNT_TAG: runs side by side
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith(name)) rmSync(join(dir, f), { force: true });
  const self = fileURLToPath(import.meta.url);
  const callgrind = ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file'];
  const args = [...callgrind, `--callgrind-out-file=${join(dir, name)}`, process.execPath, '--import', 'tsx'];
  const child = spawn('valgrind', [...args, self, '--runner', pair, JSON.stringify(t)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const pid = child.pid ?? 0;
  const said = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const expect = async (word: string) => {
    const line = await said.next();
    if (line.done || line.value.trim() !== word) throw new Error(`${pair}: expected ${word}, got ${line.value}`);
  };
  for (const [i, block] of blocks(pair).entries()) {
    await expect('ready');
    control(pid, '--instr=on');
    child.stdin.write('go\n');
    await expect('done');
    control(pid, '--instr=off');
    control(pid, `--dump=block-${i}-${block}`);
    child.stdin.write('next\n');
  }
  await new Promise((r) => child.once('exit', r));
  const files = new Map<string, string[]>();
  for (const f of readdirSync(dir).filter((x) => x.startsWith(name))) {
    const block = /^desc: Trigger: .*block-\d+-(\S+)/m.exec(readFileSync(join(dir, f), 'utf8'))?.[1];
    if (block !== undefined) files.set(block, [...(files.get(block) ?? []), join(dir, f)]);
  }
  return files;
}

/** One block's instructions per call: all of them, and without the optimizing compiler and a major GC. */
function perCall(file: string): { total: number; work: number } {
  const inclusive = inclusiveOf(file, CALLS);
  const total = inclusive(/PROGRAM TOTALS/);
  return { total, work: total - inclusive(COMPILER) - majorGc(inclusive) };
}

const k = (n: number) => `${(n / 1000).toFixed(1)} k`;
/** The median of the blocks: one block that a major GC or a late compile lands in does not move it. */
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

/** The pair's figures: per variant, the median over its blocks, and the library's over the hand's. */
function report(pair: string, files: Map<string, string[]>): void {
  const of = (variant: string) => (files.get(variant) ?? []).map(perCall);
  const hand = of(`hand-${pair}`);
  const lib = of(`lib-${pair}`);
  for (const [variant, counts] of [
    [`hand-${pair}`, hand],
    [`lib-${pair}`, lib],
  ] as const) {
    const work = counts.map((c) => c.work);
    process.stdout.write(
      `${variant}: ${k(median(work))} instructions a call (blocks ${work.map(k).join(', ')}; ` +
        `${k(median(counts.map((c) => c.total)))} with the compiler and major GC; ${counts.length} x ${CALLS} calls)\n`,
    );
  }
  const pct = (a: number, b: number) => `${((a / b - 1) * 100).toFixed(1)} %`;
  const w = (cs: { work: number }[]) => median(cs.map((c) => c.work));
  const all = (cs: { total: number }[]) => median(cs.map((c) => c.total));
  process.stdout.write(
    `${pair}: library over by hand ${pct(w(lib), w(hand))} (${k(w(lib) - w(hand))} a call; ` +
      `with the compiler and major GC ${pct(all(lib), all(hand))})\n`,
  );
}

async function driver(pairs: string[]): Promise<void> {
  const ctx = new BenchContext(configFromEnv(), log);
  installCleanup(pairs.length * 30 * 60_000);
  const o = await daemonForOrders(ctx, 2);
  try {
    const d = o.daemon;
    const client = new SvcClient({ baseUrl: d.baseUrl, apiKey: d.creds.api_key });
    const investorId = (await client.orders.list({ limit: 1 })).orders[0].investor_id;
    const t = { baseUrl: d.baseUrl, apiKey: d.creds.api_key, signingSecret: d.creds.signing_secret, investorId };
    for (const pair of pairs) {
      const files = await count(pair, t);
      report(pair, files);
      if (process.env.ICOUNT_KEEP !== '1') for (const f of [...files.values()].flat()) rmSync(f, { force: true });
    }
  } finally {
    await o.stop();
    await ctx.close();
  }
}

if (process.argv[2] === '--runner') await runner(process.argv[3], JSON.parse(process.argv[4]) as Target);
else await driver(process.argv.length > 2 ? process.argv.slice(2) : ['clock', 'order']);
