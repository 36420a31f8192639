// Text a request carries is well-formed Unicode without control characters (docs/api.md, "Conventions"):
// a lone surrogate ("\ud800", which JSON can spell) was stored as U+FFFD U+FFFD U+FFFD in a proposal's
// reason, and a NUL in a console user's display_name was accepted at proposal. The rule is one check
// in the request pipeline over every string of params, query and body (keys included), so this sweep
// generates its cases from /openapi.json: every string field of every JSON body and every string query
// parameter, each sent with each bad character alone. Every one is 422 naming the field, and nothing
// is stored (no audit entry, no idempotency record, no journal entry).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeApp, type As, type TestApp } from '../helpers/app.js';
import {
  loadOperations,
  operatorKey,
  realmHeader,
  rolesHolding,
  type JsonSchema,
  type Operation,
} from '../helpers/fuzz.js';
import { BASE_PARAMS } from '../../daemon/backoffice/action-bases.js';

let t: TestApp;
let ops: Operation[];
beforeAll(async () => {
  t = await makeApp();
  ops = await loadOperations(t);
});
afterAll(() => t.close());

/** Each bad character, named as the refusal names it. */
const BAD: Array<[string, string]> = [
  ['a NUL', 'a\u0000b'],
  ['a lone high surrogate', 'a\ud800b'],
  ['a lone low surrogate', '\udc00'],
  ['an escape (C0)', 'red \u001b[31m'],
  ['a carriage return', 'a\rb'],
  ['a backspace and a form feed (JSON spells them \\b, \\f)', 'a\b\fb'],
  ['DEL', 'a\u007f'],
  ['a C1 control (NEL)', 'a\u0085b'],
];

type Path = Array<string | number>;

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; i < 10 && typeof s?.$ref === 'string'; i++) s = root.$defs?.[s.$ref.replace('#/$defs/', '')] ?? {};
  return s ?? {};
}

/** The paths of every string a body schema declares, down to a few levels (arrays as element 0). */
function stringPaths(schema: JsonSchema | undefined, root: JsonSchema, prefix: Path = [], depth = 0): Path[] {
  if (!schema || depth > 4) return [];
  const s = resolve(schema, root);
  const out: Path[] = [];
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const sub of s[k] ?? []) out.push(...stringPaths(sub, root, prefix, depth + 1));
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.includes('string') && prefix.length > 0) out.push(prefix);
  for (const [k, v] of Object.entries<JsonSchema>(s.properties ?? {}))
    out.push(...stringPaths(v, root, [...prefix, k], depth + 1));
  if (types.includes('array') && s.items) out.push(...stringPaths(s.items, root, [...prefix, 0], depth + 1));
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(p.join('.')) && seen.add(p.join('.')));
}

function setAt(path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') return [setAt(rest, value)];
  return { [head]: setAt(rest, value) };
}

/** Credentials for an operation: the tenant, or a bootstrap identity holding the route's grant. */
function caller(op: Operation): { as: As; headers: Record<string, string> } {
  if (op.auth.kind === 'none') return { as: 'none', headers: {} };
  if (op.auth.kind === 'tenant') return { as: 'tenant', headers: {} };
  const [role] = rolesHolding(op.auth.realm, op.auth.grant);
  return { as: 'none', headers: { [realmHeader(op.auth.realm)]: operatorKey(t, role) } };
}

const counts = () =>
  Object.fromEntries(
    ['audit_log', 'idempotency', 'journal', 'admin_actions'].map((x) => [
      x,
      t.deps.db.prepare(`SELECT COUNT(*) FROM ${x}`).pluck().get(),
    ]),
  );

interface Case {
  op: Operation;
  url: string;
  where: 'body' | 'query';
  path: Path;
  body?: unknown;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const op of ops) {
    const url = op.path.replace(/\{[^}]+\}/g, 'x1234');
    if (op.jsonBody)
      for (const p of stringPaths(op.jsonBody, op.jsonBody)) out.push({ op, url, where: 'body', path: p });
    for (const q of op.queryParams)
      if (resolve(q.schema, {}).type === 'string') out.push({ op, url, where: 'query', path: [q.name] });
  }
  // a proposal's params are validated by its base's schema, which the document does not spell out
  const propose = ops.find((o) => o.key === 'POST /admin/actions')!;
  for (const [base, schema] of Object.entries(BASE_PARAMS)) {
    const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    for (const p of stringPaths(js, js))
      out.push({
        op: propose,
        url: propose.path,
        where: 'body',
        path: ['params', ...p],
        body: { action: base, reason: 'r', params: setAt(p, '') },
      });
  }
  return out;
}

describe('every text field of every route refuses invalid Unicode and control characters', () => {
  it('a sweep of /openapi.json: each string field and query parameter, with each bad character, is 422 naming the field, and nothing is stored', async () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(150);
    const before = counts();
    const wrong: string[] = [];
    for (const c of all) {
      for (const [what, bad] of BAD) {
        if (c.where === 'query' && /[\ud800-\udfff]/.test(bad)) continue; // a URL cannot carry a lone surrogate
        const { as, headers } = caller(c.op);
        const field = [c.where, ...c.path].join('.');
        const body = c.where === 'body' ? (c.body ? merge(c.body, c.path, bad) : setAt(c.path, bad)) : undefined;
        const url =
          c.where === 'query' ? `${c.url}?${encodeURIComponent(String(c.path[0]))}=${encodeURIComponent(bad)}` : c.url;
        const res = await t.req(c.op.method, url, { as, headers, body: body ?? (c.op.jsonBody ? {} : undefined) });
        const ok =
          res.status === 422 &&
          typeof res.body?.error?.message === 'string' &&
          res.body.error.message.startsWith(`${field}:`);
        if (!ok)
          wrong.push(
            `${c.op.key} ${field} with ${what}: ${res.status} ${res.body?.error?.code ?? ''} ` +
              `${res.body?.error?.message ?? res.text.slice(0, 80)}`,
          );
      }
    }
    expect(wrong.slice(0, 40).join('\n'), `${wrong.length} of ${all.length * BAD.length} cases`).toBe('');
    expect(counts()).toEqual(before);
  }, 300_000);

  it("a proposal's reason with a lone surrogate is 422 naming body.reason, and no proposal is stored", async () => {
    const before = counts();
    const res = await t.req('POST', '/admin/actions', {
      as: 'security',
      body: { action: 'broker:create', params: {}, reason: 'because \ud800' },
    });
    expect([res.status, res.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(res.body.error.message).toMatch(/^body\.reason: .*U\+D800/);
    expect(counts()).toEqual(before);
  });

  it("a console user's display_name with a NUL is refused at proposal: 422 naming body.params.display_name", async () => {
    const before = counts();
    const res = await t.req('POST', '/admin/actions', {
      as: 'security',
      body: {
        action: 'console-users:manage',
        params: { name: 'ops.nul', role: 'dealer', display_name: 'Ops\u0000One' },
        reason: 'a new desk',
      },
    });
    expect([res.status, res.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    expect(res.body.error.message).toMatch(/^body\.params\.display_name: .*U\+0000/);
    expect(counts()).toEqual(before);
  });

  it('a key of an object carrying a control character is refused too, naming where it is', async () => {
    const res = await t.req('POST', '/admin/actions', {
      as: 'security',
      body: { action: 'broker:create', params: { 'na\u0000me': 'x' }, reason: 'r' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/^body\.params: a key/);
  });

  it.each([
    ['POST', '/v1/kyc/applications'],
    ['PUT', '/v1/branding'],
  ])(
    '%s %s: an unknown field named like an Object property (constructor, toString, __proto__) carrying bad text is 422 VALIDATION_FAILED, never a 500',
    async (method, url) => {
      for (const field of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
        const raw = JSON.stringify({ [field]: 'bad\u0001' }); // an own key, __proto__ included
        const res = await t.req(method, url, { raw, contentType: 'application/json' });
        expect([res.status, res.body.error.code], `${field}: ${res.text}`).toEqual([422, 'VALIDATION_FAILED']);
      }
    },
  );

  it('tab and line feed stay allowed in text (a multi-line reason), and so do Arabic, emoji and joiners', async () => {
    const res = await t.req('POST', '/admin/actions', {
      as: 'security',
      body: { action: 'broker:create', params: {}, reason: 'سطر أول\n\tsecond line 👩‍👩‍👧 \u200d' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INVALID_ACTION_PARAMS'); // the text passed; the empty params did not
  });
});

function merge(base: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') return [merge(Array.isArray(base) ? base[0] : undefined, rest, value)];
  const obj = base && typeof base === 'object' && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  return { ...obj, [head]: merge(obj[head], rest, value) };
}
