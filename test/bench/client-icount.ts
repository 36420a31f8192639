// Instructions per call of the client library (client/) against the same request made by hand with
// fetch, counted by valgrind (callgrind) in the client's process instead of timed: the client side of
// a call is a few hundred microseconds, which a shared machine's load swamps; an instruction count does
// not move with the load. The daemon runs as usual (not counted); each variant runs in a node process
// of its own under `valgrind --tool=callgrind --instr-atstart=no`, makes ICOUNT_CLIENT_WARM (300)
// unmeasured calls, then counting is switched on for ICOUNT_CLIENT_CALLS (500) calls, one at a time,
// and off. Usage, after `npm run build`:
//
//   npx tsx test/bench/client-icount.ts                       # the four: hand-clock lib-clock hand-order lib-order
//   npx tsx test/bench/client-icount.ts lib-clock hand-clock  # some of them
//
// Reported per call: all instructions, and those without V8's optimizing compiler and a major GC
// (they fall in one window and not in another; test/bench/icount.ts). With ICOUNT_KEEP=1 the callgrind
// files stay in bench-results/ (callgrind_annotate reads them).
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SvcClient } from '../../client/src/index.js';
import { sign } from '../../daemon/contract/signing.js';
import { BenchContext, configFromEnv, ROOT } from './context.js';
import { daemonForOrders, ORDER_SYMBOL } from './order-load.js';
import { installCleanup } from './proc.js';

const WARM = Number(process.env.ICOUNT_CLIENT_WARM ?? 300);
const CALLS = Number(process.env.ICOUNT_CLIENT_CALLS ?? 500);
const log = (msg: string) => process.stderr.write(`${msg}\n`);

interface Target {
  baseUrl: string;
  apiKey: string;
  signingSecret: string;
  investorId: string;
}

/** One call of each variant, as the bench suite makes it (test/bench/suites/client.ts). */
function variants(t: Target): Record<string, () => Promise<unknown>> {
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

/** The counted process: warms up, says "warm", waits for "go", makes the calls, says "done", waits for "exit". */
async function runner(variant: string, t: Target): Promise<void> {
  const f = variants(t)[variant];
  if (!f) throw new Error(`no variant ${variant}`);
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  for (let i = 0; i < WARM; i++) await f();
  process.stdout.write('warm\n');
  await lines.next();
  for (let i = 0; i < CALLS; i++) await f();
  process.stdout.write('done\n');
  await lines.next();
  process.exit(0);
}

const control = (pid: number, ...args: string[]) =>
  execFileSync('callgrind_control', [...args, String(pid)], { encoding: 'utf8' });

/** Runs one variant under callgrind; answers the callgrind file of the counted window. */
async function count(variant: string, t: Target): Promise<string> {
  const dir = join(ROOT, 'bench-results');
  const name = `callgrind.client-${variant}.out`;
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith(name)) rmSync(join(dir, f), { force: true });
  const self = fileURLToPath(import.meta.url);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${join(dir, name)}`,
      process.execPath,
      '--import',
      'tsx',
      self,
      '--runner',
      variant,
      JSON.stringify(t),
    ],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const pid = child.pid ?? 0;
  const said = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const expect = async (word: string) => {
    const line = await said.next();
    if (line.done || line.value.trim() !== word) throw new Error(`${variant}: expected ${word}, got ${line.value}`);
  };
  await expect('warm');
  control(pid, '--instr=on');
  child.stdin.write('go\n');
  await expect('done');
  control(pid, '--instr=off');
  control(pid, '--dump=measured');
  child.stdin.write('exit\n');
  await new Promise((r) => child.once('exit', r));
  const dumped = readdirSync(dir)
    .filter((f) => f.startsWith(name))
    .map((f) => join(dir, f));
  const file = dumped.find((f) => /^desc: Trigger: .*measured/m.test(readFileSync(f, 'utf8')));
  if (file === undefined) throw new Error(`no measured dump among ${dumped.join(', ')}`);
  return file;
}

/** Per call: all instructions, and without the optimizing compiler and a major GC. */
function perCall(file: string): { total: number; work: number } {
  const out = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 2 ** 20,
  });
  const inclusive = (re: RegExp) => {
    const line = out.split('\n').find((l) => re.test(l));
    return line ? Number(line.trim().split(/\s+/)[0].replace(/,/g, '')) / CALLS : 0;
  };
  const total = inclusive(/PROGRAM TOTALS/);
  const aside =
    inclusive(/OptimizingCompileDispatcher::CompileNext\(/) +
    inclusive(/ConcurrentMarking::JobTaskMajor::Run\(/) +
    inclusive(/Sweeper::SweeperJob::Run\(/) +
    inclusive(/v8::internal::Heap::MarkCompact\(\)/) +
    inclusive(/v8::internal::IncrementalMarking::Start\(/);
  return { total, work: total - aside };
}

async function driver(names: string[]): Promise<void> {
  const ctx = new BenchContext(configFromEnv(), log);
  installCleanup(names.length * 20 * 60_000);
  const o = await daemonForOrders(ctx, 2);
  const k = (n: number) => `${(n / 1000).toFixed(1)} k`;
  try {
    const d = o.daemon;
    const client = new SvcClient({ baseUrl: d.baseUrl, apiKey: d.creds.api_key });
    const investorId = (await client.orders.list({ limit: 1 })).orders[0].investor_id;
    const t = { baseUrl: d.baseUrl, apiKey: d.creds.api_key, signingSecret: d.creds.signing_secret, investorId };
    for (const name of names) {
      const file = await count(name, t);
      const c = perCall(file);
      process.stdout.write(`${name}: ${k(c.work)} instructions a call (${k(c.total)} in all; ${CALLS} calls)\n`);
      if (process.env.ICOUNT_KEEP !== '1') rmSync(file, { force: true });
    }
  } finally {
    await o.stop();
    await ctx.close();
  }
}

const ALL = ['hand-clock', 'lib-clock', 'hand-order', 'lib-order'];
if (process.argv[2] === '--runner') await runner(process.argv[3], JSON.parse(process.argv[4]) as Target);
else await driver(process.argv.length > 2 ? process.argv.slice(2) : ALL);
