// AppError is how the HTTP layer itself refuses a request (authentication, idempotency, validation,
// transport) and how a handler's refused Outcome travels to the reply inside the pipeline. Nothing
// outside daemon/http/ throws it: services answer refusals as values (daemon/contract/outcome.ts), and
// anything else that escapes a handler is a bug and becomes a 500 INTERNAL with nothing changed (the
// request's savepoint rolls back).
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

export function errorBody(code: ErrorCode, message: string, requestId: string): ErrorBody {
  return { error: { code, message }, request_id: requestId };
}
