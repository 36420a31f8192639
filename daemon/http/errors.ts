// AppError carries a registered code; anything else that escapes a handler is a bug and becomes a
// 500 INTERNAL with nothing changed (the transaction rolls back).
import { ERROR_CODES, type ErrorCode, type ErrorBody } from '../contract/errors.js';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message?: string, headers?: Record<string, string>) {
    super(message ?? ERROR_CODES[code].message);
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.headers = headers;
  }
}

export function fail(code: ErrorCode, message?: string): never {
  throw new AppError(code, message);
}

export function errorBody(code: ErrorCode, message: string, requestId: string): ErrorBody {
  return { error: { code, message }, request_id: requestId };
}

export type { Outcome } from '../contract/outcome.js';
import type { Outcome } from '../contract/outcome.js';

export function unwrap<T>(o: Outcome<T>): T {
  if (!o.ok) throw new AppError(o.code, o.message);
  return o.value;
}
