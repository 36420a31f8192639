// The request journal: the pipeline records every state-changing request that reached its handler,
// in the request's own savepoint (so the journal is exactly the committed requests, in commit order);
// GET /admin/sandbox/journal reads it back and POST /admin/sandbox/replay-entry re-runs an entry as
// its recorded principal. Bodies are sealed at rest (they hold national ids and ID images).
// docs/snapshots.md describes the format, the replay and its limits.
import { randomBytes } from 'node:crypto';
import type { Db } from '../store/db.js';
import { open, seal } from '../store/crypto.js';
import type { Operator } from '../http/route.js';
import type { JournalEntry, JournalHeader } from '../contract/journal.js';
import { JOURNAL_FORMAT } from '../contract/journal.js';

export interface JournalRecord {
  requestId: string;
  simMs: number;
  method: string;
  route: string;
  path: string;
  query: string;
  /** `tenant:tnt_...`, `operator:<name>` or `anonymous` (the pipeline's actor). */
  principal: string;
  tenantId: string | null;
  idempotencyKey: string | null;
  contentType: string | null;
  body: string | Buffer | undefined;
  status: number;
}

/** Who a replayed request runs as, handed from the replay route to the pipeline. */
export type ReplayPrincipal = { kind: 'tenant'; tenantId: string } | { kind: 'operator'; operator: Operator & { realm: 'admin' | 'console' } } | { kind: 'anonymous' };

export interface ReplayTicket {
  principal: ReplayPrincipal;
  /** The original request id: the replayed answer (error bodies, stored idempotent answers) carries it. */
  requestId: string;
}

/** The header the replay route's internal request carries; its value is a one-time ticket token. */
export const REPLAY_HEADER = 'x-svc-replay-ticket';

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
}

export interface JournalDeps {
  db: Db;
  kek: Buffer;
  tenantDek(tenantId: string): Buffer;
  toIso(ms: number): string;
  version: string;
}

export function createJournal(deps: JournalDeps) {
  const { db } = deps;
  const insert = db.prepare(
    `INSERT INTO journal (request_id, sim_ms, method, route, path, query, principal, idempotency_key, content_type, body_kind, body_sealed, status)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const page = db.prepare<[number, number], Row>('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?');
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM journal');
  const originRow = db.prepare<[], { seed: number; start_ms: number; clock_mode: 'frozen' | 'running'; speed_milli: number; complete: number }>(
    'SELECT seed, start_ms, clock_mode, speed_milli, complete FROM journal_origin WHERE id = 1',
  );
  // A database created before the journal existed: its history before now is not in the journal.
  db.prepare(
    'INSERT OR IGNORE INTO journal_origin (id, seed, start_ms, clock_mode, speed_milli, complete) SELECT 1, seed, start_ms, clock_mode, speed_milli, 0 FROM sandbox_state WHERE id = 1',
  ).run();

  const tickets = new Map<string, ReplayTicket>();

  function keyFor(principal: string, tenantId: string | null): Buffer {
    return principal.startsWith('tenant:') && tenantId ? deps.tenantDek(tenantId) : deps.kek;
  }

  function toEntry(r: Row): JournalEntry {
    let body: string | null = null;
    let bodyBase64: string | null = null;
    if (r.body_kind !== 'none') {
      const tenantId = r.principal.startsWith('tenant:') ? r.principal.slice('tenant:'.length) : null;
      const plain = open(keyFor(r.principal, tenantId), r.body_sealed!, `journal:${r.principal}`);
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
    };
  }

  return {
    /** Appends one entry; call inside the savepoint of the request it records. */
    record(e: JournalRecord): void {
      let kind: Row['body_kind'] = 'none';
      let sealed: Buffer | null = null;
      if (e.body !== undefined) {
        kind = typeof e.body === 'string' ? 'text' : 'bytes';
        const plain = typeof e.body === 'string' ? Buffer.from(e.body, 'utf8') : e.body;
        sealed = seal(keyFor(e.principal, e.tenantId), plain, `journal:${e.principal}`);
      }
      insert.run(e.requestId, e.simMs, e.method, e.route, e.path, e.query, e.principal, e.idempotencyKey, e.contentType, kind, sealed, e.status);
    },

    header(): JournalHeader {
      const o = originRow.get()!;
      return {
        svc_journal: JOURNAL_FORMAT,
        svc_version: deps.version,
        origin: { seed: o.seed, start: deps.toIso(o.start_ms), clock: o.clock_mode, speed: o.speed_milli / 1000 },
        complete: o.complete === 1,
        entries: count.get()!.n,
      };
    },

    /** Entries with seq > after, oldest first. */
    list(after: number, limit: number): JournalEntry[] {
      return page.all(after, limit).map(toEntry);
    },

    count(): number {
      return count.get()!.n;
    },

    /** Registers a one-time ticket for the replay route's internal request; returns its token. */
    issueTicket(ticket: ReplayTicket): string {
      // Unguessable: the ticket stands in for the principal's credentials for one internal request.
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

export type Journal = ReturnType<typeof createJournal>;
