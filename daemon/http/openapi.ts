// OpenAPI 3.1 from the route definitions, complete enough to generate a working client
// (docs/api.md, "OpenAPI"): each operation's success and error statuses with their codes, every
// media type it answers, the request-signing headers as parameters, and the schemas zod emits
// (JSON Schema 2020-12, which 3.1 uses as is).
import type { RouteDef } from '../contract/route.js';
import { ERROR_CODES, type ErrorCode } from '../contract/errors.js';
import { buildSchemas, REF, type Json, type Schemas } from './openapi-schemas.js';
import { STEP_UP_ROUTES } from '../contract/grants.js';
import { consolePaths } from './openapi-console.js';

type JsonObject = { [k: string]: Json };

const TAGS: Record<string, string> = {
  market: 'Calendar, instruments, quotes, candles and bonds of the Egyptian Exchange (XCAI)',
  news: 'The news fixture, newest first',
  assets: 'Static assets: generated instrument logos',
  onboarding: 'KYC applications, ID documents, suitability, investors and accounts',
  ledger: 'Balances and the activity feed',
  transfers: 'Deposits and withdrawals on the payment rail (signed)',
  orders: 'Orders (signed) and contract notes',
  funds: 'Money-market funds and fund orders (signed)',
  portfolio: 'Positions, performance and statements',
  desk: 'The dealer desk (X-Console-Key with grants)',
  backoffice: 'Tenants and the audit log (X-Admin-Key with grants)',
  sandbox: 'Sandbox controls: clock, reset, snapshots, journal, market overrides (X-Admin-Key)',
  service: 'Health and this document',
  console:
    "The browser console's own calls: passkey enrolment, sign-in, step-up and sign-out (a session cookie, not " +
    'part of the brokerage API)',
  assistant:
    'The information-only assistant: glossary, disclosures, error and order explainers in English and Arabic, ' +
    'grounded in the registries; never advice (bearer key)',
};

/** The codes the HTTP layer itself can answer on this route: authentication, signing, idempotency, shape. */
function layerCodes(def: RouteDef): ErrorCode[] {
  // UNAUTHENTICATED on every route: a replay ticket header (docs/snapshots.md) that is not known is
  // refused before the route's own auth mode is looked at, public routes included.
  const codes: ErrorCode[] = ['INTERNAL', 'NON_CANONICAL_PATH', 'UNAUTHENTICATED'];
  if (def.auth === 'I' || def.auth === 'S')
    codes.push('IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_INVALID', 'IDEMPOTENCY_KEY_REUSED');
  if (def.auth === 'B' && def.method !== 'GET') codes.push('IDEMPOTENCY_KEY_INVALID', 'IDEMPOTENCY_KEY_REUSED');
  if (def.auth === 'S') codes.push('SIGNATURE_INVALID', 'SIGNATURE_EXPIRED');
  if (typeof def.auth === 'object') codes.push('FORBIDDEN', 'KEY_REVOKED');
  if (STEP_UP_ROUTES.has(`${def.method} ${def.url}`)) codes.push('STEP_UP_REQUIRED');
  if (def.params || def.query || def.body) codes.push('VALIDATION_FAILED');
  // The content parsers run before the route on any request that may carry a body, with or without
  // a body schema: a JSON body is parsed (and refused when malformed), a charset other than UTF-8 is
  // refused, and every route has a size limit.
  if (def.method !== 'GET') codes.push('MALFORMED_JSON', 'UNSUPPORTED_CONTENT_TYPE', 'PAYLOAD_TOO_LARGE');
  if (def.rawBody) codes.push('UNSUPPORTED_MEDIA_TYPE');
  return codes;
}

/** Every code the route can answer, grouped by the status the registry gives it. */
export function errorsByStatus(def: RouteDef): Map<number, ErrorCode[]> {
  const all = new Set<ErrorCode>([...(def.errors ?? []), ...layerCodes(def)]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of all) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}

function errorResponses(def: RouteDef): JsonObject {
  const out: JsonObject = {};
  for (const [status, codes] of errorsByStatus(def)) {
    out[String(status)] = {
      description: codes.join(', '),
      'x-error-codes': codes,
      content: { 'application/json': { schema: { $ref: `${REF}Error` } } },
    };
  }
  out.default = {
    description: 'A transport-level refusal (ROUTE_NOT_FOUND, BAD_REQUEST...)',
    content: { 'application/json': { schema: { $ref: `${REF}Error` } } },
  };
  return out;
}

const BYTES: Json = { type: 'string', format: 'binary' };

function successResponse(def: RouteDef, schemas: Schemas): JsonObject {
  const content: JsonObject = {};
  if (def.response) content['application/json'] = { schema: schemas.ref(def.response, 'output') };
  for (const type of def.produces ?? []) {
    content[type] = {
      schema: type === 'application/x-ndjson' ? { type: 'string', description: 'one JSON document a line' } : BYTES,
    };
  }
  const status = String(def.status ?? 200);
  return {
    [status]: Object.keys(content).length > 0 ? { description: 'Success', content } : { description: 'Success' },
  };
}

/** Path and query parameters from the route's schemas, then the headers its auth mode needs. */
function parametersOf(def: RouteDef, schemas: Schemas): Json[] {
  const out: Json[] = [];
  for (const [where, s] of [
    ['path', def.params],
    ['query', def.query],
  ] as const) {
    if (!s) continue;
    const js = schemas.inline(s, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(js.properties ?? {})) {
      const { description, ...rest } = (schema ?? {}) as JsonObject;
      const p: JsonObject = {
        name,
        in: where,
        required: where === 'path' || (js.required ?? []).includes(name),
        schema: rest,
      };
      if (typeof description === 'string') p.description = description;
      out.push(p);
    }
  }
  if (def.auth === 'I' || def.auth === 'S') out.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (def.auth === 'B' && def.method !== 'GET') out.push({ $ref: '#/components/parameters/OptionalIdempotencyKey' });
  if (def.auth === 'S')
    out.push({ $ref: '#/components/parameters/SvcTimestamp' }, { $ref: '#/components/parameters/SvcSignature' });
  return out;
}

/**
 * Tenant routes name the headers they need in their security requirement too (tools that read
 * authentication from it, like the test suite's fuzzer, know I and S routes by it); the header
 * parameters are what gives a generated client a typed place for them.
 */
const TENANT_SECURITY: Record<'B' | 'I' | 'S', Json> = {
  B: [{ bearer: [] }],
  I: [{ bearer: [], idempotencyKey: [] }],
  S: [{ bearer: [], idempotencyKey: [], signature: [], timestamp: [] }],
};

function securityOf(def: RouteDef): JsonObject {
  if (def.auth === 'none') return { security: [] };
  if (typeof def.auth === 'string') return { security: TENANT_SECURITY[def.auth] };
  return { security: [{ [def.auth.realm === 'admin' ? 'adminKey' : 'consoleKey']: [] }], 'x-grant': def.auth.grant };
}

function requestBodyOf(def: RouteDef, schemas: Schemas): JsonObject {
  if (def.rawBody) {
    const maxLength = def.rawBody.maxBytes;
    return {
      requestBody: {
        required: true,
        content: {
          'image/jpeg': { schema: { ...(BYTES as JsonObject), maxLength } },
          'image/png': { schema: { ...(BYTES as JsonObject), maxLength } },
        },
      },
    };
  }
  if (def.body)
    return {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: schemas.ref(def.body, 'input') } },
      },
    };
  return {};
}

/** The first sentence of a route's summary; the whole text is the description. */
function headline(text: string): string {
  const end = text.search(/[.:;](\s|$)/);
  return end > 0 ? text.slice(0, end) : text;
}

export function operationIdOf(def: Pick<RouteDef, 'method' | 'url'>): string {
  const url = def.url.replace(/:([A-Za-z_]+)/g, '{$1}');
  return (
    `${def.method.toLowerCase()}` +
    `${url.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`
  );
}

function operationOf(def: RouteDef, schemas: Schemas): JsonObject {
  const errors = errorsByStatus(def);
  return {
    operationId: operationIdOf(def),
    summary: headline(def.summary),
    description: def.summary,
    tags: def.tags,
    ...securityOf(def),
    parameters: parametersOf(def, schemas),
    ...requestBodyOf(def, schemas),
    responses: { ...successResponse(def, schemas), ...errorResponses(def) },
    'x-error-codes': [...errors.values()].flat(),
  };
}

/** /healthz and /openapi.json: served by the app itself, outside the route list. */
function servicePaths(): Record<string, JsonObject> {
  const plain = (summary: string, description: string, schema: Json) => ({
    get: {
      operationId: summary === 'Health' ? 'getHealthz' : 'getOpenapiJson',
      summary,
      description,
      tags: ['service'],
      security: [],
      responses: {
        '200': { description: 'Success', content: { 'application/json': { schema } } },
        // a path in another spelling is refused before routing, here as on every route
        '400': {
          description: 'NON_CANONICAL_PATH',
          'x-error-codes': ['NON_CANONICAL_PATH'],
          content: { 'application/json': { schema: { $ref: `${REF}Error` } } },
        },
      },
      'x-error-codes': ['NON_CANONICAL_PATH'],
    },
  });
  return {
    '/healthz': plain(
      'Health',
      'Liveness: the daemon answers, with its version, the simulated time and its sandbox id (clients check ' +
        'the id before sending anything, so a command never acts on another sandbox that owns the port).',
      { $ref: `${REF}Health` },
    ),
    '/openapi.json': plain(
      'This document',
      'The OpenAPI 3.1 document of this API, generated from the route definitions.',
      { type: 'object', additionalProperties: true },
    ),
  };
}

const SERVICE_SCHEMAS: Record<string, Json> = {
  Health: {
    type: 'object',
    required: ['status', 'version', 'sim_time', 'sandbox_id'],
    properties: {
      status: { type: 'string', const: 'ok' },
      version: { type: 'string' },
      sim_time: { type: 'string', format: 'date-time' },
      sandbox_id: {
        type: ['string', 'null'],
        description: "The home's sandbox id (sbx_ and 16 hex digits); null for an app built without a home.",
      },
    },
    additionalProperties: false,
  },
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
};

const HEADER_PARAMETERS: Record<string, Json> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: true,
    description:
      'One key per logical request: a retry with the same key and body answers the first response ' +
      '(docs/api.md, "Idempotency").',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  OptionalIdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Optional on this route: when sent, a retry with the same key and body answers the first response, as on ' +
      'the routes that require a key (docs/api.md, "Idempotency").',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  SvcTimestamp: {
    name: 'X-Svc-Timestamp',
    in: 'header',
    required: true,
    description: 'Integer Unix seconds of the wall clock, within 300 s of the server (docs/api.md, "Signing").',
    schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
  },
  SvcSignature: {
    name: 'X-Svc-Signature',
    in: 'header',
    required: true,
    description:
      'v1=<hex HMAC-SHA256(signing_secret, "v1\\n" + timestamp + "\\n" + METHOD + "\\n" + path + "\\n" + ' +
      'raw_query + "\\n" + idempotency_key + "\\n" + hex(sha256(body)))>; several comma-separated while a ' +
      'secret rotates.',
    schema: { type: 'string', pattern: '^v1=[0-9a-f]{64}' },
  },
};

function documentOf(
  paths: Record<string, JsonObject>,
  components: Record<string, Json>,
  version: string,
  tags: string[],
): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc brokerage sandbox API',
      version,
      description: 'Local sandbox of the embedded brokerage service on the Egyptian Exchange. Money is integer micros.',
    },
    servers: [
      {
        url: 'http://{host}:{port}',
        description: 'The local daemon (svc sandbox start; its address is in $SVC_HOME/daemon.json).',
        variables: { host: { default: '127.0.0.1' }, port: { default: '4710' } },
      },
    ],
    tags: tags.map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: "The tenant's API key." },
        idempotencyKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Idempotency-Key',
          description: 'See the IdempotencyKey parameter.',
        },
        signature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Svc-Signature',
          description: 'See the SvcSignature parameter.',
        },
        timestamp: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Svc-Timestamp',
          description: 'See the SvcTimestamp parameter.',
        },
        adminKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Admin-Key',
          description: 'A back-office operator key; each route needs a grant (x-grant).',
        },
        consoleKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Console-Key',
          description: 'A dealer-desk operator key; each route needs a grant (x-grant).',
        },
        consoleSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'svc_console',
          description:
            "The browser console's session cookie (docs/console.md); a state-changing call also sends Origin " +
            'and X-CSRF-Token.',
        },
      },
      parameters: HEADER_PARAMETERS,
      schemas: components,
    },
  };
}

export function buildOpenApi(routes: RouteDef[], version: string): string {
  const schemas = buildSchemas(routes, operationIdOf);
  const paths: Record<string, JsonObject> = { ...servicePaths(), ...consolePaths() };
  for (const def of routes) {
    const url = def.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    (paths[url] ??= {})[def.method.toLowerCase()] = operationOf(def, schemas);
  }
  const tags = [...new Set(['service', ...routes.flatMap((r) => r.tags), 'console'])];
  const components = schemas.used({ paths, extra: SERVICE_SCHEMAS });
  return JSON.stringify(documentOf(paths, { ...components, ...SERVICE_SCHEMAS }, version, tags));
}
