// The request journal's wire format, shared by the daemon (GET /admin/sandbox/journal, POST
// /admin/sandbox/replay-entry) and the CLI (`svc sandbox journal`, `svc sandbox replay`). A journal
// file is NDJSON: one header line, then one entry per committed state-changing request, in commit
// order. docs/snapshots.md describes it.
import { z } from 'zod';

export const JOURNAL_FORMAT = 1;

/** What a recorded answer holds instead of a secret it showed once (a provisioned tenant's keys). */
export const JOURNAL_SECRET = '[secret]';

export const JournalOrigin = z
  .strictObject({
    seed: z.int().min(0).max(2 ** 32 - 1),
    /** RFC 3339 (Africa/Cairo) simulated start of the sandbox when it was created. */
    start: z.string().min(1).max(64).meta({ format: 'date-time' }),
    clock: z.enum(['frozen', 'running']),
    speed: z.number().min(0.001).max(10000),
  })
  .meta({ id: 'JournalOrigin' });

export const JournalHeader = z
  .strictObject({
    svc_journal: z.literal(JOURNAL_FORMAT),
    svc_version: z.string().max(64),
    origin: JournalOrigin,
    /** false when the journal starts after the sandbox was created (a database older than the journal). */
    complete: z.boolean(),
    /** Entries in the whole journal (a file may hold a page of them). */
    entries: z.int().min(0),
  })
  .meta({ id: 'JournalHeader' });

/** `tenant:tnt_...`, `operator:<identity name>` or `anonymous`. */
export const PRINCIPAL_PATTERN = /^(tenant:tnt_[0-9a-z]{1,32}|operator:[A-Za-z0-9_.-]{1,64}|anonymous)$/;

export const JournalEntry = z
  .strictObject({
    seq: z.int().min(1),
    request_id: z.string().regex(/^req_[0-9a-z]{1,32}$/),
    /** Simulated time the request ran at, RFC 3339 (Africa/Cairo) and epoch milliseconds. */
    at: z.string().min(1).max(64).meta({ format: 'date-time' }),
    sim_ms: z.int().min(0),
    method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
    /** The route pattern that handled it, e.g. `DELETE /v1/orders/:order_id`. */
    route: z.string().min(1).max(300),
    path: z.string().regex(/^\//).max(2000),
    /** Raw query string without `?` ('' when none). */
    query: z.string().max(4000),
    principal: z.string().regex(PRINCIPAL_PATTERN),
    idempotency_key: z.string().min(1).max(255).nullable(),
    content_type: z.string().max(200).nullable(),
    /** The exact body text (JSON routes) ... */
    body: z.string().max(1024 * 1024).nullable(),
    /** ... or the exact bytes, base64 (raw uploads). At most one of body and body_base64. */
    body_base64: z.string().max(800 * 1024).regex(/^[A-Za-z0-9+/]*={0,2}$/).nullable(),
    status: z.int().min(100).max(599),
    /**
     * The answer's JSON text as recorded (a secret shown once, such as a provisioned tenant's keys,
     * reads "[secret]"); null for a raw answer; absent in journals written before answers were kept.
     * A replay compares the replayed body with it. replay-entry ignores it.
     */
    response: z.string().max(8 * 1024 * 1024).nullable().optional(),
  })
  .refine((e) => e.body === null || e.body_base64 === null, { message: 'send at most one of body and body_base64', path: ['body_base64'] })
  .meta({ id: 'JournalEntry' });

export type JournalOrigin = z.infer<typeof JournalOrigin>;
export type JournalHeader = z.infer<typeof JournalHeader>;
export type JournalEntry = z.infer<typeof JournalEntry>;

export const JournalPage = z
  .object({
    header: JournalHeader,
    entries: z.array(JournalEntry),
    /** Pass as `after` for the next page; null on the last one. */
    next_after: z.int().nullable(),
  })
  .meta({ id: 'JournalPage' });

export const ReplayResult = z
  .object({
    seq: z.int(),
    status: z.int(),
    content_type: z.string().nullable(),
    /** The replayed answer's JSON body (null when it had none or was not JSON). */
    body: z.unknown(),
    idempotent_replayed: z.boolean(),
  })
  .meta({ id: 'ReplayResult' });

export type JournalPage = z.infer<typeof JournalPage>;
export type ReplayResult = z.infer<typeof ReplayResult>;

/** POST /admin/sandbox/replay-session: the origin of the journal about to be replayed (its header's). */
export const ReplaySessionBody = z.strictObject({ origin: JournalOrigin }).meta({ id: 'ReplaySessionRequest' });

export const ReplaySession = z
  .object({
    state: z.enum(['open', 'closed']),
    /** The operator who opened it (`operator:<name>`): the audit names it as the actor of every replayed entry. */
    opened_by: z.string(),
    /** The last entry replayed in the session (0 before the first); replay-entry takes last_seq + 1. */
    last_seq: z.int().min(0),
    /** Why the session closed (closed by the operator, or the journal gained an entry that is not a replay); null while open. */
    closed_reason: z.string().nullable(),
  })
  .meta({ id: 'ReplaySession' });

export type ReplaySession = z.infer<typeof ReplaySession>;
