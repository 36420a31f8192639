// The request inspector's vocabulary (docs/inspector.md): what the HTTP layer hands the recorder for
// each answered request (RecordedRequest, raw and in memory only), and the wire shapes of
// GET /admin/sandbox/requests and GET /admin/sandbox/requests/{request_id}, which the CLI's
// `svc logs` reads. Bodies leave the daemon only redacted.
import { z } from 'zod';
import { timestamp } from './schemas/formats.js';

/** One answered request as the HTTP layer saw it (bodies raw; the inspector redacts on the way out). */
export interface RecordedRequest {
  requestId: string;
  method: string;
  /** The URL as sent: path and query. */
  url: string;
  status: number;
  latencyMs: number;
  /** `tenant:...`, `operator:...`, `anonymous`, or null when the request was refused before authentication. */
  principal: string | null;
  headers: Record<string, string | string[] | undefined>;
  /** JSON routes: the body text; uploads: the bytes. */
  requestBody: string | Buffer | undefined;
  /** The reply's payload as sent (JSON text, bytes, or a stream). */
  responseBody: unknown;
  responseType: string | null;
  /** A refused v1 signature: the string the daemon signed to compare (never the secret). */
  canonicalString: string | null;
  /** Wall-clock ms when the answer was finished (the inspector adds the simulated time itself). */
  wallMs: number;
}

export const InspectorQuery = z.strictObject({
  status: z
    .string()
    .regex(/^([1-5]xx|[1-5]\d\d)$/)
    .optional()
    .describe('a status (404) or a class (4xx)'),
  path: z
    .string()
    .max(2000)
    .optional()
    .describe('only paths starting with this (/v1/orders also matches /v1/orders/ord_...)'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  code: z.string().max(64).optional().describe('only refusals with this error code'),
  after: z.coerce
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('only requests recorded after this seq (for following)'),
  limit: z.coerce.number().int().min(1).max(100_000).default(50).describe('the newest this many matches (default 50)'),
});
export type InspectorQuery = z.infer<typeof InspectorQuery>;

export const RequestIdParams = z.strictObject({ request_id: z.string().min(1).max(64) });

export const InspectedRequestSummary = z
  .object({
    /** Order of recording in this daemon's life (1, 2, ...). */
    seq: z.int().min(1),
    request_id: z.string(),
    /** Simulated time when the answer was recorded. */
    at: timestamp(),
    /** Wall-clock time when the answer was recorded (UTC). */
    wall_at: timestamp(),
    method: z.string(),
    path: z.string(),
    query: z.string(),
    status: z.int(),
    /** The refusal's error code, null for a success. */
    error_code: z.string().nullable(),
    latency_ms: z.number(),
    principal: z.string().nullable(),
  })
  .meta({ id: 'InspectedRequestSummary' });
export type InspectedRequestSummary = z.infer<typeof InspectedRequestSummary>;

const InspectedBody = z.object({
  content_type: z.string().nullable(),
  size_bytes: z.int().min(0),
  /** The body with secrets and personal data replaced by `[redacted:<kind>]` markers: JSON, text, or a marker for
   * bytes. */
  body: z.unknown(),
});

export const InspectedRequest = InspectedRequestSummary.extend({
  /** Request headers; credentials are shown as `[redacted:credential]`. */
  request_headers: z.record(z.string(), z.string()),
  request: InspectedBody,
  response: InspectedBody,
  /** Present for a refused signature: what the daemon signed, to diff against the client's own string to sign. */
  signature: z.object({ canonical_string: z.string(), hint: z.string() }).nullable(),
}).meta({ id: 'InspectedRequest' });
export type InspectedRequest = z.infer<typeof InspectedRequest>;

export const InspectedRequestList = z
  .object({
    requests: z.array(InspectedRequestSummary),
    /** How many requests the ring keeps (the oldest is dropped first). */
    capacity: z.int(),
    /** The newest seq recorded so far (0 when none): pass as `after` to follow. */
    last_seq: z.int().min(0),
  })
  .meta({ id: 'InspectedRequestList' });
export type InspectedRequestList = z.infer<typeof InspectedRequestList>;
