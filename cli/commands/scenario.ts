// svc scenario run FILE...: validates every file first (nothing runs if one is invalid), then runs each
// against an isolated daemon of its own (or --against a running sandbox) and reports per step.
// Exit codes: 0 all passed, 1 a step failed or could not run, 2 an invalid file or usage, 3 the
// --against sandbox does not answer. Isolated files run --jobs at a time (cli/scenario/pool.ts), with the
// same reports as one at a time.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { healthy } from '../daemon-process.js';
import { loadUndici, preferUndici } from '../client/undici.js';
import { CliExit, EXIT, chalk, info, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import { inOrder, OrderedOutput } from '../scenario/pool.js';
import { formatIssue, loadScenario, ScenarioInvalid, type Scenario, type ScenarioIssue } from '../scenario/load.js';
import {
  jsonReport,
  junitReport,
  scenarioFooter,
  scenarioHeader,
  skippedLine,
  stepLine,
  summaryLine,
  totals,
  type RunReport,
} from '../scenario/report.js';
import {
  againstTarget,
  isolatedTarget,
  killIsolated,
  runScenario,
  stepLabel,
  type ScenarioReport,
  type Target,
} from '../scenario/runner.js';

const SCENARIO_EXT = /\.ya?ml$/i;

/** A pattern with * or ? in its last part (for shells that do not expand globs, and npm scripts on Windows). */
function globBasename(pattern: string): string[] {
  const dir = dirname(pattern);
  const re = new RegExp(
    '^' +
      basename(pattern)
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]') +
      '$',
  );
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((f) => re.test(f))
    .sort()
    .map((f) => (dir === '.' ? f : join(dir, f)));
}

/** FILE arguments: files, directories (their *.yaml and *.yml, sorted) and basename globs. */
export function expandArgs(args: string[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (existsSync(a) && statSync(a).isDirectory()) {
      const found = readdirSync(a)
        .filter((f) => SCENARIO_EXT.test(f))
        .sort()
        .map((f) => join(a, f));
      if (found.length === 0) usage(`no *.yaml scenario files in ${a}`);
      out.push(...found);
    } else if (existsSync(a)) out.push(a);
    else if (/[*?]/.test(basename(a))) {
      const found = globBasename(a);
      if (found.length === 0) usage(`no scenario files match ${a}`);
      out.push(...found);
    } else usage(`no such scenario file: ${a}`);
  }
  return [...new Set(out)];
}

function parseEnvPairs(pairs: string[] | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const p of pairs ?? []) {
    const eq = p.indexOf('=');
    if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.slice(0, eq))) usage(`--env ${p}: write NAME=VALUE`);
    env[p.slice(0, eq)] = p.slice(eq + 1);
  }
  return env;
}

function emptyReport(issues: ScenarioIssue[]): RunReport {
  return { ok: false, invalid: issues, totals: totals([]), scenarios: [] };
}

export interface ScenarioRunOptions {
  keepGoing?: boolean;
  junit?: string;
  against?: string;
  reset?: boolean;
  timings?: boolean;
  /** --env NAME=VALUE, repeatable. */
  env?: string[];
  /** --jobs N: files at once (commander hands the text). */
  jobs?: string;
}

/** --against as a base URL without a trailing slash; undefined for isolated runs. */
function againstOf(opts: ScenarioRunOptions): string | undefined {
  if (opts.reset && !opts.against)
    usage('--reset resets the sandbox named by --against; an isolated run always starts fresh');
  if (!opts.against) return undefined;
  try {
    const u = new URL(opts.against);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
    return opts.against.replace(/\/+$/, '');
  } catch {
    usage(`--against ${opts.against} is not an http(s) URL`);
  }
}

/**
 * Every file, validated before any step runs: one invalid file and nothing runs (exit 2). `early` is
 * told of each file found valid while no file before it was invalid, as soon as it is (it starts the
 * daemons of the first files then, while the others are read).
 */
async function loadAll(
  files: string[],
  envOverrides: Record<string, string>,
  opts: ScenarioRunOptions,
  json: boolean,
  early: Prestart,
): Promise<Scenario[]> {
  const scenarios: Scenario[] = [];
  const issues: ScenarioIssue[] = [];
  for (const f of files) {
    try {
      scenarios.push(loadScenario(f, { envOverrides }));
      if (issues.length === 0) early.valid(scenarios[scenarios.length - 1], scenarios.length - 1);
    } catch (err) {
      if (!(err instanceof ScenarioInvalid)) throw err;
      issues.push(...err.issues);
    }
  }
  if (issues.length === 0) return scenarios;
  // no step ran: the daemons started for the first files are stopped before the report
  await early.cancel();
  for (const i of issues) info(`${chalk.red('error')} ${formatIssue(i)}`);
  const bad = new Set(issues.map((i) => i.scenario ?? i.file)).size;
  info(
    `no scenario ran: ${issues.length} problem${issues.length === 1 ? '' : 's'} in ${bad} file` +
      `${bad === 1 ? '' : 's'} (docs/scenarios.md describes the format)`,
  );
  const report = emptyReport(issues);
  if (json) printJson(jsonReport(report, false));
  // CI counts every file: the valid ones are suites whose steps were all skipped
  if (opts.junit)
    writeFileSync(
      opts.junit,
      junitReport({ ...report, notRun: notRun('another scenario file is invalid', scenarios) }),
    );
  throw new CliExit(EXIT.usage);
}

/** The valid files of a run that stopped before any ran, for the JUnit report. */
function notRun(reason: string, scenarios: Scenario[]): RunReport['notRun'] {
  return { reason, scenarios: scenarios.map((sc) => unrunReport(sc, undefined, performance.now())) };
}

/** The --against sandbox must answer before anything is sent to it (exit 3). */
async function requireAnswer(
  against: string,
  opts: ScenarioRunOptions,
  json: boolean,
  scenarios: Scenario[],
): Promise<void> {
  if (await healthy(against)) return;
  const message =
    `no sandbox answers at ${against} (GET /healthz); start one with ${svc('sandbox start')}, or drop --against ` +
    `to run an isolated one`;
  info(`${chalk.red('error')} ${message}`);
  if (json) printJson({ ok: false, error: message, totals: totals([]), scenarios: [] });
  if (opts.junit)
    writeFileSync(
      opts.junit,
      junitReport({
        ...emptyReport([]),
        unreachable: { url: against, message },
        notRun: notRun('the sandbox does not answer', scenarios),
      }),
    );
  throw new CliExit(EXIT.unreachable);
}

/**
 * The isolated daemons of the first `jobs` files, started as soon as each file is found valid, so that
 * their start-up overlaps the reading of the other files instead of following it. The file that runs
 * first awaits its daemon here instead of starting one; if another file turns out to be invalid, no
 * step has run and these daemons are stopped (`cancel`).
 */
class Prestart {
  private readonly started = new Map<number, Promise<Target>>();

  constructor(private readonly count: number) {}

  valid(sc: Scenario, index: number): void {
    if (index >= this.count) return;
    const target = isolatedTarget(sc.header);
    target.catch(() => undefined); // awaited by the file's run, which reports a failed start
    this.started.set(index, target);
  }

  /** The target started for file `index`, once (a second run of the index starts its own). */
  take(index: number): Promise<Target> | undefined {
    const t = this.started.get(index);
    this.started.delete(index);
    return t;
  }

  async cancel(): Promise<void> {
    const all = [...this.started.values()];
    this.started.clear();
    await Promise.all(all.map((t) => t.then((x) => x.close()).catch(() => undefined)));
  }
}

interface FileRun {
  /** The profile of the --against sandbox; undefined: an isolated sandbox per file. */
  against?: Profile;
  /** Isolated daemons already starting, by file index. */
  prestart: Prestart;
  opts: ScenarioRunOptions;
  runId: string;
  human: boolean;
  /** How many files run at once (--jobs). */
  jobs: number;
}

/** A scenario that could not run at all (`message`: why, an error) or did not run (no message): every step skipped. */
function unrunReport(sc: Scenario, message: string | undefined, startedMs: number): ScenarioReport {
  return {
    file: sc.file,
    name: sc.header.name,
    seed: sc.header.seed,
    start: sc.header.start,
    clock: sc.header.clock,
    ...(message === undefined ? { outcome: 'skipped' as const } : { outcome: 'error' as const, error: message }),
    counts: { passed: 0, failed: 0, error: 0, skipped: sc.steps.length },
    steps: sc.steps.map((ls) => ({
      index: ls.index,
      ...(ls.step.name ? { name: ls.step.name } : {}),
      kind: ls.step.kind,
      ...(ls.file ? { file: ls.file } : {}),
      line: ls.line,
      outcome: 'skipped' as const,
      label: stepLabel(ls),
    })),
    duration_ms: Math.round(performance.now() - startedMs),
  };
}

/** One file against its target, each step's line handed to `out` as it ends (human output). */
async function runFile(
  sc: Scenario,
  index: number,
  run: FileRun,
  out: (text: string) => void,
): Promise<ScenarioReport> {
  const started = performance.now();
  const skipped: number[] = [];
  let target: Target | undefined;
  let report: ScenarioReport;
  try {
    target = run.against
      ? await againstTarget(
          run.against,
          sc.header,
          Boolean(run.opts.reset),
          run.runId,
          `${run.runId}-${randomBytes(8).toString('hex')}`,
        )
      : await (run.prestart.take(index) ?? isolatedTarget(sc.header));
    report = await runScenario(sc, target, {
      keepGoing: Boolean(run.opts.keepGoing),
      onStep: run.human
        ? (st) => {
            if (st.outcome === 'skipped') skipped.push(st.index);
            else out(`${stepLine(st, sc.file)}\n`);
          }
        : undefined,
      // one file at a time only: the \r progress line of several files at once would be garbled
      onWait:
        process.stderr.isTTY && run.jobs === 1
          ? (ls, n, max) =>
              process.stderr.write(
                `${chalk.dim(`\r  waiting at step ${ls.index}: try ${n}/${max}`)}\x1b[K${n === max ? '\n' : ''}`,
              )
          : undefined,
    });
  } catch (err) {
    report = unrunReport(sc, (err as Error).message, started);
  } finally {
    await target?.close();
  }
  if (run.human && skipped.length > 0) out(`${skippedLine(skipped)}\n`);
  if (run.human) out(`${scenarioFooter(report)}\n`);
  return report;
}

/**
 * --jobs: how many files run at once. Isolated runs default to the number of cores (each file has a
 * daemon of its own, so files cannot see each other); --against runs one at a time, since its files
 * share one sandbox (and with --reset each file would reset it under the others).
 */
export function jobsOf(opts: ScenarioRunOptions, against: string | undefined, files: number): number {
  let jobs = against ? 1 : availableParallelism();
  if (opts.jobs !== undefined) {
    if (!/^[1-9][0-9]{0,3}$/.test(opts.jobs)) usage(`--jobs ${opts.jobs}: write a whole number from 1`);
    jobs = Number(opts.jobs);
    if (against && jobs > 1) usage('--against runs one file at a time: its files share one sandbox (drop --jobs)');
  }
  return Math.max(1, Math.min(jobs, files));
}

/** Every file, `jobs` at a time, its human lines in file order; the reports in file order. */
async function runAll(scenarios: Scenario[], run: FileRun, progress: boolean, against?: string) {
  const out = new OrderedOutput(scenarios.length, (text) => process.stdout.write(text));
  return inOrder(scenarios, run.jobs, async (sc, i) => {
    if (progress) info(chalk.dim(`[${i + 1}/${scenarios.length}] ${sc.file}`));
    if (run.human) out.write(i, `${(i > 0 ? '\n' : '') + scenarioHeader({ file: sc.file, ...sc.header }, against)}\n`);
    const report = await runFile(sc, i, run, (text) => out.write(i, text));
    out.finish(i);
    return report;
  });
}

export async function run(opts: ScenarioRunOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const t0 = performance.now();
  // thousands of requests in one process: undici's request, cheaper per request than Node's fetch
  preferUndici();
  void loadUndici();
  if (args.length === 0) usage('name at least one scenario file (or a directory of them)');
  const against = againstOf(opts);
  const files = expandArgs(args);
  const envOverrides = parseEnvPairs(opts.env);
  const jobs = jobsOf(opts, against, files.length);

  const onSignal = (sig: NodeJS.Signals) => {
    killIsolated();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', killIsolated);

  const prestart = new Prestart(against ? 0 : jobs);
  const scenarios = await loadAll(files, envOverrides, opts, json, prestart);
  const profile = against ? resolveProfile({ ...g, baseUrl: against }) : undefined;
  if (against) await requireAnswer(against, opts, json, scenarios);
  if (against && !opts.reset)
    info(chalk.dim(`running against ${against} as it is: the files' seed, start and clock apply only with --reset`));

  const human = !json;
  const progress = scenarios.length > 1 && (json || !process.stdout.isTTY);
  const fileRun: FileRun = {
    against: profile,
    prestart,
    opts,
    runId: randomBytes(4).toString('hex'),
    human,
    jobs,
  };
  const reports = await runAll(scenarios, fileRun, progress, against);

  const report: RunReport = {
    ok: reports.every((r) => r.outcome === 'passed'),
    totals: totals(reports),
    scenarios: reports,
    duration_ms: Math.round(performance.now() - t0),
  };
  if (json) printJson(jsonReport(report, Boolean(opts.timings)));
  else process.stdout.write(`\n${summaryLine(report, report.duration_ms)}\n`);
  if (opts.junit) writeFileSync(opts.junit, junitReport(report, Boolean(opts.timings)));
  if (progress)
    info(
      chalk.dim(
        `done: ${report.totals.passed}/${report.totals.scenarios} scenarios passed in ` +
          `${((report.duration_ms ?? 0) / 1000).toFixed(1)}s`,
      ),
    );
  process.removeListener('SIGINT', onSignal);
  process.removeListener('SIGTERM', onSignal);
  if (!report.ok) throw new CliExit(EXIT.apiError);
}
