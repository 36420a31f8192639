// The CLI's API client: a thin adapter over the client library's Core (client/src/http.ts, docs/client.md),
// the CLI being the library's first user. The library makes the Idempotency-Key, signs money routes (v1)
// and retries; this file picks the credentials of the path's realm (or of `identity`) from the profile,
// hands the library undici as its transport (loaded lazily, cli/client/undici.ts), steps up when an
// operator route asks, and answers the status, headers and bytes as they came. Before its first request
// to an address it checks that the daemon there is the sandbox the profile expects (`verifySandbox`): a
// command acts on the sandbox it names, or on none.
import { randomUUID } from 'node:crypto';
import { Core, type Credentials } from '../../client/src/http.js';
import { SvcConnectionError } from '../../client/src/errors.js';
import { splitPath, tenantAuthFor } from '../../client/src/signing.js';
import { TOTP_PERIOD_S, totp, totpStep } from '../../client/src/totp.js';
import {
  fetchTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from '../../client/src/transport.js';
import { loadUndici, prefersUndici } from './undici.js';
import { realmFor } from '../../daemon/contract/routes-auth.js';
import { registeredHomes } from '../../daemon/contract/home-files.js';
import { needsStepUp } from '../../daemon/contract/grants.js';
import type { Expected, Profile } from '../context.js';
import { DaemonUnreachable, SandboxNotRunning, refusalOf, type ApiResponse } from './answers.js';
import { probeHealth } from '../healthz.js';

export { DaemonUnreachable, SandboxNotRunning, refusalOf, type ApiResponse };

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
  /** One attempt's deadline; default 120 s. */
  timeoutMs?: number;
  /**
   * false: exactly one attempt (`svc api` and the scenario runner show and record each answer as it
   * came). Otherwise the library's retries for a GET or a keyed write (docs/cli.md, "Conventions").
   */
  retry?: boolean;
}

export type Identity = 'tenant' | 'admin' | 'dealer' | 'security' | 'approver' | 'none';

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

/** One request as the CLI means it: the library's call, the realm's credentials and the CLI's own headers. */
interface Call {
  method: string;
  pathAndQuery: string;
  creds: Credentials;
  body: unknown;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  /** The caller's headers, applied to what the library would send (null removes one). */
  overrides: Record<string, string | null>;
  timeoutMs: number;
  retry: boolean;
}

export async function api<T = unknown>(
  profile: Profile,
  method: string,
  pathAndQuery: string,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  await verifySandbox(profile);
  const call = callOf(profile, method, pathAndQuery, opts);
  const send = (extra: Record<string, string>) => exchange<T>(profile, call, extra);
  const sent = withOverrides(call.creds.headers, call.overrides, {});
  const secret =
    needsStepUp(method, splitPath(pathAndQuery).path) && sent['x-step-up-code'] === undefined
      ? stepUpSecretOf(profile, sent)
      : undefined;
  return secret ? withStepUp(secret, send) : send({});
}

function callOf(profile: Profile, method: string, pathAndQuery: string, opts: RequestOptions): Call {
  const path = splitPath(pathAndQuery).path;
  const realm = opts.identity ? identityRealm(opts.identity) : realmFor(path);
  const tenant = realm === 'tenant';
  return {
    method,
    pathAndQuery,
    creds: credentialsOf(profile, realm, method, path, opts),
    body: opts.rawBody ?? opts.body,
    contentType: opts.rawBody ? (opts.contentType ?? 'application/octet-stream') : undefined,
    // A route that does not require a key still honours one the user passed (--idempotency-key); a GET
    // and the operator realms (the daemon keeps no idempotency record for them) never carry one.
    idempotencyKey: tenant && method.toUpperCase() !== 'GET' ? opts.idempotencyKey : undefined,
    overrides: opts.headers ?? {},
    timeoutMs: opts.timeoutMs ?? 120_000,
    retry: opts.retry ?? true,
  };
}

/** The profile's credentials for the realm; a tenant route the API keys (or signs) gets a fresh key. */
function credentialsOf(
  profile: Profile,
  realm: ReturnType<typeof realmFor>,
  method: string,
  path: string,
  opts: RequestOptions,
): Credentials {
  if (realm === 'tenant') {
    const auth = tenantAuthFor(method, path);
    return {
      headers: profile.api_key ? { authorization: `Bearer ${profile.api_key}` } : {},
      autoKey: auth !== 'B',
      signingSecret: auth === 'S' ? profile.signing_secret : undefined,
    };
  }
  const headers: Record<string, string> = {};
  if (realm === 'admin') {
    const key =
      opts.adminKey ??
      (opts.identity === 'security'
        ? profile.security_key
        : opts.identity === 'approver'
          ? profile.approver_key
          : profile.admin_key);
    if (key) headers['x-admin-key'] = key;
  } else if (realm === 'console' && profile.dealer_key) headers['x-console-key'] = profile.dealer_key;
  return { headers, autoKey: false };
}

/**
 * A transport error after which the request may have reached the daemon (the connection dropped): the
 * library retries those for a GET or a keyed write. Any other (refused: nothing listens; a timeout) ends
 * the call at once, as exit 3: retrying would only make the CLI slower to say so.
 */
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const dropped = (e: unknown) => DROPPED.has(String((e as { code?: unknown } | null)?.code));

/** One logical call through the library (its retries included); the last answer, as it came. */
async function exchange<T>(profile: Profile, c: Call, extra: Record<string, string>): Promise<ApiResponse<T>> {
  let last: ApiResponse<T> | undefined;
  const stop = new AbortController();
  const core = new Core({
    baseUrl: profile.base_url,
    transport: (prefersUndici() ? undiciTransport : nodeFetchTransport)(c, extra, (res) => {
      last = res as ApiResponse<T>;
    }),
    // both transports keep the deadline with undici's own timeouts (keepsDeadline): no timer of the library's
    retry: c.retry ? { timeoutMs: c.timeoutMs } : { maxAttempts: 1, timeoutMs: c.timeoutMs },
    newIdempotencyKey: () => `cli-${randomUUID()}`,
    onAttempt: (a) => {
      if (a.retryInMs !== undefined && a.status === undefined && !dropped(a.error)) stop.abort(a.error);
    },
  });
  const req = { method: c.method, path: c.pathAndQuery, body: c.body, signal: stop.signal };
  try {
    await core.raw({ ...req, contentType: c.contentType, idempotencyKey: c.idempotencyKey }, c.creds);
  } catch (err) {
    if (err instanceof SvcConnectionError) throw new DaemonUnreachable(profile.base_url, err.cause);
    if (stop.signal.aborted && err === stop.signal.reason) throw new DaemonUnreachable(profile.base_url, err);
    throw err;
  }
  if (!last) throw new Error(`${c.method} ${c.pathAndQuery}: the library answered without an exchange`);
  return last;
}

/** Headers the CLI sends first, in this order (the order they always had); the rest follow. */
const HEADER_ORDER = [
  'accept',
  'content-type',
  'authorization',
  'x-admin-key',
  'x-console-key',
  'idempotency-key',
  'x-svc-timestamp',
  'x-svc-signature',
];

/** The library's headers in the CLI's order, then the caller's (null removes one), then `extra`. */
function withOverrides(
  sent: Record<string, string>,
  overrides: Record<string, string | null>,
  extra: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of HEADER_ORDER) if (sent[name] !== undefined) out[name] = sent[name];
  for (const [name, value] of Object.entries(sent)) out[name] ??= value;
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) delete out[name.toLowerCase()];
    else out[name.toLowerCase()] = value;
  }
  return Object.assign(out, extra);
}

/** What the CLI's transports hand back to the library, once `seen` has the answer with its bytes and headers. */
function answered(
  status: number,
  headers: ApiResponse['headers'],
  raw: Buffer,
  seen: (res: ApiResponse) => void,
): TransportResponse {
  const type = String(headers['content-type'] ?? '');
  const body: unknown =
    type.includes('json') && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8');
  // The caller names the type it expects: the schema /openapi.json documents for the route.
  seen({ status, body, headers, raw });
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  // The library reads a body only to tell a 409 IDEMPOTENCY_KEY_IN_USE (retried); the CLI decoded it
  // above, so the library is spared parsing a large answer twice.
  return { status, headers: flat, body: status === 409 ? raw : NO_BYTES };
}

/**
 * undici's request as the library's transport (cli/client/undici.ts says when), keeping each attempt's
 * deadline with undici's headersTimeout and bodyTimeout.
 */
function undiciTransport(c: Call, extra: Record<string, string>, seen: (res: ApiResponse) => void): Transport {
  const send = async (req: TransportRequest): Promise<TransportResponse> => {
    const { request } = await loadUndici();
    const res = await request(req.url, {
      method: req.method as 'GET',
      headers: withOverrides(req.headers, c.overrides, extra),
      body: req.body,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
      signal: req.signal,
    });
    return answered(res.statusCode, res.headers, Buffer.from(await res.body.arrayBuffer()), seen);
  };
  return Object.assign(send, { keepsDeadline: true });
}

/**
 * Node's fetch as the library's transport: the library's own (which keeps the deadline), with the CLI's
 * headers. fetch wraps a connection's error in a TypeError ("fetch failed"): the cause is thrown, as undici's
 * request throws it, so that a refused or dropped connection reads the same either way.
 */
function nodeFetchTransport(c: Call, extra: Record<string, string>, seen: (res: ApiResponse) => void): Transport {
  const send = async (req: TransportRequest): Promise<TransportResponse> => {
    try {
      const res = await fetchTransport({ ...req, headers: withOverrides(req.headers, c.overrides, extra) });
      const raw = Buffer.from(res.body.buffer, res.body.byteOffset, res.body.length);
      return answered(res.status, res.headers, raw, seen);
    } catch (e) {
      if (e instanceof TypeError && e.cause instanceof Error) throw e.cause;
      throw e;
    }
  };
  return Object.assign(send, { keepsDeadline: fetchTransport.keepsDeadline });
}

const NO_BYTES = new Uint8Array(0);

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
 * STEP_UP_REQUIRED (no window open) makes svc compute one (the library's TOTP, client/src/totp.ts).
 * Each code is accepted once: when this step's code was used, the next step's is tried (the daemon
 * accepts one step ahead), and when both were used the request waits for the next step, which an open
 * window never makes it do. The library's operator clients do the same, but throw a refusal; the CLI
 * shows it (`svc api`), so it steps up over whole answers here.
 */
async function withStepUp<T>(
  secret: string,
  send: (extra: Record<string, string>) => Promise<ApiResponse<T>>,
): Promise<ApiResponse<T>> {
  const refusedStepUp = (r: ApiResponse<T>) =>
    r.status === 401 && refusalOf(r.body)?.error?.code === 'STEP_UP_REQUIRED';
  const inWindow = await send({});
  if (!refusedStepUp(inWindow)) return inWindow;
  const now = totpStep(Date.now());
  for (const step of [now, now + 1]) {
    const res = await send({ 'x-step-up-code': totp(secret, step) });
    if (!refusedStepUp(res)) return res;
  }
  const waitMs = (now + 1) * TOTP_PERIOD_S * 1000 - Date.now() + 50;
  if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
  return send({ 'x-step-up-code': totp(secret, totpStep(Date.now()) + 1) });
}

function identityRealm(identity: Identity): ReturnType<typeof realmFor> {
  if (identity === 'tenant') return 'tenant';
  if (identity === 'dealer') return 'console';
  if (identity === 'none') return 'none';
  return 'admin';
}
