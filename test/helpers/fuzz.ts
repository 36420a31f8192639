// Hostile-input fuzzing driven by GET /openapi.json (issue 7, "Hostile input"). Every operation of the
// document gets fast-check arbitraries derived from its parameter and request-body JSON Schemas: a
// mostly valid request (values harvested from real responses, so ids resolve) with one mutation
// applied — wrong types, huge and fractional numbers, unicode, very long strings, oversized bodies,
// wrong content types, missing and duplicated headers, malformed JSON, arrays for objects, path
// traversal and encoded slashes, bad query strings, wrong methods. Requests carry valid credentials
// for the route's realm (and a valid signature over the exact bytes for S routes) unless the mutation
// is about credentials, so they reach validation and the handlers.
//
// Every answer is checked: no 5xx; a 4xx has exactly the spec's error body with a registered code;
// a refused request changes no table (the audit log included). The one write a refusal may make is the
// idempotency record of a business refusal on an I or S route (stored and replayed like a success,
// docs/api.md), and then only that one row, holding that response — never for a request refused by
// authentication or validation.
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import type { Db } from '../../daemon/store/db.js';
import type { Statement } from 'better-sqlite3';
import { ERROR_CODES, isErrorCode } from '../../daemon/contract/errors.js';
import { sign } from '../../daemon/contract/signing.js';
import { OPERATOR_ROLES } from '../../daemon/tenancy/keys.js';
import type { TestApp } from './app.js';
import { injectSettled } from './inject-settled.js';

// ---------------------------------------------------------------------------------------------------
// The OpenAPI document

export type JsonSchema = { [k: string]: any };
export type TenantMode = 'B' | 'I' | 'S';
export type OpAuth =
  | { kind: 'none' }
  | { kind: 'tenant'; mode: TenantMode }
  | { kind: 'operator'; realm: 'admin' | 'console'; grant: string };

export interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** "POST /v1/orders/{id}" */
  key: string;
  method: string;
  /** OpenAPI path template, e.g. /v1/orders/{id} */
  path: string;
  auth: OpAuth;
  pathParams: Param[];
  queryParams: Param[];
  /** The JSON request body schema (its $refs resolve against itself). */
  jsonBody?: JsonSchema;
  /** Non-JSON request body media types (uploads). */
  rawBodyTypes: string[];
  /** Methods the same path does not define (for wrong-method requests). */
  otherMethods: string[];
}

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export function authOf(op: JsonSchema): OpAuth {
  const sec = op.security?.[0] as Record<string, unknown> | undefined;
  if (!sec || Object.keys(sec).length === 0) return { kind: 'none' };
  if ('adminKey' in sec || 'consoleKey' in sec) {
    if (typeof op['x-grant'] !== 'string') throw new Error(`operator route without x-grant: ${op.operationId}`);
    return { kind: 'operator', realm: 'adminKey' in sec ? 'admin' : 'console', grant: op['x-grant'] };
  }
  if ('bearer' in sec) return { kind: 'tenant', mode: 'signature' in sec ? 'S' : 'idempotencyKey' in sec ? 'I' : 'B' };
  throw new Error(`unknown security requirement ${JSON.stringify(sec)} on ${op.operationId}`);
}

/** The document's named schemas referenced as `#/$defs/Name`, so a body schema resolves against itself. */
function localRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(localRefs);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' ? v.replace(/^#\/components\/schemas\//, '#/$defs/') : localRefs(v),
    ]),
  );
}

function selfContained(schema: JsonSchema | undefined, doc: JsonSchema): JsonSchema | undefined {
  if (!schema) return schema;
  const defs = localRefs(doc.components?.schemas ?? {}) as JsonSchema;
  return { ...(localRefs(schema) as JsonSchema), $defs: defs };
}

export function operationsOf(doc: JsonSchema): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<JsonSchema>(doc.paths)) {
    const defined = Object.keys(item).map((m) => m.toUpperCase());
    for (const [m, op] of Object.entries<JsonSchema>(item)) {
      // the browser console's own calls (a passkey ceremony and a session cookie) are not the API's
      if ((op.tags as string[] | undefined)?.includes('console')) continue;
      const method = m.toUpperCase();
      const params = (op.parameters ?? []) as Param[];
      const content = (op.requestBody?.content ?? {}) as Record<string, { schema: JsonSchema }>;
      ops.push({
        key: `${method} ${path}`,
        method,
        path,
        auth: authOf(op),
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        jsonBody: selfContained(content['application/json']?.schema, doc),
        rawBodyTypes: Object.keys(content).filter((c) => c !== 'application/json'),
        otherMethods: METHODS.filter((x) => !defined.includes(x)),
      });
    }
  }
  return ops;
}

export async function loadOpenApi(t: TestApp): Promise<JsonSchema> {
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /openapi.json: ${res.statusCode}`);
  return JSON.parse(res.body);
}

export async function loadOperations(t: TestApp): Promise<Operation[]> {
  return operationsOf(await loadOpenApi(t));
}

/** Fills a path template; values are inserted as given (encode them first). */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => values[name] ?? 'x');
}

// ---------------------------------------------------------------------------------------------------
// Credentials

export type Creds = { api_key: string; signing_secret: string };

/** The operator roles (daemon/tenancy/keys.ts) of a realm that hold a grant. */
export function rolesHolding(realm: 'admin' | 'console', grant: string): string[] {
  return Object.entries(OPERATOR_ROLES)
    .filter(([, r]) => r.realm === realm && (r.grants as readonly string[]).includes(grant))
    .map(([name]) => name);
}

export function operatorKey(t: TestApp, role: string): string {
  const key = (t.creds.operators as Record<string, string>)[`${role}_key`];
  if (!key) throw new Error(`no bootstrap key for operator role ${role}`);
  return key;
}

export function realmHeader(realm: 'admin' | 'console'): string {
  return realm === 'admin' ? 'x-admin-key' : 'x-console-key';
}

/** Valid credentials for the operation's realm (an operator identity holding its grant). */
export function credentialHeaders(t: TestApp, auth: OpAuth, tenant: Creds = t.creds.tenant): Record<string, string> {
  if (auth.kind === 'tenant') return { authorization: `Bearer ${tenant.api_key}` };
  if (auth.kind === 'operator') {
    const [role] = rolesHolding(auth.realm, auth.grant);
    if (!role) throw new Error(`no operator role holds the grant ${auth.grant} in realm ${auth.realm}`);
    return { [realmHeader(auth.realm)]: operatorKey(t, role) };
  }
  return {};
}

// Node keeps the first of these when a header is repeated and joins the others with ", "
// (http.IncomingMessage#headers); send() hands inject the value Node would present.
const SINGLE_VALUE_HEADERS = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** What the server sees for a header sent once per value. */
export function seenHeader(name: string, value: string | string[]): string {
  if (!Array.isArray(value)) return value;
  return SINGLE_VALUE_HEADERS.has(name) ? value[0] : value.join(', ');
}

/** What the server sees as req.url (light-my-request and fetch resolve the URL the same way). */
export function normalizeUrl(url: string): string {
  const u = new URL(url.startsWith('//') ? `http://localhost${url}` : url, 'http://localhost');
  return u.pathname + u.search;
}

// ---------------------------------------------------------------------------------------------------
// Values seen in real requests and responses, by field name: ids that resolve, symbols, valid fields.

export class Pools {
  private readonly byKey = new Map<string, Set<unknown>>();
  private static readonly ID_KEY = /^(id|.*_id|symbol|market_id|fund_code|.*_code)$/;
  private static readonly CAP = 40;

  private add(key: string, v: unknown): void {
    let set = this.byKey.get(key);
    if (!set) this.byKey.set(key, (set = new Set()));
    if (set.size < Pools.CAP) set.add(v);
  }

  /** Identifier-like string fields of a response (ids, symbols, codes), at any depth. */
  harvest(value: unknown, key?: string): void {
    if (Array.isArray(value)) for (const v of value) this.harvest(v, key);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) this.harvest(v, k);
    else if (typeof value === 'string' && key && Pools.ID_KEY.test(key) && value.length <= 64) this.add(key, value);
  }

  /** Every leaf value of a valid request body, by field name (valid values to mutate from). */
  example(value: unknown, key?: string): void {
    if (Array.isArray(value)) {
      if (key) this.add(key, value);
    } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) this.example(v, k);
    else if (key && value !== undefined) this.add(key, value);
  }

  /** Known values for a field: its own name; for an id-like name seen nowhere, every id seen. */
  for(name: string): unknown[] {
    const own = [...(this.byKey.get(name) ?? [])];
    return own.length || !(name === 'id' || name.endsWith('_id')) ? own : this.ids();
  }

  /** Every id seen (any kind, any tenant). */
  ids(): string[] {
    const out: string[] = [];
    for (const [k, set] of this.byKey)
      if ((k === 'id' || k.endsWith('_id')) && k !== 'request_id')
        for (const v of set) if (typeof v === 'string') out.push(v);
    return out;
  }

  strings(name: string): string[] {
    return this.for(name).filter((v): v is string => typeof v === 'string');
  }
}

// ---------------------------------------------------------------------------------------------------
// Arbitraries: valid values from a schema, hostile values, request mutations.

function resolve(s: JsonSchema | undefined, root: JsonSchema): JsonSchema {
  let cur = s ?? {};
  for (let i = 0; i < 20 && typeof cur.$ref === 'string'; i++) {
    const m = /^#\/\$defs\/(.+)$/.exec(cur.$ref);
    cur = (m && root.$defs?.[m[1]]) || {};
  }
  return cur;
}

function dateArb(): fc.Arbitrary<string> {
  return fc
    .date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
}

function stringArb(s: JsonSchema, name: string, pools: Pools): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const maxLen = s.maxLength ?? Infinity;
  const fits = (v: string) => v.length >= min && v.length <= maxLen;
  const known = pools.strings(name).filter(fits);
  const anyId = name === 'id' || name.endsWith('_id') ? pools.ids().filter(fits) : [];
  let gen: fc.Arbitrary<string>;
  if (s.format === 'date') gen = dateArb();
  else if (s.format === 'date-time')
    gen = fc
      .date({ min: new Date('2024-01-01'), max: new Date('2027-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString());
  else if (typeof s.pattern === 'string') {
    try {
      gen = fc.stringMatching(new RegExp(s.pattern)).filter(fits);
    } catch {
      gen = fc.string({ minLength: min, maxLength: Math.max(min, Math.min(maxLen, 24)) });
    }
  } else gen = fc.string({ minLength: min, maxLength: Math.max(min, Math.min(maxLen, 24)) });
  const arbs = [{ arbitrary: gen, weight: 1 }];
  if (known.length) arbs.push({ arbitrary: fc.constantFrom(...known), weight: 4 });
  if (anyId.length) arbs.push({ arbitrary: fc.constantFrom(...anyId), weight: 1 });
  return fc.oneof(...arbs);
}

function bounds(s: JsonSchema, integer: boolean): { lo: number; hi: number } {
  const step = integer ? 1 : 0;
  let lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + step : 0);
  let hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - step : lo + 1_000_000);
  if (!integer && s.exclusiveMinimum !== undefined && s.minimum === undefined) lo = s.exclusiveMinimum;
  lo = Math.max(lo, -Number.MAX_SAFE_INTEGER);
  hi = Math.min(hi, Number.MAX_SAFE_INTEGER);
  if (hi < lo) hi = lo;
  return { lo, hi };
}

function intArb(s: JsonSchema, name: string, pools: Pools): fc.Arbitrary<number> {
  const { lo, hi } = bounds(s, true);
  const known = pools
    .for(name)
    .filter((v): v is number => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi);
  const arbs: Array<fc.Arbitrary<number>> = [
    fc.integer({ min: lo, max: Math.min(hi, lo + 1000) }),
    fc.integer({ min: lo, max: hi }),
    fc.constantFrom(lo, hi),
  ];
  if (known.length) arbs.push(fc.constantFrom(...known), fc.constantFrom(...known));
  return fc.oneof(...arbs);
}

function numberArb(s: JsonSchema): fc.Arbitrary<number> {
  const { lo, hi } = bounds(s, false);
  const top = Math.min(hi, lo + 100);
  return fc.oneof(
    fc.integer({ min: Math.ceil(lo), max: Math.floor(top) }).filter((n) => n > lo || s.exclusiveMinimum === undefined),
    fc.double({
      min: lo,
      max: top,
      minExcluded: s.exclusiveMinimum !== undefined,
      noNaN: true,
      noDefaultInfinity: true,
    }),
  );
}

/** Mostly valid values for a schema; field names pick known values (ids that resolve, valid examples). */
export function validArb(
  schema: JsonSchema | undefined,
  root: JsonSchema,
  name: string,
  pools: Pools,
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = resolve(schema, root);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  const alts = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (alts?.length) return fc.oneof(...alts.map((a) => validArb(a, root, name, pools, depth + 1)));
  if (s.allOf?.length) return validArb(s.allOf[0], root, name, pools, depth + 1);
  const type = Array.isArray(s.type)
    ? (s.type.find((x: string) => x !== 'null') ?? 'null')
    : (s.type ?? (s.properties ? 'object' : undefined));
  switch (type) {
    case 'string':
      return stringArb(s, name, pools);
    case 'integer':
      return intArb(s, name, pools);
    case 'number':
      return numberArb(s);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const known = pools.for(name).filter(Array.isArray);
      const items = validArb(s.items, root, name, pools, depth + 1);
      const min = s.minItems ?? 0;
      const max = Math.max(min, Math.min(s.maxItems ?? 4, 4));
      const gen = s.uniqueItems
        ? fc.uniqueArray(items, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength: min, maxLength: max });
      return known.length ? fc.oneof(fc.constantFrom(...known), gen) : gen;
    }
    case 'object': {
      if (depth > 6) return fc.constant({});
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = validArb(v, root, k, pools, depth + 1);
      const required = ((s.required ?? []) as string[]).filter((k) => k in model);
      return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<unknown>;
    }
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: 0, max: 100 }), fc.boolean());
  }
}

export const HOSTILE_NUMBERS = [
  1e308,
  -1e308,
  2 ** 63,
  -(2 ** 63),
  2 ** 64,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  5e-324,
  -0,
  0,
  -1,
  -1_000_000,
  0.5,
  1.5,
  -0.5,
  1e-7,
  0.1 + 0.2,
  999_999_999_999.999,
  70_000_000_000.5,
  1_000_000_001,
  4_294_967_296,
];

export const HOSTILE_STRINGS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '1e400',
  '9223372036854775808',
  '-9223372036854775809',
  '-0',
  '0x10',
  '0b11',
  '1_000',
  '1,000',
  '١٢٣',
  '１２３',
  ' 1',
  '1 ',
  '',
  ' ',
  '\t',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '0',
  '-1',
  '1.5',
  '../../etc/passwd',
  '..\\..\\windows',
  '..%2F..%2F',
  '%00',
  '\u0000',
  'a\u0000b',
  '\u202egnp.exe',
  '\u200f\u200e',
  'منى حسن',
  '😀',
  '👩‍👩‍👧‍👦',
  '\ud800',
  '\udfff',
  'a\ud800b',
  '\udc00\ud800',
  '\ufeff',
  '\ufffe',
  'Z̷̢̛a̸l̵g̶o̶',
  'ﷺ',
  '\u0085',
  '\u2028\u2029',
  "' OR 1=1 --",
  '"; DROP TABLE orders; --',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'inv_',
  'inv_0000000000',
  'ord_zzzzzzzzzz',
  'kyc_',
  'req_x',
  '\r\nX-Injected: 1',
  'a'.repeat(65),
  'a'.repeat(257),
  'a'.repeat(10_000),
  '😀'.repeat(5_000),
  'ﷺ'.repeat(2_000),
  '\u0000'.repeat(1_000),
];

function deepArray(n: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

export const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  {},
  [],
  [1],
  ['a'],
  [{}],
  { $gt: '' },
  { id: 1 },
  { '': '' },
  deepArray(200),
];

/** Any value that should not be accepted where a well-typed one is expected. */
export function hostileValueArb(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...HOSTILE_NUMBERS), weight: 4 },
    { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
    { arbitrary: fc.constantFrom(...WRONG_TYPES), weight: 3 },
    { arbitrary: fc.double(), weight: 1 },
    { arbitrary: fc.integer({ min: -(2 ** 31), max: -1 }), weight: 1 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
  );
}

/** Hostile values shaped by the field: negative and fractional quantities and money for integers. */
function hostileForField(s: JsonSchema, valid: unknown): fc.Arbitrary<unknown> {
  const t = s.type;
  const alts: Array<fc.Arbitrary<unknown>> = [hostileValueArb()];
  if (t === 'integer' || t === 'number') {
    const base = typeof valid === 'number' ? valid : 1;
    alts.push(
      fc.constantFrom(
        base + 0.5,
        base - 0.001,
        -base,
        -Math.abs(base) - 1,
        base * 1e12,
        String(base),
        `${base}`.padStart(40, '0'),
      ),
    );
  }
  if (t === 'string' && typeof valid === 'string')
    alts.push(
      fc.constantFrom(`${valid}\u0000`, ` ${valid}`, valid.toUpperCase(), valid + 'x'.repeat(300), [valid], {
        value: valid,
      }),
    );
  if (Array.isArray(s.enum))
    alts.push(fc.constantFrom(...s.enum.map((e: unknown) => (typeof e === 'string' ? `${e.toUpperCase()} ` : e))));
  return fc.oneof(...alts);
}

const PATH_HOSTILE = [
  '..',
  '.',
  '../..',
  '../../admin/audit',
  '..%2F..%2Fadmin%2Faudit',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fadmin',
  '%252e%252e%252f',
  'a%2Fb',
  '%2F',
  '%5C..%5C',
  '..\\..\\',
  '%00',
  'a%00b',
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AE%C0%AE%C0%AF',
  '%FF%FE',
  ' ',
  '%20',
  'ٱ😀',
  '\u202e',
  'x'.repeat(101),
  'x'.repeat(2_000),
  '*',
  '?',
  '#',
  ';',
  'a;b=c',
  ':id',
  '{id}',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '%2e',
  '.%2e',
  '~',
  '$',
  '@',
  'a+b',
  'A'.repeat(64),
  'inv_0000000000',
  '\ud800',
];

const PATH_SUFFIXES = [
  '/',
  '//',
  '/..',
  '/.',
  '/%2F',
  '/%00',
  '.json',
  '/x',
  '?',
  '#frag',
  '/%2e%2e%2fadmin',
  ';x=1',
  `/${'y'.repeat(200)}`,
];

const CONTENT_TYPES_JSON_ROUTE = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'image/png',
  'image/jpeg',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json;charset="utf-8"',
  'APPLICATION/JSON',
  'application/jsonp',
  'application/vnd.api+json',
  'text/json',
  '*/*',
  ';',
  'application/json, text/plain',
  'application',
  '',
];

const CONTENT_TYPES_UPLOAD_ROUTE = [
  'application/json',
  'image/gif',
  'image/svg+xml',
  'image/png; charset=utf-8',
  'text/plain',
  'multipart/form-data; boundary=x',
  '',
];

/** `{id}` after `/orders` draws from the order_id values seen (`/investors/{id}` from investor_id...). */
export function pathParamKey(path: string, name: string, pools: Pools): string {
  if (name !== 'id') return name;
  const segs = path.split('/');
  const prev = segs[segs.indexOf('{id}') - 1] ?? '';
  const key = `${prev.replace(/ies$/, 'y').replace(/s$/, '')}_id`;
  return pools.strings(key).length ? key : name;
}

/** What a generated request looks like before it is sent (kept small: big payloads are described). */
export interface Spec {
  mutation: string;
  method?: string;
  params: Record<string, string>;
  /** How path parameter values are put in the path. */
  paramMode: 'encoded' | 'raw';
  pathSuffix?: string;
  query: Array<[string, string]>;
  rawQuery?: string;
  body:
    | { kind: 'none' }
    | { kind: 'json'; value: unknown }
    | { kind: 'text'; text: string }
    | { kind: 'bytes'; hex: string }
    | { kind: 'oversized'; shape: 'json' | 'garbage' | 'image'; bytes: number };
  /** null: send no Content-Type. */
  contentType?: string | null;
  header?: HeaderMutation;
}

export type HeaderMutation =
  | { kind: 'idempotency'; value: string | string[] | null }
  | {
      kind: 'auth';
      variant:
        | 'none'
        | 'garbage'
        | 'dup-garbage-first'
        | 'dup-valid-first'
        | 'lowercase-bearer'
        | 'spaces'
        | 'basic'
        | 'wrong-realm'
        | 'other-tenant'
        | 'operator-as-bearer';
    }
  | {
      kind: 'signature';
      variant:
        | 'none'
        | 'no-timestamp'
        | 'garbage'
        | 'stale'
        | 'future'
        | 'huge-ts'
        | 'negative-ts'
        | 'fractional-ts'
        | 'dup-with-garbage'
        | 'uppercase'
        | 'other-body'
        | 'key-swapped';
    }
  | { kind: 'extra'; headers: Record<string, string | string[]> };

function encodeSegment(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    // lone surrogates: send the (invalid) UTF-8 a careless client would
    return [...v].map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
  }
}

/** Raw insertion: ASCII stays as written (dots, slashes, percent signs); other characters are escaped. */
function rawSegment(v: string): string {
  return [...v].map((c) => (c.charCodeAt(0) < 0x80 ? c : encodeSegment(c))).join('');
}

function queryString(pairs: Array<[string, string]>): string {
  return pairs.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&');
}

export function stringify(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Object.is(v, -0)) return '-0';
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

function malformedJson(valid: unknown): fc.Arbitrary<Spec['body']> {
  const json = JSON.stringify(valid ?? {});
  const firstNumber = /(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/;
  const texts = [
    json.slice(0, Math.max(0, json.length - 1)),
    `${json}garbage`,
    `${json}}`,
    json + json,
    `[${json}`,
    "{'a':1}",
    '{"a":NaN}',
    '{"a":Infinity}',
    '{"a":undefined}',
    '{"a":1,}',
    '{,}',
    '{"a" 1}',
    `\ufeff${json}`,
    json.replace(firstNumber, '1e400'),
    json.replace(firstNumber, '-1e400'),
    json.replace(firstNumber, '-0'),
    json.replace(firstNumber, '9007199254740993'),
    json.replace(firstNumber, '1.0'),
    json.replace(firstNumber, '0.1e1'),
    json.replace(firstNumber, '1E2'),
    json.replace(firstNumber, '00012'),
    json.replace(/^\{/, '{"__proto__":{"polluted":1},'),
    json.replace(/^\{/, '{"constructor":{"prototype":{"x":1}},'),
    json.replace(/^\{"([^"]+)":/, '{"$1":"dup","$1":'),
    'null',
    '[]',
    '""',
    '"str"',
    '123',
    'true',
    '{}',
    `[${json}]`,
    ' ',
    '\u0000',
    `/* c */${json}`,
    `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
    '['.repeat(5_000),
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"a":"\\x41"}',
    '{"a":\'b\'}',
  ];
  return fc.oneof(
    fc.constantFrom(...texts).map((text): Spec['body'] => ({ kind: 'text', text })),
    fc
      .constantFrom(
        Buffer.concat([
          Buffer.from(json.slice(0, -2)),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
          Buffer.from(json.slice(-2)),
        ]).toString('hex'),
        Buffer.from(json, 'utf16le').toString('hex'),
        Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(json, 'utf16le')]).toString('hex'),
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('hex'),
      )
      .map((hex): Spec['body'] => ({ kind: 'bytes', hex })),
  );
}

const PNG_MAGIC = '89504e470d0a1a0a';
const JPEG_MAGIC = 'ffd8ffe0';

function uploadBodyArb(): fc.Arbitrary<Spec['body']> {
  return fc.oneof(
    fc
      .uint8Array({ minLength: 0, maxLength: 64 })
      .map((b): Spec['body'] => ({ kind: 'bytes', hex: PNG_MAGIC + Buffer.from(b).toString('hex') })),
    fc
      .uint8Array({ minLength: 0, maxLength: 64 })
      .map((b): Spec['body'] => ({ kind: 'bytes', hex: JPEG_MAGIC + Buffer.from(b).toString('hex') })),
  );
}

function hostileUploadBodyArb(): fc.Arbitrary<Spec['body']> {
  return fc.oneof(
    fc
      .uint8Array({ minLength: 0, maxLength: 64 })
      .map((b): Spec['body'] => ({ kind: 'bytes', hex: Buffer.from(b).toString('hex') })),
    fc.constantFrom<Spec['body']>(
      { kind: 'none' },
      { kind: 'bytes', hex: '' },
      { kind: 'bytes', hex: PNG_MAGIC.slice(0, 6) },
      { kind: 'bytes', hex: Buffer.from('GIF89a').toString('hex') },
      { kind: 'text', text: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
      { kind: 'text', text: '{"image":"iVBORw0KGgo="}' },
      { kind: 'oversized', shape: 'image', bytes: 512 * 1024 + 1 },
      { kind: 'oversized', shape: 'image', bytes: 2 * 1024 * 1024 },
    ),
  );
}

const SIGNATURE_VARIANTS = [
  'none',
  'no-timestamp',
  'garbage',
  'stale',
  'future',
  'huge-ts',
  'negative-ts',
  'fractional-ts',
  'dup-with-garbage',
  'uppercase',
  'other-body',
  'key-swapped',
] as const;
const AUTH_VARIANTS = [
  'none',
  'garbage',
  'dup-garbage-first',
  'dup-valid-first',
  'lowercase-bearer',
  'spaces',
  'basic',
  'wrong-realm',
  'other-tenant',
  'operator-as-bearer',
] as const;

/** Every request shape the fuzzer sends to one operation. */
export function specArb(op: Operation, pools: Pools): fc.Arbitrary<Spec> {
  const root = op.jsonBody ?? {};
  const paramArbs: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of op.pathParams)
    paramArbs[p.name] = validArb(p.schema, {}, pathParamKey(op.path, p.name, pools), pools);
  const queryModel: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of op.queryParams) queryModel[p.name] = validArb(p.schema, {}, p.name, pools);
  const requiredQuery = op.queryParams.filter((p) => p.required).map((p) => p.name);

  const validBody: fc.Arbitrary<Spec['body']> = op.jsonBody
    ? validArb(op.jsonBody, root, '', pools).map((value): Spec['body'] => ({ kind: 'json', value }))
    : op.rawBodyTypes.length
      ? uploadBodyArb()
      : fc.constant<Spec['body']>({ kind: 'none' });

  const base = fc.record({
    params: fc.record(paramArbs).map((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, stringify(v)]))),
    query: fc
      .record(queryModel, { requiredKeys: requiredQuery })
      .map((o) => Object.entries(o).map(([k, v]): [string, string] => [k, stringify(v)])),
    body: validBody,
    contentType: fc.constant<string | undefined>(op.rawBodyTypes[0]),
  });

  const plain = (mutation: string) => base.map((b): Spec => ({ mutation, paramMode: 'encoded', ...b }));
  const mutations: Array<{ arbitrary: fc.Arbitrary<Spec>; weight: number }> = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<Spec>) => mutations.push({ weight, arbitrary });

  add(3, plain('none'));

  // Body: one field made hostile, a required field dropped, an unknown field added, the whole body replaced.
  if (op.jsonBody) {
    const props = Object.entries((resolve(op.jsonBody, root).properties ?? {}) as Record<string, JsonSchema>);
    const required = (resolve(op.jsonBody, root).required ?? []) as string[];
    if (props.length) {
      add(
        24,
        fc.tuple(base, fc.constantFrom(...props), fc.nat()).chain(([b, [name, ps], n]) =>
          hostileForField(resolve(ps, root), (b.body as { value?: Record<string, unknown> }).value?.[name]).map(
            (bad): Spec => {
              const value = { ...((b.body as { value?: Record<string, unknown> }).value ?? {}) };
              // a hostile value at the field, or one level down when the field is itself an object
              const inner = resolve(ps, root);
              if (inner.properties && n % 3 === 0 && value[name] && typeof value[name] === 'object') {
                const keys = Object.keys(inner.properties);
                value[name] = { ...(value[name] as object), [keys[n % keys.length]]: bad };
              } else value[name] = bad;
              return { mutation: `body.field:${name}`, paramMode: 'encoded', ...b, body: { kind: 'json', value } };
            },
          ),
        ),
      );
      add(
        4,
        fc.tuple(base, fc.constantFrom(...props.map(([k]) => k))).map(([b, name]): Spec => {
          const value = { ...((b.body as { value?: Record<string, unknown> }).value ?? {}) };
          delete value[name];
          return {
            mutation: required.includes(name) ? 'body.missing-required' : 'body.missing-optional',
            paramMode: 'encoded',
            ...b,
            body: { kind: 'json', value },
          };
        }),
      );
    }
    add(
      4,
      fc
        .tuple(
          base,
          fc.constantFrom('__proto__', 'constructor', 'extra', 'tenant_id', 'status', 'id', 'investor_id ', 'QTY', ''),
          hostileValueArb(),
        )
        .map(([b, k, v]): Spec => {
          const value = { ...((b.body as { value?: Record<string, unknown> }).value ?? {}) };
          Object.defineProperty(value, k, { value: v, enumerable: true, configurable: true, writable: true });
          return { mutation: 'body.unknown-field', paramMode: 'encoded', ...b, body: { kind: 'json', value } };
        }),
    );
    add(
      5,
      fc
        .tuple(
          base,
          fc.oneof(
            fc.constantFrom(...WRONG_TYPES),
            fc.constantFrom(...HOSTILE_NUMBERS),
            fc.constantFrom('', 'a', '{}'),
          ),
          fc.boolean(),
        )
        .map(
          ([b, v, wrap]): Spec => ({
            mutation: 'body.wrong-root',
            paramMode: 'encoded',
            ...b,
            body: { kind: 'json', value: wrap && b.body.kind === 'json' ? [b.body.value] : v },
          }),
        ),
    );
    add(
      8,
      base.chain((b) =>
        malformedJson(b.body.kind === 'json' ? b.body.value : {}).map(
          (body): Spec => ({ mutation: 'body.malformed', paramMode: 'encoded', ...b, body }),
        ),
      ),
    );
    add(
      1,
      fc
        .tuple(
          base,
          fc.constantFrom<'json' | 'garbage'>('json', 'garbage'),
          fc.integer({ min: 1024 * 1024 + 1, max: 1024 * 1024 + 4096 }),
        )
        .map(
          ([b, shape, bytes]): Spec => ({
            mutation: 'body.oversized',
            paramMode: 'encoded',
            ...b,
            body: { kind: 'oversized', shape, bytes },
          }),
        ),
    );
    add(
      1,
      base.map(
        (b): Spec => ({
          mutation: 'body.huge-field',
          paramMode: 'encoded',
          ...b,
          body: { kind: 'oversized', shape: 'json', bytes: 1024 * 1024 - 64 },
        }),
      ),
    );
    add(
      6,
      fc
        .tuple(base, fc.constantFrom<string | null>(...CONTENT_TYPES_JSON_ROUTE, null))
        .map(([b, ct]): Spec => ({ mutation: 'content-type', paramMode: 'encoded', ...b, contentType: ct })),
    );
    add(
      2,
      base.map(
        (b): Spec => ({
          mutation: 'body.none',
          paramMode: 'encoded',
          ...b,
          body: { kind: 'none' },
          contentType: 'application/json',
        }),
      ),
    );
  } else if (op.rawBodyTypes.length) {
    add(
      14,
      fc
        .tuple(base, hostileUploadBodyArb())
        .map(([b, body]): Spec => ({ mutation: 'upload.body', paramMode: 'encoded', ...b, body })),
    );
    add(
      8,
      fc
        .tuple(base, fc.constantFrom<string | null>(...CONTENT_TYPES_UPLOAD_ROUTE, null))
        .map(([b, ct]): Spec => ({ mutation: 'content-type', paramMode: 'encoded', ...b, contentType: ct })),
    );
    add(
      4,
      fc.tuple(base, fc.constantFrom(...WRONG_TYPES)).map(
        ([b, v]): Spec => ({
          mutation: 'upload.json',
          paramMode: 'encoded',
          ...b,
          body: { kind: 'json', value: v },
          contentType: 'application/json',
        }),
      ),
    );
  } else {
    // A body the route does not take: must be ignored or refused, never crash.
    add(
      4,
      fc.tuple(base, fc.oneof(fc.constantFrom(...WRONG_TYPES), hostileValueArb())).map(
        ([b, v]): Spec => ({
          mutation: 'body.unexpected',
          paramMode: 'encoded',
          ...b,
          body: { kind: 'json', value: v },
          contentType: 'application/json',
        }),
      ),
    );
    add(
      3,
      base.chain((b) =>
        malformedJson({ a: 1 }).map(
          (body): Spec => ({
            mutation: 'body.unexpected-malformed',
            paramMode: 'encoded',
            ...b,
            body,
            contentType: 'application/json',
          }),
        ),
      ),
    );
    add(
      1,
      base.map(
        (b): Spec => ({
          mutation: 'body.unexpected-oversized',
          paramMode: 'encoded',
          ...b,
          body: { kind: 'oversized', shape: 'garbage', bytes: 1024 * 1024 + 10 },
          contentType: 'text/plain',
        }),
      ),
    );
  }

  // Path parameters: traversal, encoded slashes, bad percent-encoding, unicode, very long values.
  if (op.pathParams.length) {
    add(
      12,
      fc
        .tuple(
          base,
          fc.constantFrom(...op.pathParams.map((p) => p.name)),
          fc.oneof(fc.constantFrom(...PATH_HOSTILE), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 })),
          fc.constantFrom<'encoded' | 'raw'>('encoded', 'raw'),
        )
        .map(
          ([b, name, v, mode]): Spec => ({
            mutation: `path.${mode}`,
            ...b,
            paramMode: mode,
            params: { ...b.params, [name]: v },
          }),
        ),
    );
    add(
      3,
      fc.tuple(base, fc.constantFrom(...op.pathParams.map((p) => p.name)), hostileValueArb()).map(
        ([b, name, v]): Spec => ({
          mutation: 'path.hostile-value',
          ...b,
          paramMode: 'encoded',
          params: { ...b.params, [name]: stringify(v) },
        }),
      ),
    );
  }
  add(
    3,
    fc
      .tuple(base, fc.constantFrom(...PATH_SUFFIXES))
      .map(([b, s]): Spec => ({ mutation: 'path.suffix', paramMode: 'encoded', ...b, pathSuffix: s })),
  );

  // Query strings.
  if (op.queryParams.length) {
    const names = op.queryParams.map((p) => p.name);
    add(
      10,
      fc.tuple(base, fc.constantFrom(...names), hostileValueArb()).map(
        ([b, name, v]): Spec => ({
          mutation: `query.value:${name}`,
          paramMode: 'encoded',
          ...b,
          query: [...b.query.filter(([k]) => k !== name), [name, stringify(v)]],
        }),
      ),
    );
    add(
      4,
      fc
        .tuple(
          base,
          fc.constantFrom(...names),
          fc.array(fc.oneof(fc.constantFrom('1', '2', '-1', 'x', ''), fc.string({ maxLength: 5 })), {
            minLength: 2,
            maxLength: 4,
          }),
        )
        .map(
          ([b, name, vs]): Spec => ({
            mutation: 'query.duplicate',
            paramMode: 'encoded',
            ...b,
            query: [...b.query.filter(([k]) => k !== name), ...vs.map((v): [string, string] => [name, v])],
          }),
        ),
    );
    add(
      3,
      fc.tuple(base, fc.constantFrom(...names)).map(
        ([b, name]): Spec => ({
          mutation: 'query.raw',
          paramMode: 'encoded',
          ...b,
          rawQuery: [
            `${name}[]=1`,
            `${name}[a]=1`,
            `${name}=%ZZ`,
            `${name}=`,
            `${name}`,
            '&&&',
            '=',
            `${name}=1&&${name}=2`,
            `${name}=%00`,
            `${name}=${'9'.repeat(400)}`,
            Array.from({ length: 500 }, (_, i) => `p${i}=1`).join('&'),
          ][b.query.length % 11],
        }),
      ),
    );
  }
  add(
    3,
    fc.tuple(base, fc.constantFrom('__proto__', 'constructor', 'x', 'tenant_id', 'limit', ''), hostileValueArb()).map(
      ([b, k, v]): Spec => ({
        mutation: 'query.unknown',
        paramMode: 'encoded',
        ...b,
        query: [...b.query, [k, stringify(v)]],
      }),
    ),
  );

  // Headers: idempotency keys, credentials, signatures, extras.
  if (op.auth.kind === 'tenant' && op.auth.mode !== 'B') {
    add(
      6,
      fc
        .tuple(
          base,
          fc.constantFrom<string | string[] | null>(
            null,
            '',
            ' ',
            'k'.repeat(256),
            'k'.repeat(255),
            'a\tb',
            'clé-\xe9',
            ['dup-a', 'dup-b'],
            ['', 'x'],
            '\u00ff'.repeat(10),
            '../../x',
            '%00',
          ),
        )
        .map(
          ([b, value]): Spec => ({
            mutation: 'header.idempotency-key',
            paramMode: 'encoded',
            ...b,
            header: { kind: 'idempotency', value },
          }),
        ),
    );
  }
  if (op.auth.kind !== 'none') {
    add(
      5,
      fc.tuple(base, fc.constantFrom(...AUTH_VARIANTS)).map(
        ([b, variant]): Spec => ({
          mutation: `header.auth:${variant}`,
          paramMode: 'encoded',
          ...b,
          header: { kind: 'auth', variant },
        }),
      ),
    );
  }
  if (op.auth.kind === 'tenant' && op.auth.mode === 'S') {
    add(
      6,
      fc.tuple(base, fc.constantFrom(...SIGNATURE_VARIANTS)).map(
        ([b, variant]): Spec => ({
          mutation: `header.signature:${variant}`,
          paramMode: 'encoded',
          ...b,
          header: { kind: 'signature', variant },
        }),
      ),
    );
  }
  add(
    2,
    fc
      .tuple(
        base,
        fc.constantFrom<Record<string, string | string[]>>(
          { 'x-http-method-override': 'DELETE' },
          { 'x-forwarded-for': '10.0.0.1, 127.0.0.1' },
          { 'content-encoding': 'gzip' },
          { 'transfer-encoding': 'identity' },
          { 'x-request-id': 'req_attacker' },
          { accept: 'application/xml' },
          { 'accept-charset': 'utf-16' },
          { 'x-svc-timestamp': ['1', '2'] },
          { host: 'evil.example' },
          { 'x-admin-key': 'ak_sbx_guess' },
          { 'x-tenant-id': 'tnt_other' },
          { 'user-agent': 'x'.repeat(8000) },
        ),
      )
      .map(
        ([b, headers]): Spec => ({
          mutation: 'header.extra',
          paramMode: 'encoded',
          ...b,
          header: { kind: 'extra', headers },
        }),
      ),
  );

  // A method the path does not define.
  if (op.otherMethods.length) {
    add(
      2,
      fc
        .tuple(base, fc.constantFrom(...op.otherMethods))
        .map(([b, method]): Spec => ({ mutation: 'method', paramMode: 'encoded', ...b, method })),
    );
  }

  return fc.oneof(...mutations);
}

// ---------------------------------------------------------------------------------------------------
// Building and sending

export interface Built {
  method: string;
  /** The URL as the server sees it (normalised like fetch and inject do). */
  url: string;
  headers: Record<string, string | string[]>;
  payload?: Buffer;
  /** The Idempotency-Key as the server sees it, if any. */
  idempotencyKey?: string;
  /** The tenant whose key was sent (for idempotency lookups). */
  tenantId?: string;
}

export interface FuzzEnv {
  t: TestApp;
  /** Credentials of another tenant (sent by the "other-tenant" mutation). */
  other: Creds & { tenant_id: string };
  /** Fixed wall clock of the app (signatures). */
  wallNow: () => number;
  nextKey: () => string;
}

function payloadOf(body: Spec['body']): Buffer | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'json':
      return Buffer.from(JSON.stringify(body.value) ?? 'null');
    case 'text':
      return Buffer.from(body.text);
    case 'bytes':
      return Buffer.from(body.hex, 'hex');
    case 'oversized': {
      if (body.shape === 'json') {
        const pad = Math.max(0, body.bytes - 12);
        return Buffer.from(`{"x":"${'a'.repeat(pad)}"}`);
      }
      if (body.shape === 'image')
        return Buffer.concat([Buffer.from(PNG_MAGIC, 'hex'), Buffer.alloc(body.bytes - 8, 7)]);
      return Buffer.alloc(body.bytes, 0x41);
    }
  }
}

export function build(env: FuzzEnv, op: Operation, spec: Spec): Built {
  const { t } = env;
  const method = spec.method ?? op.method;
  const seg = spec.paramMode === 'raw' ? rawSegment : encodeSegment;
  const params = Object.fromEntries(Object.entries(spec.params).map(([k, v]) => [k, v === '' ? '' : seg(v)]));
  let path = fillPath(op.path, params) + (spec.pathSuffix ?? '');
  const rawQuery = spec.rawQuery ?? queryString(spec.query);
  if (rawQuery) path += (path.includes('?') ? '&' : '?') + rawQuery;
  const url = normalizeUrl(path);
  const qi = url.indexOf('?');
  const urlPath = qi < 0 ? url : url.slice(0, qi);
  const urlQuery = qi < 0 ? '' : url.slice(qi + 1);

  const payload = payloadOf(spec.body);
  const headers: Record<string, string | string[]> = {};
  if (payload !== undefined || spec.contentType !== undefined) {
    const ct =
      spec.contentType === undefined
        ? (spec.body.kind === 'bytes' || spec.body.kind === 'oversized') && op.rawBodyTypes.length
          ? op.rawBodyTypes[0]
          : 'application/json'
        : spec.contentType;
    if (ct !== null) headers['content-type'] = ct;
  }

  let tenant: Creds = t.creds.tenant;
  let tenantId: string | undefined = op.auth.kind === 'tenant' ? t.creds.tenant.tenant_id : undefined;
  const h = spec.header;
  Object.assign(headers, credentialHeaders(t, op.auth));
  if (h?.kind === 'auth') {
    const realm = op.auth.kind === 'operator' ? realmHeader(op.auth.realm) : 'authorization';
    const valid = headers[realm] as string | undefined;
    const garbage =
      realm === 'authorization' ? 'Bearer sk_sbx_garbage000000000000000000000' : 'ak_sbx_garbage00000000000000000000';
    tenantId = undefined;
    switch (h.variant) {
      case 'none':
        delete headers[realm];
        break;
      case 'garbage':
        headers[realm] = garbage;
        break;
      case 'dup-garbage-first':
        headers[realm] = [garbage, valid ?? garbage];
        break;
      case 'dup-valid-first':
        headers[realm] = [valid ?? garbage, garbage];
        if (realm === 'authorization') tenantId = t.creds.tenant.tenant_id;
        break;
      case 'lowercase-bearer':
        if (valid) headers[realm] = valid.replace(/^Bearer /, 'bearer ');
        if (realm === 'authorization') tenantId = t.creds.tenant.tenant_id;
        break;
      case 'spaces':
        if (valid) headers[realm] = `${valid.replace(/^Bearer /, 'Bearer    ')}   `;
        if (realm === 'authorization') tenantId = t.creds.tenant.tenant_id;
        break;
      case 'basic':
        headers[realm] = `Basic ${Buffer.from(`x:${valid ?? ''}`).toString('base64')}`;
        break;
      case 'wrong-realm':
        delete headers[realm];
        if (realm === 'authorization') headers['x-admin-key'] = t.creds.operators.admin_key;
        else headers.authorization = `Bearer ${t.creds.tenant.api_key}`;
        break;
      case 'other-tenant':
        if (realm === 'authorization') {
          tenant = env.other;
          tenantId = env.other.tenant_id;
          headers.authorization = `Bearer ${env.other.api_key}`;
        } else
          headers[realm] =
            op.auth.kind === 'operator' && op.auth.realm === 'admin'
              ? t.creds.operators.dealer_key
              : t.creds.operators.admin_key;
        break;
      case 'operator-as-bearer':
        delete headers[realm];
        headers.authorization = `Bearer ${t.creds.operators.admin_key}`;
        break;
    }
  }

  let idempotencyKey: string | undefined;
  if (op.auth.kind === 'tenant' && op.auth.mode !== 'B') {
    headers['idempotency-key'] = env.nextKey();
    if (h?.kind === 'idempotency') {
      if (h.value === null) delete headers['idempotency-key'];
      else headers['idempotency-key'] = h.value;
    }
    if (headers['idempotency-key'] !== undefined)
      idempotencyKey = seenHeader('idempotency-key', headers['idempotency-key']);
  }

  if (op.auth.kind === 'tenant' && op.auth.mode === 'S') {
    const now = Math.floor(env.wallNow() / 1000);
    const v = h?.kind === 'signature' ? h.variant : undefined;
    const ts = v === 'stale' ? now - 301 : v === 'future' ? now + 301 : now;
    const key = v === 'key-swapped' ? 'not-the-sent-key' : (idempotencyKey ?? '');
    const signedBody =
      v === 'other-body' ? Buffer.concat([payload ?? Buffer.alloc(0), Buffer.from(' ')]) : (payload ?? '');
    const sig = sign(tenant.signing_secret, {
      timestamp: String(ts),
      method,
      path: urlPath,
      rawQuery: urlQuery,
      idempotencyKey: key,
      body: signedBody,
    });
    headers['x-svc-timestamp'] = String(ts);
    headers['x-svc-signature'] = sig;
    switch (v) {
      case 'none':
        delete headers['x-svc-signature'];
        break;
      case 'no-timestamp':
        delete headers['x-svc-timestamp'];
        break;
      case 'garbage':
        headers['x-svc-signature'] = `v1=zz${'0'.repeat(62)}`;
        break;
      case 'huge-ts':
        headers['x-svc-timestamp'] = '99999999999999999999';
        break;
      case 'negative-ts':
        headers['x-svc-timestamp'] = `-${String(now)}`;
        break;
      case 'fractional-ts':
        headers['x-svc-timestamp'] = `${now}.5`;
        break;
      case 'dup-with-garbage':
        headers['x-svc-signature'] = [sig, `v1=${'f'.repeat(64)}`];
        break;
      case 'uppercase':
        headers['x-svc-signature'] = sig.toUpperCase();
        break;
      default:
        break;
    }
  }
  if (h?.kind === 'extra') Object.assign(headers, h.headers);
  return { method, url, headers, payload, idempotencyKey, tenantId };
}

export interface Res {
  status: number;
  headers: Record<string, unknown>;
  text: string;
  body: any;
}

export async function send(t: TestApp, b: Built): Promise<Res> {
  // a repeated header reaches the app as Node's HTTP server presents it (whatever the inject library
  // version does with arrays)
  const headers = Object.fromEntries(Object.entries(b.headers).map(([k, v]) => [k, seenHeader(k.toLowerCase(), v)]));
  const res = await injectSettled(t.app, { method: b.method as 'GET', url: b.url, headers, payload: b.payload });
  let body: any;
  try {
    body = res.body.length ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text: res.body, body };
}

// ---------------------------------------------------------------------------------------------------
// Checks

/** 501 NOT_AVAILABLE is the documented answer of the assistant routes without a provider; no other 5xx. */
export function isServerFailure(res: Res): boolean {
  return res.status >= 500 && !(res.status === 501 && res.body?.error?.code === 'NOT_AVAILABLE');
}

/** Null when the response is an error in exactly the spec's shape; otherwise what is wrong. */
export function errorShapeProblem(res: Res): string | null {
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json'))
    return `content-type ${String(res.headers['content-type'])}`;
  const b = res.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return 'body is not a JSON object';
  const keys = Object.keys(b).sort().join(',');
  if (keys !== 'error,request_id') return `top-level keys ${keys}`;
  if (!b.error || typeof b.error !== 'object' || Object.keys(b.error).sort().join(',') !== 'code,message')
    return `error keys ${b.error && Object.keys(b.error)}`;
  const code: unknown = b.error.code;
  if (typeof code !== 'string' || !isErrorCode(code)) return `unregistered code ${String(code)}`;
  if (ERROR_CODES[code].status !== res.status)
    return `code ${code} is registered with ${ERROR_CODES[code].status}, sent with ${res.status}`;
  if (typeof b.error.message !== 'string' || b.error.message.length === 0) return 'empty message';
  if (typeof b.request_id !== 'string' || !/^req_[0-9a-z]+$/.test(b.request_id)) return `request_id ${b.request_id}`;
  return null;
}

/** Refusals decided before any handler runs: they must store nothing, not even an idempotency record. */
const PRE_HANDLER_CODES = new Set([
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'SIGNATURE_INVALID',
  'SIGNATURE_EXPIRED',
  'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_KEY_INVALID',
  'IDEMPOTENCY_KEY_REUSED',
  'MALFORMED_JSON',
  'UNSUPPORTED_CONTENT_TYPE',
  'PAYLOAD_TOO_LARGE',
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
]);

export function refusedBeforeHandler(res: Res): boolean {
  const code = res.body?.error?.code as string;
  const msg = String(res.body?.error?.message ?? '');
  return PRE_HANDLER_CODES.has(code) || /^(params|query|body|path)[.:]/.test(msg);
}

/**
 * Which tables a connection wrote, counted per table: a TEMP trigger after every INSERT, UPDATE and DELETE
 * of every table calls a function of this process that adds one to that table's count. The triggers live
 * in the connection's temp schema (not in svc.db, not in its sqlite_master) and write nothing, so
 * total_changes() and everything the app reads are as without them. One set per connection, shared by
 * every guard on it.
 */
const touchCounts = new WeakMap<Db, Map<string, number>>();

function countTouches(db: Db, tables: readonly string[]): Map<string, number> {
  let counts = touchCounts.get(db);
  if (!counts) {
    const c = new Map<string, number>();
    db.function('svc_guard_touch', { deterministic: false, varargs: false }, (name: unknown) => {
      c.set(String(name), (c.get(String(name)) ?? 0) + 1);
      return null;
    });
    touchCounts.set(db, c);
    counts = c;
  }
  for (const name of tables)
    for (const op of ['INSERT', 'UPDATE', 'DELETE'])
      db.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS "svc_guard_${op}_${name}" AFTER ${op} ON main."${name}" ` +
          `BEGIN SELECT svc_guard_touch('${name}'); END`,
      );
  return counts;
}

/**
 * Digests of every table; a cheap change counter decides when a comparison is needed, and the per-table
 * write counts (countTouches) which tables it needs: a table no statement wrote since its digest was
 * taken is as it was, so after a request only the tables it wrote are digested again. The batch checks
 * of fuzzAll still digest every table, so a change the counts missed would not pass unseen.
 */
export class StateGuard {
  private readonly tables: Array<{ name: string; order: string }>;
  private baseline = new Map<string, string>();
  /** Each table's write count when its baseline digest was taken. */
  private baselineTouches = new Map<string, number>();
  private readonly touches: Map<string, number>;
  private lastChanges: number;
  private readonly changesStmt;
  private readonly statements = new Map<string, Statement<unknown[]>>();

  constructor(private readonly db: Db) {
    const names = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all() as Array<{ name: string }>
    ).map((r) => r.name);
    this.tables = names.map((name) => {
      const cols = db.pragma(`table_info("${name}")`) as Array<{ name: string; pk: number }>;
      const pk = cols
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => `"${c.name}"`);
      const withoutRowid = /WITHOUT\s+ROWID/i.test(
        (db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name) as { sql: string }).sql,
      );
      return {
        name,
        order: pk.length ? pk.join(', ') : withoutRowid ? cols.map((c) => `"${c.name}"`).join(', ') : 'rowid',
      };
    });
    this.touches = countTouches(
      db,
      this.tables.map((t) => t.name),
    );
    this.changesStmt = db.prepare('SELECT total_changes() AS n');
    this.lastChanges = this.totalChanges();
    this.rebaseline();
  }

  /** Tables written since their baseline digest was taken. */
  touched(): string[] {
    return this.tables
      .filter((t) => (this.touches.get(t.name) ?? 0) !== (this.baselineTouches.get(t.name) ?? 0))
      .map((t) => t.name);
  }

  tableNames(): string[] {
    return this.tables.map((t) => t.name);
  }

  totalChanges(): number {
    return (this.changesStmt.get() as { n: number }).n;
  }

  digestTable(name: string, where = '', args: unknown[] = []): string {
    const t = this.tables.find((x) => x.name === name);
    if (!t) throw new Error(`unknown table ${name}`);
    const h = createHash('sha256');
    // The journal is append-only (triggers refuse UPDATE and DELETE) and its sealed bodies hold whole
    // ID images: its row count and last seq are enough to see a row appear.
    const sql =
      name === 'journal' && !where
        ? 'SELECT COUNT(*), MAX(seq) FROM journal'
        : `SELECT * FROM "${name}" ${where} ORDER BY ${t.order}`;
    // Prepared once per query: the guard digests every table after each accepted request.
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql).raw(true);
      this.statements.set(sql, stmt);
    }
    // One text per table, hashed once (a hash update per value was most of the guard's time).
    let text = '';
    for (const row of stmt.iterate(...args) as Iterable<unknown[]>) {
      for (const v of row) {
        if (Buffer.isBuffer(v)) text += `b${v.toString('base64')}\u0001`;
        else text += `${typeof v === 'string' ? 's' : 'n'}${String(v)}\u0001`;
      }
      text += '\u0002';
    }
    return h.update(text).digest('hex');
  }

  digestAll(): Map<string, string> {
    return new Map(this.tables.map((t) => [t.name, this.digestTable(t.name)]));
  }

  private sandboxRow(): Record<string, unknown> | undefined {
    if (!this.tables.some((t) => t.name === 'sandbox_state')) return undefined;
    return this.db.prepare('SELECT * FROM sandbox_state').get() as Record<string, unknown> | undefined;
  }

  rebaseline(): void {
    this.baseline = this.digestAll();
    this.baselineTouches = new Map(this.touches);
    this.moveHeads();
  }

  /** The baseline again, of the tables written since theirs was taken (the others have not changed). */
  rebaselineTouched(): void {
    for (const name of this.touched()) {
      this.baseline.set(name, this.digestTable(name));
      this.baselineTouches.set(name, this.touches.get(name) ?? 0);
    }
    this.moveHeads();
  }

  private moveHeads(): void {
    this.baselineSandbox = this.sandboxRow();
    this.journalHead = this.tables.some((t) => t.name === 'journal')
      ? ((this.db.prepare('SELECT MAX(seq) AS m FROM journal').get() as { m: number | null }).m ?? 0)
      : 0;
    this.lastChanges = this.totalChanges();
  }

  /** The last journal seq at the baseline (the journal is append-only). */
  journalHead = 0;

  /** Journal entries appended since the baseline. */
  journalSince(): Array<{ request_id: string; method: string; path: string; status: number }> {
    return this.db
      .prepare('SELECT request_id, method, path, status FROM journal WHERE seq > ? ORDER BY seq')
      .all(this.journalHead) as Array<{ request_id: string; method: string; path: string; status: number }>;
  }

  private baselineSandbox: Record<string, unknown> | undefined;

  /** sandbox_state differs from the baseline only in its audit head (audit_count, audit_head). */
  onlyAuditHeadMoved(): boolean {
    const now = this.sandboxRow() ?? {};
    const before = this.baselineSandbox ?? {};
    return Object.keys({ ...now, ...before }).every((k) => k.startsWith('audit_') || now[k] === before[k]);
  }

  /** Tables whose content differs from the baseline. */
  diff(): string[] {
    return this.diffFrom(this.digestAll());
  }

  /** Tables whose content differs from the baseline, of those written since it was taken (see touched). */
  diffTouched(): string[] {
    return this.touched().filter((name) => this.digestTable(name) !== this.baseline.get(name));
  }

  /** Tables whose digest in `now` (digestAll, taken since the last write) differs from the baseline. */
  diffFrom(now: Map<string, string>): string[] {
    return [...now].filter(([k, v]) => this.baseline.get(k) !== v).map(([k]) => k);
  }

  /** True (and the counter moves on) when anything was written since the last look. */
  wroteSinceLastLook(): boolean {
    const n = this.totalChanges();
    const changed = n !== this.lastChanges;
    this.lastDelta = n - this.lastChanges;
    this.lastChanges = n;
    return changed;
  }

  /** Rows written between the last two looks. */
  lastDelta = 0;

  /** Moves the baseline of the journal alone (after a refusal whose one write was its journal entry). */
  rebaselineJournal(): void {
    this.baseline.set('journal', this.digestTable('journal'));
    this.baselineTouches.set('journal', this.touches.get('journal') ?? 0);
    this.journalHead = (this.db.prepare('SELECT MAX(seq) AS m FROM journal').get() as { m: number | null }).m ?? 0;
  }

  baselineOf(name: string): string | undefined {
    return this.baseline.get(name);
  }
}

export interface FuzzStats {
  requests: number;
  byStatus: Record<string, number>;
  byMutation: Record<string, number>;
  byCode: Record<string, number>;
  /** Per operation: answers by status (2xx) or error code. */
  byOp: Record<string, Record<string, number>>;
  /** Business refusals stored as idempotency records (allowed, checked row by row). */
  storedRefusals: number;
  /** Of those, replayed with the same key to check the replay. */
  replays: number;
  /** Business refusals journaled (docs/snapshots.md: every request that reached its handler), each checked. */
  journaledRefusals: number;
  /** Accepted (2xx/3xx) requests, after which the baseline moves. */
  accepted: number;
  ms: number;
  /** This process's CPU over the run (user + system): near `ms` when the run worked, far below when it waited. */
  cpuMs: number;
  /** Wall time per operation: where a slow run spent it. */
  msByOp: Record<string, number>;
}

export function newStats(): FuzzStats {
  return {
    requests: 0,
    byStatus: {},
    byMutation: {},
    byCode: {},
    byOp: {},
    storedRefusals: 0,
    replays: 0,
    journaledRefusals: 0,
    accepted: 0,
    ms: 0,
    cpuMs: 0,
    msByOp: {},
  };
}

const bump = (o: Record<string, number>, k: string) => void (o[k] = (o[k] ?? 0) + 1);

function truncate(s: string, n = 600): string {
  return s.length > n ? `${s.slice(0, n)}... (${s.length} chars)` : s;
}

export function describeRequest(op: Operation, spec: Spec, b: Built): string {
  const headers = Object.fromEntries(
    Object.entries(b.headers).map(([k, v]) => [k, truncate(Array.isArray(v) ? v.join(' | ') : v, 120)]),
  );
  const body = b.payload ? truncate(b.payload.toString('utf8'), 400) : '(none)';
  return (
    `${op.key} [${spec.mutation}]\n  ${b.method} ${truncate(b.url, 300)}\n  headers ${JSON.stringify(headers)}\n ` +
    ` body ${body}`
  );
}

/**
 * Sends one generated request and checks the answer and the state. Throws (with the request and the
 * response) on a 5xx, an error body not in the spec's shape, or a state change by a refused request.
 */
export async function sendAndCheck(
  env: FuzzEnv,
  op: Operation,
  spec: Spec,
  guard: StateGuard,
  stats: FuzzStats,
  pools?: Pools,
): Promise<Res> {
  const b = build(env, op, spec);
  const res = await send(env.t, b);
  stats.requests++;
  bump(stats.byStatus, String(res.status));
  bump(stats.byMutation, spec.mutation.replace(/:.*$/, ''));
  bump(
    (stats.byOp[op.key] ??= {}),
    res.status >= 400 ? String(res.body?.error?.code ?? res.status) : String(res.status),
  );
  const where = () => `${describeRequest(op, spec, b)}\n  -> ${res.status} ${truncate(res.text, 500)}`;

  if (isServerFailure(res)) throw new Error(`5xx answer\n${where()}`);
  if (res.status >= 400) {
    const problem = errorShapeProblem(res);
    if (problem) throw new Error(`error body not in the spec's shape (${problem})\n${where()}`);
    bump(stats.byCode, res.body.error.code);
  }

  const wrote = guard.wroteSinceLastLook();
  if (res.status < 400) {
    stats.accepted++;
    if (pools) pools.harvest(res.body);
    if (wrote) {
      if (b.method === 'GET') {
        // A read writes nothing, except the audit entry of an audited read (an ID image viewed, a
        // statement downloaded) and the audit's signed head that moves with it.
        const changed = guard
          .diffTouched()
          .filter(
            (x) => x !== 'audit_log' && x !== 'audit_seal' && !(x === 'sandbox_state' && guard.onlyAuditHeadMoved()),
          );
        if (changed.length) throw new Error(`a read changed state (${changed.join(', ')})\n${where()}`);
      }
      guard.rebaselineTouched();
    }
    return res;
  }
  if (!wrote) return res;

  // A refusal wrote something: only the journal entry of a business refusal (the request reached its
  // handler) and, on I and S routes, its idempotency record may remain. When exactly one row was
  // written and it is a new journal entry, nothing else can have changed: no full comparison needed.
  // Otherwise the tables it wrote are compared (StateGuard, touched).
  const changed = guard.lastDelta === 1 && guard.journalSince().length === 1 ? ['journal'] : guard.diffTouched();
  const others = changed.filter((x) => x !== 'idempotency' && x !== 'journal');
  if (others.length)
    throw new Error(
      `a refused request changed ${others.join(', ')}` +
        `${others.includes('audit_log') ? ' (it appended to the audit log)' : ''}\n${where()}`,
    );
  if (changed.includes('idempotency')) {
    if (refusedBeforeHandler(res))
      throw new Error(`a request refused by authentication or validation stored an idempotency record\n${where()}`);
    if (!b.idempotencyKey || !b.tenantId)
      throw new Error(`an idempotency record appeared for a request without a key\n${where()}`);
    const path = b.url.split('?')[0];
    const row = env.t.deps.db
      .prepare('SELECT status, response FROM idempotency WHERE tenant_id = ? AND method = ? AND path = ? AND key = ?')
      .get(b.tenantId, b.method, path, b.idempotencyKey) as { status: number; response: string } | undefined;
    if (!row) throw new Error(`the idempotency table changed but holds no record for this request\n${where()}`);
    if (row.status !== res.status || row.response !== JSON.stringify(res.body)) {
      throw new Error(
        `the stored refusal differs from the answer (${row.status} ${truncate(row.response, 200)})\n${where()}`,
      );
    }
    const rest = guard.digestTable('idempotency', 'WHERE NOT (tenant_id = ? AND method = ? AND path = ? AND key = ?)', [
      b.tenantId,
      b.method,
      path,
      b.idempotencyKey,
    ]);
    if (rest !== guard.baselineOf('idempotency'))
      throw new Error(`a refused request changed other idempotency records\n${where()}`);
    stats.storedRefusals++;
    // Every fifth stored refusal: the same request again is replayed byte for byte and changes nothing.
    if (stats.storedRefusals % 5 === 1) {
      const again = await send(env.t, b);
      stats.requests++;
      stats.replays++;
      if (again.status !== res.status || again.text !== res.text || again.headers['idempotent-replayed'] !== 'true') {
        throw new Error(
          `the stored refusal was not replayed (${again.status} ${truncate(again.text, 300)})\n${where()}`,
        );
      }
      if (
        guard.wroteSinceLastLook() &&
        (guard.diffTouched().some((x) => x !== 'idempotency' && x !== 'journal') || guard.journalSince().length > 1)
      )
        throw new Error(`a replay changed state\n${where()}`);
    }
  }
  if (changed.includes('journal')) {
    // (By code only: a handler may refuse with VALIDATION_FAILED and a field path too.)
    if (PRE_HANDLER_CODES.has(res.body?.error?.code))
      throw new Error(`a request refused before its handler was journaled\n${where()}`);
    const added = guard.journalSince();
    const path = b.url.split('?')[0];
    if (
      added.length !== 1 ||
      added[0].request_id !== res.body.request_id ||
      added[0].status !== res.status ||
      added[0].method !== b.method ||
      added[0].path !== path
    ) {
      throw new Error(
        `a refusal's journal entries are not exactly this request (${JSON.stringify(added)})\n${where()}`,
      );
    }
    stats.journaledRefusals++;
  }
  if (changed.length === 1 && changed[0] === 'journal') guard.rebaselineJournal();
  else if (changed.length) guard.rebaselineTouched();
  return res;
}

/** Realm order for the run: tenant routes first, sandbox resets last (they wipe what the others use). */
export function runOrder(ops: Operation[]): Operation[] {
  const rank = (op: Operation) =>
    (/\/reset$/.test(op.path) ? 100 : 0) +
    (op.auth.kind === 'tenant' ? 0 : op.auth.kind === 'operator' ? (op.auth.realm === 'console' ? 10 : 20) : 30) +
    (op.method === 'GET' ? 0 : 1);
  return [...ops].sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));
}

export interface FuzzRunOptions {
  /** Total budget of generated requests, split evenly over the operations (at least one each). */
  totalRuns: number;
  seed: number;
  onOperation?: (op: Operation, runs: number) => void;
}

/**
 * Runs the fuzzer over every operation. The app must have a frozen clock and a fixed wall clock: then
 * nothing changes between requests, and a fast-check seed replays a run exactly.
 */
export async function fuzzAll(env: FuzzEnv, ops: Operation[], pools: Pools, opts: FuzzRunOptions): Promise<FuzzStats> {
  const stats = newStats();
  const guard = new StateGuard(env.t.deps.db);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const ordered = runOrder(ops);
  // Operations with more surface (a JSON body, parameters) get a larger share of the budget.
  const weight = (op: Operation) =>
    1 + (op.jsonBody || op.rawBodyTypes.length ? 2 : 0) + 0.25 * (op.pathParams.length + op.queryParams.length);
  const totalWeight = ordered.reduce((a, op) => a + weight(op), 0);
  // Each table's digest after one batch is the one before the next (nothing runs in between).
  let before = guard.digestAll();
  for (const [i, op] of ordered.entries()) {
    const runs = Math.max(1, Math.ceil((opts.totalRuns * weight(op)) / totalWeight));
    opts.onOperation?.(op, runs);
    const acceptedBefore = stats.accepted + stats.storedRefusals + stats.journaledRefusals;
    const opStarted = performance.now();
    try {
      await fc.assert(
        fc.asyncProperty(specArb(op, pools), async (spec) => {
          await sendAndCheck(env, op, spec, guard, stats, pools);
        }),
        { numRuns: runs, seed: opts.seed + i, endOnFailure: true, includeErrorInReport: true },
      );
    } catch (err) {
      throw new Error(
        `fuzzing ${op.key} failed (reproduce the whole run with SVC_FUZZ_SEED=${opts.seed}):\n` +
          `${(err as Error).message}`,
      );
    }
    stats.msByOp[op.key] = Math.round(performance.now() - opStarted);
    // The batch as a whole: when nothing in it was accepted or stored, every table is as before it.
    const after = guard.digestAll();
    if (stats.accepted + stats.storedRefusals + stats.journaledRefusals === acceptedBefore) {
      const changed = [...after].filter(([k, v]) => before.get(k) !== v).map(([k]) => k);
      if (changed.length) throw new Error(`the refused batch for ${op.key} changed ${changed.join(', ')}`);
    }
    const drift = guard.diffFrom(after);
    if (drift.length)
      throw new Error(`after ${op.key}: tables changed without a request that may change them: ${drift.join(', ')}`);
    before = after;
  }
  stats.ms = Math.round(performance.now() - started);
  const cpu = process.cpuUsage(cpuBefore);
  stats.cpuMs = Math.round((cpu.user + cpu.system) / 1000);
  return stats;
}
