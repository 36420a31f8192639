// The runner's reports: human lines as steps end (✓/✗ with method, path, status, duration; on a failure
// the expected and actual values and the response body), one JSON object (deterministic: no durations
// unless --timings), and JUnit XML (a testsuite per file, a testcase per step; its time attributes
// only with --timings too, so the same run gives the same bytes however many files ran at once).
import { chalk } from '../output.js';
import type { Outcome, ScenarioReport, StepReport } from './runner.js';
import type { ScenarioIssue } from './load.js';

export interface RunReport {
  ok: boolean;
  /** Files that did not validate (nothing ran when there are any). */
  invalid?: ScenarioIssue[];
  /** JUnit only: the valid files that did not run (another file is invalid, the sandbox does not answer): every step
   * skipped, with why. */
  notRun?: { reason: string; scenarios: ScenarioReport[] };
  /** JUnit only: the --against sandbox did not answer (nothing ran). */
  unreachable?: { url: string; message: string };
  totals: { scenarios: number; passed: number; failed: number; errors: number; steps: Record<Outcome, number> };
  scenarios: ScenarioReport[];
  duration_ms?: number;
}

export function totals(scenarios: ScenarioReport[]): RunReport['totals'] {
  const steps: Record<Outcome, number> = { passed: 0, failed: 0, error: 0, skipped: 0 };
  for (const s of scenarios) for (const k of Object.keys(steps) as Outcome[]) steps[k] += s.counts[k];
  return {
    scenarios: scenarios.length,
    passed: scenarios.filter((s) => s.outcome === 'passed').length,
    failed: scenarios.filter((s) => s.outcome === 'failed').length,
    errors: scenarios.filter((s) => s.outcome === 'error').length,
    steps,
  };
}

const STEP_KEYS = [
  'index',
  'name',
  'kind',
  'file',
  'line',
  'method',
  'path',
  'status',
  'tries',
  'outcome',
  'failures',
  'error',
  'response',
] as const;

/** The JSON report: the same input gives the same bytes (durations only with timings). */
export function jsonReport(report: RunReport, timings: boolean): unknown {
  const strip = <T extends { duration_ms?: number }>(o: T): T => {
    const c = { ...o };
    if (!timings) delete c.duration_ms;
    return c;
  };
  const { notRun: _notRun, ...rest } = report;
  return {
    ...strip(rest),
    scenarios: report.scenarios.map((s) => ({
      ...strip(s),
      steps: s.steps.map((st) => {
        // a fixed key order, whatever order the runner filled them in
        const c: Record<string, unknown> = {};
        for (const k of STEP_KEYS) if (st[k] !== undefined) c[k] = st[k];
        if (timings && st.duration_ms !== undefined) c.duration_ms = st.duration_ms;
        return c;
      }),
    })),
  };
}

// ---- human -----------------------------------------------------------------------------------------

const MARK: Record<Outcome, string> = { passed: '✓', failed: '✗', error: '✗', skipped: '-' };

function color(outcome: Outcome, text: string): string {
  if (outcome === 'passed') return chalk.green(text);
  if (outcome === 'skipped') return chalk.dim(text);
  return chalk.red(text);
}

export function scenarioHeader(
  s: { file: string; name: string; seed: number; start: string; clock: string },
  against?: string,
): string {
  const where = against ? `against ${against}` : `seed ${s.seed}, start ${s.start}, clock ${s.clock}`;
  return `${chalk.bold(s.name)} ${chalk.dim(`(${s.file}; ${where})`)}`;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => by + l)
    .join('\n');
}

function bodyText(body: unknown, maxLines = 40): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
  const lines = (text ?? '').split('\n');
  return lines.length > maxLines
    ? [...lines.slice(0, maxLines), `... (${lines.length - maxLines} more lines)`].join('\n')
    : lines.join('\n');
}

export function stepLine(st: StepReport, file: string): string {
  const parts = [
    `  ${color(st.outcome, MARK[st.outcome])} ${String(st.index).padStart(2)}` +
      `${st.name ? ` ${chalk.bold(st.name)}` : ''}`,
  ];
  if (st.outcome === 'skipped') return chalk.dim(`${parts[0]}  ${st.kind}  skipped`);
  if (st.kind === 'advance') parts.push(`advance ${st.detail ?? ''}`);
  else if (st.kind === 'control') parts.push(`control ${st.detail ?? ''}`);
  else if (st.method) parts.push(`${st.kind === 'wait_until' ? 'wait_until ' : ''}${st.method} ${st.path}`);
  if (st.status !== undefined) parts.push(String(st.status));
  if (st.kind === 'wait_until' && st.tries !== undefined) parts.push(`${st.tries} ${st.tries === 1 ? 'try' : 'tries'}`);
  if (st.duration_ms !== undefined) parts.push(chalk.dim(`${Math.round(st.duration_ms)}ms`));
  let out = parts.join('  ');
  if (st.outcome === 'failed' || st.outcome === 'error') {
    const lines: string[] = [chalk.dim(`at ${st.file ?? file}:${st.line}`)];
    if (st.error) lines.push(`${chalk.red('error')} ${st.error}`);
    for (const f of st.failures ?? [])
      lines.push(`${f.check}: expected ${chalk.green(f.expected)}, got ${chalk.red(f.actual)}`);
    if (st.kind === 'wait_until' && st.detail) lines.push(chalk.dim(st.detail));
    if (st.response !== undefined)
      lines.push(
        `response${st.status !== undefined ? ` (HTTP ${st.status})` : ''}:`,
        indent(bodyText(st.response), '  '),
      );
    out += `\n${indent(lines.join('\n'), '       ')}`;
  }
  return out;
}

/** Skipped steps in one line: `- steps 4-9 skipped`. */
export function skippedLine(indexes: number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < indexes.length; i++) {
    let j = i;
    while (j + 1 < indexes.length && indexes[j + 1] === indexes[j] + 1) j++;
    ranges.push(i === j ? String(indexes[i]) : `${indexes[i]}-${indexes[j]}`);
    i = j;
  }
  return chalk.dim(
    `  - step${indexes.length === 1 ? '' : 's'} ${ranges.join(', ')} skipped (a failed step stops the ` +
      `scenario; --keep-going runs on)`,
  );
}

export function scenarioFooter(s: ScenarioReport): string {
  const c = s.counts;
  const bits = [`${c.passed} passed`];
  if (c.failed) bits.push(`${c.failed} failed`);
  if (c.error) bits.push(`${c.error} error${c.error === 1 ? '' : 's'}`);
  if (c.skipped) bits.push(`${c.skipped} skipped`);
  const mark = s.outcome === 'passed' ? chalk.green('PASS') : chalk.red(s.outcome === 'error' ? 'ERROR' : 'FAIL');
  return `  ${mark} ${bits.join(', ')}${s.error ? `\n  ${chalk.red('error')} ${s.error}` : ''}`;
}

export function summaryLine(r: RunReport, ms?: number): string {
  const t = r.totals;
  const bits = [`${t.passed} passed`];
  if (t.failed) bits.push(`${t.failed} failed`);
  if (t.errors) bits.push(`${t.errors} with errors`);
  const text =
    `${t.scenarios} scenario${t.scenarios === 1 ? '' : 's'}: ${bits.join(', ')}; steps: ${t.steps.passed}` +
    ` passed, ${t.steps.failed} failed, ${t.steps.error} errors, ${t.steps.skipped} skipped` +
    `${ms !== undefined ? ` (${(ms / 1000).toFixed(1)}s)` : ''}`;
  return r.ok ? chalk.green(text) : chalk.red(text);
}

// ---- JUnit -----------------------------------------------------------------------------------------

function xml(text: string): string {
  // XML 1.0 allows tab, LF, CR and characters from U+0020; drop the rest, escape the markup
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** ` time="1.234"` with timings; nothing without (JUnit's time attribute is optional). */
const timeAttr = (ms: number | undefined, timings: boolean) =>
  timings ? ` time="${((ms ?? 0) / 1000).toFixed(3)}"` : '';

/** Stable across runs (CI tracks tests by name): the step as written, references unresolved. */
function testcaseName(st: StepReport): string {
  return `${String(st.index).padStart(2, '0')} ${st.name ? `${st.name}: ` : ''}${st.label ?? st.kind}`;
}

function failureText(st: StepReport, file: string): string {
  const lines = [`at ${st.file ?? file}:${st.line}`];
  if (st.error) lines.push(st.error);
  for (const f of st.failures ?? []) lines.push(`${f.check}: expected ${f.expected}, got ${f.actual}`);
  if (st.response !== undefined)
    lines.push(`response${st.status !== undefined ? ` (HTTP ${st.status})` : ''}:`, bodyText(st.response, 200));
  return lines.join('\n');
}

interface Suite {
  attrs: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  time?: number;
  body: string[];
}

/** ` tests="3" failures="1" errors="0" skipped="1"`: the counts of a suite, or of all of them. */
const counts = (c: Pick<Suite, 'tests' | 'failures' | 'errors' | 'skipped'>) =>
  ` tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}"`;

const suiteOpen = (s: Suite, timings: boolean) => `  <testsuite ${s.attrs}${counts(s)}${timeAttr(s.time, timings)}>`;

/** An invalid file: one testcase with one error listing every problem of the file (and of the files it includes). */
function invalidSuite(file: string, issues: ScenarioIssue[]): Suite {
  const text = issues
    .map(
      (i) =>
        `${i.file}${i.line ? `:${i.line}:${i.col ?? 1}` : ''}: ` +
        `${i.step ? `step ${i.step.index}${i.step.name ? ` (${i.step.name})` : ''}: ` : ''}${i.message}`,
    )
    .join('\n');
  const body = [
    `    <testcase name="validate" classname="${xml(file)}" file="${xml(file)}" time="0.000">`,
    `      <error type="InvalidScenario" message="${xml(issues[0].message)}` +
      `${issues.length > 1 ? xml(` (and ${issues.length - 1} more)`) : ''}">${xml(text)}</error>`,
    '    </testcase>',
  ];
  return { attrs: `name="${xml(file)}" file="${xml(file)}"`, tests: 1, failures: 0, errors: 1, skipped: 0, body };
}

/** The --against sandbox did not answer: one testcase with one error. */
function unreachableSuite(url: string, message: string): Suite {
  const body = [
    `    <testcase name="GET /healthz" classname="${xml(url)}" time="0.000">`,
    `      <error type="SandboxUnreachable" message="${xml(message)}">${xml(message)}</error>`,
    '    </testcase>',
  ];
  return { attrs: `name="${xml(url)}"`, tests: 1, failures: 0, errors: 1, skipped: 0, body };
}

function stepCase(st: StepReport, s: ScenarioReport, skipMessage: string, timings: boolean): string[] {
  const where = `file="${xml(st.file ?? s.file)}" line="${st.line}"${timeAttr(st.duration_ms, timings)}`;
  const open = `    <testcase name="${xml(testcaseName(st))}" classname="${xml(s.name)}" ${where}`;
  if (st.outcome === 'passed') return [`${open}/>`];
  if (st.outcome === 'skipped') return [`${open}><skipped message="${xml(skipMessage)}"/></testcase>`];
  const first =
    st.error ?? (st.failures ?? []).map((f) => `${f.check}: expected ${f.expected}, got ${f.actual}`).join('; ');
  const tag = st.outcome === 'failed' ? 'failure' : 'error';
  return [
    `${open}>`,
    `      <${tag} type="${st.outcome === 'failed' ? 'AssertionFailed' : 'StepError'}" message="${xml(first)}">` +
      `${xml(failureText(st, s.file))}</${tag}>`,
    '    </testcase>',
  ];
}

/** A scenario that ran (or could not start, or did not run because another file is invalid): a testcase per step. */
function scenarioSuite(s: ScenarioReport, skipMessage: string, timings: boolean): Suite {
  const body = [
    `    <properties><property name="seed" value="${s.seed}"/><property name="start" value="${xml(s.start)}` +
      `"/><property name="clock" value="${s.clock}"/></properties>`,
  ];
  if (s.error) {
    body.push(`    <testcase name="setup" classname="${xml(s.name)}" file="${xml(s.file)}" time="0.000">`);
    body.push(`      <error type="SetupFailed" message="${xml(s.error.split('\n')[0])}">${xml(s.error)}</error>`);
    body.push('    </testcase>');
  }
  for (const st of s.steps) body.push(...stepCase(st, s, skipMessage, timings));
  return {
    attrs: `name="${xml(s.name)}" file="${xml(s.file)}"`,
    tests: s.steps.length + (s.error ? 1 : 0),
    failures: s.counts.failed,
    errors: s.counts.error + (s.error ? 1 : 0),
    skipped: s.counts.skipped,
    time: s.duration_ms,
    body,
  };
}

/**
 * JUnit XML: a testsuite per scenario file, a testcase per step (failures, errors and skips marked);
 * an invalid file is a suite with one error. The totals of <testsuites> are the sums of its suites.
 * Durations (time attributes) only with `timings`: without, the same run gives the same bytes.
 */
export function junitReport(r: RunReport, timings = false): string {
  const byFile = new Map<string, ScenarioIssue[]>();
  for (const issue of r.invalid ?? []) {
    const file = issue.scenario ?? issue.file;
    byFile.set(file, [...(byFile.get(file) ?? []), issue]);
  }
  const suites: Suite[] = [
    ...(r.unreachable ? [unreachableSuite(r.unreachable.url, r.unreachable.message)] : []),
    ...[...byFile].map(([file, issues]) => invalidSuite(file, issues)),
    ...(r.notRun?.scenarios ?? []).map((s) => scenarioSuite(s, `not run: ${r.notRun!.reason}`, timings)),
    ...r.scenarios.map((s) => scenarioSuite(s, 'an earlier step failed', timings)),
  ];
  const sum = (k: 'tests' | 'failures' | 'errors' | 'skipped') => suites.reduce((n, s) => n + s[k], 0);
  const total = { tests: sum('tests'), failures: sum('failures'), errors: sum('errors'), skipped: sum('skipped') };
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="svc scenarios"${counts(total)}${timeAttr(r.duration_ms, timings)}>`);
  for (const s of suites) out.push(suiteOpen(s, timings), ...s.body, '  </testsuite>');
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
