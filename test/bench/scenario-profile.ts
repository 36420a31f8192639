// Where the CPU of a scenario run goes (docs/bench.md, "The scenario suite"): each file is run as
// `svc scenario run` runs it (an isolated daemon of its own, cli/scenario/runner.ts), one at a time, and
// the CPU time of the runner (this process: process.cpuUsage) and of the file's daemon (/proc/PID/stat,
// every thread, in clock ticks) is read when the daemon says it listens and after every step. So the
// figures split into the daemon's start, each file's steps, and each step kind, on any load: CPU time
// is what a run costs, where the wall time depends on who else holds the cores.
// npm run build && npx tsx test/bench/scenario-profile.ts [FILE...]   (default: scenarios/*.yaml)
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadScenario } from '../../cli/scenario/load.js';
import { isolatedTarget, runScenario, type StepReport } from '../../cli/scenario/runner.js';

/** user + system CPU of a process in seconds, all its threads (Linux: /proc/PID/stat, USER_HZ ticks). */
function procCpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

interface Tally {
  n: number;
  daemon: number;
  runner: number;
}
const add = (m: Map<string, Tally>, key: string, daemon: number, runner: number) => {
  const t = m.get(key) ?? { n: 0, daemon: 0, runner: 0 };
  t.n++;
  t.daemon += daemon;
  t.runner += runner;
  m.set(key, t);
};

/** The step's kind, and a request's method and first two path segments (`POST /v1/orders`). */
function kindOf(st: StepReport): string {
  if (st.kind !== 'request' && st.kind !== 'wait_until') return st.kind;
  const path = (st.path ?? '').split('?')[0].split('/').slice(0, 3).join('/');
  return `${st.kind} ${st.method} ${path}`;
}

const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync('scenarios')
        .filter((f) => f.endsWith('.yaml'))
        .sort()
        .map((f) => `scenarios/${f}`);
const byKind = new Map<string, Tally>();
const steps: Array<{ at: string; daemon: number; runner: number }> = [];
let startTotal = 0;
let stepsDaemon = 0;
let stepsRunner = 0;
const load0 = loadavg()[0];
console.log('file                                      daemon start   steps: daemon  runner   steps');
for (const file of files) {
  const sc = loadScenario(file);
  const target = await isolatedTarget(sc.header);
  const pid = target.pid!;
  const start = procCpu(pid);
  let [d0, r0] = [start, selfCpu()];
  let fileDaemon = 0;
  let fileRunner = 0;
  const t0 = performance.now();
  await runScenario(sc, target, {
    onStep: (st) => {
      const [d1, r1] = [procCpu(pid), selfCpu()];
      add(byKind, kindOf(st), d1 - d0, r1 - r0);
      steps.push({ at: `${file} step ${st.index} ${st.label}`, daemon: d1 - d0, runner: r1 - r0 });
      fileDaemon += d1 - d0;
      fileRunner += r1 - r0;
      [d0, r0] = [d1, r1];
    },
  });
  const wall = performance.now() - t0;
  await target.close();
  startTotal += start;
  stepsDaemon += fileDaemon;
  stepsRunner += fileRunner;
  console.log(
    `${file.padEnd(42)} ${start.toFixed(2).padStart(8)} s  ${fileDaemon.toFixed(2).padStart(9)} s ` +
      `${fileRunner.toFixed(2).padStart(6)} s  ${sc.steps.length} in ${Math.round(wall)} ms`,
  );
}
const each = ((startTotal / files.length) * 1000).toFixed(0);
console.log(
  `\n${files.length} daemons: start ${startTotal.toFixed(2)} s of CPU (${each} ms each); ` +
    `steps: daemons ${stepsDaemon.toFixed(2)} s, runner ${stepsRunner.toFixed(2)} s`,
);
console.log('\nby step kind                                      steps  daemon s  runner s');
for (const [k, t] of [...byKind.entries()].sort((a, b) => b[1].daemon + b[1].runner - a[1].daemon - a[1].runner))
  console.log(
    `${k.padEnd(50)}${String(t.n).padStart(5)}  ${t.daemon.toFixed(2).padStart(8)}  ${t.runner.toFixed(3).padStart(8)}`,
  );
console.log('\nthe costliest steps (daemon CPU)');
for (const s of steps.sort((a, b) => b.daemon - a.daemon).slice(0, 12))
  console.log(`${s.daemon.toFixed(2).padStart(6)} s  ${s.at}`);
console.log(`\nload average ${load0.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`);
