// String formats the wire schemas share, so /openapi.json says what a string holds (OpenAPI `format`)
// and a generated client can type it. Each also checks the shape its format names (a date-time is not a
// date): the answer checker holds every answer to it (daemon/http/answer-check.ts), and a request field
// of either format is refused when it has another shape. The check is a refinement, so the JSON Schema
// says `format`, not a pattern.
import { z } from 'zod';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An instant: RFC 3339 with the Africa/Cairo offset (docs/api.md, "Conventions"). */
export const timestamp = () =>
  z
    .string()
    .refine((v) => DATE_TIME.test(v), 'expected an RFC 3339 date-time with an offset')
    .meta({ format: 'date-time' });

/** A calendar date, YYYY-MM-DD (Cairo). */
export const calendarDate = () =>
  z
    .string()
    .refine((v) => DATE.test(v), 'expected YYYY-MM-DD')
    .meta({ format: 'date' });

/** The spec's page size of a list: 1-200, default 100 (its limits table). */
export const listLimit = () =>
  z.coerce.number().int().min(1).max(200).default(100).describe('page size, 1-200 (default 100)');

/**
 * Integer micros that may pass 2^53 (an instrument's market cap and net income): an exact integer in the
 * JSON, documented as `integer`, `int64`. JavaScript's JSON.parse holds these values exactly only
 * because each is a double as well (fixtures/README.md); docs/api.md names them for clients that parse
 * losslessly. zod's own integer check stops at 2^53 - 1, so this one is Number.isInteger.
 */
export const exactMicros = () =>
  z
    .number()
    .refine(Number.isInteger, 'expected an integer')
    .meta({ type: 'integer', format: 'int64' } as Record<string, unknown>);
