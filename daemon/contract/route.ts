// What a route is, for the capabilities that declare routes and for the pipeline that runs them: the
// auth mode (B, I, S, an operator grant, or none), zod schemas for params, query and body, and a
// synchronous handler. It sits in contract/, below every capability, so a domain can declare its routes
// without importing the HTTP layer; daemon/http/pipeline.ts runs them and daemon/http/openapi.ts
// describes them (docs/architecture.md, "Request path" and "Layers").
import type { z } from 'zod';
import type { Readable } from 'node:stream';
import type { ErrorCode } from './errors.js';
import type { Outcome } from './outcome.js';

export type OperatorRealm = 'admin' | 'console';
export type AuthMode = 'none' | 'B' | 'I' | 'S' | { realm: OperatorRealm; grant: string };

export interface Operator {
  id: string;
  name: string;
  role: string;
  grants: ReadonlySet<string>;
  brokerId: string | null;
  /** The scopes each grant is held in (daemon/contract/grants.ts); replayed principals carry them as the identity's key
   * would. */
  scopes?: ReadonlyMap<string, readonly string[]>;
}

/**
 * How a money or approval request met its step-up (docs/backoffice.md, "Step-up"): a code it carried
 * (which opened the key's window until fresh_until), the key's open window, or a console session's
 * passkey step-up. Recorded in the request's audit entry.
 */
export interface StepUpUse {
  via: 'code' | 'window' | 'session';
  /** The end of the key's step-up window (code, window). */
  fresh_until?: string;
}

/** What a handler receives: params, query and body already parsed with the route's own schemas. */
export interface RouteCtx<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
  /** Raw request bytes for upload routes. */
  raw: Buffer | null;
  tenantId: string | null;
  operator: Operator | null;
  requestId: string;
  headers: Record<string, string | string[] | undefined>;
  /** Who did it, for the audit log. */
  actor: string;
  /** How a step-up route's caller stepped up; absent on every other route. */
  stepUp?: StepUpUse;
}

/**
 * A reply as the pipeline handles it: a status with a JSON body, or bytes, or a stream. A handler
 * builds one as a JsonReply (its body typed by the route's response schema) or, on a route that
 * declares the media types it produces, a BytesReply.
 */
export interface Reply {
  status: number;
  body?: unknown;
  raw?: Buffer;
  /** A reply written as it goes (the sandbox's server-sent events); the client's leaving destroys it. */
  stream?: Readable;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A JSON reply a handler builds: its status, its body (the route's response type) and headers; no bytes. */
export interface JsonReply<R> {
  status: number;
  body?: R;
  headers?: Record<string, string>;
  raw?: never;
  stream?: never;
  contentType?: never;
}

/** A media type of `produces`, bare or with parameters (`application/x-ndjson; charset=utf-8`). */
export type MediaTypeOf<M extends string> = M | `${M}; ${string}`;

/** Bytes or a stream, of one of the media types the route declares in `produces`. */
export type BytesReply<M extends string> = {
  status: number;
  contentType: MediaTypeOf<M>;
  headers?: Record<string, string>;
} & ({ raw: Buffer; stream?: never } | { stream: Readable; raw?: never });

/**
 * What a handler may answer on a route whose response schema takes R on the wire (z.input of the
 * schema: what the handler returns is what is serialised, and the schema is what parses the wire):
 * a body R (sent with the route's status), a JSON reply with a body R, an Outcome of either
 * (daemon/contract/outcome.ts: a refusal becomes the error body and rolls the request back), and, on a
 * route that declares `produces`, bytes of one of those media types. A route without a response
 * schema has R = unknown (any body), unless it declares `produces`: then R = never (bytes only).
 */
export type Answer<R, M extends string = never> =
  | R
  | JsonReply<R>
  | ([M] extends [never] ? never : BytesReply<M>)
  | Outcome<R | JsonReply<R> | ([M] extends [never] ? never : BytesReply<M>)>;

export interface RouteDef<P = unknown, Q = unknown, B = unknown, R = unknown, M extends string = string> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  auth: AuthMode;
  summary: string;
  tags: string[];
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The success body on the wire; the handler's answer is typed by its z.input (see Answer). */
  response?: z.ZodType<unknown, R>;
  /** Success status when the handler returns a plain body. */
  status?: number;
  /** Upload routes: accept raw bytes up to this size instead of JSON. */
  rawBody?: { maxBytes: number };
  /** Maps a validation issue to a more specific code than VALIDATION_FAILED (e.g. INVALID_QTY). */
  issueCode?: (
    path: readonly PropertyKey[],
    where: 'params' | 'query' | 'body',
    issue: z.core.$ZodIssue,
  ) => ErrorCode | undefined;
  /**
   * When a part fails its schema on several counts, the count answered: the one whose code comes
   * first in this list (codes not in it after those in it; zod's order breaks ties). Without it, the
   * first count zod reports. The order body's documented precedence (INVALID_SIDE ... INVALID_TIME_IN_FORCE).
   */
  issuePrecedence?: readonly ErrorCode[];
  /** Error codes the route documents (OpenAPI). */
  errors?: ErrorCode[];
  /**
   * Media types of a success reply that is bytes rather than JSON (OpenAPI): a logo, a snapshot, an
   * ID image, the ndjson journal. Every media type the handler answers bytes in is listed (a
   * BytesReply's contentType is one of them); a route without it answers JSON only. A route with a
   * response schema may also answer JSON.
   */
  produces?: readonly M[];
  /**
   * Runs outside any group-commit batch: waits until the open batch has committed, then runs the
   * handler like a read (no idempotency record, audit entry or journal entry of its own). The handler
   * may return a Promise. For the snapshot export (a consistent copy of committed state). No route
   * sends requests through the app itself: the journal replay does, offline (daemon/sandbox/replay-offline.ts).
   */
  outsideBatch?: boolean;
  /**
   * A state-changing request that runs in a transaction of its own instead of a savepoint of the open
   * batch (it waits for that batch to commit first): the clock advance, whose every event has a
   * savepoint of its own. SQLite keeps a savepoint's journal in memory and walks it from its start on
   * every nested release, so a savepoint around thousands of events costs more than the events
   * (docs/architecture.md, "Long advances"). Its handler refuses only before it writes: a refusal
   * after a write is treated as a bug (500, all of it rolled back).
   */
  alone?: boolean;
  /**
   * Awaited after the request has committed and before it is answered: the clock controls wait for
   * the work their events handed off the event loop (a statement's render), so that the same requests
   * on a frozen clock get the same answers.
   */
  answerAfter?: () => Promise<unknown>;
  handler: (ctx: RouteCtx<P, Q, B>) => Answer<NoInfer<R>, NoInfer<M>> | Promise<Answer<NoInfer<R>, NoInfer<M>>>;
}

/**
 * Declares a route: the handler's params, query and body types come from the route's schemas, and
 * what it may answer from its response schema and `produces` (Answer), then are erased so routes of
 * every shape share one list (`RouteDef[]`). The one cast of the route types is here, and it is safe
 * because of how the pipeline calls a handler: with params, query and body parsed by this very
 * definition's schemas (a part without a schema stays `unknown` to the handler, and an upload route's
 * body is undefined, never read as B). test/types/route-answers.ts holds the answers that do not compile.
 */
export function defineRoute<P, Q, B, M extends string = never, R = [M] extends [never] ? unknown : never>(
  def: RouteDef<P, Q, B, R, M>,
): RouteDef {
  return def as RouteDef;
}

export function isMutating(def: RouteDef): boolean {
  return def.method !== 'GET';
}
