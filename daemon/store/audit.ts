// Hash-chained audit log. Each row's hash covers its content and the previous row's hash; the head
// (count and last hash) is kept in sandbox_state in the same transaction, so an edited, inserted or
// deleted row — including the last one — breaks verification. Triggers make the table append-only.
// A replayed journal entry is audited truthfully: inside actingFor(operator, fn) every entry names
// the replaying operator as its actor and the actor the code gave as on_behalf_of (the journal's
// recorded principal). A row without on_behalf_of hashes exactly as rows did before the column existed.
// The signed head: with a seal key (derived from the key-encryption key, which the database never
// holds), every committed transaction that appended also writes (count, head, MAC) to audit_seal
// (once per group-commit batch, just before its COMMIT; at once outside a batch), so cutting the chain's tail and
// rewriting sandbox_state's head to match is caught by verify: the seal still names the longer chain,
// and a forged seal has no valid MAC. Not caught: rolling the whole database file back to an earlier
// state (the seal goes back with it).
import type { Db } from './db.js';
import { keyedHash, sha256 } from './crypto.js';

export interface AuditEntry {
  actor: string;
  action: string;
  subject: string;
  tenantId?: string | null;
  detail?: Record<string, unknown>;
}

export interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  subject: string;
  tenant_id: string | null;
  detail: string;
  prev_hash: string;
  hash: string;
  /** Set when an operator replayed the request: the principal the actor acted for. */
  on_behalf_of: string | null;
}

const GENESIS = '0'.repeat(64);

function rowHash(r: Omit<AuditRow, 'hash' | 'on_behalf_of'> & { on_behalf_of?: string | null }): string {
  const fields: Array<string | number | null> = [r.seq, r.at, r.actor, r.action, r.subject, r.tenant_id, r.detail, r.prev_hash];
  // Only rows written on someone's behalf hash the field: every other row (and every row older than
  // the column) keeps the hash it always had.
  if (r.on_behalf_of !== null && r.on_behalf_of !== undefined) fields.push(r.on_behalf_of);
  return sha256(JSON.stringify(fields));
}

export interface AuditFilter {
  limit: number;
  afterSeq?: number;
  /** Cursor: entries older than this seq (pass the last seq of the previous page). */
  beforeSeq?: number;
  tenantId?: string;
  actor?: string;
  action?: string;
  /** Inclusive bounds on `at` (RFC 3339, compared as written by the sandbox clock). */
  from?: string;
  to?: string;
}

const sealMac = (key: Buffer, count: number, head: string) => keyedHash(key, `audit-seal:${count}:${head}`);

function listAudit(db: Db, f: AuditFilter): AuditRow[] {
  return db
    .prepare<Record<string, string | number | null>, AuditRow>(
      `SELECT * FROM audit_log WHERE seq > @after AND (@before IS NULL OR seq < @before) AND (@tenant IS NULL OR tenant_id = @tenant)
         AND (@actor IS NULL OR actor = @actor OR on_behalf_of = @actor) AND (@action IS NULL OR action = @action)
         AND (@from IS NULL OR at >= @from) AND (@to IS NULL OR at <= @to) ORDER BY seq DESC LIMIT @limit`,
    )
    .all({ after: f.afterSeq ?? 0, before: f.beforeSeq ?? null, tenant: f.tenantId ?? null, actor: f.actor ?? null, action: f.action ?? null, from: f.from ?? null, to: f.to ?? null, limit: f.limit });
}

/** The signed head's verdict: null when it agrees with the chain (or there is no seal key). */
function checkSeal(db: Db, sealKey: Buffer | undefined, count: number, last: string): string | null {
  if (!sealKey) return null;
  const s = db.prepare<[], { count: number; head: string; mac: string }>('SELECT count, head, mac FROM audit_seal WHERE id = 1').get();
  if (!s) return count === 0 ? null : 'the signed head is missing';
  if (s.mac !== sealMac(sealKey, s.count, s.head)) return 'the signed head does not verify';
  if (s.count !== count || (count > 0 && s.head !== last)) return `the chain ends at ${count} but the signed head names ${s.count}`;
  return null;
}

/** Writes the signed head (prepared at the first write: a read-only verifier never writes). */
function sealWriter(db: Db, sealKey: Buffer | undefined): ((count: number, head: string) => void) | null {
  if (!sealKey) return null;
  let stmt: ReturnType<typeof db.prepare<unknown[]>> | null = null;
  return (count, head) => {
    stmt ??= db.prepare('INSERT OR REPLACE INTO audit_seal (id, count, head, mac) VALUES (1, ?, ?, ?)');
    stmt.run(count, head, sealMac(sealKey, count, head));
  };
}

type HeadRow = { audit_count: number; audit_head: string };

/**
 * When the signed head is written. Inside a group-commit batch (openBatch .. closeBatch) once, at the
 * batch's end, rather than by every append: only committed states are ever read, and every batch
 * commits with the seal naming the head it leaves (read from the database: a request rolled back to
 * its savepoint took its entries with it). One MAC and one write per batch instead of per request.
 * Outside a batch, at once.
 */
function sealTiming(write: ((count: number, head: string) => void) | null, head: { get(): HeadRow | undefined }) {
  let batchOpen = false;
  let owed = false;
  return {
    appended(count: number, h: string): void {
      if (batchOpen) owed = true;
      else write?.(count, h);
    },
    /** A group-commit batch has begun (daemon/store/group-commit.ts). */
    openBatch(): void {
      batchOpen = true;
    },
    /** Just before the batch's COMMIT. Nothing when nothing was appended. */
    closeBatch(): void {
      batchOpen = false;
      if (!owed) return;
      owed = false;
      const h = head.get()!;
      write?.(h.audit_count, h.audit_head);
    },
  };
}

export function createAudit(db: Db, nowIso: () => string, sealKey?: Buffer) {
  const head = db.prepare<[], HeadRow>('SELECT audit_count, audit_head FROM sandbox_state WHERE id = 1');
  // Prepared at the first append: the snapshot verifier only reads, and may read an older schema.
  let insert: ReturnType<typeof db.prepare<unknown[]>> | null = null;
  // Compare-and-set: the head moves only from the head this connection last knew. The known head is
  // kept in memory, so an append reads nothing; when a rollback (or anything else) moved the stored
  // head away from it, the update changes no row, and the append reads the head and tries again.
  const setHead = db.prepare('UPDATE sandbox_state SET audit_count = ?, audit_head = ? WHERE id = 1 AND audit_count = ? AND audit_head = ?');
  let known: HeadRow | null = null;
  const writeSeal = sealWriter(db, sealKey);
  const seal = sealTiming(writeSeal, head);
  /** The operator replaying a journal entry, while actingFor runs. */
  let acting: string | null = null;

  /** Runs fn with every entry it appends audited as `operator`, on behalf of the entry's own actor. */
  function actingFor<T>(operator: string, fn: () => T): T {
    const before = acting;
    acting = operator;
    try { return fn(); } finally { acting = before; }
  }

  /** Appends one entry; call inside the transaction of the change it records. */
  function append(entry: AuditEntry): void {
    const at = nowIso();
    const detail = JSON.stringify(entry.detail ?? {});
    for (let attempt = 0; ; attempt++) {
      const h = known ?? head.get()!;
      const row = {
        seq: h.audit_count + 1, at, actor: acting ?? entry.actor, action: entry.action, subject: entry.subject,
        tenant_id: entry.tenantId ?? null, detail, prev_hash: h.audit_head || GENESIS, on_behalf_of: acting === null ? null : entry.actor,
      };
      const hash = rowHash(row);
      if (setHead.run(row.seq, hash, h.audit_count, h.audit_head).changes === 1) {
        insert ??= db.prepare('INSERT INTO audit_log (seq, at, actor, action, subject, tenant_id, detail, prev_hash, hash, on_behalf_of) VALUES (?,?,?,?,?,?,?,?,?,?)');
        insert.run(row.seq, row.at, row.actor, row.action, row.subject, row.tenant_id, row.detail, row.prev_hash, hash, row.on_behalf_of);
        known = { audit_count: row.seq, audit_head: hash };
        seal.appended(row.seq, hash);
        return;
      }
      known = null;
      if (attempt > 0) throw new Error('audit: the head changed while appending');
    }
  }

  /** Seals the current head when no seal exists yet (a database from before the seal). */
  function ensureSeal(): void {
    if (!writeSeal || db.prepare('SELECT 1 FROM audit_seal WHERE id = 1').get()) return;
    const h = head.get()!;
    writeSeal(h.audit_count, h.audit_head);
  }

  const list = (f: AuditFilter): AuditRow[] => listAudit(db, f);

  /** Walks the whole chain; reports the first broken row. */
  function verify(): { ok: boolean; count: number; head: string; first_bad_seq: number | null; reason: string | null } {
    const h = head.get()!;
    let prev = GENESIS;
    let expectedSeq = 1;
    for (const r of db.prepare<[], AuditRow>('SELECT * FROM audit_log ORDER BY seq').iterate()) {
      const bad = (reason: string) => ({ ok: false, count: h.audit_count, head: h.audit_head, first_bad_seq: r.seq, reason });
      if (r.seq !== expectedSeq) return { ...bad(`row ${expectedSeq} is missing`), first_bad_seq: expectedSeq };
      if (r.prev_hash !== prev) return bad('prev_hash does not match the previous row');
      if (rowHash(r) !== r.hash) return bad('row content does not match its hash');
      prev = r.hash;
      expectedSeq++;
    }
    const count = expectedSeq - 1;
    if (count !== h.audit_count || (count > 0 && prev !== h.audit_head)) {
      return { ok: false, count: h.audit_count, head: h.audit_head, first_bad_seq: count + 1, reason: 'the chain ends before the recorded head' };
    }
    const sealed = checkSeal(db, sealKey, count, prev);
    if (sealed) return { ok: false, count: h.audit_count, head: h.audit_head, first_bad_seq: count + 1, reason: sealed };
    return { ok: true, count, head: h.audit_head, first_bad_seq: null, reason: null };
  }

  return { append, actingFor, openBatch: seal.openBatch, closeBatch: seal.closeBatch, list, verify, ensureSeal };
}

export type Audit = ReturnType<typeof createAudit>;
