// Two builds of the daemon under the same signed-order load, interleaved with the floor, for a change
// too small for the bench's rounds to resolve on a shared machine (docs/bench.md, "Comparing two
// builds"). Usage, after `npm run build`:
//
//   cp -r dist bench-results/dist-before     # before the change (then change, npm run build)
//   npx tsx test/bench/ab.ts bench-results/dist-before/daemon/main.js dist/daemon/main.js
//
// Each round measures the floor, A and B (the order of A and B alternates by round) and prints every
// server's CPU per order; the end prints the medians and the median of the per-round B/A and B/floor.
// BENCH_ROUNDS (default 5), BENCH_SECONDS and BENCH_WARMUP_SECONDS as for the bench.
import { resolve } from 'node:path';
import { BenchContext, configFromEnv } from './context.js';
import { daemonForOrders, floorForOrders } from './order-load.js';
import { installCleanup } from './proc.js';

const [entryA, entryB] = process.argv.slice(2).map((p) => resolve(p));
if (!entryA || !entryB) {
  process.stderr.write('usage: npx tsx test/bench/ab.ts <A main.js> <B main.js>\n');
  process.exit(2);
}
const config = configFromEnv();
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const ctx = new BenchContext(config, log);
installCleanup(rounds * 3 * (config.load.seconds + config.load.warmupSeconds + 10) * 1000 + 120_000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const cpu = (s: { serverCpuUsPerReq: number | null }) => s.serverCpuUsPerReq ?? NaN;

try {
  const floor = await floorForOrders(ctx);
  const a = await daemonForOrders(ctx, 4, undefined, entryA);
  const b = await daemonForOrders(ctx, 4, undefined, entryB);
  // one unmeasured run each: a daemon's first run after its setup costs more
  for (const s of [a, b]) await ctx.measure(s.target);
  const rows: { f: number; a: number; b: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    const f = cpu(await ctx.measure(floor.target));
    const order = i % 2 === 0 ? [a, b] : [b, a];
    const got = new Map<unknown, number>();
    for (const s of order) got.set(s, cpu(await ctx.measure(s.target)));
    const row = { f, a: got.get(a)!, b: got.get(b)! };
    rows.push(row);
    log(
      `round ${i + 1}: floor ${row.f.toFixed(0)} µs, A ${row.a.toFixed(0)} µs (${(row.a / row.f).toFixed(2)}` +
        ` x), B ${row.b.toFixed(0)} µs (${(row.b / row.f).toFixed(2)} x), B/A ${(row.b / row.a).toFixed(3)}`,
    );
  }
  const m = (k: 'f' | 'a' | 'b') => median(rows.map((r) => r[k])).toFixed(0);
  process.stdout.write(
    `medians: floor ${m('f')} µs, A ${m('a')} µs, B ${m('b')} µs; ` +
      `A/floor ${median(rows.map((r) => r.a / r.f)).toFixed(2)} x, B/floor ` +
      `${median(rows.map((r) => r.b / r.f)).toFixed(2)} x, ` +
      `B/A ${median(rows.map((r) => r.b / r.a)).toFixed(3)}\n`,
  );
  await Promise.all([floor.stop(), a.stop(), b.stop()]);
} finally {
  await ctx.close();
}
