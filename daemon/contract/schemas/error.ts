// The spec's error body, as a schema: what every refusal answers ({ error: { code, message }, request_id }),
// with a code of the registry (daemon/contract/errors.ts). The answer checker parses every 4xx and 5xx
// answer with it (daemon/http/answer-check.ts); /openapi.json documents it as the `Error` component.
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.js';

const CODES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

export const ErrorBodySchema = z.object({
  error: z.object({ code: z.enum(CODES), message: z.string() }),
  request_id: z.string().regex(/^req_/),
});
