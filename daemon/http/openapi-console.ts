// /openapi.json's description of the browser console's own calls (/console/api/*, daemon/console/routes.ts):
// they are not routes of the pipeline (a session cookie and passkeys, not an API key), so they are listed
// here, each with its answer's schema (daemon/contract/schemas/console.ts, the same the answer checker
// holds them to) and the codes it refuses with.
import { z } from 'zod';
import { CONSOLE_API_ANSWERS } from '../contract/schemas/console.js';
import { ERROR_CODES, type ErrorCode } from '../contract/errors.js';
import { REF, type Json } from './openapi-schemas.js';

type Route = keyof typeof CONSOLE_API_ANSWERS;

const SUMMARY: Record<Route, [string, ErrorCode[]]> = {
  'POST /console/api/enroll/options': [
    'Passkey enrolment: the options for an enrolment code',
    ['ENROLMENT_CODE_INVALID'],
  ],
  'POST /console/api/enroll/verify': [
    "Passkey enrolment: the browser's new credential, stored for the code's identity",
    ['ENROLMENT_CODE_INVALID', 'PASSKEY_REJECTED'],
  ],
  'POST /console/api/login/options': ['Sign-in: the options of a passkey assertion', []],
  'POST /console/api/login/verify': [
    'Sign-in: a passkey assertion opens a session (Set-Cookie)',
    ['PASSKEY_REJECTED', 'KEY_REVOKED', 'IDENTITY_DISABLED'],
  ],
  'GET /console/api/me': ['Who is signed in: identity, grants, step-up state and the CSRF token', ['UNAUTHENTICATED']],
  'POST /console/api/step-up/options': [
    "Step-up: the options of an assertion with the identity's passkeys",
    ['UNAUTHENTICATED', 'CSRF_REFUSED'],
  ],
  'POST /console/api/step-up/verify': [
    "Step-up: an assertion with one of the identity's passkeys",
    ['UNAUTHENTICATED', 'CSRF_REFUSED', 'PASSKEY_REJECTED'],
  ],
  'POST /console/api/logout': [
    'Sign-out: the session ends and its cookie is cleared',
    ['UNAUTHENTICATED', 'CSRF_REFUSED'],
  ],
};

const ERROR_CONTENT = { 'application/json': { schema: { $ref: `${REF}Error` } } };

function errorResponses(codes: ErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = { description: list.join(', '), 'x-error-codes': list, content: ERROR_CONTENT };
  }
  out.default = { description: 'A transport-level refusal (ROUTE_NOT_FOUND, BAD_REQUEST...)', content: ERROR_CONTENT };
  return out;
}

/** The route's own codes, and those of the server for every call: the path's spelling, a body's parsing. */
function codesOf(route: Route, method: string): ErrorCode[] {
  const body: ErrorCode[] =
    method === 'POST' ? ['MALFORMED_JSON', 'UNSUPPORTED_CONTENT_TYPE', 'PAYLOAD_TOO_LARGE'] : [];
  return [...SUMMARY[route][1], 'NON_CANONICAL_PATH', ...body, 'INTERNAL'];
}

function operationOf(route: Route, schema: z.ZodType): Record<string, Json> {
  const [method, url] = route.split(' ');
  const summary = SUMMARY[route][0];
  const codes = codesOf(route, method);
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error(`openapi: the console answer of ${route} has no id`);
  const signedIn = !url.includes('/enroll/') && !url.includes('/login/');
  return {
    operationId:
      `${method.toLowerCase()}` +
      `${url.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary,
    description: `${summary}. The browser console's own call (docs/console.md), not part of the brokerage API.`,
    tags: ['console'],
    security: signedIn ? [{ consoleSession: [] }] : [],
    ...(method === 'POST'
      ? {
          requestBody: {
            required: false,
            content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
          },
        }
      : {}),
    responses: {
      '200': { description: 'Success', content: { 'application/json': { schema: { $ref: REF + id } } } },
      ...errorResponses(codes),
    },
    'x-error-codes': codes,
  };
}

/** The console's calls as OpenAPI paths; their answers' components are reached through the `$ref`s. */
export function consolePaths(): Record<string, Record<string, Json>> {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [route, schema] of Object.entries(CONSOLE_API_ANSWERS) as Array<[Route, z.ZodType]>) {
    const [method, url] = route.split(' ');
    (paths[url] ??= {})[method.toLowerCase()] = operationOf(route, schema);
  }
  return paths;
}
