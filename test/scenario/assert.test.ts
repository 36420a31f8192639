// Unit tests of the scenario format's pieces: matchers, paths and references, and the loader's
// messages (file:line:col, step) without starting any daemon.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { check, describeMatcher, matches } from '../../cli/scenario/assert.js';
import { findRefs, interpolate, lookup, parsePath } from '../../cli/scenario/expr.js';
import { formatIssue, loadScenario, ScenarioInvalid } from '../../cli/scenario/load.js';

describe('matchers', () => {
  it('a scalar, null or list compares deeply equal; a mapping is operators, all of which must hold', () => {
    expect(matches('completed', 'completed')).toBe(true);
    expect(matches(1, '1')).toBe(false);
    expect(matches(null, null)).toBe(true);
    expect(matches(undefined, null)).toBe(false);
    expect(matches([1, { a: 2 }], [1, { a: 2 }])).toBe(true);
    expect(matches([1, 2], [2, 1])).toBe(false);
    expect(matches({ a: 1, b: 2 }, { eq: { b: 2, a: 1 } })).toBe(true);
    expect(matches({ a: 1, b: 2 }, { eq: { a: 1 } })).toBe(false);
    expect(matches(5, { gte: 1, lte: 5 })).toBe(true);
    expect(matches(6, { gte: 1, lte: 5 })).toBe(false);
    expect(matches(5, { gt: 5 })).toBe(false);
    expect(matches(4, { lt: 5, ne: 3 })).toBe(true);
    expect(matches('5', { gt: 1 })).toBe(false); // no coercion
  });

  it('comparisons of two timestamps compare instants, whatever the offsets', () => {
    expect(matches('2026-11-22T10:00:00+02:00', { gte: '2026-11-22T08:00:00Z' })).toBe(true);
    expect(matches('2026-11-22T10:00:00+02:00', { gt: '2026-11-22T08:00:00Z' })).toBe(false);
    expect(matches('abc', { gt: 'abb' })).toBe(false);
  });

  it('exists means present and not null; matches, one_of and length', () => {
    expect(matches(null, { exists: true })).toBe(false);
    expect(matches(null, { exists: false })).toBe(true);
    expect(matches(undefined, { exists: false })).toBe(true);
    expect(matches(0, { exists: true })).toBe(true);
    expect(matches('ord_123', { matches: '^ord_' })).toBe(true);
    expect(matches(123, { matches: '^12' })).toBe(true);
    expect(matches({}, { matches: '.' })).toBe(false);
    expect(matches('b', { one_of: ['a', 'b'] })).toBe(true);
    expect(matches('c', { one_of: ['a', 'b'] })).toBe(false);
    expect(matches([1, 2, 3], { length: 3 })).toBe(true);
    expect(matches('abc', { length: { gte: 2 } })).toBe(true);
    expect(matches({ a: 1 }, { length: 1 })).toBe(true);
    expect(matches(7, { length: 1 })).toBe(false);
  });

  it('describes matchers the way reports show them', () => {
    expect(describeMatcher('x')).toBe('"x"');
    expect(describeMatcher({ gte: 1, lt: 10 })).toBe('>= 1 and < 10');
    expect(describeMatcher({ exists: true })).toBe('present (not null)');
    expect(describeMatcher({ length: { gt: 0 } })).toBe('length > 0');
    expect(describeMatcher({ one_of: ['a', 'b'] })).toBe('one of ["a","b"]');
  });

  it('check: a status or an error code, 2xx by default, then body, fields and headers', () => {
    const ok = { status: 201, headers: { 'idempotent-replayed': 'true' }, body: { state: 'x', n: 2 } };
    expect(check(ok, undefined)).toEqual([]);
    expect(
      check(ok, {
        status: [200, 201],
        fields: { state: 'x', n: { gt: 1 } },
        headers: { 'Idempotent-Replayed': 'true' },
        body: { eq: { state: 'x', n: 2 } },
      }),
    ).toEqual([]);
    const err = { status: 422, headers: {}, body: { error: { code: 'NOPE', message: '' } } };
    expect(check(err, undefined)).toEqual([{ check: 'status', expected: '2xx', actual: '422 NOPE' }]);
    expect(check(err, { error: 'NOPE' })).toEqual([]);
    expect(check(err, { error: 'OTHER' })).toEqual([{ check: 'error', expected: 'OTHER', actual: 'NOPE' }]);
    expect(check(ok, { error: 'OTHER' })).toEqual([
      { check: 'error', expected: 'OTHER', actual: '(no error; HTTP 201)' },
    ]);
    // a wrong status skips the field checks (the body has another shape)
    expect(check(err, { status: 201, fields: { state: 'x' } })).toEqual([
      { check: 'status', expected: '201', actual: '422 NOPE' },
    ]);
    expect(check(ok, { fields: { 'missing.deeper': 1 } })).toEqual([
      { check: 'fields.missing.deeper', expected: '1', actual: '(absent)' },
    ]);
  });
});

describe('paths and references', () => {
  it('paths use dots and [n]; numeric segments index lists; length of a list', () => {
    expect(parsePath('a.b[0].c')).toEqual(['a', 'b', 0, 'c']);
    expect(parsePath('orders.0.order_id')).toEqual(['orders', 0, 'order_id']);
    expect(() => parsePath('a..b')).toThrow(/not a path/);
    expect(lookup({ a: [{ b: 1 }] }, ['a', 0, 'b'])).toEqual({ found: true, value: 1 });
    expect(lookup({ a: [1, 2] }, ['a', 'length'])).toEqual({ found: true, value: 2 });
    expect(lookup({ a: { x: 1 } }, ['a', 'y'])).toMatchObject({
      found: false,
      missingAt: ['a', 'y'],
      available: ['x'],
    });
  });

  it('a whole-string reference keeps its type; embedded ones are written in; $${ escapes', () => {
    const values: Record<string, unknown> = { 'a.n': 5, 'a.s': 'x', 'a.o': { k: 1 } };
    const resolve = (e: string) => values[e];
    expect(interpolate('${a.n}', resolve)).toBe(5);
    expect(interpolate('n=${a.n}/${a.s}', resolve)).toBe('n=5/x');
    expect(interpolate({ deep: ['${a.o}', 'o=${a.o}'] }, resolve)).toEqual({ deep: [{ k: 1 }, 'o={"k":1}'] });
    expect(interpolate('cost $${a.n}', resolve)).toBe('cost ${a.n}');
    expect(findRefs('$${x} ${y}').map((r) => r.expr)).toEqual(['y']);
    expect(() => findRefs('${open')).toThrow(/unterminated/);
  });
});

describe('the loader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-scenario-load-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  };
  const issues = (f: string) => {
    try {
      loadScenario(f, { processEnv: {} });
    } catch (err) {
      if (err instanceof ScenarioInvalid) return err.issues.map(formatIssue);
      throw err;
    }
    return [];
  };

  it('loads a valid file: defaults, merge keys, 1-based steps with their lines, body files resolved', () => {
    const f = write(
      'ok.yaml',
      [
        'name: ok',
        'seed: 1',
        'start: 2026-11-22T09:00:00+02:00',
        'steps:',
        '  - name: a',
        '    request: { method: get, path: /v1/clock, body: &b { x: 1, y: 2 } }',
        '  - request: { method: POST, path: /v1/x, body: { <<: *b, y: 3 } }',
        '  - advance: next_open',
        '  - request: { method: PUT, path: /v1/y, body_file: fixtures/documents/national_id_front.png }',
      ].join('\n'),
    );
    const sc = loadScenario(f, { processEnv: {} });
    expect(sc.header.clock).toBe('frozen');
    expect(sc.steps.map((s) => [s.index, s.line, s.step.kind])).toEqual([
      [1, 5, 'request'],
      [2, 7, 'request'],
      [3, 8, 'advance'],
      [4, 9, 'request'],
    ]);
    expect(sc.steps[0].step).toMatchObject({ request: { method: 'GET' } });
    expect(sc.steps[1].step).toMatchObject({ request: { body: { x: 1, y: 3 } } });
    expect(sc.steps[2].step).toMatchObject({ advance: { until: 'next_open' } });
    expect(sc.steps[3].bodyFile).toMatch(/fixtures\/documents\/national_id_front\.png$/);
  });

  it('names the line of the offending key, and the step by number and name', () => {
    const f = write(
      'bad.yaml',
      [
        'name: bad',
        'seed: 1',
        'start: 2026-11-22T09:00:00+02:00',
        'steps:',
        '  - name: first',
        '    request:',
        '      method: GET',
        '      path: /v1/clock',
        '    expect:',
        '      status: 99',
        '  - name: second',
        '    advance: { minutes: 1 }',
        '    request: { method: GET, path: /v1/clock }',
        '  - wait_until:',
        '      request: { method: GET, path: /v1/clock }',
        '  - request: { method: GET, path: /x, body_file: no/such/file.png }',
        '  - 42',
      ].join('\n'),
    );
    expect(issues(f)).toEqual([
      `${f}:10:7: step 1 (first): expect.status: Too small: expected number to be >=100`,
      `${f}:13:5: step 2 (second): a step has exactly one kind; this one has advance and request`,
      `${f}:14:5: step 3: wait_until: wait_until needs fields (or a status) to wait for`,
      `${f}:16:39: step 4: body_file no/such/file.png: no such file next to the scenario, in the working ` +
        `directory or in the svc checkout`,
      `${f}:17:5: step 5: a step is a mapping with one of request, advance, control, wait_until`,
    ]);
  });

  it('a file that cannot be read, one that is not a mapping, one without steps', () => {
    expect(issues(join(dir, 'absent.yaml'))).toEqual([`${join(dir, 'absent.yaml')}: cannot read the file (ENOENT)`]);
    expect(issues(write('scalar.yaml', 'hello\n'))[0]).toContain(':1:1: a scenario file is a YAML mapping');
    expect(issues(write('nosteps.yaml', 'name: x\nseed: 1\nstart: 2026-11-22T09:00:00+02:00\nsteps: []\n'))).toEqual([
      `${join(dir, 'nosteps.yaml')}:4:1: steps: a scenario needs at least one step`,
    ]);
  });
});
