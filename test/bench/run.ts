// npm run bench: builds dist/ (package.json), then runs every registered bench in one process and
// prints one table; the figures also go to bench-results/latest.json. It is a report: a missed goal
// prints FAIL but the exit code stays 0 (non-zero only when the harness itself breaks).
//
// Env: BENCH_SECONDS (measured seconds per HTTP run, default 5), BENCH_WARMUP_SECONDS (default 1),
// BENCH_CONNECTIONS (default 10), BENCH_ROUNDS (baseline/route pairs per compared route, median
// reported; default 1), BENCH_COLD_RUNS (default 5), BENCH_ONLY (regex on bench names).
//
// Adding a bench: create test/bench/suites/<name>.ts that calls bench(name, fn) and import it below.
// fn gets the BenchContext (config, ctx.baseline(), ctx.daemon(), ctx.measure()) and returns figures
// {metric, value, unit, goal?}; see docs/bench.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { BenchContext, ROOT, configFromEnv } from './context.js';
import { cleanupSync, installCleanup } from './proc.js';
import { budgetMs, renderTable, runAll } from './registry.js';

// Suites, in the order they run.
import './suites/http-reads.js';
import './suites/cold-start.js';
import './suites/orders.js';
import './suites/floor.js';
import './suites/mixed.js';
import './suites/cli.js';
import './suites/snapshot.js';
import './suites/statements.js';
import './suites/reconciliation.js';
import './suites/year.js';
import './suites/assistant.js';
import './suites/console.js';
import './suites/client.js';

const config = configFromEnv();
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;
const log = (msg: string) => process.stderr.write(`${msg}\n`);

const machine = {
  cpus: cpus().length,
  cpu_model: cpus()[0]?.model ?? 'unknown',
  memory_gb: Math.round(totalmem() / 2 ** 30),
  platform: `${platform()} ${release()} ${arch()}`,
  node: process.version,
  loadavg_at_start: loadavg().map((v) => Math.round(v * 100) / 100),
};
const l = config.load;
log(
  `svc bench: ${machine.cpus} cpus (${machine.cpu_model}), node ${machine.node}, load average ` +
    `${machine.loadavg_at_start.join(' ')}; ` +
    `autocannon ${l.connections} connections, ${l.warmupSeconds} s warm-up + ${l.seconds} s per run, ` +
    `${config.rounds} round(s) per compared route`,
);

const ctx = new BenchContext(config, log);
// Watchdog for the whole run (every bench is bounded by its own timeout; this is the backstop).
installCleanup(budgetMs(ctx, only) + 60_000);
let results;
try {
  results = await runAll(ctx, only);
} finally {
  await ctx.close();
}

const table = renderTable(results);
process.stdout.write(`\n${table}\n`);

// Sanity notes: a throughput figure means something only when the server was the bottleneck.
const warnings: string[] = [];
const contended = ctx.runs.filter((r) => r.serverCpuPct !== null && r.serverCpuPct < 70 && r.clientCpuPct < 90);
if (contended.length > 0) {
  warnings.push(
    `${contended.length} of ${ctx.runs.length} load runs had the server below 70 % of a core while the client ` +
      `was not saturated either: ` +
      `other processes were using the CPU, so req/s and their ratios are unreliable. Compare "server CPU per ` +
      `request", or rerun on a quiet machine / with BENCH_ROUNDS=3.`,
  );
}
const clientBound = ctx.runs.filter((r) => r.clientCpuPct >= 90);
if (clientBound.length > 0) {
  warnings.push(
    `${clientBound.length} load runs had the client (autocannon, one core) at >= 90 % of a core: those req/s ` +
      `are capped by the client, which flatters ratios to the baseline.`,
  );
}
for (const w of warnings) process.stdout.write(`\nnote: ${w}\n`);

const outDir = join(ROOT, 'bench-results');
mkdirSync(outDir, { recursive: true });
const file = join(outDir, 'latest.json');
writeFileSync(
  file,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: { ...machine, loadavg_at_end: loadavg().map((v) => Math.round(v * 100) / 100) },
      config,
      results,
      warnings,
    },
    null,
    2,
  )}\n`,
);
process.stdout.write(`\nwritten ${file}\n`);

cleanupSync();
// Results are a report: missed goals do not fail the command; a bench that crashed does.
process.exit(results.some((r) => r.error) ? 1 : 0);
