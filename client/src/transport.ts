// The transport: one HTTP exchange, injectable. The default is Node's global fetch; the svc CLI can
// hand in its own (undici's request) and tests a scripted one.
import { deadlineSignal } from './deadline.js';

export interface TransportRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  /** Lower-case header names (the same object on each attempt of an unsigned call: read it, do not change it). */
  headers: Record<string, string>;
  /** The exact bytes to send (the signature covers these), or undefined for no body. */
  body: Uint8Array | undefined;
  /** The attempt's deadline in milliseconds (`timeoutMs` of the call or of the client's retry policy). */
  timeoutMs: number;
  /**
   * Aborted on the caller's signal, and on the attempt's deadline unless the transport keeps deadlines
   * itself (`keepsDeadline`): then it is the caller's signal as given, undefined when the caller gave none.
   */
  signal: AbortSignal | undefined;
}

export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: Uint8Array;
}

/**
 * Sends one request; rejects when no answer arrives (network error, reset, abort, deadline). With
 * `keepsDeadline` it ends an attempt past `timeoutMs` itself, and the library arms no timer for it.
 */
export type Transport = ((req: TransportRequest) => Promise<TransportResponse>) & { readonly keepsDeadline?: boolean };

/**
 * What fetch's `dispatcher` option needs of one (Node's fetch is undici's): `dispatch`, handed the
 * request's options and fetch's own handler.
 */
interface Dispatcher {
  dispatch(options: { headersTimeout?: number; bodyTimeout?: number }, handler: unknown): boolean;
}

/** Where undici, and so Node's fetch, keeps the process's dispatcher (its own, or setGlobalDispatcher's). */
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');
function globalDispatcher(): Partial<Dispatcher> | undefined {
  const g = globalThis as { [GLOBAL_DISPATCHER]?: Partial<Dispatcher> };
  // Node loads its fetch, which sets the dispatcher, on the first use of fetch or of one of its classes.
  if (g[GLOBAL_DISPATCHER] === undefined) new Headers();
  return g[GLOBAL_DISPATCHER];
}

/**
 * A dispatcher that hands each request to the process's own (so a proxy agent set with
 * setGlobalDispatcher still applies) with undici's headersTimeout and bodyTimeout at `ms`: undici arms
 * those on the connection for every request anyway (300 s by default), so the deadline costs nothing,
 * where an AbortSignal handed to fetch costs a listener, a WeakRef and a finalizer per request.
 */
function deadlineDispatcher(ms: number): Dispatcher {
  return {
    dispatch(options, handler) {
      options.headersTimeout = ms;
      options.bodyTimeout = ms;
      return (globalDispatcher() as Dispatcher).dispatch(options, handler);
    },
  };
}

/** The global fetch (read when called) with undici's `dispatcher` option, which RequestInit types as undici's class. */
function fetchVia(url: string, init: Omit<RequestInit, 'dispatcher'> & { dispatcher: Dispatcher }): Promise<Response> {
  return fetch(url, init as unknown as RequestInit);
}

const dispatchers = new Map<number, Dispatcher>();
function dispatcherFor(ms: number): Dispatcher {
  let d = dispatchers.get(ms);
  if (d === undefined) {
    if (dispatchers.size >= 32) dispatchers.clear();
    d = deadlineDispatcher(ms);
    dispatchers.set(ms, d);
  }
  return d;
}

/** undici's refusals when an answer's headers, or the next piece of its body, came later than the deadline. */
const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Deadlines up to this get a timer of their own: undici's timers tick every half second (below). */
const TIMER_UP_TO_MS = 1_000;

/**
 * The global fetch, keeping the attempt's deadline itself. Past 1 s, no answer's headers within
 * `timeoutMs`, or no piece of its body for `timeoutMs`, ends the attempt: undici's own timeouts, which
 * tick every half second, so an attempt ends up to about a second past its deadline. A deadline of 1 s
 * or less, or a fetch that is not undici's (no global dispatcher: another runtime), gets an AbortSignal
 * and a timer instead, exact and for the whole attempt.
 */
export const fetchTransport: Transport = Object.assign(
  async (req: TransportRequest): Promise<TransportResponse> => {
    if (req.timeoutMs <= TIMER_UP_TO_MS || typeof globalDispatcher()?.dispatch !== 'function')
      return fetchWithTimer(req);
    const dispatcher = dispatcherFor(req.timeoutMs);
    try {
      const init = { method: req.method, headers: req.headers, body: req.body, signal: req.signal, dispatcher };
      const res = await fetchVia(req.url, init);
      return { status: res.status, headers: headersOf(res), body: new Uint8Array(await res.arrayBuffer()) };
    } catch (e) {
      const code = (e as { cause?: { code?: unknown } } | null)?.cause?.code;
      if (TIMED_OUT.has(String(code))) throw new Error(`the attempt timed out (${req.timeoutMs} ms)`, { cause: e });
      throw e;
    }
  },
  { keepsDeadline: true },
);

async function fetchWithTimer(req: TransportRequest): Promise<TransportResponse> {
  const deadline = deadlineSignal(req.timeoutMs, req.signal);
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: deadline.signal,
    });
    return { status: res.status, headers: headersOf(res), body: new Uint8Array(await res.arrayBuffer()) };
  } finally {
    deadline.done();
  }
}

function headersOf(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}
