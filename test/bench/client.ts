// One request to a bench daemon as a client would send it: keyed, and signed when the route is a
// money route (the same signing code the daemon verifies with). Throws on a non-2xx answer.
import { randomUUID } from 'node:crypto';
import { sign, splitUrl } from '../../daemon/contract/signing.js';
import { tenantAuthFor } from '../../daemon/contract/routes-auth.js';
import type { DaemonHandle } from './context.js';

export async function call(
  d: DaemonHandle,
  method: string,
  url: string,
  body?: unknown,
  admin = false,
  timeoutMs = 30_000,
): Promise<any> {
  const raw = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string> = admin ? { 'x-admin-key': d.creds.admin_key } : { ...d.bearer };
  if (raw) headers['content-type'] = 'application/json';
  const { path, rawQuery } = splitUrl(url);
  const mode = admin ? 'B' : tenantAuthFor(method, path);
  if (mode !== 'B') {
    const key = randomUUID();
    headers['idempotency-key'] = key;
    if (mode === 'S') {
      const timestamp = String(Math.floor(Date.now() / 1000));
      headers['x-svc-timestamp'] = timestamp;
      headers['x-svc-signature'] = sign(d.creds.signing_secret, {
        timestamp,
        method,
        path,
        rawQuery,
        idempotencyKey: key,
        body: raw,
      });
    }
  }
  const res = await fetch(d.baseUrl + url, {
    method,
    headers,
    body: raw || undefined,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}
