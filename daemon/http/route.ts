// Route definitions: each route declares its auth mode (B, I, S, an operator grant, or none) and zod
// schemas for params, query and body. One generic handler authenticates, validates, runs the
// (synchronous) service call inside one transaction together with the idempotency record and the
// audit entry, and replies. The same definitions generate /openapi.json.
import type { z } from 'zod';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ErrorCode } from '../contract/errors.js';

export type OperatorRealm = 'admin' | 'console';
export type AuthMode = 'none' | 'B' | 'I' | 'S' | { realm: OperatorRealm; grant: string };

export interface Operator {
  id: string;
  name: string;
  role: string;
  grants: ReadonlySet<string>;
  brokerId: string | null;
}

export interface RouteCtx<P = any, Q = any, B = any> {
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
  /** outsideBatch routes only: sends a request through this app's own stack (fastify inject). */
  inject?: (opts: InjectOptions) => Promise<LightMyRequestResponse>;
}

/** A handler may return a plain body (sent with the route's status) or a full reply. */
export interface Reply {
  status: number;
  body?: unknown;
  raw?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface RouteDef<P = any, Q = any, B = any> {
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
  issueCode?: (path: readonly PropertyKey[], where: 'params' | 'query' | 'body', issue: z.core.$ZodIssue) => ErrorCode | undefined;
  /** Error codes the route documents (OpenAPI). */
  errors?: ErrorCode[];
  /**
   * Runs outside any group-commit batch: waits until the open batch has committed, then runs the
   * handler like a read (no idempotency record, audit entry or journal entry of its own). The handler
   * may return a Promise. For the snapshot export (a consistent copy of committed state) and the
   * journal replay (which sends each entry through the pipeline itself).
   */
  outsideBatch?: boolean;
  /** Catch up the scheduler before running (default true): the world is current when we read it. */
  handler: (ctx: RouteCtx<P, Q, B>) => unknown;
}

export function defineRoute<P, Q, B>(def: RouteDef<P, Q, B>): RouteDef<P, Q, B> {
  return def;
}

export function isMutating(def: RouteDef): boolean {
  return def.method !== 'GET';
}
