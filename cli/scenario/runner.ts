// Runs a loaded scenario against a sandbox: an isolated daemon of its own (a fresh temporary home,
// --port 0, the file's seed, start and clock) or one already running (--against). Steps run in order;
// the first failed step skips the rest unless keepGoing. Each step's outcome is reported as it ends.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { api, DaemonUnreachable, refusalOf, type ApiResponse, type Identity } from '../client/http.js';
import { readJson, type Profile } from '../context.js';
import { spawnDaemon } from '../daemon-process.js';
import { check, checkFields, type Failure } from './assert.js';
import { formatPath, interpolate, lookup, parsePath } from './expr.js';
import type { LoadedStep, Scenario } from './load.js';
import type { AdvanceSpec, Expect, Header, Matcher, RequestSpec, StepKind, WaitUntilStep } from './schema.js';
import { uniqueValue, type UniqueKind } from './unique.js';
import type { ClockAdvanceResponse, SandboxState } from '../../daemon/contract/schemas/sandbox.js';
import type { FaultReport } from '../../daemon/contract/schemas/faults.js';

export type Outcome = 'passed' | 'failed' | 'error' | 'skipped';

export interface StepReport {
  index: number;
  name?: string;
  kind: StepKind;
  /** The included file the step is written in; absent for the scenario's own steps. */
  file?: string;
  line: number;
  method?: string;
  path?: string;
  status?: number;
  outcome: Outcome;
  /** wait_until: how many times the request was sent. */
  tries?: number;
  failures?: Failure[];
  /** Why the step could not run (a capture of a missing field, an unreachable sandbox...). */
  error?: string;
  /** The response body of a failed step. */
  response?: unknown;
  duration_ms?: number;
  /** Human output only: the clock after an advance, the control's name. */
  detail?: string;
  /** What the step does as written (references unresolved): stable testcase names in JUnit. */
  label?: string;
}

export interface ScenarioReport {
  file: string;
  name: string;
  description?: string;
  seed: number;
  start: string;
  clock: 'frozen' | 'running';
  outcome: Outcome;
  /** Why the scenario could not run at all (the daemon did not start, the reset failed). */
  error?: string;
  counts: Record<Outcome, number>;
  steps: StepReport[];
  duration_ms?: number;
}

export interface Target {
  profile: Profile;
  /** Prefix of the generated Idempotency-Keys: fixed for an isolated daemon (reproducible), per run otherwise. */
  keyPrefix: string;
  /** What `${unique...}` values derive from: the seed for an isolated daemon (reproducible), random per file and run
   * otherwise. */
  nonce: string;
  /** The isolated daemon's process (test/bench/scenario-profile.ts reads its CPU time); absent --against. */
  pid?: number;
  close(): Promise<void>;
}

export interface RunOptions {
  keepGoing?: boolean;
  onStep?: (step: StepReport) => void;
  /** wait_until progress (stderr). */
  onWait?: (step: LoadedStep, attempt: number, max: number) => void;
}

/** A step that could not run: a `${...}` that cannot be resolved (a capture of a missing field), a failed clock advance
 * between polls. */
export class StepError extends Error {}

interface Captured {
  status: number;
  headers: ApiResponse['headers'];
  body: unknown;
}

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.json': 'application/json',
  '.txt': 'text/plain',
};

// ---- targets ---------------------------------------------------------------------------------------

const live = new Set<{ kill(): void }>();

/** Kills the isolated daemons still running (on Ctrl-C or exit) and removes their homes. */
export function killIsolated(): void {
  for (const l of live) l.kill();
  live.clear();
}

/** A daemon of its own in a fresh temporary home, with the file's seed, start and clock. */
export async function isolatedTarget(h: Header): Promise<Target> {
  const home = mkdtempSync(join(tmpdir(), 'svc-scenario-'));
  const cleanup = { kill: () => rmSync(home, { recursive: true, force: true }) };
  live.add(cleanup);
  let spawned;
  try {
    spawned = await spawnDaemon({
      home,
      port: 0,
      seed: h.seed,
      start: h.start,
      clock: h.clock,
      speed: h.speed ?? 1,
      ai: h.ai,
      // its log is read only when it does not start (errors), and deleted with the home: no line per write
      logLevel: 'warn',
      detached: false,
    });
  } catch (err) {
    live.delete(cleanup);
    cleanup.kill();
    throw err;
  }
  const { child, locator } = spawned;
  const handle = {
    kill: () => {
      child.kill('SIGKILL');
      cleanup.kill();
    },
  };
  live.delete(cleanup);
  live.add(handle);
  const creds = readJson<Omit<Profile, 'base_url'>>(join(home, 'credentials.json')) ?? {};
  return {
    profile: { ...creds, base_url: locator.base_url, console_url: locator.console_url },
    keyPrefix: 'scn',
    nonce: `seed-${h.seed}`,
    pid: child.pid,
    async close() {
      // The report is complete and the home is deleted next, so nothing the daemon would do on a graceful
      // stop (finish requests, checkpoint the WAL, close the database) is wanted: it is killed, and the
      // home removed once it has exited, without holding up this process's other files.
      live.delete(handle);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** An already running sandbox; with reset, reset to the file's seed, start and clock first. `nonce`: random, one per
 * file and run. */
export async function againstTarget(
  profile: Profile,
  h: Header,
  reset: boolean,
  runId: string,
  nonce: string,
): Promise<Target> {
  if (reset) {
    const res = await api<SandboxState>(profile, 'POST', '/admin/sandbox/reset', {
      body: { seed: h.seed, start: h.start, clock: h.clock, ...(h.ai ? { ai: h.ai } : {}) },
    });
    if (res.status !== 200) {
      const err = refusalOf(res.body)?.error;
      throw new Error(
        `the reset of ${profile.base_url} failed: HTTP ${res.status}${err ? ` ${err.code}: ${err.message}` : ''}`,
      );
    }
  }
  return { profile, keyPrefix: `scn-${runId}`, nonce, close: async () => {} };
}

// ---- running ---------------------------------------------------------------------------------------

/** How `${...}` references of a scenario resolve: unique values, env, and earlier steps' captures. */
function resolverOf(sc: Scenario, target: Target, captures: Map<string, Captured>): (expr: string) => unknown {
  return (expr: string): unknown => {
    const segs = parsePath(expr);
    const root = String(segs[0]);
    if (root === 'unique')
      return uniqueValue(target.nonce, segs[1] as UniqueKind, segs[2] === undefined ? '' : String(segs[2]));
    if (root === 'env') {
      const name = String(segs[1]);
      if (name in sc.env) return sc.env[name];
      const v = process.env[name];
      if (v === undefined) throw new StepError(`\${${expr}}: ${name} is not set`);
      return v;
    }
    const cap = captures.get(root);
    if (!cap) throw new StepError(`\${${expr}}: step "${root}" did not run`);
    let rest = segs.slice(1);
    if (rest.length === 1 && rest[0] === 'status') return cap.status;
    if (rest[0] === 'headers' && rest.length === 2) {
      const v = cap.headers[String(rest[1]).toLowerCase()];
      if (v === undefined)
        throw new StepError(`\${${expr}}: the response of step "${root}" has no header ${String(rest[1])}`);
      return Array.isArray(v) ? v.join(', ') : v;
    }
    if (rest[0] === 'body') rest = rest.slice(1);
    if (rest.length === 0) return cap.body;
    const found = lookup(cap.body, rest);
    if (!found.found) {
      const avail =
        found.available && found.available.length > 0
          ? `; there: ${found.available.slice(0, 12).join(', ')}${found.available.length > 12 ? ', ...' : ''}`
          : '';
      throw new StepError(
        `\${${expr}}: the response of step "${root}" (HTTP ${cap.status}) has no field ` +
          `${formatPath(found.missingAt ?? rest)}${avail}`,
      );
    }
    return found.value;
  };
}

export async function runScenario(sc: Scenario, target: Target, opts: RunOptions = {}): Promise<ScenarioReport> {
  const started = performance.now();
  const captures = new Map<string, Captured>();
  const report: ScenarioReport = {
    file: sc.file,
    name: sc.header.name,
    description: sc.header.description,
    seed: sc.header.seed,
    start: sc.header.start,
    clock: sc.header.clock,
    outcome: 'passed',
    counts: { passed: 0, failed: 0, error: 0, skipped: 0 },
    steps: [],
  };
  if (report.description === undefined) delete report.description;

  const resolve = resolverOf(sc, target, captures);

  const refused = await addFaultRules(sc.header, target);
  if (refused) return { ...report, outcome: 'error', error: refused };
  let stop = false;
  for (const ls of sc.steps) {
    const base: StepReport = {
      index: ls.index,
      kind: ls.step.kind,
      ...(ls.file ? { file: ls.file } : {}),
      line: ls.line,
      outcome: 'skipped',
      label: stepLabel(ls),
    };
    if (ls.step.name) base.name = ls.step.name;
    if (stop) {
      report.steps.push(base);
      report.counts.skipped++;
      opts.onStep?.(base);
      continue;
    }
    const t0 = performance.now();
    const r = await runStep(ls, target, resolve, captures, base, opts);
    r.duration_ms = Math.round((performance.now() - t0) * 10) / 10;
    report.steps.push(r);
    report.counts[r.outcome]++;
    opts.onStep?.(r);
    if (r.outcome !== 'passed' && !opts.keepGoing) stop = true;
  }
  report.outcome = report.counts.error > 0 ? 'error' : report.counts.failed > 0 ? 'failed' : 'passed';
  if (report.outcome === 'passed') await checkFaultReport(sc.header, target, report);
  report.duration_ms = Math.round(performance.now() - started);
  return report;
}

/** The header's fault rules, added before the first step; the refusal of one, as the scenario's error. */
async function addFaultRules(h: Header, target: Target): Promise<string | null> {
  for (const [i, rule] of (h.faults ?? []).entries()) {
    const res = await api<unknown>(target.profile, 'POST', '/admin/sandbox/faults', { body: rule });
    const err = refusalOf(res.body)?.error;
    if (res.status !== 201) return `faults[${i}]: HTTP ${res.status}${err ? ` ${err.code}: ${err.message}` : ''}`;
  }
  return null;
}

/** expect_report: the fault report's counts after the last step; a difference fails the scenario. */
async function checkFaultReport(h: Header, target: Target, report: ScenarioReport): Promise<void> {
  const want = h.expect_report;
  if (!want) return;
  const res = await api<FaultReport>(target.profile, 'GET', '/admin/sandbox/faults/report');
  const got = res.body;
  const wrong: string[] = [];
  if (want.findings !== undefined && got.findings.length !== want.findings)
    wrong.push(
      `findings ${got.findings.length}, expected ${want.findings} (${got.findings.map((f) => f.message).join(' ')})`,
    );
  if (want.faults_fired !== undefined && got.faults_fired !== want.faults_fired)
    wrong.push(`faults_fired ${got.faults_fired}, expected ${want.faults_fired}`);
  if (wrong.length === 0) return;
  report.outcome = 'failed';
  report.error = `expect_report: ${wrong.join('; ')}`;
}

interface Prepared {
  method: string;
  path: string;
  identity?: Identity;
  body?: unknown;
  rawBody?: Buffer;
  contentType?: string;
  headers?: Record<string, string | null>;
  idempotencyKey?: string;
}

function prepareRequest(spec: RequestSpec, bodyFile: string | undefined, resolve: (e: string) => unknown): Prepared {
  const path = String(interpolate(spec.path, resolve));
  const p: Prepared = { method: spec.method, path, identity: spec.as };
  if (bodyFile) {
    p.rawBody = readFileSync(bodyFile);
    p.contentType = spec.content_type ?? CONTENT_TYPES[extname(bodyFile).toLowerCase()] ?? 'application/octet-stream';
  } else if (spec.body !== undefined) {
    p.body = interpolate(spec.body, resolve);
    if (spec.content_type) {
      p.rawBody = Buffer.from(typeof p.body === 'string' ? p.body : JSON.stringify(p.body));
      p.contentType = spec.content_type;
      delete p.body;
    }
  }
  if (spec.headers) {
    const h = interpolate(spec.headers, resolve) as Record<string, unknown>;
    p.headers = Object.fromEntries(
      Object.entries(h).map(([k, v]) => [k, v === null ? null : typeof v === 'string' ? v : JSON.stringify(v)]),
    );
  }
  if (spec.idempotency_key !== undefined) p.idempotencyKey = String(interpolate(String(spec.idempotency_key), resolve));
  return p;
}

/** Sends a step's request; T is what the route answers (unknown for a request step: any route). */
async function send<T = unknown>(target: Target, p: Prepared, defaultKey: string): Promise<ApiResponse<T>> {
  return api<T>(target.profile, p.method, p.path, {
    body: p.body,
    rawBody: p.rawBody,
    contentType: p.contentType,
    identity: p.identity,
    headers: p.headers,
    idempotencyKey: p.idempotencyKey ?? defaultKey,
    // One attempt per step: the step's answer is the one asserted, and the journal holds one request each.
    retry: false,
  });
}

function advanceRequest(spec: AdvanceSpec, resolve: (e: string) => unknown): Prepared {
  return { method: 'POST', path: '/admin/sandbox/clock-advance', identity: 'admin', body: interpolate(spec, resolve) };
}

/**
 * A matcher with its references resolved. A matcher that is exactly one reference to an object
 * (`${first.body}`) compares equal to that object: it must not be read as a mapping of operators.
 */
function interpolateMatcher(m: Matcher, resolve: (e: string) => unknown): Matcher {
  const v = interpolate(m, resolve) as Matcher;
  if (typeof m === 'string' && v !== null && typeof v === 'object' && !Array.isArray(v)) return { eq: v };
  return v;
}

function interpolateMatchers(
  ms: Record<string, Matcher> | undefined,
  resolve: (e: string) => unknown,
): Record<string, Matcher> | undefined {
  return ms && Object.fromEntries(Object.entries(ms).map(([k, m]) => [k, interpolateMatcher(m, resolve)]));
}

function interpolateExpect(e: Expect, resolve: (e: string) => unknown): Expect {
  const out: Expect = { ...e };
  if (e.error !== undefined) out.error = String(interpolate(e.error, resolve));
  if (e.fields) out.fields = interpolateMatchers(e.fields, resolve);
  if (e.headers) out.headers = interpolateMatchers(e.headers, resolve);
  if (e.body !== undefined) out.body = interpolateMatcher(e.body, resolve);
  return out;
}

/** `GET /v1/orders/${order.order_id}`, `advance minutes 1`, `control quote`: the step as written. */
export function stepLabel(ls: LoadedStep): string {
  const st = ls.step;
  if (st.kind === 'request') return `${st.request.method} ${st.request.path}`;
  if (st.kind === 'wait_until') return `wait_until ${st.wait_until.request.method} ${st.wait_until.request.path}`;
  if (st.kind === 'advance') return `advance ${describeAdvance(st.advance)}`;
  return `control ${Object.keys(st.control)[0]}`;
}

function describeAdvance(spec: AdvanceSpec): string {
  return Object.entries(spec)
    .map(([k, v]) => `${k} ${v}`)
    .join(' ');
}

async function runStep(
  ls: LoadedStep,
  target: Target,
  resolve: (e: string) => unknown,
  captures: Map<string, Captured>,
  base: StepReport,
  opts: RunOptions,
): Promise<StepReport> {
  const r: StepReport = { ...base };
  const step = ls.step;
  const key = `${target.keyPrefix}-${ls.index}`;
  let res: ApiResponse | undefined;
  try {
    const spec =
      step.kind === 'request' ? step.request : step.kind === 'wait_until' ? step.wait_until.request : undefined;
    if (spec) {
      // as written, until the references are resolved (a failed capture then still shows where)
      r.method = spec.method;
      r.path = spec.path;
    }
    let prepared: Prepared;
    if (step.kind === 'request') prepared = prepareRequest(step.request, ls.bodyFile, resolve);
    else if (step.kind === 'advance') {
      prepared = advanceRequest(step.advance, resolve);
      r.detail = describeAdvance(prepared.body as AdvanceSpec);
    } else if (step.kind === 'control') {
      const [name, body] = Object.entries(step.control)[0];
      const control = name.replace(/_/g, '-');
      prepared = {
        method: 'POST',
        path: `/admin/sandbox/${control}`,
        identity: 'admin',
        body: interpolate(body ?? {}, resolve),
      };
      r.detail = `${control} ${JSON.stringify(prepared.body)}`;
    } else prepared = prepareRequest(step.wait_until.request, ls.bodyFile, resolve);
    r.method = prepared.method;
    r.path = prepared.path;

    if (step.kind === 'wait_until') res = await poll(step.wait_until, { ls, target, prepared, key, resolve, r, opts });
    else {
      res = await send(target, prepared, key);
      r.status = res.status;
      if (step.kind === 'advance' && res.status === 200)
        r.detail = `${r.detail} -> ${(res.body as ClockAdvanceResponse).timestamp}`;
    }
    if (step.name) captures.set(step.name, { status: res!.status, headers: res!.headers, body: res!.body });
    const expectation = step.expect ? interpolateExpect(step.expect, resolve) : undefined;
    r.failures = [...(r.failures ?? []), ...check(res!, expectation)];
    if (r.failures.length === 0) delete r.failures;
    r.outcome = r.failures ? 'failed' : 'passed';
  } catch (err) {
    if (!(err instanceof DaemonUnreachable || err instanceof StepError)) throw err;
    r.outcome = 'error';
    r.error = err.message;
  }
  if (r.outcome !== 'passed' && res) r.response = res.body;
  return r;
}

interface Poll {
  ls: LoadedStep;
  target: Target;
  prepared: Prepared;
  key: string;
  resolve: (e: string) => unknown;
  /** The step's report: tries, detail and failures are written into it. */
  r: StepReport;
  opts: RunOptions;
}

/** The sandbox's clock does not move by itself (frozen, or running at speed 0): waiting without advance: cannot change
 * anything. */
async function clockStands(target: Target): Promise<boolean> {
  const state = await api<SandboxState>(target.profile, 'GET', '/admin/sandbox/state', { identity: 'admin' });
  return state.status === 200 && (state.body.clock.mode === 'frozen' || state.body.clock.speed === 0);
}

/** wait_until: sends the request until its condition holds or max_tries, advancing the clock (or waiting) between
 * tries; the last answer. */
async function poll(w: WaitUntilStep['wait_until'], p: Poll): Promise<ApiResponse> {
  const { target, r } = p;
  let tries = 0;
  let lastFailures: Failure[] = [];
  let res: ApiResponse;
  for (;;) {
    tries++;
    p.opts.onWait?.(p.ls, tries, w.max_tries);
    res = await send(target, p.prepared, `${p.key}-${tries}`);
    lastFailures = [];
    if (w.status !== undefined ? res.status !== w.status : res.status < 200 || res.status > 299) {
      lastFailures.push({
        check: 'wait_until.status',
        expected: w.status !== undefined ? String(w.status) : '2xx',
        actual: String(res.status),
      });
    }
    if (w.fields)
      lastFailures.push(...checkFields(res.body, interpolateMatchers(w.fields, p.resolve)!, 'wait_until.fields'));
    if (lastFailures.length === 0 || tries >= w.max_tries) break;
    if (w.advance) {
      const adv = await send<ClockAdvanceResponse>(target, advanceRequest(w.advance, p.resolve), '');
      if (adv.status !== 200) {
        const err = refusalOf(adv.body)?.error;
        throw new StepError(
          `advancing the clock between polls (${describeAdvance(w.advance)}) failed: HTTP ${adv.status}` +
            `${err ? ` ${err.code}: ${err.message}` : ''}`,
        );
      }
      const advances = `${tries} advance${tries === 1 ? '' : 's'}`;
      r.detail = `after ${advances} of ${describeAdvance(w.advance)}: ${adv.body.timestamp}`;
    } else {
      if (tries === 1 && (await clockStands(target))) {
        r.tries = tries;
        r.status = res.status;
        r.response = res.body;
        const unmet = lastFailures.map((f) => `${f.check} ${f.actual} (expected ${f.expected})`).join('; ');
        throw new StepError(
          `the sandbox clock is frozen, so waiting cannot change the answer (${unmet}); add advance: to ` +
            `wait_until (e.g. advance: { minutes: 1 }) to move the clock between polls`,
        );
      }
      await sleep(w.interval_ms ?? 250);
    }
  }
  r.tries = tries;
  r.status = res.status;
  if (lastFailures.length > 0)
    r.failures = lastFailures.map((f) => ({ ...f, expected: `${f.expected} within ${w.max_tries} tries` }));
  return res;
}
