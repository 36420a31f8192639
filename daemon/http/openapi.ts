// OpenAPI 3.1 from the route definitions: zod 4 emits JSON Schema 2020-12, which 3.1 uses as is.
import { z } from 'zod';
import type { RouteDef } from './route.js';
import { ERROR_CODES } from '../contract/errors.js';

const SECURITY: Record<string, Array<Record<string, string[]>>> = {
  B: [{ bearer: [] }],
  I: [{ bearer: [], idempotencyKey: [] }],
  S: [{ bearer: [], idempotencyKey: [], signature: [], timestamp: [] }],
};

function schemaOf(s: z.ZodType, io: 'input' | 'output'): unknown {
  return z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' });
}

function parametersOf(def: RouteDef): unknown[] {
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
  for (const def of routes) {
    const url = def.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op: Record<string, unknown> = {
      summary: def.summary,
      tags: def.tags,
      operationId: `${def.method.toLowerCase()}${url.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters: parametersOf(def),
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
