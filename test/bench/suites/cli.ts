// Issue 6: how fast the CLI answers, and how long the shipped scenario suite takes.
// - `svc clock show --json` against a running daemon, as a ratio of a bare `node` script making the
//   same request with fetch (goal <= 2.5x): what the CLI adds over Node's own start-up is its module
//   graph (commander, the command module, undici) and its profile lookup.
// - The wall time of `svc scenario run scenarios` (every shipped walkthrough, each in its own daemon),
//   one file at a time and with --jobs (goal <= 10 s), whose report must be the serial one's; with the
//   CPU time of each run (svc and every daemon it started) and the load average, since on a shared
//   machine the wall time says more about the others than about the run.
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { SVC_BIN } from '../context.js';
import { median } from '../figures.js';
import { runCommand } from '../proc.js';
import { bench } from '../registry.js';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 15);
export const CLI_RATIO_GOAL = 2.5;

bench(
  'cli: svc clock show --json vs a bare node script',
  async (ctx) => {
    const d = await ctx.daemon();
    const bare =
      `fetch(${JSON.stringify(`${d.baseUrl}/v1/clock`)}, { headers: ${JSON.stringify(d.bearer)} }).then((r) => ` +
      `r.text()).then((t) => process.stdout.write(t))`;
    const svcMs: number[] = [];
    const nodeMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Alternate, so both see the same machine load.
      const a = await runCommand(process.execPath, [SVC_BIN, '--home', d.home, 'clock', 'show', '--json'], {
        cwd: ctx.root,
        timeoutMs: 30_000,
      });
      const b = await runCommand(process.execPath, ['-e', bare], { cwd: ctx.root, timeoutMs: 30_000 });
      if (a.code !== 0 || b.code !== 0)
        throw new Error(
          `clock show failed: svc ${a.code} ${a.stderr.slice(0, 200)} / node ${b.code} ${b.stderr.slice(0, 200)}`,
        );
      if (JSON.parse(a.stdout).timestamp !== JSON.parse(b.stdout).timestamp)
        throw new Error('svc and the bare script disagree on the clock');
      svcMs.push(a.ms);
      nodeMs.push(b.ms);
    }
    const svc = median(svcMs);
    const node = median(nodeMs);
    return [
      { metric: `svc clock show --json, median of ${RUNS}`, value: svc, unit: 'ms' },
      { metric: 'bare node fetch script, median', value: node, unit: 'ms' },
      { metric: 'svc / bare node', value: svc / node, unit: 'x', goal: { op: '<=', value: CLI_RATIO_GOAL } },
    ];
  },
  { timeoutMs: () => RUNS * 2 * 30_000 },
);

export const SCENARIO_SUITE_GOAL_S = 10;

/**
 * CPU seconds (user + system) of this process's children that have ended and been waited for,
 * theirs included (Linux: /proc/self/stat cutime and cstime, in USER_HZ ticks); null elsewhere. svc
 * waits for every daemon it starts, so after a run this counts svc and all its daemons.
 */
function childrenCpu(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return null;
  }
}

interface SuiteRun {
  seconds: number;
  /** CPU seconds of svc and its daemons; null where /proc is not there. */
  cpu: number | null;
  /** The 1-minute load average before and after the run. */
  load: [number, number];
  report: string;
  files: number;
}

/** `svc scenario run scenarios --json --jobs N`: its wall and CPU time and its report (stdout). */
async function suiteRun(root: string, jobs: number): Promise<SuiteRun> {
  const args = [SVC_BIN, 'scenario', 'run', 'scenarios', '--json', '--jobs', String(jobs)];
  const [cpu0, load0] = [childrenCpu(), loadavg()[0]];
  const r = await runCommand(process.execPath, args, {
    cwd: root,
    timeoutMs: 600_000,
    env: { ...process.env, CI: '1' },
  });
  if (r.code !== 0) throw new Error(`the scenario suite failed (${r.code}): ${r.stderr.slice(-400)}`);
  const cpu1 = childrenCpu();
  return {
    seconds: r.ms / 1000,
    cpu: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
    load: [load0, loadavg()[0]],
    report: r.stdout,
    files: (JSON.parse(r.stdout) as { scenarios: unknown[] }).scenarios.length,
  };
}

const loadNote = (run: SuiteRun) => `load average ${run.load[0].toFixed(1)} -> ${run.load[1].toFixed(1)}`;

bench(
  'scenario suite: svc scenario run scenarios, one file at a time and --jobs',
  async (ctx) => {
    const jobs = availableParallelism();
    const serial = await suiteRun(ctx.root, 1);
    const parallel = await suiteRun(ctx.root, jobs);
    // the point of --jobs: the same report, sooner
    if (parallel.report !== serial.report) throw new Error(`--jobs ${jobs} reported differently from --jobs 1`);
    return [
      {
        metric: 'every shipped scenario, --jobs 1',
        value: serial.seconds,
        unit: 's',
        note: `${serial.files} scenario files; ${loadNote(serial)}`,
      },
      {
        metric: `every shipped scenario, --jobs ${jobs} (the cores; the default)`,
        value: parallel.seconds,
        unit: 's',
        goal: { op: '<=', value: SCENARIO_SUITE_GOAL_S },
        note: `the same --json report, byte for byte; ${loadNote(parallel)}`,
      },
      {
        metric: `CPU of the --jobs ${jobs} run: svc and its ${parallel.files} daemons`,
        value: parallel.cpu,
        unit: 's',
        note: `--jobs 1: ${serial.cpu?.toFixed(1) ?? '?'} s; over ${jobs} cores at best ${
          parallel.cpu === null ? '?' : (parallel.cpu / jobs).toFixed(1)
        } s of wall time (test/bench/scenario-profile.ts splits it)`,
      },
    ];
  },
  { timeoutMs: () => 1_260_000 },
);
