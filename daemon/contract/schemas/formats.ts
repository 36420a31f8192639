// String formats the wire schemas share, so /openapi.json says what a string holds (OpenAPI `format`)
// and a generated client can type it. Documentation only: the metadata changes no validation.
import { z } from 'zod';

/** An instant: RFC 3339 with the Africa/Cairo offset (docs/api.md, "Conventions"). */
export const timestamp = () => z.string().meta({ format: 'date-time' });

/** A calendar date, YYYY-MM-DD (Cairo). */
export const calendarDate = () => z.string().meta({ format: 'date' });

/** The spec's page size of a list: 1-200, default 100 (its limits table). */
export const listLimit = () =>
  z.coerce.number().int().min(1).max(200).default(100).describe('page size, 1-200 (default 100)');
