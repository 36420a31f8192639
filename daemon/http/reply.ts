// From a request's parts to a handler's context, and from a handler's answer to a reply: zod parsing
// with the route's own schemas (a failure names the field), after one check of every string of the
// part (daemon/contract/text.ts: well-formed Unicode, no control character but tab and line feed), and
// the three kinds of answer a handler gives (a body, a full Reply, an Outcome).
import type { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../contract/errors.js';
import { isOutcome } from '../contract/outcome.js';
import { findBadText } from '../contract/text.js';
import type { Reply, RouteDef } from '../contract/route.js';
import { AppError, errorBody } from './errors.js';

/** A reply on its way out. json: the body already serialized (for the idempotency record), sent as is. */
export type Out = Reply & { replayed?: boolean; json?: string };

/**
 * Refuses a part of the request (params, query or body) holding a string, or an object key, that text
 * may not hold: 422 naming the field (VALIDATION_FAILED, or the route's own code for that field), before
 * any schema, handler or store sees it. Every route runs through it, so no field is left out.
 */
export function refuseBadText(def: RouteDef, where: 'params' | 'query' | 'body', value: unknown): void {
  const bad = findBadText(value);
  if (!bad) return;
  const message =
    `${bad.inKey ? 'a key holds ' : ''}${bad.what} is not allowed: text is well-formed Unicode with no control ` +
    `character but tab and line feed`;
  const issue = { code: 'custom', path: bad.path, message, input: undefined } as z.core.$ZodIssue;
  const code: ErrorCode = registered(def.issueCode?.(bad.path, where, issue)) ?? 'VALIDATION_FAILED';
  throw new AppError(code, `${[where, ...bad.path.map(String)].join('.')}: ${message}`);
}

/** A route's code for an issue, only when it is a registered code (a field named like an Object property is not). */
function registered(code: unknown): ErrorCode | undefined {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code) ? (code as ErrorCode) : undefined;
}

/** The code a schema's own check names for its issue (params.error_code), when it is a registered one. */
function ownCode(issue: z.core.$ZodIssue): ErrorCode | undefined {
  const named =
    issue.code === 'custom' ? (issue.params as { error_code?: unknown } | undefined)?.error_code : undefined;
  return typeof named === 'string' && Object.hasOwn(ERROR_CODES, named) ? (named as ErrorCode) : undefined;
}

export function parsePart<T>(
  def: RouteDef,
  schema: z.ZodType<T> | undefined,
  value: unknown,
  where: 'params' | 'query' | 'body',
): T {
  if (!schema) return value as T;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const { issue, code } = answeredIssue(def, where, r.error.issues);
  const path = [where, ...issue.path.map(String)].join('.');
  throw new AppError(code, `${path}: ${issue.message}`);
}

/** The count a failed part is answered with, and its code: the first, or the first by the route's precedence. */
function answeredIssue(
  def: RouteDef,
  where: 'params' | 'query' | 'body',
  issues: readonly z.core.$ZodIssue[],
): { issue: z.core.$ZodIssue; code: ErrorCode } {
  const codeOf = (issue: z.core.$ZodIssue): ErrorCode =>
    registered(def.issueCode?.(issue.path, where, issue)) ?? ownCode(issue) ?? 'VALIDATION_FAILED';
  const order = def.issuePrecedence;
  const rank = (code: ErrorCode) => (order?.includes(code) ? order.indexOf(code) : Number.MAX_SAFE_INTEGER);
  let best = { issue: issues[0], code: codeOf(issues[0]) };
  if (!order) return best;
  for (const issue of issues.slice(1)) {
    const code = codeOf(issue);
    if (rank(code) < rank(best.code)) best = { issue, code };
  }
  return best;
}

/** A handler's answer as a reply: an Outcome is unwrapped (a refusal becomes an AppError here, at the edge). */
export function toReply(def: RouteDef, out: unknown): Reply {
  if (isOutcome(out)) {
    if (!out.ok) throw new AppError(out.code, out.message, out.headers);
    return toReply(def, out.value);
  }
  if (out && typeof out === 'object' && 'status' in out && ('body' in out || 'raw' in out || 'stream' in out))
    return out as Reply;
  return { status: def.status ?? 200, body: out };
}

export function errorReply(err: AppError, requestId: string): Reply {
  return { status: err.status, body: errorBody(err.code, err.message, requestId), headers: err.headers };
}
