// The shapes of the wire's date-time and date strings, as regular expressions without zod, for the schemas
// (schemas/formats.ts) and for the CLI's hand-checked /healthz answer (cli/healthz.ts).

/** An RFC 3339 date-time with an offset (Z or +hh:mm), up to nanoseconds. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
/** A calendar date, YYYY-MM-DD. */
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
