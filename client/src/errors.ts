// Errors as values a program can branch on: every refusal of the API is an SvcError carrying the
// documented code (the union /openapi.json documents in its Error schema), the HTTP status, the message
// and the request id; a request that never got an answer (after its retries) is an SvcConnectionError.
import type { components } from './generated/api.js';

/** Every error code the API documents. */
export type ErrorCode = components['schemas']['Error']['error']['code'];

export class SvcError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'SvcError';
  constructor(
    readonly status: number,
    readonly code: C,
    message: string,
    /** The request_id of the answer ('' when the answer carried none). */
    readonly requestId: string,
    /** The method and path of the request. */
    readonly request: string,
  ) {
    super(message);
  }
}

/** No answer: the connection failed or timed out on every attempt. */
export class SvcConnectionError extends Error {
  override readonly name = 'SvcConnectionError';
  constructor(
    message: string,
    readonly request: string,
    readonly attempts: number,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}

/** True when `e` is a refusal of the API, with one of `codes` when any are given: narrows `e.code`. */
export function isSvcError<C extends ErrorCode>(e: unknown, ...codes: C[]): e is SvcError<C> {
  return e instanceof SvcError && (codes.length === 0 || codes.includes(e.code as C));
}

/** The error of a non-2xx answer; a body that is not the API's error body still gives a status and a code. */
export function errorOf(status: number, body: unknown, requestIdHeader: string, request: string): SvcError {
  const b = body !== null && typeof body === 'object' ? (body as { error?: unknown; request_id?: unknown }) : {};
  const e = b.error !== null && typeof b.error === 'object' ? (b.error as { code?: unknown; message?: unknown }) : {};
  const code = typeof e.code === 'string' ? (e.code as ErrorCode) : status >= 500 ? 'INTERNAL' : 'BAD_REQUEST';
  const message = typeof e.message === 'string' ? e.message : `HTTP ${status}`;
  const requestId = typeof b.request_id === 'string' ? b.request_id : requestIdHeader;
  return new SvcError(status, code, message, requestId, request);
}
