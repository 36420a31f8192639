// A daemon's read route under the bench's load, sampled by Linux perf instead of V8's profiler: perf
// sees what --cpu-prof folds into its callers (V8 builtins such as megamorphic property loads or
// Math.pow, node's C++, libc, the kernel's socket path), with JIT frames named through
// --perf-basic-prof (docs/bench.md, "Profiling"). Usage, after `npm run build`:
//
//   npx tsx test/bench/perf-record.ts [path]     # default the COMI quote; writes bench-results/perf.data
//   perf report -i bench-results/perf.data --no-children --sort sym -g none | head -60
//
// It needs `perf` (Debian: linux-perf) and perf_event_paranoid <= 2 (user and kernel samples of
// one's own processes). The load is autocannon's, as the bench sends it: 10 connections, 3 s of
// warm-up, then 5 s sampled at 4,999 Hz.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BenchContext, ROOT, configFromEnv } from './context.js';
import { installCleanup } from './proc.js';

const path = process.argv[2] ?? '/v1/markets/XCAI/instruments/COMI/quote';
const out = join(ROOT, 'bench-results', 'perf.data');
mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
installCleanup(5 * 60_000);
const ctx = new BenchContext(configFromEnv(), (m) => process.stderr.write(`${m}\n`));
try {
  const d = await ctx.startDaemon({ nodeArgs: ['--perf-basic-prof', '--interpreted-frames-native-stack'] });
  await autocannon({ url: d.baseUrl + path, headers: d.bearer, connections: 10, duration: 3 });
  const perf = spawn('perf', ['record', '-F', '4999', '-g', '-p', String(d.pid), '-o', out], { stdio: 'inherit' });
  await new Promise((r) => setTimeout(r, 300));
  const r = await autocannon({ url: d.baseUrl + path, headers: d.bearer, connections: 10, duration: 5 });
  perf.kill('SIGINT');
  await new Promise((r) => perf.on('exit', r));
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`GET ${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  process.stdout.write(`${r.requests.total} requests of GET ${path} sampled into ${out}\n`);
} finally {
  await ctx.close();
}
