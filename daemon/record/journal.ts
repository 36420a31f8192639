// The request journal: the pipeline records every state-changing request that reached its handler,
// in the request's own savepoint (so the journal is exactly the committed requests, in commit order);
// GET /admin/sandbox/journal reads it back and the offline rebuild (svc sandbox replay) re-runs an entry as
// its recorded principal. Bodies and answers are sealed at rest (they hold national ids and ID images):
// an entry with both seals them together, once (one AES-GCM message: `answer_in_body`, migration 030).
// docs/snapshots.md describes the format, the storage, the replay and its limits.
import { randomBytes } from 'node:crypto';
import type { Db } from '../store/db.js';
import { open, seal } from '../store/crypto.js';
import type { JournalEntry, JournalHeader } from '../contract/journal.js';
import { JOURNAL_FORMAT } from '../contract/journal.js';
import type { JournalRecord, RequestJournal, ReplayTicket } from '../contract/request-journal.js';
import { journalResponse } from './journal-secrets.js';
import type { JournalOriginRow, JournalRow } from '../store/rows.js';

/**
 * A journal row. answer_in_body 1: body_sealed holds the body and the answer (frameBoth); 0: each sealed
 * apart (entries before schema 30).
 */
type Row = JournalRow;

export type OriginRow = Omit<JournalOriginRow, 'id'>;

/** An entry without its bodies. */
export interface Since {
  seq: number;
  request_id: string;
  route: string;
  principal: string;
}

export interface JournalDeps {
  db: Db;
  kek: Buffer;
  tenantDek(tenantId: string): Buffer;
  toIso(ms: number): string;
  version: string;
}

/** A tenant's bodies are sealed under the tenant's data key, everyone else's under the KEK. */
function keyFor(deps: JournalDeps, principal: string, tenantId: string | null): Buffer {
  return principal.startsWith('tenant:') && tenantId ? deps.tenantDek(tenantId) : deps.kek;
}

/** What the columns of an entry hold: the body's kind, and its sealed body and answer. */
interface Sealed {
  kind: Row['body_kind'];
  body: Buffer | null;
  response: Buffer | null;
  answerInBody: 0 | 1;
}

const aadBody = (principal: string) => `journal:${principal}`;
const aadResponse = (principal: string) => `journal-response:${principal}`;
const aadBoth = (principal: string) => `journal+response:${principal}`;

/** The body's bytes, then the answer's UTF-8 text, after the body's length (4 bytes, big-endian). */
function frameBoth(body: string | Buffer, answer: string): Buffer {
  const bodyLength = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const frame = Buffer.allocUnsafe(4 + bodyLength + Buffer.byteLength(answer));
  frame.writeUInt32BE(bodyLength, 0);
  if (typeof body === 'string') frame.write(body, 4, 'utf8');
  else body.copy(frame, 4);
  frame.write(answer, 4 + bodyLength, 'utf8');
  return frame;
}

/** The body and the answer of a framed entry (frameBoth). */
function unframe(plain: Buffer): { body: Buffer; response: string } {
  const n = plain.readUInt32BE(0);
  return { body: plain.subarray(4, 4 + n), response: plain.subarray(4 + n).toString('utf8') };
}

/** Seals an entry's body and answer: together when it has both (one AES-GCM message), else the one it has. */
function sealEntry(deps: JournalDeps, e: JournalRecord): Sealed {
  const key = keyFor(deps, e.principal, e.tenantId);
  const kind = e.body === undefined ? 'none' : typeof e.body === 'string' ? 'text' : 'bytes';
  // a secret the answer shows once (keys, one-time enrolment codes) is not kept: journal-secrets.ts
  const answer = e.response === undefined ? undefined : journalResponse(e.response);
  if (e.body !== undefined && answer !== undefined)
    return { kind, body: seal(key, frameBoth(e.body, answer), aadBoth(e.principal)), response: null, answerInBody: 1 };
  const body =
    e.body === undefined
      ? null
      : seal(key, typeof e.body === 'string' ? Buffer.from(e.body, 'utf8') : e.body, aadBody(e.principal));
  return {
    kind,
    body,
    response: answer === undefined ? null : seal(key, Buffer.from(answer, 'utf8'), aadResponse(e.principal)),
    answerInBody: 0,
  };
}

/** An entry's body bytes (null for none) and answer text (null for none), opened. */
function openEntry(deps: JournalDeps, r: Row): { body: Buffer | null; response: string | null } {
  const key = keyFor(deps, r.principal, r.principal.startsWith('tenant:') ? r.principal.slice('tenant:'.length) : null);
  if (r.answer_in_body === 1) return unframe(open(key, r.body_sealed!, aadBoth(r.principal)));
  return {
    body: r.body_kind === 'none' ? null : open(key, r.body_sealed!, aadBody(r.principal)),
    response:
      r.response_sealed === null ? null : open(key, r.response_sealed, aadResponse(r.principal)).toString('utf8'),
  };
}

function toEntry(deps: JournalDeps, r: Row): JournalEntry {
  const opened = openEntry(deps, r);
  const body = r.body_kind === 'text' ? opened.body!.toString('utf8') : null;
  const bodyBase64 = r.body_kind === 'bytes' ? opened.body!.toString('base64') : null;
  return {
    seq: r.seq,
    request_id: r.request_id,
    at: deps.toIso(r.sim_ms),
    sim_ms: r.sim_ms,
    method: r.method as JournalEntry['method'],
    route: r.route,
    path: r.path,
    query: r.query,
    principal: r.principal,
    idempotency_key: r.idempotency_key,
    content_type: r.content_type,
    body,
    body_base64: bodyBase64,
    status: r.status,
    response: opened.response,
    fault: r.fault === null ? null : (JSON.parse(r.fault) as JournalEntry['fault']),
  };
}

function toHeader(deps: JournalDeps, o: OriginRow, entries: number): JournalHeader {
  return {
    svc_journal: JOURNAL_FORMAT,
    svc_version: deps.version,
    origin: { seed: o.seed, start: deps.toIso(o.start_ms), clock: o.clock_mode, speed: o.speed_milli / 1000 },
    complete: o.complete === 1,
    entries,
  };
}

/** One-time replay tickets, in memory: a ticket stands in for its principal's credentials for one request. */
function createTicketBook() {
  const tickets = new Map<string, ReplayTicket>();
  return {
    /** Registers a ticket for a replayed entry's in-process request (the offline rebuild); returns its (unguessable)
     * token. */
    issueTicket(ticket: ReplayTicket): string {
      const token = randomBytes(24).toString('base64url');
      tickets.set(token, ticket);
      return token;
    },
    /** The ticket of this token, once (a second use, or an unknown token, gives undefined). */
    takeTicket(token: string): ReplayTicket | undefined {
      const t = tickets.get(token);
      tickets.delete(token);
      return t;
    },
    dropTicket(token: string): void {
      tickets.delete(token);
    },
  };
}

export function createJournal(deps: JournalDeps) {
  const { db } = deps;
  const insert = db.prepare(
    `INSERT INTO journal (request_id, sim_ms, method, route, path, query, principal, idempotency_key, content_type,
                          body_kind, body_sealed, status, response_sealed, answer_in_body, fault)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const page = db.prepare<[number, number], Row>('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?');
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM journal');
  const last = db.prepare<[], { m: number | null }>('SELECT MAX(seq) AS m FROM journal');
  const since = db.prepare<[number], Since>(
    'SELECT seq, request_id, route, principal FROM journal WHERE seq > ? ORDER BY seq LIMIT 2',
  );
  const originRow = db.prepare<[], OriginRow>(
    'SELECT seed, start_ms, clock_mode, speed_milli, complete FROM journal_origin WHERE id = 1',
  );
  // A database created before the journal existed: its history before now is not in the journal.
  db.prepare(
    'INSERT OR IGNORE INTO journal_origin (id, seed, start_ms, clock_mode, speed_milli, complete) SELECT 1, ' +
      'seed, start_ms, clock_mode, speed_milli, 0 FROM sandbox_state WHERE id = 1',
  ).run();

  const journal = {
    ...createTicketBook(),
    /** Appends one entry; call inside the savepoint of the request it records. */
    record(e: JournalRecord): void {
      const s = sealEntry(deps, e);
      insert.run(
        e.requestId,
        e.simMs,
        e.method,
        e.route,
        e.path,
        e.query,
        e.principal,
        e.idempotencyKey,
        e.contentType,
        s.kind,
        s.body,
        e.status,
        s.response,
        s.answerInBody,
        e.fault ? JSON.stringify(e.fault) : null,
      );
    },
    /** The last entry's seq (0 when empty): cheap, unlike a count. */
    lastSeq: (): number => last.get()!.m ?? 0,
    /** The first two entries after seq, without their bodies (what a replay session checks). */
    since: (seq: number): Since[] => since.all(seq),
    origin: (): OriginRow => originRow.get()!,
    header: (): JournalHeader => toHeader(deps, originRow.get()!, count.get()!.n),
    /** Entries with seq > after, oldest first. */
    list: (after: number, limit: number): JournalEntry[] => page.all(after, limit).map((r) => toEntry(deps, r)),
    count: (): number => count.get()!.n,
  };
  return journal satisfies RequestJournal;
}

export type Journal = ReturnType<typeof createJournal>;
