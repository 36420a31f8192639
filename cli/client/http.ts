// The CLI's API client on undici: adds the right credentials for the realm of the path, and for
// money routes an Idempotency-Key and the v1 signature (same code as the daemon's verifier). Before its
// first request to an address it checks that the daemon there is the sandbox the profile expects
// (`verifySandbox`): a command acts on the sandbox it names, or on none.
import { randomUUID } from 'node:crypto';
import { loadUndici } from './undici.js';
import { sign, splitUrl } from '../../daemon/contract/signing.js';
import { realmFor, tenantAuthFor } from '../../daemon/contract/routes-auth.js';
import type { ErrorBody } from '../../daemon/contract/errors.js';
import { registeredHomes } from '../../daemon/contract/home-files.js';
import { needsStepUp, STEP_UP_TOTP, stepOf, stepUpCode } from '../../daemon/contract/grants.js';
import type { Expected, Profile } from '../context.js';
import { probeHealth } from '../healthz.js';

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
  constructor(
    readonly baseUrl: string,
    cause: unknown,
  ) {
    super(
      `No sandbox answers at ${baseUrl} (${(cause as Error)?.message ?? cause}). Start one with: svc sandbox start`,
    );
  }
}

/**
 * The sandbox the command names is not the one that would answer (it is not running, or another
 * sandbox owns its address): nothing was sent. Exit 3, like a daemon that does not answer.
 */
export class SandboxNotRunning extends DaemonUnreachable {
  constructor(baseUrl: string, message: string) {
    super(baseUrl, null);
    this.message = message;
  }
}

const verified = new Map<string, Promise<void>>();

/**
 * Checks, once per process and address, that the daemon at `profile.base_url` is the sandbox
 * `profile.expect` names: GET /healthz must answer with the home's sandbox id. Throws
 * SandboxNotRunning, naming the home, when the home's sandbox is not running or another one answers.
 * A profile without `expect` (--base-url, a daemon the caller spawned) is not checked.
 */
export function verifySandbox(profile: Profile): Promise<void> {
  const e = profile.expect;
  if (!e) return Promise.resolve();
  const key = `${profile.base_url} ${e.home} ${e.sandbox_id ?? e.env_sandbox_id ?? ''}`;
  let check = verified.get(key);
  if (!check) {
    check = identify(profile.base_url, e);
    verified.set(key, check);
    check.catch(() => verified.delete(key));
  }
  return check;
}

/** A path as one shell word: as is when it is plain, else single-quoted. */
const shellWord = (s: string) => (/^[\w./~-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

async function identify(baseUrl: string, e: Expected): Promise<void> {
  const start = 'Start it with: svc sandbox start';
  if (e.env_sandbox_id && e.sandbox_id && e.env_sandbox_id !== e.sandbox_id) {
    throw new SandboxNotRunning(
      baseUrl,
      `SVC_SANDBOX_ID is ${e.env_sandbox_id}, but the home ${e.home} holds sandbox ${e.sandbox_id}: the ` +
        `environment mixes two sandboxes and nothing was sent. Run eval "$(svc --home ${shellWord(e.home)}` +
        ` sandbox env)", or pass --home.`,
    );
  }
  const expected = e.sandbox_id ?? e.env_sandbox_id ?? e.locator?.sandbox_id ?? null;
  if (expected === null && !e.locator)
    throw new SandboxNotRunning(baseUrl, `No sandbox has been started in home ${e.home}; nothing was sent. ${start}`);
  if (!e.locator && e.url_from === 'home')
    throw new SandboxNotRunning(
      baseUrl,
      `The sandbox of home ${e.home} is not running (no daemon.json); nothing was sent. ${start}`,
    );
  const h = await probeHealth(baseUrl);
  if (!h)
    throw new SandboxNotRunning(
      baseUrl,
      `The sandbox of home ${e.home} is not running: nothing answers at ${baseUrl}, and nothing was sent. ${start}`,
    );
  if (expected === null || h.sandbox_id === expected) return;
  const other = h.sandbox_id ? registeredHomes().find((r) => r.sandbox_id === h.sandbox_id) : undefined;
  const who = other
    ? `the sandbox of home ${other.home} (${h.sandbox_id})`
    : h.sandbox_id
      ? `another sandbox (${h.sandbox_id})`
      : 'another daemon';
  throw new SandboxNotRunning(
    baseUrl,
    `${baseUrl} is ${who}, not the sandbox of home ${e.home} (${expected}); nothing was sent. The sandbox of ` +
      `${e.home} is not running there. ${start}`,
  );
}

export async function api<T = unknown>(
  profile: Profile,
  method: string,
  pathAndQuery: string,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  await verifySandbox(profile);
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
    // A route that does not require a key still honours one the user passed (--idempotency-key).
    if (auth !== 'B' || (opts.idempotencyKey !== undefined && method !== 'GET')) {
      const key = opts.idempotencyKey ?? `cli-${randomUUID()}`;
      headers['idempotency-key'] = key;
      if (auth === 'S' && profile.signing_secret) {
        const timestamp = String(Math.floor(Date.now() / 1000));
        headers['x-svc-timestamp'] = timestamp;
        headers['x-svc-signature'] = sign(profile.signing_secret, {
          timestamp,
          method,
          path,
          rawQuery,
          idempotencyKey: key,
          body: payload ?? '',
        });
      }
    }
  } else if (realm === 'admin') {
    const key =
      opts.adminKey ??
      (opts.identity === 'security'
        ? profile.security_key
        : opts.identity === 'approver'
          ? profile.approver_key
          : profile.admin_key);
    if (key) headers['x-admin-key'] = key;
  } else if (realm === 'console') {
    if (profile.dealer_key) headers['x-console-key'] = profile.dealer_key;
  }
  for (const [name, value] of Object.entries(opts.headers ?? {})) {
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  const send = () => sendOnce<T>(profile, method, pathAndQuery, headers, payload, opts.timeoutMs);
  const secret =
    needsStepUp(method, path) && headers['x-step-up-code'] === undefined ? stepUpSecretOf(profile, headers) : undefined;
  return secret ? withStepUp(secret, headers, send) : send();
}

async function sendOnce<T>(
  profile: Profile,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  payload: string | Buffer | undefined,
  timeoutMs?: number,
): Promise<ApiResponse<T>> {
  const { request } = await loadUndici();
  let res;
  try {
    res = await request(profile.base_url + pathAndQuery, {
      method: method.toUpperCase() as 'GET',
      headers,
      body: payload,
      headersTimeout: timeoutMs ?? 120_000,
      bodyTimeout: timeoutMs ?? 120_000,
    });
  } catch (err) {
    throw new DaemonUnreachable(profile.base_url, err);
  }
  const raw = Buffer.from(await res.body.arrayBuffer());
  const type = String(res.headers['content-type'] ?? '');
  const body: unknown =
    type.includes('json') && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8');
  // The caller names the type it expects: the schema /openapi.json documents for the route.
  return { status: res.statusCode, body: body as T, headers: res.headers, raw };
}

/** The step-up secret of the identity whose key the request carries (credentials.json keeps one each). */
function stepUpSecretOf(profile: Profile, headers: Record<string, string>): string | undefined {
  const key = headers['x-admin-key'] ?? headers['x-console-key'];
  const pairs: Array<[string | undefined, string | undefined]> = [
    [profile.admin_key, profile.admin_step_up],
    [profile.dealer_key, profile.dealer_step_up],
    [profile.security_key, profile.security_step_up],
    [profile.approver_key, profile.approver_step_up],
  ];
  return key ? pairs.find(([k]) => k === key)?.[1] : undefined;
}

/**
 * Sends a money or approval request, stepping up only when the daemon asks (docs/backoffice.md,
 * "Step-up"). A code accepted opens the key's step-up window for 5 minutes, in which the key's money
 * and approval actions need none: so the request goes first without a code, and only a refusal with
 * STEP_UP_REQUIRED (no window open) makes svc compute one. Each code is accepted once: when this
 * step's code was used, the next step's is tried (the daemon accepts one step ahead), and when both
 * were used the request waits for the next step, which an open window never makes it do.
 */
async function withStepUp<T>(
  secret: string,
  headers: Record<string, string>,
  send: () => Promise<ApiResponse<T>>,
): Promise<ApiResponse<T>> {
  const refusedStepUp = (r: ApiResponse<T>) =>
    r.status === 401 && refusalOf(r.body)?.error?.code === 'STEP_UP_REQUIRED';
  const inWindow = await send();
  if (!refusedStepUp(inWindow)) return inWindow;
  const now = stepOf(Date.now());
  for (const step of [now, now + 1]) {
    headers['x-step-up-code'] = stepUpCode(secret, { step });
    const res = await send();
    if (!refusedStepUp(res)) return res;
  }
  const waitMs = (now + 1) * STEP_UP_TOTP.period * 1000 - Date.now() + 50;
  if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
  headers['x-step-up-code'] = stepUpCode(secret, { step: stepOf(Date.now()) + 1 });
  return send();
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
