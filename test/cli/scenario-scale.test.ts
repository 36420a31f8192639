// Scenario files that scale, through the real `svc scenario run`: shared step files (include:), with
// cycles and mistakes inside an included file reported at that file's line and column; generated
// unique values that let one file re-run against the same sandbox; wait_until on a frozen clock failing
// at once with the advance: it needs; a JUnit report that counts an invalid file; and a failed body
// comparison naming the first field that differs.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNationalId } from '../../daemon/contract/kyc.js';
import { uniqueNationalId, uniqueValue } from '../../cli/scenario/unique.js';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';

const scenario = (args: string[], opts: { timeoutMs?: number } = {}) => runSvc(['scenario', 'run', ...args], opts);

const HEADER = 'seed: 7\nstart: 2026-11-22T09:00:00+02:00\n';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-scenario-scale-'));
  mkdirSync(join(dir, 'shared'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('include: a shared file of steps', () => {
  it('runs the included steps in place, numbered with the rest, each reported at its own file and line', async () => {
    const res = await scenario(['scenarios/17-shared-prelude.yaml', '--json']);
    expect(res.code, res.stdout.slice(0, 3000)).toBe(0);
    const steps = res.json.scenarios[0].steps;
    expect(steps.map((s: any) => s.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(steps[0]).toMatchObject({
      name: 'application',
      file: 'scenarios/shared/funded-investor.yaml',
      line: 11,
      status: 201,
    });
    expect(steps[5]).toMatchObject({
      kind: 'wait_until',
      file: 'scenarios/shared/funded-investor.yaml',
      outcome: 'passed',
    });
    // the including file's own steps carry no file: the scenario's
    expect(steps[6].file).toBeUndefined();
    expect(steps[6].line).toBe(19);
  });

  it('a step after the include refers to a step named in the included file', async () => {
    write('shared/clock.yaml', '- name: first\n  request: { method: GET, path: /v1/clock }\n');
    const file = write(
      'uses-shared.yaml',
      `name: uses shared\n${HEADER}steps:\n  - include: shared/clock.yaml\n  - request: { method: GET, path: ` +
        `/v1/clock }\n    expect: { fields: { timestamp: "\${first.timestamp}" } }\n`,
    );
    const res = await scenario([file, '--json']);
    expect(res.code, res.stderr + res.stdout).toBe(0);
    expect(res.json.scenarios[0].steps.map((s: any) => [s.index, s.file ?? 'own', s.line])).toEqual([
      [1, join(dir, 'shared/clock.yaml'), 1],
      [2, 'own', 6],
    ]);
  });

  it('an include cycle is refused before anything runs, at the include that closes it', async () => {
    const a = write(
      'cycle-a.yaml',
      `name: cycle\n${HEADER}steps:\n  - request: { method: GET, path: /v1/clock }\n  - include: shared/cycle-b.yaml\n`,
    );
    write('shared/cycle-b.yaml', '- request: { method: GET, path: /v1/clock }\n- include: ../cycle-a.yaml\n');
    const res = await scenario([a]);
    expect(res.code).toBe(2);
    const b = join(dir, 'shared/cycle-b.yaml');
    expect(res.stderr).toContain(`${b}:2:3: include cycle: ${a} -> ${b} -> ${a}`);
    expect(res.stdout).toBe('');
  });

  it("a mistake inside an included file is reported at that file's line and column, with the step's number in the scenario", async () => {
    write(
      'shared/typo.yaml',
      'steps:\n  - request: { method: GET, path: /v1/clock }\n  - name: typo\n    reqest: { method: GET, path: ' +
        '/v1/clock }\n',
    );
    const file = write(
      'includes-typo.yaml',
      `name: includes a typo\n${HEADER}steps:\n  - request: { method: GET, path: /v1/clock }\n  - include: ` +
        `shared/typo.yaml\n  - include: shared/missing.yaml\n`,
    );
    const res = await scenario([file, '--json']);
    expect(res.code).toBe(2);
    const typo = join(dir, 'shared/typo.yaml');
    expect(res.stderr).toContain(`${typo}:4:5: step 3 (typo): unknown step kind "reqest"`);
    expect(res.stderr).toContain(
      `${file}:7:5: include shared/missing.yaml: no such file (${join(dir, 'shared/missing.yaml')})`,
    );
    expect(res.json.invalid).toContainEqual(
      expect.objectContaining({ file: typo, scenario: file, line: 4, col: 5, step: { index: 3, name: 'typo' } }),
    );
  });
});

describe('${unique...} values', () => {
  it('a national id the daemon accepts, with its birth date; the same name gives the same value, another nonce another value', () => {
    for (let i = 0; i < 2000; i++) {
      const { nationalId, dateOfBirth } = uniqueNationalId(`n${i}`, '');
      const check = checkNationalId(nationalId);
      expect(check.ok && check.birthDate, nationalId).toBe(dateOfBirth);
      expect(nationalId.slice(-4)).not.toMatch(/^(0000|9999)$/);
    }
    expect(uniqueValue('a', 'national_id', 'mona')).toBe(uniqueValue('a', 'national_id', 'mona'));
    expect(uniqueValue('a', 'national_id', 'mona')).not.toBe(uniqueValue('a', 'national_id', 'omar'));
    expect(uniqueValue('a', 'key', '')).not.toBe(uniqueValue('b', 'key', ''));
    expect(uniqueValue('a', 'phone', '')).toMatch(/^010\d{8}$/);
  });

  it('an unknown kind is refused before anything runs', async () => {
    const file = write(
      'bad-unique.yaml',
      `name: bad unique\n${HEADER}steps:\n  - request: { method: GET, path: "/v1/x/\${unique.passport}" }\n`,
    );
    const res = await scenario([file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `${file}:5:29: step 1: request.path: \${unique.passport}: unknown kind "passport"; one of national_id, ` +
        `date_of_birth, phone, email, key`,
    );
  });

  it('an isolated run is reproducible: two runs, the same report bytes', async () => {
    // the two runs at once: each isolated run has a daemon and a home of its own
    const [first, second] = await Promise.all([
      scenario(['scenarios/17-shared-prelude.yaml', '--json']),
      scenario(['scenarios/17-shared-prelude.yaml', '--json']),
    ]);
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
  });

  describe('--against one sandbox', () => {
    let sbx: CliSandbox;
    beforeAll(async () => {
      sbx = await startSandbox(['--seed', '42', '--start', '2026-11-22T09:00:00+02:00']);
    });
    afterAll(async () => sbx?.stop());

    it('the same file onboards a new person on each run: both runs pass (a fixed national id is DUPLICATE_NATIONAL_ID the second time)', async () => {
      const run = () =>
        sbx.svc(['scenario', 'run', 'scenarios/17-shared-prelude.yaml', '--against', sbx.info.base_url, '--json']);
      const first = await run();
      expect(first.code, first.stdout.slice(0, 3000)).toBe(0);
      const second = await run();
      expect(second.code, second.stdout.slice(0, 3000)).toBe(0);
      expect(second.json.scenarios[0].counts).toEqual({ passed: 12, failed: 0, error: 0, skipped: 0 });
      // two investors, not one replayed: the second run's application is another one
      expect(second.json.scenarios[0].steps[1].path).not.toBe(first.json.scenarios[0].steps[1].path);
    });
  });
});

describe('wait_until on a frozen clock', () => {
  it('without advance: fails at the first unmet poll, naming advance:, instead of waiting out max_tries', async () => {
    const file = write(
      'frozen-wait.yaml',
      `name: frozen wait\n${HEADER}clock: frozen\nsteps:\n  - name: open\n    wait_until:\n      request: { ` +
        `method: GET, path: /v1/clock }\n      fields: { is_open: true }\n      max_tries: 10\n      ` +
        `interval_ms: 3000\n`,
    );
    const t0 = Date.now();
    const res = await scenario([file, '--json']);
    const elapsed = Date.now() - t0;
    expect(res.code).toBe(1);
    const step = res.json.scenarios[0].steps[0];
    expect(step).toMatchObject({ name: 'open', outcome: 'error', tries: 1, status: 200 });
    expect(step.error).toContain('the sandbox clock is frozen');
    expect(step.error).toContain('add advance: to wait_until');
    expect(step.response.is_open).toBe(false);
    expect(elapsed).toBeLessThan(20_000); // 10 tries 3 s apart would take 27 s
    const human = await scenario([file]);
    expect(human.stdout).toContain('add advance: to wait_until (e.g. advance: { minutes: 1 })');
  });
});

describe('--junit', () => {
  it('one testsuite per file and totals that count an invalid file as one error (the valid files, not run, as skipped)', async () => {
    const valid = write(
      'valid.yaml',
      `name: valid\n${HEADER}steps:\n  - request: { method: GET, path: /v1/clock }\n  - advance: { minutes: 1 }\n`,
    );
    const invalid = write(
      'invalid.yaml',
      `name: invalid\n${HEADER}steps:\n  - reqest: { method: GET, path: /v1/clock }\n  - advance: { minutes: -1 }\n`,
    );
    const out = join(dir, 'junit.xml');
    const res = await scenario([valid, invalid, '--junit', out]);
    expect(res.code).toBe(2);
    const xml = readFileSync(out, 'utf8');
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml).toContain('<testsuites name="svc scenarios" tests="3" failures="0" errors="1" skipped="2"');
    expect(xml).toContain(
      `<testsuite name="${invalid}" file="${invalid}" tests="1" failures="0" errors="1" skipped="0"`,
    );
    expect(xml).toMatch(
      /<error type="InvalidScenario" message="unknown step kind &quot;reqest&quot;[^"]*\(and 1 more\)">/,
    );
    expect(xml).toContain(`<testsuite name="valid" file="${valid}" tests="2" failures="0" errors="0" skipped="2"`);
    expect(xml).toContain('<skipped message="not run: another scenario file is invalid"/>');
  });

  it('an --against sandbox that does not answer is one error, and the files that did not run are skipped suites', async () => {
    const valid = write(
      'valid-unreachable.yaml',
      `name: valid\n${HEADER}steps:\n  - request: { method: GET, path: /v1/clock }\n`,
    );
    const out = join(dir, 'junit-unreachable.xml');
    const res = await scenario([valid, '--against', 'http://127.0.0.1:9', '--junit', out]);
    expect(res.code).toBe(3);
    const xml = readFileSync(out, 'utf8');
    expect(xml).toContain('<testsuites name="svc scenarios" tests="2" failures="0" errors="1" skipped="1"');
    expect(xml).toMatch(
      new RegExp(
        String.raw`<testcase name="GET \/healthz" classname="http:\/\/127.0.0.1:9" time="0.000">` +
          String.raw`\s*<error type="SandboxUnreachable"`,
      ),
    );
    expect(xml).toContain('<skipped message="not run: the sandbox does not answer"/>');
  });

  it("a run's totals are the sums of its suites, and an included step's testcase names its file", async () => {
    const out = join(dir, 'junit-run.xml');
    const res = await scenario(['scenarios/17-shared-prelude.yaml', '--junit', out]);
    expect(res.code).toBe(0);
    const xml = readFileSync(out, 'utf8');
    expect(xml).toContain('<testsuites name="svc scenarios" tests="12" failures="0" errors="0" skipped="0"');
    expect(xml).toContain(
      '<testcase name="01 application: POST /v1/kyc/applications" classname="Shared prelude and unique values" ' +
        'file="scenarios/shared/funded-investor.yaml" line="11"',
    );
  });
});

describe('expected bodies', () => {
  it('a body that differs names the first differing field with the expected and actual values', async () => {
    const file = write(
      'body-diff.yaml',
      [
        `name: body diff\n${HEADER}steps:`,
        '  - name: first\n    request: { method: GET, path: /v1/clock }',
        '  - name: second\n    request: { method: GET, path: /v1/clock }',
        '    expect:\n      body: { eq: { timestamp: "${first.timestamp}", is_open: true, next_open: ' +
          '"${first.next_open}", next_close: "${first.next_close}" } }',
        '',
      ].join('\n'),
    );
    const res = await scenario([file, '--json', '--keep-going']);
    expect(res.code).toBe(1);
    const [, second] = res.json.scenarios[0].steps;
    expect(second.failures).toEqual([{ check: 'body.is_open', expected: 'true', actual: 'false' }]);
    const human = await scenario([file]);
    expect(human.stdout).toContain('body.is_open: expected true, got false');
  });

  it('a key the answer lacks, or one it has and the expectation does not, is the difference', async () => {
    const file = write(
      'body-keys.yaml',
      [
        `name: body keys\n${HEADER}steps:`,
        '  - name: first\n    request: { method: GET, path: /v1/clock }',
        '  - request: { method: GET, path: /v1/clock }',
        '    expect:\n      body: { eq: { timestamp: "${first.timestamp}", is_open: false, next_open: ' +
          '"${first.next_open}" } }',
        '  - request: { method: GET, path: /v1/clock }',
        '    expect:\n      body: { eq: { timestamp: "${first.timestamp}", is_open: false, next_open: ' +
          '"${first.next_open}", next_close: "${first.next_close}", mode: frozen } }',
        '',
      ].join('\n'),
    );
    const res = await scenario([file, '--json', '--keep-going']);
    const [, extra, missing] = res.json.scenarios[0].steps;
    expect(extra.failures).toEqual([
      { check: 'body.next_close', expected: '(absent)', actual: '"2026-11-22T14:30:00+02:00"' },
    ]);
    expect(missing.failures).toEqual([{ check: 'body.mode', expected: '"frozen"', actual: '(absent)' }]);
  });
});
