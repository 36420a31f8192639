// Business outcomes are values: a service answers `{ ok: true, value }` or a refusal `{ ok: false, code }`
// with a registered error code, and never throws for a business reason (a thrown error is a bug).
// A route handler may return an Outcome as it is; the request pipeline turns a refusal into the spec's
// error body and rolls the request's own writes back (docs/architecture.md, "Refusals are values").
import { ERROR_CODES, type ErrorCode } from './errors.js';

export interface Refusal {
  ok: false;
  code: ErrorCode;
  /** Overrides the registry's default message with the particulars of this refusal. */
  message?: string;
  /** Extra response headers (e.g. a Retry-After). */
  headers?: Record<string, string>;
}

export type Outcome<T> = { ok: true; value: T } | Refusal;

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function refuse(code: ErrorCode, message?: string): Refusal {
  return message === undefined ? { ok: false, code } : { ok: false, code, message };
}

const REFUSAL_KEYS = new Set(['ok', 'code', 'message', 'headers']);

/**
 * Whether a handler's answer is an Outcome rather than a body. Exact by shape: a success is an object
 * with exactly the keys ok (true) and value; a refusal has ok false, a registered code, and nothing but
 * message and headers besides. A response body never has that shape (the audit verify body has `ok`
 * with other fields).
 */
export function isOutcome(x: unknown): x is Outcome<unknown> {
  if (x === null || typeof x !== 'object' || Object.getPrototypeOf(x) !== Object.prototype) return false;
  const o = x as Record<string, unknown>;
  const keys = Object.keys(o);
  if (o.ok === true) return keys.length === 2 && 'value' in o;
  if (o.ok !== false || typeof o.code !== 'string' || !Object.hasOwn(ERROR_CODES, o.code)) return false;
  return keys.every((k) => REFUSAL_KEYS.has(k));
}
