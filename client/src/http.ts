// The request core every sub-client shares: credentials for the realm, the Idempotency-Key made once per
// logical call, the v1 signature over the exact bytes of each attempt, retries with backoff, and the
// answer decoded (JSON with exact big integers, or bytes) or thrown as an SvcError.
import { randomUUID } from 'node:crypto';
import { deadlineSignal } from './deadline.js';
import { errorOf, SvcConnectionError } from './errors.js';
import { parseJson } from './json.js';
import {
  backoffMs,
  type Clock,
  DEFAULT_RETRY,
  RETRY_STATUSES,
  type RetryPolicy,
  retryAfterMs,
  systemClock,
} from './retry.js';
import { signV1, splitPath } from './signing.js';
import { fetchTransport, type Transport, type TransportResponse } from './transport.js';

/** One attempt of a call, handed to `onAttempt` when it ends. */
export interface Attempt {
  /** 1 for the first try. */
  attempt: number;
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** The answer's status; undefined when none came. */
  status: number | undefined;
  error: unknown;
  /** The wait before the next attempt, or undefined when this attempt was the last. */
  retryInMs: number | undefined;
}

export interface CoreOptions {
  baseUrl: string;
  transport?: Transport;
  retry?: Partial<RetryPolicy>;
  clock?: Partial<Clock>;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
  /** Makes a fresh Idempotency-Key; default `svc-` + a random UUID. */
  newIdempotencyKey?: () => string;
  onAttempt?: (attempt: Attempt) => void;
}

/** What a sub-client adds to a request: its realm's credentials and whether to key and sign it. */
export interface Credentials {
  headers: Record<string, string>;
  /** Make an Idempotency-Key when the caller passes none. */
  autoKey: boolean;
  /** Sign with this secret (v1). */
  signingSecret?: string;
}

export interface CallOptions {
  /** Use this Idempotency-Key instead of a fresh one (kept on every retry). */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Extra headers (lower-case names win over the client's). */
  headers?: Record<string, string>;
  /** One attempt's deadline, overriding the client's. */
  timeoutMs?: number;
  /** Content type of a bytes body; default application/octet-stream (images: image/png or image/jpeg). */
  contentType?: string;
}

export interface RawCall extends CallOptions {
  method: string;
  /** Path and query, e.g. /v1/orders?status=open. */
  path: string;
  /** A JSON value (serialised once) or the exact bytes to send. */
  body?: unknown;
}

export interface Answer<T = unknown> {
  status: number;
  headers: Record<string, string>;
  data: T;
}

export class Core {
  readonly baseUrl: string;
  readonly transport: Transport;
  readonly policy: RetryPolicy;
  readonly clock: Clock;
  readonly random: () => number;
  readonly newKey: () => string;
  readonly onAttempt?: (a: Attempt) => void;

  constructor(o: CoreOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    this.transport = o.transport ?? fetchTransport;
    this.policy = { ...DEFAULT_RETRY, ...o.retry };
    this.clock = { ...systemClock, ...o.clock };
    this.random = o.random ?? Math.random;
    this.newKey = o.newIdempotencyKey ?? (() => `svc-${randomUUID()}`);
    this.onAttempt = o.onAttempt;
  }

  /** Sends one logical call (with its retries) and decodes the answer; a non-2xx answer throws SvcError. */
  async call<T>(req: RawCall, creds: Credentials): Promise<Answer<T>> {
    const answer = await this.raw(req, creds);
    if (answer.status >= 200 && answer.status < 300) return answer as Answer<T>;
    const request = `${req.method.toUpperCase()} ${req.path}`;
    throw errorOf(answer.status, answer.data, answer.headers['x-request-id'] ?? '', request);
  }

  /**
   * The same call, answering whatever status came last (after the retries) instead of throwing on a
   * refusal: for tools that show the answer as it is (the CLI's `svc api`). No answer still throws.
   */
  async raw(req: RawCall, creds: Credentials): Promise<Answer<unknown>> {
    const res = await this.exchange(req, creds, prepare(req, creds, this.newKey));
    return { status: res.status, headers: res.headers, data: decode(res) };
  }

  private async exchange(req: RawCall, creds: Credentials, p: Prepared): Promise<TransportResponse> {
    const method = req.method.toUpperCase();
    const retryable = method === 'GET' || p.headers['idempotency-key'] !== undefined;
    const limit = retryable ? Math.max(1, this.policy.maxAttempts) : 1;
    for (let attempt = 1; ; attempt++) {
      const headers = this.signed(method, req.path, p, creds);
      const outcome = await this.attempt(method, req, headers, p.body);
      if (req.signal?.aborted) throw req.signal.reason;
      const wait = attempt < limit ? this.retryDelay(outcome, attempt) : undefined;
      this.onAttempt?.({
        attempt,
        method,
        path: req.path,
        idempotencyKey: p.headers['idempotency-key'],
        status: outcome.res?.status,
        error: outcome.error,
        retryInMs: wait,
      });
      if (wait === undefined) {
        if (outcome.res) return outcome.res;
        const why = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
        throw new SvcConnectionError(
          `${method} ${req.path}: no answer after ${attempt} attempt(s): ${why}`,
          `${method} ${req.path}`,
          attempt,
          outcome.error,
        );
      }
      await this.clock.sleep(wait, req.signal);
    }
  }

  /** An attempt's headers: the prepared ones, with a fresh timestamp and signature when the call is signed. */
  private signed(method: string, pathAndQuery: string, p: Prepared, creds: Credentials): Record<string, string> {
    const key = p.headers['idempotency-key'];
    if (!creds.signingSecret || key === undefined) return p.headers;
    const timestamp = String(Math.floor(this.clock.now() / 1000));
    const { path, rawQuery } = splitPath(pathAndQuery);
    const body = p.body ?? '';
    const signature = signV1(creds.signingSecret, { timestamp, method, path, rawQuery, idempotencyKey: key, body });
    return { ...p.headers, 'x-svc-timestamp': timestamp, 'x-svc-signature': signature };
  }

  /**
   * One exchange, with the attempt's deadline: kept by the transport when it can (the default fetch
   * transport hands it to undici), else an AbortSignal and a timer here.
   */
  private async attempt(method: string, req: RawCall, headers: Record<string, string>, body: Uint8Array | undefined) {
    const url = this.baseUrl + req.path;
    const timeoutMs = req.timeoutMs ?? this.policy.timeoutMs;
    const deadline = this.transport.keepsDeadline ? undefined : deadlineSignal(timeoutMs, req.signal);
    try {
      const signal = deadline ? deadline.signal : req.signal;
      const res = await this.transport({ method, url, headers, body, timeoutMs, signal });
      return { res, error: undefined };
    } catch (error) {
      return { res: undefined, error };
    } finally {
      deadline?.done();
    }
  }

  /** The wait before another attempt, or undefined when this outcome is final. */
  private retryDelay(o: { res?: TransportResponse; error: unknown }, attempt: number): number | undefined {
    const backoff = backoffMs(attempt, this.policy, this.random);
    if (!o.res) return backoff;
    if (o.res.status === 409) return isKeyInUse(o.res) ? backoff : undefined;
    if (!RETRY_STATUSES.has(o.res.status)) return undefined;
    const after = retryAfterMs(o.res.headers['retry-after'], this.clock.now());
    if (after === undefined) return backoff;
    return after > this.policy.maxRetryAfterMs ? undefined : after;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Prepared {
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

function prepare(req: RawCall, creds: Credentials, newKey: () => string): Prepared {
  const headers: Record<string, string> = { accept: 'application/json', ...creds.headers };
  let body: Uint8Array | undefined;
  if (req.body instanceof Uint8Array) {
    body = req.body;
    headers['content-type'] = req.contentType ?? sniff(req.body);
  } else if (req.body !== undefined) {
    body = encoder.encode(JSON.stringify(req.body));
    headers['content-type'] = 'application/json';
  }
  const method = req.method.toUpperCase();
  const key = req.idempotencyKey ?? (creds.autoKey && method !== 'GET' ? newKey() : undefined);
  if (key !== undefined) headers['idempotency-key'] = key;
  if (req.headers) for (const [name, value] of Object.entries(req.headers)) headers[name.toLowerCase()] = value;
  return { headers, body };
}

/** The image type of bytes that start like a PNG or a JPEG, else application/octet-stream. */
function sniff(bytes: Uint8Array): string {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  return 'application/octet-stream';
}

function isKeyInUse(res: TransportResponse): boolean {
  const body = decode(res);
  return errorOf(res.status, body, '', '').code === 'IDEMPOTENCY_KEY_IN_USE';
}

/** The answer's body: JSON (exact big integers) when it says so, undefined when empty, else the bytes. */
function decode(res: TransportResponse): unknown {
  if (res.body.length === 0) return undefined;
  if (!(res.headers['content-type'] ?? '').includes('json')) return res.body;
  const text = decoder.decode(res.body);
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}
