// What a route is, for the capabilities that declare routes and for the pipeline that runs them: the
// auth mode (B, I, S, an operator grant, or none), zod schemas for params, query and body, and a
// synchronous handler. It sits in contract/, below every capability, so a domain can declare its routes
// without importing the HTTP layer; daemon/http/pipeline.ts runs them and daemon/http/openapi.ts
// describes them (docs/architecture.md, "Request path" and "Layers").
import type { z } from 'zod';
import type { Readable } from 'node:stream';
import type { ErrorCode } from './errors.js';

export type OperatorRealm = 'admin' | 'console';
export type AuthMode = 'none' | 'B' | 'I' | 'S' | { realm: OperatorRealm; grant: string };

export interface Operator {
  id: string;
  name: string;
  role: string;
  grants: ReadonlySet<string>;
  brokerId: string | null;
  /** The scopes each grant is held in (daemon/contract/grants.ts); replayed principals carry them as the identity's key would. */
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
 * A handler may return a plain body (sent with the route's status), a full reply, or an Outcome
 * (daemon/contract/outcome.ts: a refusal becomes the error body and rolls the request back).
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

export interface RouteDef<P = unknown, Q = unknown, B = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  url: string;
  auth: AuthMode;
  summary: string;
  tags: string[];
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  response?: z.ZodType;
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
  /** Error codes the route documents (OpenAPI). */
  errors?: ErrorCode[];
  /**
   * Media types of a success reply that is bytes rather than JSON (OpenAPI): a logo, a snapshot, an
   * ID image, the ndjson journal. A route with a response schema may also answer JSON.
   */
  produces?: string[];
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
  handler: (ctx: RouteCtx<P, Q, B>) => unknown;
}

/**
 * Declares a route: the handler's params, query and body types come from the route's schemas, then
 * are erased so routes of every shape share one list (`RouteDef[]`). The one cast of the route types
 * is here, and it is safe because of how the pipeline calls a handler: with params, query and body
 * parsed by this very definition's schemas (a part without a schema stays `unknown` to the handler,
 * and an upload route's body is undefined, never read as B).
 */
export function defineRoute<P, Q, B>(def: RouteDef<P, Q, B>): RouteDef {
  return def as RouteDef;
}

export function isMutating(def: RouteDef): boolean {
  return def.method !== 'GET';
}
