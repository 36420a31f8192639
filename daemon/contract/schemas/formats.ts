// String formats the wire schemas share, so /openapi.json says what a string holds (OpenAPI `format`)
// and a generated client can type it. Each also checks the shape its format names (a date-time is not a
// date): the answer checker holds every answer to it (daemon/http/answer-check.ts), and a request field
// of either format is refused when it has another shape.
import { z } from 'zod';
import { DATE, DATE_TIME } from '../date-shapes.js';

/**
 * The shape check: an `invalid_format` issue like zod's own format checks give (a route that maps a
 * date field's format issue to its own code, INVALID_DATE, sees the same issue), with no `pattern` in
 * the JSON Schema, which says `format`.
 */
function shaped(re: RegExp, format: string, message: string) {
  return (ctx: z.core.ParsePayload<string>): void => {
    if (!re.test(ctx.value)) ctx.issues.push({ code: 'invalid_format', format, input: ctx.value, message });
  };
}

/** An instant: RFC 3339 with the Africa/Cairo offset (docs/api.md, "Conventions"). */
export const timestamp = () =>
  z
    .string()
    .check(shaped(DATE_TIME, 'date-time', 'expected an RFC 3339 date-time with an offset'))
    .meta({ format: 'date-time' });

/** A calendar date, YYYY-MM-DD (Cairo). */
export const calendarDate = () =>
  z
    .string()
    .check(shaped(DATE, 'date', 'expected YYYY-MM-DD'))
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
