// The request journal's wire format, shared by the daemon (GET /admin/sandbox/journal, and the offline
// rebuild `main.js --replay`) and the CLI (`svc sandbox journal`, `svc sandbox replay`). A journal
// file is NDJSON: one header line, then one entry per committed state-changing request, in commit
// order. docs/snapshots.md describes it.
import { z } from 'zod';

export const JOURNAL_FORMAT = 1;

/** What a recorded answer holds instead of a secret it showed once (a provisioned tenant's keys). */
export const JOURNAL_SECRET = '[secret]';

export const JournalOrigin = z
  .strictObject({
    seed: z
      .int()
      .min(0)
      .max(2 ** 32 - 1),
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

/** A fault that fired on a journaled request: its rule, its effect, a latency's drawn delay. */
export const JournalFault = z
  .strictObject({
    rule_id: z.string().regex(/^flt_[0-9a-z]{1,32}$/),
    effect: z.enum(['lost_response', 'latency']),
    delay_ms: z.int().min(0).nullable(),
  })
  .meta({ id: 'JournalFault' });
export type JournalFault = z.infer<typeof JournalFault>;

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
    /**
     * Raw query string without `?` ('' when none): a route records the query it was sent, whether it reads
     * one or not. Over a socket the HTTP parser bounds it (16 KiB of request head, else 431); a request made
     * in-process (the offline replay, app.inject) has no such bound, so the bound here is a body's (1 MiB).
     */
    query: z.string().max(1024 * 1024),
    principal: z.string().regex(PRINCIPAL_PATTERN),
    idempotency_key: z.string().min(1).max(255).nullable(),
    content_type: z.string().max(200).nullable(),
    /** The exact body text (JSON routes) ... */
    body: z
      .string()
      .max(1024 * 1024)
      .nullable(),
    /** ... or the exact bytes, base64 (raw uploads). At most one of body and body_base64. */
    body_base64: z
      .string()
      .max(800 * 1024)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/)
      .nullable(),
    status: z.int().min(100).max(599),
    /**
     * The answer's JSON text as recorded (a secret shown once, such as a provisioned tenant's keys,
     * reads "[secret]"); null for a raw answer; absent in journals written before answers were kept.
     * A replay compares the replayed body with it. replay-entry ignores it.
     */
    response: z
      .string()
      .max(8 * 1024 * 1024)
      .nullable()
      .optional(),
    /**
     * The fault that fired on this request (docs/faults.md, "Replay"): a `lost_response` (applied and
     * committed, the answer never sent) or a `latency` (run `delay_ms` late); null when none did, absent
     * in journals written before faults were recorded. A replay runs the entry as it was applied.
     */
    fault: JournalFault.nullable().optional(),
  })
  .refine((e) => e.body === null || e.body_base64 === null, {
    message: 'send at most one of body and body_base64',
    path: ['body_base64'],
  })
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
    /** The fault the entry records (it fired on the original request; a replay runs it as applied), or null. */
    fault: JournalFault.nullable(),
  })
  .meta({ id: 'ReplayResult' });

export type JournalPage = z.infer<typeof JournalPage>;
export type ReplayResult = z.infer<typeof ReplayResult>;

/**
 * What the offline rebuild (`node dist/daemon/main.js --home NEW --replay`, journal on stdin) prints,
 * one JSON line each: a result per entry, then `done`; or `refused` (nothing was replayed: a bad
 * journal, a home that holds a sandbox, an unknown route; exit 2) or `stopped` (an entry could not be
 * replayed; exit 1). A result's body has every secret shown once read "[secret]".
 */
export type ReplayLine =
  | { result: ReplayResult }
  | { refused: { line: number | null; message: string } }
  | { stopped: { seq: number; code: string; message: string } }
  | { done: { entries: number } };

export type ParsedJournal =
  | { ok: true; header: JournalHeader; entries: Array<{ line: number; entry: JournalEntry }> }
  | { ok: false; line: number | null; message: string };

function firstIssue(err: z.ZodError): string {
  const first = err.issues[0];
  return `${first.path.length ? `${first.path.map(String).join('.')}: ` : ''}${first.message}`;
}

function parseRow(row: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(row) };
  } catch (err) {
    return { ok: false, message: `not valid JSON (${(err as Error).message})` };
  }
}

function parseHeader(row: string): { ok: true; header: JournalHeader } | { ok: false; message: string } {
  const raw = parseRow(row);
  if (!raw.ok) return raw;
  const h = JournalHeader.safeParse(raw.value);
  if (h.success) return { ok: true, header: h.data };
  const v = raw.value;
  if (!v || typeof v !== 'object' || !('svc_journal' in v))
    return {
      ok: false,
      message:
        'not an svc journal (the first line must be its header, {"svc_journal":1,...}); save one with svc ' +
        'sandbox journal FILE',
    };
  return { ok: false, message: firstIssue(h.error) };
}

/** A journal file's text, checked whole: JSON, shapes, seq 1, 2, 3... and as many entries as its header says. */
export function parseJournalText(text: string): ParsedJournal {
  const rows = text.split('\n');
  if (rows.at(-1) === '') rows.pop();
  if (rows.length === 0) return { ok: false, line: null, message: 'the file is empty' };
  const h = parseHeader(rows[0]);
  if (!h.ok) return { ok: false, line: 1, message: h.message };
  const entries: Array<{ line: number; entry: JournalEntry }> = [];
  for (let i = 1; i < rows.length; i++) {
    const bad = (message: string): ParsedJournal => ({ ok: false, line: i + 1, message });
    if (rows[i].trim() === '') return bad('an empty line');
    const raw = parseRow(rows[i]);
    if (!raw.ok) return bad(raw.message);
    const r = JournalEntry.safeParse(raw.value);
    if (!r.success) return bad(firstIssue(r.error));
    if (r.data.seq !== i) {
      return bad(
        i === 1
          ? `the journal starts at seq ${r.data.seq}, not 1: a replay needs the whole journal (svc sandbox ` +
              `journal FILE, without --after)`
          : `seq ${r.data.seq} follows ${i - 1}: an entry is missing or out of order`,
      );
    }
    entries.push({ line: i + 1, entry: r.data });
  }
  if (entries.length < h.header.entries)
    return {
      ok: false,
      line: null,
      message: `the file holds ${entries.length} of the journal's ${h.header.entries} entries: it is truncated`,
    };
  return { ok: true, header: h.header, entries };
}
