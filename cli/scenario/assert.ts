// Assertions of a step's `expect` (and the condition of a wait_until): status, error code, fields of
// the response body and headers, each field against a matcher (docs/scenarios.md).
import { formatPath, lookup, parsePath, type Segment } from './expr.js';
import type { Expect, Matcher, OperatorMatcher } from './schema.js';

export interface Failure {
  /** What was checked: `status`, `error`, `fields.<path>`, `headers.<name>`. */
  check: string;
  expected: string;
  actual: string;
}

export interface Observed {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every(
        (k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
      )
    );
  }
  return false;
}

/** Numbers compare as numbers; two timestamps (strings that parse as instants) compare as instants. */
function compare(actual: unknown, bound: number | string): number | null {
  if (typeof actual === 'number' && typeof bound === 'number') return actual - bound;
  if (typeof actual === 'string' && typeof bound === 'string') {
    const a = Date.parse(actual);
    const b = Date.parse(bound);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return a - b;
  }
  return null;
}

export function isOperatorMatcher(m: Matcher): m is OperatorMatcher {
  return m !== null && typeof m === 'object' && !Array.isArray(m);
}

/** How a matcher reads in a report: `"completed"`, `>= 1`, `matches /^ord_/`, `one of ["a","b"]`. */
export function describeMatcher(m: Matcher): string {
  if (!isOperatorMatcher(m)) return show(m);
  const parts: string[] = [];
  if ('eq' in m) parts.push(show(m.eq));
  if ('ne' in m) parts.push(`not ${show(m.ne)}`);
  if (m.gt !== undefined) parts.push(`> ${show(m.gt)}`);
  if (m.gte !== undefined) parts.push(`>= ${show(m.gte)}`);
  if (m.lt !== undefined) parts.push(`< ${show(m.lt)}`);
  if (m.lte !== undefined) parts.push(`<= ${show(m.lte)}`);
  if (m.exists !== undefined) parts.push(m.exists ? 'present (not null)' : 'absent or null');
  if (m.matches !== undefined) parts.push(`matches /${m.matches}/`);
  if (m.one_of !== undefined) parts.push(`one of ${show(m.one_of)}`);
  if (m.length !== undefined)
    parts.push(`length ${typeof m.length === 'number' ? m.length : describeMatcher(m.length)}`);
  return parts.join(' and ');
}

/** Whether `actual` (undefined = absent) satisfies the matcher. */
export function matches(actual: unknown, m: Matcher): boolean {
  if (!isOperatorMatcher(m)) return deepEqual(actual, m);
  if ('eq' in m && !deepEqual(actual, m.eq)) return false;
  if ('ne' in m && deepEqual(actual, m.ne)) return false;
  for (const [op, ok] of [
    ['gt', (d: number) => d > 0],
    ['gte', (d: number) => d >= 0],
    ['lt', (d: number) => d < 0],
    ['lte', (d: number) => d <= 0],
  ] as const) {
    const bound = m[op];
    if (bound === undefined) continue;
    const d = compare(actual, bound);
    if (d === null || !ok(d)) return false;
  }
  if (m.exists !== undefined && (actual !== undefined && actual !== null) !== m.exists) return false;
  if (m.matches !== undefined) {
    if (typeof actual !== 'string' && typeof actual !== 'number') return false;
    if (!new RegExp(m.matches).test(String(actual))) return false;
  }
  if (m.one_of !== undefined && !m.one_of.some((v) => deepEqual(actual, v))) return false;
  if (m.length !== undefined) {
    const len =
      typeof actual === 'string' || Array.isArray(actual)
        ? actual.length
        : actual !== null && typeof actual === 'object'
          ? Object.keys(actual).length
          : undefined;
    if (len === undefined) return false;
    if (!matches(len, m.length)) return false;
  }
  return true;
}

/** The value a matcher compares for equality (a literal, or a mapping of only eq), or undefined when it is not an
 * equality. */
function equalityTarget(m: Matcher): { value: unknown } | undefined {
  if (!isOperatorMatcher(m)) return { value: m };
  const keys = Object.keys(m);
  return keys.length === 1 && keys[0] === 'eq' ? { value: m.eq } : undefined;
}

export interface Difference {
  path: Segment[];
  expected: unknown;
  actual: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Where two JSON values first differ: depth first, the expected keys in their order, then keys only the actual value
 * has; undefined when equal. */
export function firstDifference(expected: unknown, actual: unknown, path: Segment[] = []): Difference | undefined {
  if (deepEqual(expected, actual)) return undefined;
  if (isPlainObject(expected) && isPlainObject(actual)) {
    for (const [k, v] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, k)) return { path: [...path, k], expected: v, actual: undefined };
      const d = firstDifference(v, actual[k], [...path, k]);
      if (d) return d;
    }
    const extra = Object.keys(actual).find((k) => !Object.hasOwn(expected, k))!;
    return { path: [...path, extra], expected: undefined, actual: actual[extra] };
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const d = firstDifference(expected[i], actual[i], [...path, i]);
      if (d) return d;
    }
  }
  return { path, expected, actual };
}

/** `body` + `fees.total_micros` = `body.fees.total_micros`; `fields.orders` + [0] = `fields.orders[0]`. */
function joinCheck(prefix: string, path: Segment[]): string {
  if (path.length === 0) return prefix;
  const rest = formatPath(path);
  return typeof path[0] === 'number' ? `${prefix}${rest}` : `${prefix}.${rest}`;
}

/**
 * A failed equality of two objects or lists names the first field that differs (`body.fees.total_micros:
 * expected 5051000, got 5051001`); any other failed matcher shows the matcher and the whole value.
 */
function mismatch(check: string, m: Matcher, actual: unknown): Failure {
  const eq = equalityTarget(m);
  const d =
    eq && typeof eq.value === 'object' && eq.value !== null && typeof actual === 'object' && actual !== null
      ? firstDifference(eq.value, actual)
      : undefined;
  if (d && d.path.length > 0)
    return { check: joinCheck(check, d.path), expected: show(d.expected), actual: show(d.actual) };
  return { check, expected: describeMatcher(m), actual: show(actual) };
}

function fieldValue(body: unknown, path: string): unknown {
  const found = lookup(body, parsePath(path));
  return found.found ? found.value : undefined;
}

function headerValue(headers: Observed['headers'], name: string): unknown {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

export function checkFields(body: unknown, fields: Record<string, Matcher>, prefix = 'fields'): Failure[] {
  const out: Failure[] = [];
  for (const [path, m] of Object.entries(fields)) {
    const actual = fieldValue(body, path);
    if (!matches(actual, m)) out.push(mismatch(`${prefix}.${path}`, m, actual));
  }
  return out;
}

/**
 * The failures of `expect` against a response; with no status and no error given, the status must be
 * 2xx. When the status or the error code is wrong, the body, field and header checks are not run.
 */
export function check(res: Observed, expect: Expect | undefined): Failure[] {
  const out: Failure[] = [];
  const errorCode = (res.body as { error?: { code?: unknown } } | null)?.error?.code;
  if (expect?.status !== undefined) {
    const allowed = Array.isArray(expect.status) ? expect.status : [expect.status];
    if (!allowed.includes(res.status))
      out.push({
        check: 'status',
        expected: allowed.join(' or '),
        actual: String(res.status) + (errorCode ? ` ${String(errorCode)}` : ''),
      });
  } else if (expect?.error === undefined && (res.status < 200 || res.status > 299)) {
    out.push({
      check: 'status',
      expected: '2xx',
      actual: String(res.status) + (errorCode ? ` ${String(errorCode)}` : ''),
    });
  }
  if (expect?.error !== undefined && errorCode !== expect.error) {
    out.push({
      check: 'error',
      expected: expect.error,
      actual: errorCode === undefined ? `(no error; HTTP ${res.status})` : String(errorCode),
    });
  }
  // a wrong status means a body of another shape: its field checks would only repeat the news
  if (out.length > 0) return out;
  if (expect && 'body' in expect && expect.body !== undefined && !matches(res.body, expect.body)) {
    out.push(mismatch('body', expect.body, res.body));
  }
  if (expect?.fields) out.push(...checkFields(res.body, expect.fields));
  if (expect?.headers) {
    for (const [name, m] of Object.entries(expect.headers)) {
      const actual = headerValue(res.headers, name);
      if (!matches(actual, m))
        out.push({ check: `headers.${name.toLowerCase()}`, expected: describeMatcher(m), actual: show(actual) });
    }
  }
  return out;
}
