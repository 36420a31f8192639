// Renders docs/endpoints.md (the endpoint reference) and docs/svc.http (one request per operation, for
// the VS Code REST Client and the JetBrains HTTP client) from the OpenAPI document the daemon serves at
// GET /openapi.json, built the same way: daemon/http/openapi.ts over the route list of daemon/routes.ts
// (the routes need a Deps, so a throwaway one on a temporary SQLite file). `npm run docs` writes both;
// test/unit/endpoint-reference.test.ts fails when either is out of date.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeps } from '../daemon/deps.js';
import { ROUTE_MODULES } from '../daemon/routes.js';
import { buildOpenApi } from '../daemon/http/openapi.js';
import { ROLES } from '../daemon/contract/grants.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

export interface OpenApiDoc {
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Obj>>;
  components: { schemas: Record<string, Obj>; parameters: Record<string, Obj> };
}

/** The document /openapi.json answers (the version aside: the reference does not change with it). */
export function openApiDocument(): OpenApiDoc {
  const dir = mkdtempSync(join(tmpdir(), 'svc-endpoint-reference-'));
  try {
    const deps = createDeps({
      dbFile: join(dir, 'svc.db'),
      kek: Buffer.alloc(32, 7),
      sandbox: { seed: 42, startMs: Date.parse('2026-11-22T09:00:00+02:00'), clockMode: 'frozen', speedMilli: 1000 },
    });
    try {
      return JSON.parse(
        buildOpenApi(
          ROUTE_MODULES.flatMap((m) => m(deps)),
          'reference',
        ),
      ) as OpenApiDoc;
    } finally {
      deps.db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- reading the document ---------------------------------------------------------------------------

export interface Operation {
  method: string;
  path: string;
  op: Obj;
}

/** Every operation, grouped by its first tag in the document's tag order, in path order within a tag. */
export function operations(doc: OpenApiDoc): Array<{ tag: string; description: string; ops: Operation[] }> {
  const all: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods)) all.push({ method: method.toUpperCase(), path, op });
  return doc.tags
    .map((t) => ({
      tag: t.name,
      description: t.description,
      ops: all.filter((o) => ((o.op.tags as string[] | undefined) ?? [])[0] === t.name),
    }))
    .filter((g) => g.ops.length > 0);
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

function deref(doc: OpenApiDoc, s: Json | undefined): Obj {
  if (s && typeof s === 'object' && !Array.isArray(s) && typeof s.$ref === 'string')
    return deref(doc, doc.components.schemas[refName(s.$ref)] ?? {});
  return (s && typeof s === 'object' && !Array.isArray(s) ? s : {}) as Obj;
}

/** B, I, S, an operator realm with its grant, or none (docs/api.md, "Authentication"). */
export function authOf(op: Obj): string {
  const sec = (op.security as Obj[] | undefined) ?? [];
  if (sec.length === 0) return 'none';
  const keys = Object.keys(sec[0]);
  if (keys.includes('signature')) return 'S';
  if (keys.includes('idempotencyKey')) return 'I';
  if (keys.includes('bearer')) return 'B';
  if (keys.includes('consoleSession')) return 'console session';
  const realm = keys.includes('adminKey') ? 'admin' : 'console';
  return `${realm}: ${String(op['x-grant'] ?? '')}`;
}

/** A schema in one line: `string (date-time)`, `"buy" \| "sell"`, `integer >= 1`, `Order[]`, `T \| null`. */
export function typeText(doc: OpenApiDoc, s: Json | undefined): string {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return 'any';
  if (typeof s.$ref === 'string') return `[\`${refName(s.$ref)}\`](#${schemaAnchor(refName(s.$ref))})`;
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (Array.isArray(s.enum)) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  for (const k of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[k])) return (s[k] as Json[]).map((v) => typeText(doc, v)).join(' \\| ');
  }
  if (s.type === 'array') return `${typeText(doc, s.items)}[]`;
  if (s.type === 'null') return '`null`';
  if (Array.isArray(s.type)) return s.type.map((t) => typeText(doc, { ...s, type: t })).join(' \\| ');
  const bits: string[] = [String(s.type ?? 'any')];
  if (typeof s.format === 'string') bits.push(`(${s.format})`);
  // zod's safe-integer bounds say nothing a reader needs
  const min = typeof s.minimum === 'number' && s.minimum > -Number.MAX_SAFE_INTEGER ? s.minimum : undefined;
  const max = typeof s.maximum === 'number' && s.maximum < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
  if (min !== undefined && max !== undefined) bits.push(`${min}..${max}`);
  else if (min !== undefined) bits.push(`>= ${min}`);
  else if (max !== undefined) bits.push(`<= ${max}`);
  if (typeof s.minLength === 'number' || typeof s.maxLength === 'number')
    bits.push(`${s.minLength ?? 0}..${s.maxLength ?? '∞'} chars`);
  if (typeof s.pattern === 'string') bits.push(`\`/${s.pattern}/\``);
  return bits.join(' ');
}

const cell = (text: string) =>
  text
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\s*\n\s*/g, ' ');
/** A type cell: typeText already escapes the bars it writes between alternatives. */
const typeCell = (text: string) => text.replace(/\s*\n\s*/g, ' ');

const schemaAnchor = (name: string) => `schema-${name.toLowerCase().replace(/[^a-z0-9_-]/g, '')}`;

/** An inline object (not a named schema) whose fields are listed under its own: `fees.total_micros`, `fills[].qty`. */
function inlineObject(s: Obj): { obj: Obj; suffix: string } | undefined {
  if (s.type === 'object' && s.properties) return { obj: s, suffix: '.' };
  const items = s.items as Obj | undefined;
  if (s.type === 'array' && items && items.type === 'object' && items.properties) return { obj: items, suffix: '[].' };
  const nonNull = ((s.anyOf ?? []) as Obj[]).filter((v) => v.type !== 'null');
  return nonNull.length === 1 && (s.anyOf as Obj[]).length === 2 ? inlineObject(nonNull[0]) : undefined;
}

function fieldRows(doc: OpenApiDoc, schema: Obj, prefix = ''): string[] {
  const props = (schema.properties ?? {}) as Record<string, Obj>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(props).flatMap(([name, p]) => {
    const description =
      typeof p.description === 'string'
        ? p.description
        : typeof deref(doc, p).description === 'string'
          ? String(deref(doc, p).description)
          : '';
    const inline = inlineObject(p);
    const type = inline
      ? (inline.suffix === '.' ? 'object' : 'object[]') + (p.anyOf ? ' \\| `null`' : '')
      : typeText(doc, p);
    const req = required.has(name) ? 'yes' : '';
    const row = `| \`${prefix}${name}\` | ${typeCell(type)} | ${req} | ${cell(description)} |`;
    return inline ? [row, ...fieldRows(doc, inline.obj, `${prefix}${name}${inline.suffix}`)] : [row];
  });
}

/** Every named schema the document uses: its fields (or its variants, or its type). */
function schemaSections(doc: OpenApiDoc): string[] {
  const lines = [
    '## Schemas',
    '',
    'The named schemas of the bodies above, as `components.schemas` of `/openapi.json` declares them.',
    '',
  ];
  for (const name of Object.keys(doc.components.schemas).sort()) {
    const s = doc.components.schemas[name];
    lines.push(`### Schema \`${name}\``, '');
    if (typeof s.description === 'string') lines.push(cell(s.description), '');
    lines.push(...bodyTables(doc, s).slice(1), '');
  }
  return lines;
}

/** The body's fields as tables: one per variant of a oneOf (named by its constant field), else one. */
function bodyTables(doc: OpenApiDoc, schema: Json): string[] {
  const s = deref(doc, schema);
  const head = ['| field | type | required | description |', '|---|---|---|---|'];
  const variants = (s.oneOf ?? s.anyOf) as Json[] | undefined;
  if (Array.isArray(variants) && variants.length > 1 && variants.every((v) => deref(doc, v).type === 'object')) {
    return variants.flatMap((v) => {
      const o = deref(doc, v);
      const tagField = Object.entries((o.properties ?? {}) as Record<string, Obj>).find(
        ([, p]) => p.const !== undefined,
      );
      const label = tagField ? `\`${tagField[0]}: ${String(tagField[1].const)}\`` : 'a variant';
      return ['', `One of these shapes; ${label}:`, '', ...head, ...fieldRows(doc, o)];
    });
  }
  if (s.type !== 'object' || !s.properties) return ['', `A JSON value: ${typeText(doc, schema)}.`];
  return ['', ...head, ...fieldRows(doc, s)];
}

function parameterRows(doc: OpenApiDoc, op: Obj): string[] {
  const rows: string[] = [];
  for (const raw of (op.parameters as Obj[] | undefined) ?? []) {
    const p = typeof raw.$ref === 'string' ? doc.components.parameters[refName(raw.$ref)] : raw;
    rows.push(
      `| \`${String(p.name)}\` | ${String(p.in)} | ${typeCell(typeText(doc, p.schema))} | ` +
        `${p.required ? 'yes' : ''} | ${cell(String(p.description ?? ''))} |`,
    );
  }
  return rows.length === 0
    ? []
    : ['', '| parameter | in | type | required | description |', '|---|---|---|---|---|', ...rows];
}

/** Success statuses with what they carry, then each error status with its codes. */
function responseLines(doc: OpenApiDoc, op: Obj): string[] {
  const out: string[] = [];
  for (const [status, r] of Object.entries(op.responses as Record<string, Obj>)) {
    if (status === 'default') continue;
    const codes = r['x-error-codes'] as string[] | undefined;
    if (codes) {
      out.push(`- **${status}**: ${codes.map((c) => `\`${c}\``).join(', ')}`);
      continue;
    }
    const content = (r.content ?? {}) as Record<string, Obj>;
    const what = Object.entries(content).map(([type, c]) => {
      const s = deref(doc, c.schema);
      const fields =
        s.type === 'object' && s.properties
          ? ` (${Object.keys(s.properties)
              .map((f) => `\`${f}\``)
              .join(', ')})`
          : '';
      return `${type} ${typeText(doc, c.schema)}${type === 'application/json' ? fields : ''}`;
    });
    out.push(`- **${status}**${what.length > 0 ? `: ${what.join('; or ')}` : ': no body'}`);
  }
  out.push(
    '- any status: a transport refusal before a route is chosen (`ROUTE_NOT_FOUND`, `BAD_REQUEST`, ' +
      '`HEADERS_TOO_LARGE`...)',
  );
  return out;
}

const AUTH_WORDS: Record<string, string> = {
  none: 'none (public)',
  B: 'B (bearer key)',
  I: 'I (bearer key + Idempotency-Key)',
  S: 'S (bearer key + Idempotency-Key + signature)',
};

function operationSection(doc: OpenApiDoc, o: Operation): string[] {
  const auth = authOf(o.op);
  const body = o.op.requestBody as Obj | undefined;
  const lines = [
    `### \`${o.method} ${o.path}\``,
    '',
    String(o.op.description ?? o.op.summary ?? ''),
    '',
    `Auth: ${AUTH_WORDS[auth] ?? `operator key, realm ${auth.replace(': ', ', grant `')}\``}. Operation id: \`` +
      `${String(o.op.operationId)}\`.`,
  ];
  lines.push(...parameterRows(doc, o.op));
  if (body) {
    const content = (body.content ?? {}) as Record<string, Obj>;
    const json = content['application/json'];
    if (json) {
      lines.push('', `Body (application/json): ${typeText(doc, json.schema)}`);
      lines.push(...bodyTables(doc, json.schema));
    } else
      lines.push(
        '',
        `Body: the raw bytes, as ${Object.keys(content)
          .map((t) => `\`${t}\``)
          .join(' or ')} (at most ${String(deref(doc, Object.values(content)[0]?.schema).maxLength ?? '?')} bytes).`,
      );
  }
  lines.push('', 'Responses:', '', ...responseLines(doc, o.op), '');
  return lines;
}

const anchor = (o: Operation) =>
  `${o.method} ${o.path}`
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

export function renderEndpoints(doc: OpenApiDoc): string {
  const groups = operations(doc);
  const lines = [
    '# Endpoint reference',
    '',
    'Every operation of the API: method and path, authentication, parameters, body fields, responses and',
    'the error codes of each status. Generated by `npm run docs` (`scripts/endpoint-reference.ts`) from the',
    'same route definitions that `GET /openapi.json` is generated from (`daemon/http/openapi.ts`), so it',
    'says what the daemon does; `test/unit/endpoint-reference.test.ts` fails when this file is out of date.',
    'Do not edit it by hand. [svc.http](svc.http) has one ready-to-send request per operation;',
    '[api.md](api.md) explains the conventions and [errors.md](errors.md) every code.',
    '',
    '**Auth**, the credentials a route needs ([api.md](api.md#authentication)):',
    '',
    '| auth | headers |',
    '|---|---|',
    '| none | nothing: a public route |',
    "| B | `Authorization: Bearer <api_key>`, the tenant's key |",
    '| I | B, plus `Idempotency-Key` (a retry with the same key and body answers the first response; ' +
      '[api.md](api.md#idempotency)) |',
    "| S | I, plus `X-Svc-Timestamp` and `X-Svc-Signature`, an HMAC of the request with the tenant's signing " +
      'secret ([api.md](api.md#signing-money-endpoints)) |',
    '| operator key, realm admin, grant G | `X-Admin-Key` of a back-office operator holding grant G (the ' +
      "sandbox's admin key has the sandbox and back-office grants; the security and approver keys have " +
      '`audit:read`, `backoffice:read` and the actions grants) |',
    '| operator key, realm console, grant G | `X-Console-Key` of a dealer-desk operator holding grant G (the ' +
      "sandbox's dealer key) |",
    '',
    'Money is integer micros (1 EGP = 1,000,000). A **required** parameter or field must be sent; the others',
    'may be left out. Every error answer is `{ "error": { "code", "message" }, "request_id" }`; the codes',
    'listed under a status are every code that status can carry on that route.',
    '',
    '## Contents',
    '',
    '| method | path | auth | summary |',
    '|---|---|---|---|',
    ...groups.flatMap((g) =>
      g.ops.map(
        (o) =>
          `| ${o.method} | [\`${o.path}\`](#${anchor(o)}) | ${authOf(o.op)} | ${cell(String(o.op.summary ?? ''))} |`,
      ),
    ),
    '',
  ];
  for (const g of groups) {
    lines.push(`## ${g.tag}`, '', `${g.description}.`, '');
    for (const o of g.ops) lines.push(...operationSection(doc, o));
  }
  lines.push(...schemaSections(doc));
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

// ---- the .http file ---------------------------------------------------------------------------------

/** Values that pass the daemon's checks for fields the schemas do not give an example of. */
const FIELD_EXAMPLES: Record<string, Json> = {
  full_name: 'Mona Hassan',
  national_id: '29001010112345',
  date_of_birth: '1990-01-01',
  email: 'mona.hassan@example.com',
  phone: '01012345678',
  address: '12 Tahrir Street, Cairo',
  symbol: 'COMI',
  fund_code: 'UBRKH',
  amount_micros: 5000000000,
  request_id: 'req_0000000001',
  reason_code: 'DEALER_REJECTED',
  price_micros: 85000000,
  limit_price_micros: 85000000,
  qty: 10,
  seed: 42,
  start: '2026-11-22T09:00:00+02:00',
};

/** A placeholder value for a schema: its example, default or first enum value, a known field's example, else one that
 * fits the type; objects get their required fields. */
export function placeholder(doc: OpenApiDoc, schema: Json | undefined, name = ''): Json {
  const s = deref(doc, schema);
  if (Array.isArray(s.type)) return placeholder(doc, { ...s, type: s.type.find((t) => t !== 'null') ?? 'null' }, name);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (FIELD_EXAMPLES[name] !== undefined && s.type !== 'object' && s.type !== 'array') return FIELD_EXAMPLES[name];
  const alternatives = (s.oneOf ?? s.anyOf) as Json[] | undefined;
  if (Array.isArray(alternatives))
    return placeholder(doc, alternatives.find((a) => deref(doc, a).type !== 'null') ?? alternatives[0], name);
  if (s.type === 'object') {
    const out: Obj = {};
    const props = (s.properties ?? {}) as Record<string, Json>;
    const required = (s.required as string[] | undefined) ?? [];
    // nothing required: the first field, so the request does something (clock-advance takes one of four)
    for (const f of required.length > 0 ? required : Object.keys(props).slice(0, 1))
      out[f] = placeholder(doc, props[f], f);
    return out;
  }
  if (s.type === 'array')
    return typeof s.minItems === 'number' && s.minItems > 0 ? [placeholder(doc, s.items, name)] : [];
  if (s.type === 'integer' || s.type === 'number') return typeof s.minimum === 'number' ? s.minimum : 1;
  if (s.type === 'boolean') return false;
  if (s.format === 'date-time') return '2026-11-22T10:00:00+02:00';
  if (s.format === 'date') return '2026-11-22';
  if (/_id$/.test(name) && name !== 'national_id') return `{{${name}}}`;
  return typeof s.minLength === 'number' && s.minLength > 8 ? 'x'.repeat(s.minLength) : name || 'text';
}

/** The variables a path needs: `/v1/orders/{id}` -> `{{order_id}}` style names, from the parameter and the collection
 * before it. */
const PARAM_VARIABLES: Record<string, string> = { application_id: 'kyc_application_id', m: 'market_id', s: 'symbol' };
const COLLECTION_VARIABLES: Record<string, string> = {
  applications: 'kyc_application_id',
  news: 'news_id',
  queue: 'order_id',
  funding: 'transfer_id',
  accounts: 'investor_id',
};

function pathVariable(path: string, param: string): string {
  const before =
    path
      .slice(0, path.indexOf(`{${param}}`))
      .split('/')
      .filter(Boolean)
      .pop() ?? 'resource';
  // a news image's file is named after its article, not a symbol like a logo's
  if (param === 'file' && before === 'news') return 'news_image';
  if (param !== 'id') return PARAM_VARIABLES[param] ?? param;
  return COLLECTION_VARIABLES[before] ?? `${before.replace(/-/g, '_').replace(/s$/, '')}_id`;
}

const VAR_EXAMPLES: Record<string, string> = {
  investor_id: 'inv_...',
  order_id: 'ord_...',
  kyc_application_id: 'kyc_...',
  application_id: 'kyc_...',
  transfer_id: 'trf_...',
  fund_order_id: 'fo_...',
  account_id: 'inv_...',
  tenant_id: 'tnt_...',
  symbol: 'COMI',
  market_id: 'XCAI',
  m: 'XCAI',
  s: 'COMI',
  side: 'national_id_front',
  file: 'COMI.svg',
  news_image: 'nws_000000000000.svg',
  request_id: 'req_...',
  news_id: 'nws_...',
  dividend_id: 'div_...',
  funding_id: 'trf_...',
  queue_id: 'ord_...',
};

function httpRequest(doc: OpenApiDoc, o: Operation, vars: Set<string>): string[] {
  const auth = authOf(o.op);
  const params = ((o.op.parameters as Obj[] | undefined) ?? []).filter((p) => typeof p.$ref !== 'string');
  let path = o.path;
  for (const p of params.filter((q) => q.in === 'path')) {
    const v = pathVariable(o.path, String(p.name));
    vars.add(v);
    path = path.replace(`{${String(p.name)}}`, `{{${v}}}`);
  }
  const query = params.filter((q) => q.in === 'query');
  const required = query
    .filter((q) => q.required)
    .map((q) => `${String(q.name)}=${String(placeholder(doc, q.schema, String(q.name)))}`);
  const lines = [`### ${o.method} ${o.path}: ${String(o.op.summary ?? '')} (auth ${auth})`];
  const optional = query.filter((q) => !q.required).map((q) => String(q.name));
  if (optional.length > 0) lines.push(`# optional query: ${optional.join(', ')}`);
  if (auth === 'S') {
    lines.push(
      '# Signed (S): X-Svc-Signature is an HMAC-SHA256 of this exact request (timestamp, method, path, query,',
      "# Idempotency-Key and the body's bytes) with the signing secret, valid 300 s. An .http file cannot compute",
      '# it: send this request with `svc api ' +
        o.method +
        ' ' +
        o.path.replace(/\{(\w+)\}/g, '<$1>') +
        (o.op.requestBody ? " -d '<json>'" : '') +
        '` (svc signs and keys it), or compute',
      '# the two headers as docs/api.md ("Signing") shows and paste them into @svcTimestamp and @svcSignature.',
    );
  }
  lines.push(`${o.method} {{baseUrl}}${path}${required.length > 0 ? `?${required.join('&')}` : ''}`);
  if (auth === 'B' || auth === 'I' || auth === 'S') lines.push('Authorization: Bearer {{apiKey}}');
  // The admin key, or the security key for the identity routes only security holds (sessions, keys, reviews).
  const grant = String(o.op['x-grant'] ?? '');
  const adminHolds = (ROLES.admin.grants as readonly string[]).includes(grant);
  const securityHolds = (ROLES.security.grants as readonly string[]).includes(grant);
  if (auth.startsWith('admin'))
    lines.push(`X-Admin-Key: {{${adminHolds || !securityHolds ? 'adminKey' : 'securityKey'}}}`);
  if (auth.startsWith('console:')) lines.push('X-Console-Key: {{dealerKey}}');
  if (auth === 'I' || auth === 'S') lines.push(`Idempotency-Key: {{keyPrefix}}-${String(o.op.operationId)}-1`);
  if (auth === 'S') lines.push('X-Svc-Timestamp: {{svcTimestamp}}', 'X-Svc-Signature: {{svcSignature}}');
  const body = o.op.requestBody as Obj | undefined;
  const content = (body?.content ?? {}) as Record<string, Obj>;
  if (content['application/json']) {
    lines.push(
      'Content-Type: application/json',
      '',
      JSON.stringify(placeholder(doc, content['application/json'].schema), null, 2),
    );
  } else if (content['image/png']) {
    lines.push('Content-Type: image/png', '', '< ../fixtures/documents/national_id_front.png');
  }
  return [...lines, '', ''];
}

export function renderHttp(doc: OpenApiDoc): string {
  const vars = new Set<string>();
  // the console's own calls need a browser's passkey ceremony and its session cookie: not for a .http file
  const requests = operations(doc)
    .filter((g) => g.tag !== 'console')
    .flatMap((g) => [`# ---- ${g.tag}: ${g.description}`, '', ...g.ops.flatMap((o) => httpRequest(doc, o, vars))]);
  const header = [
    '# svc: one request per operation of the API, for the VS Code REST Client and the JetBrains HTTP client.',
    '# Generated by `npm run docs` (scripts/endpoint-reference.ts) from the route definitions that /openapi.json',
    '# is built from; docs/endpoints.md describes each one. Do not edit by hand: copy it and edit the copy.',
    '#',
    '# Fill in the variables below from `svc sandbox env` (SVC_BASE_URL, SVC_API_KEY, SVC_ADMIN_KEY,',
    "# SVC_SECURITY_KEY, SVC_DEALER_KEY). Auth (the letter after each request's title): none = public; B = bearer key;",
    '# I = bearer key + Idempotency-Key (change the key for a new request, keep it to see a retry replayed);',
    '# S = I + a signature this file cannot compute (see the note on each signed request);',
    '# admin/console = the X-Admin-Key / X-Console-Key operator keys with the grant named.',
    '# Bodies hold the required fields with placeholder values: replace them before sending.',
    '',
    '@baseUrl = http://127.0.0.1:4710',
    '@apiKey = paste SVC_API_KEY',
    '@adminKey = paste SVC_ADMIN_KEY',
    '@securityKey = paste SVC_SECURITY_KEY',
    '@dealerKey = paste SVC_DEALER_KEY',
    '@keyPrefix = http-file',
    "@svcTimestamp = paste a signed request's X-Svc-Timestamp",
    '@svcSignature = paste its X-Svc-Signature (v1=...)',
  ];
  // every {{variable}} the requests use (path parameters, ids in bodies) gets a line to fill in
  const declared = new Set(header.filter((l) => l.startsWith('@')).map((l) => l.slice(1, l.indexOf(' '))));
  for (const m of requests.join('\n').matchAll(/\{\{(\w+)\}\}/g)) if (!declared.has(m[1])) vars.add(m[1]);
  const varLines = [...vars].sort().map((v) => `@${v} = ${VAR_EXAMPLES[v] ?? '...'}`);
  return `${[...header, ...varLines, '', '', ...requests]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const doc = openApiDocument();
  writeFileSync(new URL('../docs/endpoints.md', import.meta.url), renderEndpoints(doc));
  writeFileSync(new URL('../docs/svc.http', import.meta.url), renderHttp(doc));
}
