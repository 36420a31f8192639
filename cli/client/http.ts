// The CLI's API client on undici: adds the right credentials for the realm of the path, and for
// money routes an Idempotency-Key and the v1 signature (same code as the daemon's verifier).
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { sign, splitUrl } from '../../daemon/contract/signing.js';
import { realmFor, tenantAuthFor } from '../../daemon/contract/routes-auth.js';
import type { ErrorBody } from '../../daemon/contract/errors.js';
import type { Profile } from '../context.js';

/** An answer of the daemon. `body` is T (a response type of daemon/contract/schemas) when the status
 *  is 2xx; otherwise the error body (read it with refusalOf), or text when the answer was not JSON. */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: Buffer;
  contentType?: string;
  idempotencyKey?: string;
  /** Override the realm's default credentials (e.g. the security or approver key). */
  adminKey?: string;
  /** Send these credentials whatever the path's realm (the scenario runner's `as:`); 'none' sends none. */
  identity?: Identity;
  /** Extra headers, applied last; null removes a header the client would have sent. */
  headers?: Record<string, string | null>;
  timeoutMs?: number;
}

export type Identity = 'tenant' | 'admin' | 'dealer' | 'security' | 'approver' | 'none';

export class DaemonUnreachable extends Error {
  constructor(readonly baseUrl: string, cause: unknown) {
    super(`No sandbox answers at ${baseUrl} (${(cause as Error)?.message ?? cause}). Start one with: svc sandbox start`);
  }
}

export async function api<T = unknown>(profile: Profile, method: string, pathAndQuery: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const { path, rawQuery } = splitUrl(pathAndQuery);
  const headers: Record<string, string> = { accept: 'application/json' };
  let payload: string | Buffer | undefined;
  if (opts.rawBody) {
    payload = opts.rawBody;
    headers['content-type'] = opts.contentType ?? 'application/octet-stream';
  } else if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const realm = opts.identity ? identityRealm(opts.identity) : realmFor(path);
  if (realm === 'tenant') {
    if (profile.api_key) headers.authorization = `Bearer ${profile.api_key}`;
    const auth = tenantAuthFor(method, path);
    if (auth !== 'B') {
      const key = opts.idempotencyKey ?? `cli-${randomUUID()}`;
      headers['idempotency-key'] = key;
      if (auth === 'S' && profile.signing_secret) {
        const timestamp = String(Math.floor(Date.now() / 1000));
        headers['x-svc-timestamp'] = timestamp;
        headers['x-svc-signature'] = sign(profile.signing_secret, { timestamp, method, path, rawQuery, idempotencyKey: key, body: payload ?? '' });
      }
    }
  } else if (realm === 'admin') {
    const key = opts.adminKey ?? (opts.identity === 'security' ? profile.security_key : opts.identity === 'approver' ? profile.approver_key : profile.admin_key);
    if (key) headers['x-admin-key'] = key;
  } else if (realm === 'console') {
    if (profile.dealer_key) headers['x-console-key'] = profile.dealer_key;
  }
  for (const [name, value] of Object.entries(opts.headers ?? {})) {
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  let res;
  try {
    res = await request(profile.base_url + pathAndQuery, {
      method: method.toUpperCase() as 'GET',
      headers,
      body: payload,
      headersTimeout: opts.timeoutMs ?? 120_000,
      bodyTimeout: opts.timeoutMs ?? 120_000,
    });
  } catch (err) {
    throw new DaemonUnreachable(profile.base_url, err);
  }
  const raw = Buffer.from(await res.body.arrayBuffer());
  const type = String(res.headers['content-type'] ?? '');
  const body: unknown = type.includes('json') && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8');
  // The caller names the type it expects: the schema /openapi.json documents for the route.
  return { status: res.statusCode, body: body as T, headers: res.headers, raw };
}

/** The error body of a refusal, as far as the body carries one; undefined for a text or empty body. */
export function refusalOf(body: unknown): Partial<ErrorBody> | undefined {
  return body !== null && typeof body === 'object' ? (body as Partial<ErrorBody>) : undefined;
}

function identityRealm(identity: Identity): ReturnType<typeof realmFor> {
  if (identity === 'tenant') return 'tenant';
  if (identity === 'dealer') return 'console';
  if (identity === 'none') return 'none';
  return 'admin';
}
