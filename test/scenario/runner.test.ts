// The scenario runner through the real `svc scenario run`: every shipped scenario passes, four files at
// a time, with the --json report recorded from a run one file at a time (byte for byte); --jobs prints
// and reports what one at a time does; and deliberately wrong scenarios (test/scenario/fixtures/) fail
// with a report naming the place: file, YAML line, step number and name.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSvc, startSandbox, SVC, type CliSandbox } from '../helpers/cli.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const SHIPPED = readdirSync('scenarios')
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => `scenarios/${f}`);
const FIX = 'test/scenario/fixtures';
/** The --json report of the shipped suite, run one file at a time (SVC_UPDATE_SCENARIO_REPORT=1 records it). */
const SHIPPED_REPORT = 'test/scenario/shipped-report.json';
const scenario = (args: string[], opts: { env?: Record<string, string>; timeoutMs?: number } = {}) =>
  runSvc(['scenario', 'run', ...args], opts);

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-scenario-test-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Well-formed XML: every character belongs to a token, tags nest, entities are the predefined ones. */
function assertWellFormedXml(text: string): void {
  const token = new RegExp(
    String.raw`<\?xml[^?]*\?>|<!--[\s\S]*?-->|<\/([A-Za-z_][\w.-]*)\s*>|<([A-Za-z_][\w.-]*)` +
      String.raw`((?:\s+[A-Za-z_][\w.-]*="[^"<&]*(?:&(?:amp|lt|gt|quot|apos);[^"<&]*)*")*)\s*(\/?)>|` +
      String.raw`&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);|[^<&]+`,
    'gy',
  );
  const stack: string[] = [];
  let roots = 0;
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < text.length) {
    token.lastIndex = pos;
    m = token.exec(text);
    if (!m) throw new Error(`not well-formed XML at ${pos}: ${JSON.stringify(text.slice(pos, pos + 60))}`);
    if (m[1]) {
      if (stack.pop() !== m[1]) throw new Error(`mismatched </${m[1]}> at ${pos}`);
    } else if (m[2]) {
      if (stack.length === 0) roots++;
      if (!m[4]) stack.push(m[2]);
    }
    pos = token.lastIndex;
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('><')}>`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
}

describe('the shipped scenarios', () => {
  it('are all there: onboarding, KYC, funding and the trading walkthroughs', () => {
    expect(SHIPPED.length).toBeGreaterThanOrEqual(13);
  });

  it('every one passes at --jobs 2, with the --json report recorded from a serial run, byte for byte', async () => {
    // One run, two files at a time, against a report recorded from a run one file at a time: the same
    // files give the same bytes however many run at once, and on every run, not just within one.
    // SVC_UPDATE_SCENARIO_REPORT=1 records it again (one file at a time) after a scenario changes.
    const update = process.env.SVC_UPDATE_SCENARIO_REPORT === '1';
    const xml = join(tmp, 'shipped.xml');
    const run = await scenario([...SHIPPED, '--json', '--jobs', update ? '1' : '2', '--junit', xml], {
      timeoutMs: 400_000,
    });
    const unpassed = (run.json?.scenarios ?? [])
      .filter((s: any) => s.outcome !== 'passed')
      .map((s: any) => ({ file: s.file, error: s.error, steps: s.steps.filter((st: any) => st.outcome !== 'passed') }));
    expect(run.code, run.stderr + JSON.stringify(unpassed, null, 2).slice(0, 4000)).toBe(0);
    expect(run.json.ok).toBe(true);
    expect(run.json.scenarios.map((s: any) => s.file)).toEqual(SHIPPED);
    for (const s of run.json.scenarios) {
      expect({
        file: s.file,
        outcome: s.outcome,
        failed: s.counts.failed,
        error: s.counts.error,
        skipped: s.counts.skipped,
      }).toEqual({ file: s.file, outcome: 'passed', failed: 0, error: 0, skipped: 0 });
      expect(s.steps.length).toBeGreaterThan(5);
      // deterministic: no durations without --timings
      expect(JSON.stringify(s)).not.toContain('duration_ms');
    }
    // progress on stderr, one line per file, in file order
    expect(run.stderr).toContain(`[${SHIPPED.length}/${SHIPPED.length}] ${SHIPPED[SHIPPED.length - 1]}`);
    expect(readFileSync(xml, 'utf8')).not.toContain(' time=');
    if (update) writeFileSync(SHIPPED_REPORT, run.stdout);
    const recorded = readFileSync(SHIPPED_REPORT, 'utf8');
    const differs = run.json.scenarios.find(
      (s: any, i: number) => JSON.stringify(s) !== JSON.stringify(JSON.parse(recorded).scenarios[i]),
    );
    expect(
      run.stdout === recorded,
      `${differs?.file ?? 'the report'} differs from ${SHIPPED_REPORT}; if a scenario or an answer changed on ` +
        'purpose: SVC_UPDATE_SCENARIO_REPORT=1 npx vitest run test/scenario/runner.test.ts -t shipped',
    ).toBe(true);
  }, 600_000);
});

describe('--jobs', () => {
  it('prints and reports what one at a time does, in file order, when a later file finishes first', async () => {
    // 55 steps, then one that fails at its second (both on frozen clocks: the same answers every run)
    const files = ['scenarios/11-order-rejections.yaml', `${FIX}/failed-status.yaml`];
    const env = { NO_COLOR: '1' };
    const [one, two] = await Promise.all([
      scenario([...files, '--jobs', '1', '--junit', join(tmp, 'jobs-1.xml')], { env }),
      scenario([...files, '--jobs', '2', '--junit', join(tmp, 'jobs-2.xml')], { env }),
    ]);
    expect([one.code, two.code]).toEqual([1, 1]);
    // durations aside (a step's ms, the run's seconds), the same lines in the same order
    const steady = (out: string) => out.replace(/\d+ms/g, 'Nms').replace(/\(\d+\.\ds\)/g, '(Ns)');
    expect(steady(two.stdout)).toBe(steady(one.stdout));
    expect(one.stdout.indexOf('Every order rejection code')).toBeLessThan(one.stdout.indexOf('failed status'));
    expect(readFileSync(join(tmp, 'jobs-2.xml'), 'utf8')).toBe(readFileSync(join(tmp, 'jobs-1.xml'), 'utf8'));
  });

  it('a --jobs that is not a whole number from 1, or more than one with --against, is a usage error', async () => {
    const zero = await scenario([`${FIX}/failed-status.yaml`, '--jobs', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--jobs 0: write a whole number from 1');
    const against = await scenario([`${FIX}/failed-status.yaml`, '--jobs', '2', '--against', 'http://127.0.0.1:9']);
    expect(against.code).toBe(2);
    expect(against.stderr).toContain('--against runs one file at a time');
  });
});

describe('failure reports name the place', () => {
  it('a failed status assertion: exit 1, expected vs actual, the response body, the rest skipped', async () => {
    const human = await scenario([`${FIX}/failed-status.yaml`]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('✓  1 clock  GET /v1/clock  200');
    expect(human.stdout).toContain('✗  2 quote  control quote');
    expect(human.stdout).toContain(`at ${FIX}/failed-status.yaml:8`);
    expect(human.stdout).toContain('status: expected 200, got 422 PRICE_OFF_TICK');
    expect(human.stdout).toContain('"code": "PRICE_OFF_TICK"');
    expect(human.stdout).toContain('step 3 skipped');
    expect(human.stdout).toMatch(/1 scenario: 0 passed, 1 failed/);

    const json = await scenario([`${FIX}/failed-status.yaml`, '--json']);
    expect(json.code).toBe(1);
    expect(json.json.ok).toBe(false);
    const [s] = json.json.scenarios;
    expect(s).toMatchObject({
      file: `${FIX}/failed-status.yaml`,
      outcome: 'failed',
      counts: { passed: 1, failed: 1, error: 0, skipped: 1 },
    });
    expect(s.steps[1]).toEqual({
      index: 2,
      name: 'quote',
      kind: 'control',
      line: 8,
      method: 'POST',
      path: '/admin/sandbox/quote',
      status: 422,
      outcome: 'failed',
      failures: [{ check: 'status', expected: '200', actual: '422 PRICE_OFF_TICK' }],
      response: {
        error: { code: 'PRICE_OFF_TICK', message: expect.any(String) },
        request_id: expect.stringMatching(/^req_/),
      },
    });
    expect(s.steps[2]).toEqual({ index: 3, kind: 'advance', line: 13, outcome: 'skipped' });
  });

  it('a failed field assertion lists each field that does not hold', async () => {
    const res = await scenario([`${FIX}/failed-field.yaml`, '--json']);
    expect(res.code).toBe(1);
    const step = res.json.scenarios[0].steps[1];
    expect(step).toMatchObject({ index: 2, name: 'clock', line: 7, status: 200, outcome: 'failed' });
    expect(step.failures).toEqual([
      { check: 'fields.is_open', expected: 'true', actual: 'false' },
      { check: 'fields.next_open', expected: 'matches /^2026-11-23/', actual: '"2026-11-22T10:00:00+02:00"' },
    ]);
    expect(step.response.timestamp).toBe('2026-11-22T09:30:00+02:00');
    const human = await scenario([`${FIX}/failed-field.yaml`]);
    expect(human.stdout).toContain('fields.is_open: expected true, got false');
  });

  it('--keep-going runs the steps after a failure and reports each', async () => {
    const stop = await scenario([`${FIX}/keep-going.yaml`, '--json']);
    expect(stop.json.scenarios[0].counts).toEqual({ passed: 0, failed: 1, error: 0, skipped: 2 });
    const go = await scenario([`${FIX}/keep-going.yaml`, '--json', '--keep-going']);
    expect(go.code).toBe(1);
    expect(go.json.scenarios[0].counts).toEqual({ passed: 1, failed: 2, error: 0, skipped: 0 });
    expect(go.json.scenarios[0].steps[0].failures).toEqual([
      { check: 'status', expected: '2xx', actual: '404 UNKNOWN_SYMBOL' },
    ]);
  });

  it('an unknown step kind: exit 2 with the file, line and step, and nothing runs', async () => {
    const res = await scenario([`${FIX}/unknown-kind.yaml`]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `${FIX}/unknown-kind.yaml:7:5: step 2 (typo): unknown step kind "reqest"; a step is one of request, ` +
        `advance, control, wait_until`,
    );
    expect(res.stdout).toBe('');
    const json = await scenario([`${FIX}/unknown-kind.yaml`, '--json']);
    expect(json.code).toBe(2);
    expect(json.json).toMatchObject({
      ok: false,
      scenarios: [],
      invalid: [{ file: `${FIX}/unknown-kind.yaml`, line: 7, col: 5, step: { index: 2, name: 'typo' } }],
    });
  });

  it('a malformed YAML file: exit 2 naming the file and line', async () => {
    const res = await scenario([`${FIX}/malformed.yaml`]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(new RegExp(`${FIX}/malformed\\.yaml:[56]:\\d+: malformed YAML: Flow map`));
    const notYaml = join(tmp, 'list.yaml');
    writeFileSync(notYaml, '- just\n- a list\n');
    const list = await scenario([notYaml]);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain(`${notYaml}:1:1: a scenario file is a YAML mapping`);
  });

  it('every shape problem of a file is reported at once, in line order', async () => {
    const res = await scenario([`${FIX}/bad-shape.yaml`]);
    expect(res.code).toBe(2);
    const lines = res.stderr.trim().split('\n');
    expect(lines.slice(0, -1)).toEqual([
      `error ${FIX}/bad-shape.yaml:2:1: seed: Too small: expected number to be >=0`,
      `error ${FIX}/bad-shape.yaml:3:1: start: must be an RFC 3339 timestamp with an offset, e.g. ` +
        `2026-11-22T09:00:00+02:00`,
      `error ${FIX}/bad-shape.yaml:4:1: clock: must be frozen or running`,
      `error ${FIX}/bad-shape.yaml:6:16: step 1: request.method: must be one of GET, POST, PUT, PATCH, DELETE`,
      `error ${FIX}/bad-shape.yaml:6:31: step 1: request.path: must start with / (the base URL is the sandbox's)`,
      `error ${FIX}/bad-shape.yaml:6:47: step 1: request.bogus: unknown key "bogus"`,
      `error ${FIX}/bad-shape.yaml:7:5: step 2: advance: advance takes exactly one of minutes, hours, days, until`,
      `error ${FIX}/bad-shape.yaml:8:16: step 3: control.quotes: unknown sandbox control "quotes"; one of ` +
        `quote, halt, auto-fill, manual-funding, clock, clock-advance, reset, nav, declare-dividend, inject-break`,
      `error ${FIX}/bad-shape.yaml:13:22: step 4 (x): expect.fields.timestamp.gtee: unknown key "gtee"`,
      `error ${FIX}/bad-shape.yaml:14:5: step 5 (x): the name "x" is already used by step 4`,
    ]);
    expect(lines.at(-1)).toBe('no scenario ran: 10 problems in 1 file (docs/scenarios.md describes the format)');
  });

  it('a reference to no earlier step, or to an unset env variable, is found before anything runs', async () => {
    const res = await scenario([`${FIX}/unknown-ref.yaml`]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `${FIX}/unknown-ref.yaml:7:29: step 1: request.path: \${nobody.order_id}: no earlier step is named "nobody"`,
    );
    expect(res.stderr).toContain(
      `${FIX}/unknown-ref.yaml:8:29: step 2: request.path: \${later.order_id}: step "later" is step 4, which ` +
        `has not run yet here`,
    );
    expect(res.stderr).toContain(
      `${FIX}/unknown-ref.yaml:9:29: step 3: request.path: \${env.SVC_TEST_UNSET_SYMBOL}: ` +
        `SVC_TEST_UNSET_SYMBOL is set neither`,
    );
    // the same variable from the environment, or from --env, makes it valid
    const fromEnv = await runSvc(['scenario', 'run', `${FIX}/unknown-ref.yaml`], {
      env: { SVC_TEST_UNSET_SYMBOL: 'COMI' },
    });
    expect(fromEnv.stderr).not.toContain('SVC_TEST_UNSET_SYMBOL');
    expect(fromEnv.code).toBe(2);
  });

  it('a capture of a missing field fails that step with the step, the field and what was there', async () => {
    const res = await scenario([`${FIX}/missing-capture.yaml`, '--json']);
    expect(res.code).toBe(1);
    const s = res.json.scenarios[0];
    expect(s.outcome).toBe('error');
    expect(s.steps[1]).toEqual({
      index: 2,
      name: 'investor',
      kind: 'request',
      line: 8,
      method: 'GET',
      path: '/v1/investors/${clock.investor_id}',
      outcome: 'error',
      error:
        '${clock.investor_id}: the response of step "clock" (HTTP 200) has no field investor_id; there: ' +
        'timestamp, is_open, next_open, next_close',
    });
    expect(s.steps[2].outcome).toBe('skipped');
    const human = await scenario([`${FIX}/missing-capture.yaml`]);
    expect(human.stdout).toContain(`at ${FIX}/missing-capture.yaml:8`);
    expect(human.stdout).toContain('error ${clock.investor_id}: the response of step "clock"');
  });

  it('env values, every matcher and capture form pass; --env overrides the file', async () => {
    const res = await scenario([`${FIX}/env-and-matchers.yaml`, '--json']);
    expect(res.code, res.stdout).toBe(0);
    const other = await scenario([`${FIX}/env-and-matchers.yaml`, '--json', '--env', 'SYMBOL=ETEL']);
    expect(other.code, other.stdout).toBe(0);
    expect(other.json.scenarios[0].steps[1].path).toBe('/v1/instruments/ETEL/quote');
    const bad = await scenario([`${FIX}/env-and-matchers.yaml`, '--env', 'no-equals']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--env no-equals: write NAME=VALUE');
  });

  it('a running clock: wait_until polls on the wall clock until the simulated rail completes', async () => {
    const res = await scenario([`${FIX}/running-clock.yaml`, '--json', '--timings']);
    expect(res.code, res.stdout).toBe(0);
    const s = res.json.scenarios[0];
    expect(s.clock).toBe('running');
    expect(s.steps[4]).toMatchObject({
      kind: 'wait_until',
      outcome: 'passed',
      tries: expect.any(Number),
      duration_ms: expect.any(Number),
    });
    expect(res.json.duration_ms).toEqual(expect.any(Number));
  });

  it('a missing file, an empty directory and a pattern matching nothing are usage errors', async () => {
    expect((await scenario(['no/such.yaml'])).stderr).toContain('no such scenario file: no/such.yaml');
    expect((await scenario([tmp])).code).toBe(2);
    const none = await scenario(['scenarios/zz-*.yaml']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no scenario files match scenarios/zz-*.yaml');
  });

  it('expands a pattern itself (no shell) and takes a directory', async () => {
    const res = await scenario([`${FIX}/failed-*.yaml`, '--json']);
    expect(res.json.scenarios.map((s: any) => s.file)).toEqual([
      `${FIX}/failed-field.yaml`,
      `${FIX}/failed-status.yaml`,
    ]);
    expect(res.stderr).toContain('[2/2]');
    const dir = join(tmp, 'suite');
    mkdirSync(dir);
    copyFileSync(`${FIX}/failed-status.yaml`, join(dir, 'a.yaml'));
    copyFileSync(`${FIX}/failed-field.yaml`, join(dir, 'b.yml'));
    writeFileSync(join(dir, 'notes.txt'), 'not a scenario');
    const fromDir = await scenario([dir, '--json']);
    expect(fromDir.json.scenarios.map((s: any) => s.file)).toEqual([join(dir, 'a.yaml'), join(dir, 'b.yml')]);
  });
});

/** Processes (this user's, as /proc shows them) whose command line names `text`. */
function processesNaming(text: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)) pids.push(Number(pid));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

describe('the isolated daemons', () => {
  it('once a run ends, no daemon of its files is left running and every temporary home is deleted', async () => {
    const root = mkdtempSync(join(tmpdir(), 'svc-scenario-ended-'));
    try {
      const files = ['scenarios/22-faults-retry.yaml', 'scenarios/13-idempotency.yaml', `${FIX}/failed-status.yaml`];
      const res = await scenario([...files, '--jobs', '2', '--json'], { env: { TMPDIR: root } });
      expect(res.json.scenarios.map((s: any) => s.outcome)).toEqual(['passed', 'passed', 'failed']);
      expect(readdirSync(root)).toEqual([]);
      expect(processesNaming(`--home\0${root}/`)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('the daemons started while later files are read are stopped when one of those is invalid', async () => {
    // the first two files are valid, so their daemons start at once; the third is not, so no step runs
    const root = mkdtempSync(join(tmpdir(), 'svc-scenario-invalid-'));
    try {
      const files = ['scenarios/22-faults-retry.yaml', 'scenarios/13-idempotency.yaml', `${FIX}/unknown-kind.yaml`];
      const res = await scenario([...files, '--jobs', '2', '--json'], { env: { TMPDIR: root } });
      expect(res.code).toBe(2);
      expect(res.json.scenarios).toEqual([]);
      expect(res.json.invalid[0].file).toBe(`${FIX}/unknown-kind.yaml`);
      expect(readdirSync(root)).toEqual([]);
      expect(processesNaming(`--home\0${root}/`)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("Ctrl-C stops the running scenario's daemon and removes its temporary home", async () => {
    const root = mkdtempSync(join(tmpdir(), 'svc-scenario-sigint-'));
    try {
      const child = spawn(process.execPath, [SVC, 'scenario', 'run', `${FIX}/slow.yaml`], {
        env: { ...process.env, TMPDIR: root, NO_COLOR: '1', CI: '1' },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await vi.waitFor(() => expect(out).toContain('✓  1'), { timeout: 20_000, interval: 25 });
      const homes = readdirSync(root).filter((n) => n.startsWith('svc-scenario-'));
      expect(homes).toHaveLength(1);
      const pid = JSON.parse(readFileSync(join(root, homes[0], 'daemon.json'), 'utf8')).pid as number;
      expect(alive(pid)).toBe(true);
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 10_000, interval: 20 });
      expect(readdirSync(root).filter((n) => n.startsWith('svc-scenario-'))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('--junit', () => {
  it('writes well-formed JUnit XML: a testsuite per file, a testcase per step, failures, errors and skips marked', async () => {
    const out = join(tmp, 'junit.xml');
    const res = await scenario([
      `${FIX}/failed-status.yaml`,
      `${FIX}/missing-capture.yaml`,
      'scenarios/01-onboarding.yaml',
      '--junit',
      out,
      '--timings',
    ]);
    expect(res.code).toBe(1);
    const xml = readFileSync(out, 'utf8');
    assertWellFormedXml(xml);
    expect(xml.match(/<testsuite /g)).toHaveLength(3);
    expect(xml).toMatch(/<testsuites name="svc scenarios" tests="\d+" failures="1" errors="1" skipped="2"/);
    expect(xml).toContain(
      '<testsuite name="failed status" file="test/scenario/fixtures/failed-status.yaml" tests="3" failures="1" ' +
        'errors="0" skipped="1"',
    );
    expect(xml).toMatch(
      new RegExp(
        '<testcase name="02 quote: control quote" classname="failed status" file="[^"]+" line="8" ' +
          String.raw`time="[\d.]+">\s*<failure type="AssertionFailed" ` +
          'message="status: expected 200, got 422 PRICE_OFF_TICK">',
      ),
    );
    expect(xml).toMatch(
      /<testcase name="03 advance minutes 1"[^>]*><skipped message="an earlier step failed"\/><\/testcase>/,
    );
    expect(xml).toContain('<testcase name="02 investor: GET /v1/investors/${clock.investor_id}"');
    expect(xml).toContain(
      '<testcase name="02 front: PUT /v1/kyc/applications/${application.application_id}/documents/national_id_front"',
    );
    expect(xml).toMatch(
      /<error type="StepError" message="\$\{clock.investor_id\}: the response of step &quot;clock&quot;/,
    );
    expect(xml).toMatch(
      new RegExp(
        String.raw`<testsuite name="Onboarding happy path" file="scenarios\/01-onboarding.yaml" tests="9" ` +
          'failures="0" errors="0" skipped="0"',
      ),
    );
  });

  it('an invalid file still gives CI a report', async () => {
    const out = join(tmp, 'invalid.xml');
    const res = await scenario([`${FIX}/unknown-kind.yaml`, '--junit', out]);
    expect(res.code).toBe(2);
    const xml = readFileSync(out, 'utf8');
    assertWellFormedXml(xml);
    expect(xml).toContain('<error type="InvalidScenario" message="unknown step kind &quot;reqest&quot;');
  });
});

describe('--against a running sandbox', () => {
  let sbx: CliSandbox;
  beforeAll(async () => {
    sbx = await startSandbox(['--seed', '9']);
  });
  afterAll(async () => sbx?.stop());

  const state = async () => (await sbx.svc(['api', 'GET', '/admin/sandbox/state'])).json;

  it('an invalid file changes nothing in the running sandbox, even with --reset', async () => {
    await sbx.svc(['clock', 'advance', '--minutes', '7']);
    const before = await state();
    const res = await sbx.svc([
      'scenario',
      'run',
      `${FIX}/unknown-kind.yaml`,
      '--against',
      sbx.info.base_url,
      '--reset',
    ]);
    expect(res.code).toBe(2);
    expect(await state()).toEqual(before);
  });

  it("--reset resets it to the file's seed and start, then runs the steps with the profile's credentials", async () => {
    const res = await sbx.svc([
      'scenario',
      'run',
      'scenarios/01-onboarding.yaml',
      '--against',
      sbx.info.base_url,
      '--reset',
      '--json',
    ]);
    expect(res.code, res.stdout).toBe(0);
    expect(res.json.scenarios[0].counts).toEqual({ passed: 9, failed: 0, error: 0, skipped: 0 });
    const after = await state();
    expect(after).toMatchObject({ seed: 42, start: '2026-11-22T09:00:00+02:00' });
    // without --reset the state is used as it is: the same person cannot be onboarded twice
    const again = await sbx.svc(['scenario', 'run', 'scenarios/01-onboarding.yaml', '--against', sbx.info.base_url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("the files' seed, start and clock apply only with --reset");
    expect(again.stdout).toContain('DUPLICATE_NATIONAL_ID');
  });

  it('an unreachable --against URL: exit 3 with the URL, and nothing runs', async () => {
    const res = await runSvc(['scenario', 'run', `${FIX}/failed-status.yaml`, '--against', 'http://127.0.0.1:9']);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('no sandbox answers at http://127.0.0.1:9 (GET /healthz)');
    expect(res.stdout).toBe('');
    const json = await runSvc([
      'scenario',
      'run',
      `${FIX}/failed-status.yaml`,
      '--against',
      'http://127.0.0.1:9',
      '--json',
    ]);
    expect(json.code).toBe(3);
    expect(json.json).toMatchObject({ ok: false, error: expect.stringContaining('http://127.0.0.1:9') });
  });

  it('--reset without --against and a URL that is not http are usage errors', async () => {
    expect((await scenario([`${FIX}/failed-status.yaml`, '--reset'])).code).toBe(2);
    const bad = await scenario([`${FIX}/failed-status.yaml`, '--against', 'ftp://x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--against ftp://x is not an http(s) URL');
  });
});
