// Request signing of money endpoints (docs/api.md "Signing"). Shared by the daemon (verify) and the CLI
// (sign), so both always agree on the string to sign.
import { createHmac, hash, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_WINDOW_S = 300;

export interface SignInput {
  timestamp: string;
  method: string;
  /** Path without the query string, as sent on the wire (e.g. /v1/orders). */
  path: string;
  /** Query string without the leading '?', or '' when there is none. */
  rawQuery: string;
  idempotencyKey: string;
  body: string | Buffer;
  /** hex(sha256(body)) when the caller has it already (the daemon hashes each body once). */
  bodySha256?: string;
}

export function sha256Hex(data: string | Buffer): string {
  // one-shot: no Hash object per call (about half the cost for a request-sized input)
  return hash('sha256', data, 'hex');
}

export function stringToSign(input: SignInput): string {
  return [
    'v1',
    input.timestamp,
    input.method.toUpperCase(),
    input.path,
    input.rawQuery,
    input.idempotencyKey,
    input.bodySha256 ?? sha256Hex(input.body),
  ].join('\n');
}

export function sign(secret: string, input: SignInput): string {
  return `v1=${createHmac('sha256', secret).update(stringToSign(input)).digest('hex')}`;
}

/** Splits "/v1/x?a=1" into path and raw query. */
export function splitUrl(url: string): { path: string; rawQuery: string } {
  const q = url.indexOf('?');
  return q < 0 ? { path: url, rawQuery: '' } : { path: url.slice(0, q), rawQuery: url.slice(q + 1) };
}

/**
 * True when any of the comma-separated `v1=<hex>` values in the header matches one of the secrets.
 * Comparison is constant-time per candidate.
 */
export function verifySignature(header: string, secrets: readonly string[], input: SignInput): boolean {
  const payload = stringToSign(input);
  const expected = secrets.map((s) => createHmac('sha256', s).update(payload).digest());
  let ok = false;
  for (const part of header.split(',')) {
    const m = /^\s*v1=([0-9a-f]{64})\s*$/.exec(part);
    if (!m) continue;
    const got = Buffer.from(m[1], 'hex');
    for (const exp of expected) if (timingSafeEqual(got, exp)) ok = true;
  }
  return ok;
}
