// Resource methods made from a route table: each entry [verb, path, shape] becomes a function whose
// arguments are the path parameters in order, then the body or query, then the call options.
import type { CallOptions } from './http.js';
import type { MethodOf, OkOf, Op, Paths, RequestInput, Verb, VerbsOf } from './typed.js';

export type RouteEntry = readonly [Verb, keyof Paths & string, 'b' | 'q' | '-'];
export type RouteTable = Record<string, Record<string, RouteEntry>>;

export type Resources<T extends RouteTable> = {
  [R in keyof T]: { [M in keyof T[R]]: MethodOf<T[R][M][1], T[R][M][0]> };
};

export type Query = Record<string, string | number | boolean | readonly (string | number | boolean)[] | undefined>;

/** What a resource method hands to the client. */
export interface RouteCall {
  method: Verb;
  template: string;
  path: string;
  body?: unknown;
  options: CallOptions;
}

/** The path with its parameters filled in and encoded, and the query appended. */
export function fillPath(
  template: string,
  params: readonly unknown[] | Record<string, unknown>,
  query?: unknown,
): string {
  if (!template.includes('{')) return template + queryString(query);
  let i = 0;
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = Array.isArray(params) ? params[i++] : (params as Record<string, unknown>)[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`${template}: missing ${name}`);
    return encodeURIComponent(String(value));
  });
  return path + queryString(query);
}

export function queryString(query: unknown): string {
  if (query === undefined || query === null) return '';
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(query as Query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) q.append(name, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

const NO_OPTIONS: CallOptions = Object.freeze({});
const NO_PARAMS: readonly unknown[] = Object.freeze([]);

/** The resource objects of a route table, each method calling `send`. */
export function buildResources<T extends RouteTable>(table: T, send: (c: RouteCall) => Promise<unknown>): Resources<T> {
  const out: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const [resource, methods] of Object.entries(table)) {
    out[resource] = {};
    for (const [name, [method, template, shape]] of Object.entries(methods)) {
      const n = (template.match(/\{/g) ?? []).length;
      out[resource][name] = (...args: unknown[]) => {
        const extra = shape === '-' ? undefined : args[n];
        const options = (args[shape === '-' ? n : n + 1] ?? NO_OPTIONS) as CallOptions;
        const path = fillPath(template, n === 0 ? NO_PARAMS : args.slice(0, n), shape === 'q' ? extra : undefined);
        return send({ method, template, path, body: shape === 'b' ? extra : undefined, options });
      };
    }
  }
  return out as Resources<T>;
}

/** Sends a call of any route with the realm's credentials, signing and retries. */
export interface Requester {
  request<P extends keyof Paths & string, M extends VerbsOf<P>>(
    method: M,
    path: P,
    input?: RequestInput<Op<P, M>>,
  ): Promise<OkOf<Op<P, M>>>;
}

/** The generic request() of a sub-client: fills the path and query, then `send`s. */
export function requester(send: (c: RouteCall) => Promise<unknown>): Requester['request'] {
  return <P extends keyof Paths & string, M extends VerbsOf<P>>(method: M, path: P, input?: RequestInput<Op<P, M>>) => {
    const {
      path: params,
      query,
      body,
      ...options
    } = (input ?? {}) as {
      path?: Record<string, unknown>;
      query?: unknown;
      body?: unknown;
    } & CallOptions;
    const full = fillPath(path, params ?? {}, query);
    return send({ method: method as Verb, template: path, path: full, body, options }) as Promise<OkOf<Op<P, M>>>;
  };
}
