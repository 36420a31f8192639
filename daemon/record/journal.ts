// The request journal: the pipeline records every state-changing request that reached its handler,
// in the request's own savepoint (so the journal is exactly the committed requests, in commit order);
// GET /admin/sandbox/journal reads it back and POST /admin/sandbox/replay-entry re-runs an entry as
// its recorded principal. Bodies are sealed at rest (they hold national ids and ID images).
// docs/snapshots.md describes the format, the replay and its limits.
import { randomBytes } from 'node:crypto';
import type { Db } from '../store/db.js';
import { open, seal } from '../store/crypto.js';
import type { JournalEntry, JournalHeader } from '../contract/journal.js';
import { JOURNAL_FORMAT } from '../contract/journal.js';
import type { JournalRecord, RequestJournal, ReplayTicket } from '../contract/request-journal.js';
import { journalResponse } from './journal-secrets.js';

interface Row {
  seq: number;
  request_id: string;
  sim_ms: number;
  method: string;
  route: string;
  path: string;
  query: string;
  principal: string;
  idempotency_key: string | null;
  content_type: string | null;
  body_kind: 'none' | 'text' | 'bytes';
  body_sealed: Buffer | null;
  status: number;
  response_sealed: Buffer | null;
}

export interface OriginRow {
  seed: number;
  start_ms: number;
  clock_mode: 'frozen' | 'running';
  speed_milli: number;
  complete: number;
}

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

function sealBody(deps: JournalDeps, e: JournalRecord): { kind: Row['body_kind']; sealed: Buffer | null } {
  if (e.body === undefined) return { kind: 'none', sealed: null };
  const plain = typeof e.body === 'string' ? Buffer.from(e.body, 'utf8') : e.body;
  return { kind: typeof e.body === 'string' ? 'text' : 'bytes', sealed: seal(keyFor(deps, e.principal, e.tenantId), plain, `journal:${e.principal}`) };
}

function sealResponse(deps: JournalDeps, e: JournalRecord): Buffer | null {
  if (e.response === undefined) return null;
  // a secret the answer shows once (keys, one-time enrolment codes) is not kept: journal-secrets.ts
  return seal(keyFor(deps, e.principal, e.tenantId), Buffer.from(journalResponse(e.response), 'utf8'), `journal-response:${e.principal}`);
}

function toEntry(deps: JournalDeps, r: Row): JournalEntry {
  let body: string | null = null;
  let bodyBase64: string | null = null;
  const tenantId = r.principal.startsWith('tenant:') ? r.principal.slice('tenant:'.length) : null;
  if (r.body_kind !== 'none') {
    const plain = open(keyFor(deps, r.principal, tenantId), r.body_sealed!, `journal:${r.principal}`);
    if (r.body_kind === 'text') body = plain.toString('utf8');
    else bodyBase64 = plain.toString('base64');
  }
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
    response: r.response_sealed === null ? null : open(keyFor(deps, r.principal, tenantId), r.response_sealed, `journal-response:${r.principal}`).toString('utf8'),
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
    /** Registers a ticket for the replay route's internal request; returns its (unguessable) token. */
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
    `INSERT INTO journal (request_id, sim_ms, method, route, path, query, principal, idempotency_key, content_type, body_kind, body_sealed, status, response_sealed)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const page = db.prepare<[number, number], Row>('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?');
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM journal');
  const last = db.prepare<[], { m: number | null }>('SELECT MAX(seq) AS m FROM journal');
  const since = db.prepare<[number], Since>('SELECT seq, request_id, route, principal FROM journal WHERE seq > ? ORDER BY seq LIMIT 2');
  const originRow = db.prepare<[], OriginRow>('SELECT seed, start_ms, clock_mode, speed_milli, complete FROM journal_origin WHERE id = 1');
  // A database created before the journal existed: its history before now is not in the journal.
  db.prepare(
    'INSERT OR IGNORE INTO journal_origin (id, seed, start_ms, clock_mode, speed_milli, complete) SELECT 1, seed, start_ms, clock_mode, speed_milli, 0 FROM sandbox_state WHERE id = 1',
  ).run();

  const journal = {
    ...createTicketBook(),
    /** Appends one entry; call inside the savepoint of the request it records. */
    record(e: JournalRecord): void {
      const { kind, sealed } = sealBody(deps, e);
      insert.run(e.requestId, e.simMs, e.method, e.route, e.path, e.query, e.principal, e.idempotencyKey, e.contentType, kind, sealed, e.status, sealResponse(deps, e));
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
