// `${...}` references and field paths. A reference is `${env.VAR}`, `${step.status}`,
// `${step.headers.name}`, `${step.body}`, `${step.body.a.b}` or, shorter, `${step.a.b}` (the response
// body's field). Paths use dots and [n] for list items: `orders[0].order_id` = `orders.0.order_id`.
// `$${` writes a literal `${`.

export type Segment = string | number;

export interface Ref {
  /** The text between `${` and `}`. */
  expr: string;
  start: number;
  end: number;
}

export class ExprSyntaxError extends Error {}

/** Splits `a.b[0].c` into ['a', 'b', 0, 'c']. */
export function parsePath(path: string): Segment[] {
  const out: Segment[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let last = 0;
  let m: RegExpExecArray | null;
  const src = path.trim();
  if (src === '') throw new ExprSyntaxError('an empty path');
  while ((m = re.exec(src)) !== null) {
    const between = src.slice(last, m.index);
    if (between !== '' && between !== '.') throw new ExprSyntaxError(`"${path}" is not a path (use a.b[0].c)`);
    if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    last = re.lastIndex;
  }
  if (last !== src.length || out.length === 0) throw new ExprSyntaxError(`"${path}" is not a path (use a.b[0].c)`);
  return out;
}

export function formatPath(segments: Segment[]): string {
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** The `${...}` references of a string, in order. */
export function findRefs(text: string): Ref[] {
  const refs: Ref[] = [];
  let i = 0;
  while (i < text.length) {
    const at = text.indexOf('${', i);
    if (at < 0) break;
    if (at > 0 && text[at - 1] === '$') {
      i = at + 2;
      continue;
    }
    const close = text.indexOf('}', at + 2);
    if (close < 0) throw new ExprSyntaxError(`unterminated \${ in "${text}"`);
    const expr = text.slice(at + 2, close).trim();
    if (expr === '') throw new ExprSyntaxError(`empty \${} in "${text}"`);
    refs.push({ expr, start: at, end: close + 1 });
    i = close + 1;
  }
  return refs;
}

export interface Lookup {
  found: boolean;
  value: unknown;
  /** When not found: how far the path went, and what was there. */
  missingAt?: Segment[];
  available?: string[];
}

/** Follows a path into a JSON value; numeric segments index lists, `length` of a list is its length. */
export function lookup(root: unknown, path: Segment[]): Lookup {
  let cur: unknown = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (Array.isArray(cur)) {
      if (seg === 'length') {
        cur = cur.length;
        continue;
      }
      const idx = typeof seg === 'number' ? seg : NaN;
      if (!(idx >= 0 && idx < cur.length))
        return {
          found: false,
          value: undefined,
          missingAt: path.slice(0, i + 1),
          available: [`a list of ${cur.length}`],
        };
      cur = cur[idx];
    } else if (cur !== null && typeof cur === 'object') {
      const key = String(seg);
      if (!Object.hasOwn(cur, key))
        return { found: false, value: undefined, missingAt: path.slice(0, i + 1), available: Object.keys(cur) };
      cur = (cur as Record<string, unknown>)[key];
    } else {
      return {
        found: false,
        value: undefined,
        missingAt: path.slice(0, i + 1),
        available: [cur === null ? 'null' : `a ${typeof cur}`],
      };
    }
  }
  return { found: true, value: cur };
}

/**
 * Replaces the references in a value (deeply: strings of lists and mappings; keys stay as written).
 * A string that is exactly one reference takes the referenced value with its type (a number stays a
 * number); otherwise the values are written into the text (objects as JSON).
 */
export function interpolate(value: unknown, resolve: (expr: string) => unknown): unknown {
  if (typeof value === 'string') return interpolateString(value, resolve);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, resolve));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolate(v, resolve);
    return out;
  }
  return value;
}

function interpolateString(text: string, resolve: (expr: string) => unknown): unknown {
  const refs = findRefs(text);
  if (refs.length === 0) return text.replace(/\$\$\{/g, '${');
  if (refs.length === 1 && refs[0].start === 0 && refs[0].end === text.length) return resolve(refs[0].expr);
  let out = '';
  let last = 0;
  for (const r of refs) {
    out += text.slice(last, r.start).replace(/\$\$\{/g, '${');
    const v = resolve(r.expr);
    out += typeof v === 'string' ? v : JSON.stringify(v);
    last = r.end;
  }
  return out + text.slice(last).replace(/\$\$\{/g, '${');
}
