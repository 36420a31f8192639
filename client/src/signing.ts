// The v1 request signature of money routes (the repo's docs/api.md, "Signing"): HMAC-SHA256 with the
// tenant's signing secret over seven lines, the last one the hex SHA-256 of the exact body bytes sent.
import { createHash, createHmac } from 'node:crypto';

export interface SignInput {
  /** Integer Unix seconds of the wall clock. */
  timestamp: string;
  method: string;
  /** The path as sent, without the query string. */
  path: string;
  /** The query string as sent, without '?', or ''. */
  rawQuery: string;
  idempotencyKey: string;
  /** The exact bytes of the body ('' or an empty array when there is none). */
  body: string | Uint8Array;
}

export function stringToSign(input: SignInput): string {
  const bodyHash = createHash('sha256').update(input.body).digest('hex');
  return [
    'v1',
    input.timestamp,
    input.method.toUpperCase(),
    input.path,
    input.rawQuery,
    input.idempotencyKey,
    bodyHash,
  ].join('\n');
}

/** The X-Svc-Signature header value: `v1=<hex>`. */
export function signV1(secret: string, input: SignInput): string {
  return `v1=${createHmac('sha256', secret).update(stringToSign(input)).digest('hex')}`;
}

/** Splits "/v1/x?a=1" into its path and raw query. */
export function splitPath(pathAndQuery: string): { path: string; rawQuery: string } {
  const q = pathAndQuery.indexOf('?');
  return q < 0
    ? { path: pathAndQuery, rawQuery: '' }
    : { path: pathAndQuery.slice(0, q), rawQuery: pathAndQuery.slice(q + 1) };
}

/** Which tenant writes the API requires a key on (I) and which it also requires signed (S); the rest are B. */
const RULES: Array<{ method: string; pattern: RegExp; auth: 'I' | 'S' }> = [
  { method: 'POST', pattern: /^\/v1\/orders$/, auth: 'S' },
  { method: 'DELETE', pattern: /^\/v1\/orders\/[^/]+$/, auth: 'S' },
  { method: 'POST', pattern: /^\/v1\/fund-orders$/, auth: 'S' },
  { method: 'POST', pattern: /^\/v1\/transfers$/, auth: 'S' },
  { method: 'POST', pattern: /^\/v1\/kyc\/applications$/, auth: 'I' },
  { method: 'PUT', pattern: /^\/v1\/kyc\/applications\/[^/]+\/documents\/[^/]+$/, auth: 'I' },
  { method: 'POST', pattern: /^\/v1\/kyc\/applications\/[^/]+\/submit$/, auth: 'I' },
  { method: 'PUT', pattern: /^\/v1\/investors\/[^/]+\/suitability$/, auth: 'I' },
];

export function tenantAuthFor(method: string, path: string): 'B' | 'I' | 'S' {
  const m = method.toUpperCase();
  return RULES.find((r) => r.method === m && r.pattern.test(path))?.auth ?? 'B';
}
