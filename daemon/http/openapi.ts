// OpenAPI 3.1 from the route definitions: zod 4 emits JSON Schema 2020-12, which 3.1 uses as is.
import { z } from 'zod';
import type { RouteDef } from '../contract/route.js';
import { ERROR_CODES } from '../contract/errors.js';

const SECURITY: Record<string, Array<Record<string, string[]>>> = {
  B: [{ bearer: [] }],
  I: [{ bearer: [], idempotencyKey: [] }],
  S: [{ bearer: [], idempotencyKey: [], signature: [], timestamp: [] }],
};

/**
 * Named schemas shared by the document (components.schemas). zod emits a schema that reuses a named
 * one (`.meta({ id })`) as `$ref: '#/$defs/Name'` with the definition in the schema's own `$defs`; in
 * an OpenAPI document such a reference resolves against the document's root, so every `$defs` entry
 * moves to components.schemas and its references follow. A name whose input and output forms differ
 * (defaults, transforms) gets one entry per form.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function rewriteRefs(node: Json, rename: Map<string, string>): Json {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, rename));
  if (node === null || typeof node !== 'object') return node;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
      const name = v.slice('#/$defs/'.length);
      out[k] = `#/components/schemas/${rename.get(name) ?? name}`;
    } else out[k] = rewriteRefs(v, rename);
  }
  return out;
}

function createSchemaRegistry() {
  const components: Record<string, Json> = {};
  return {
    components,
    schemaOf(s: z.ZodType, io: 'input' | 'output'): Json {
      const js = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as { [k: string]: Json };
      const { $defs, ...rest } = js;
      const local = ($defs ?? {}) as Record<string, Json>;
      const rename = new Map<string, string>();
      for (const [name, def] of Object.entries(local)) {
        const have = components[name];
        if (have !== undefined && JSON.stringify(have) !== JSON.stringify(rewriteRefs(def, new Map()))) rename.set(name, `${name}${io === 'input' ? 'Input' : 'Output'}`);
      }
      for (const [name, def] of Object.entries(local)) components[rename.get(name) ?? name] = rewriteRefs(def, rename);
      return rewriteRefs(rest, rename);
    },
  };
}

function parametersOf(def: RouteDef, schemaOf: (s: z.ZodType, io: 'input' | 'output') => Json): unknown[] {
  const out: unknown[] = [];
  for (const [where, s] of [['path', def.params], ['query', def.query]] as const) {
    if (!s) continue;
    const js = schemaOf(s, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, schema] of Object.entries(js.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema });
    }
  }
  return out;
}

export function buildOpenApi(routes: RouteDef[], version: string): string {
  const paths: Record<string, Record<string, unknown>> = {};
  const registry = createSchemaRegistry();
  const schemaOf = registry.schemaOf;
  for (const def of routes) {
    const url = def.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op: Record<string, unknown> = {
      summary: def.summary,
      tags: def.tags,
      operationId: `${def.method.toLowerCase()}${url.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters: parametersOf(def, schemaOf),
      responses: {
        [String(def.status ?? 200)]: {
          description: 'Success',
          content: def.response ? { 'application/json': { schema: schemaOf(def.response, 'output') } } : undefined,
        },
        default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
    if (typeof def.auth === 'string' && SECURITY[def.auth]) op.security = SECURITY[def.auth];
    if (typeof def.auth === 'object') {
      op.security = [{ [def.auth.realm === 'admin' ? 'adminKey' : 'consoleKey']: [] }];
      op['x-grant'] = def.auth.grant;
    }
    if (def.body) op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(def.body, 'input') } } };
    if (def.rawBody) {
      op.requestBody = { required: true, content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } }, 'image/png': { schema: { type: 'string', format: 'binary' } } } };
    }
    if (def.errors) op['x-error-codes'] = def.errors;
    (paths[url] ??= {})[def.method.toLowerCase()] = op;
  }
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'svc brokerage sandbox API', version, description: 'Local sandbox of the embedded brokerage service on the Egyptian Exchange. Money is integer micros.' },
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        idempotencyKey: { type: 'apiKey', in: 'header', name: 'Idempotency-Key' },
        signature: { type: 'apiKey', in: 'header', name: 'X-Svc-Signature' },
        timestamp: { type: 'apiKey', in: 'header', name: 'X-Svc-Timestamp' },
        adminKey: { type: 'apiKey', in: 'header', name: 'X-Admin-Key' },
        consoleKey: { type: 'apiKey', in: 'header', name: 'X-Console-Key' },
      },
      schemas: {
        ...registry.components,
        Error: {
          type: 'object',
          required: ['error', 'request_id'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string', enum: Object.keys(ERROR_CODES) }, message: { type: 'string' } },
            },
            request_id: { type: 'string', pattern: '^req_' },
          },
        },
      },
    },
  });
}
