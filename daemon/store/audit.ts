// Hash-chained audit log. Each row's hash covers its content and the previous row's hash; the head
// (count and last hash) is kept in sandbox_state in the same transaction, so an edited, inserted or
// deleted row — including the last one — breaks verification. Triggers make the table append-only.
import type { Db } from './db.js';
import { sha256 } from './crypto.js';

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
}

const GENESIS = '0'.repeat(64);

function rowHash(r: Omit<AuditRow, 'hash'>): string {
  return sha256(JSON.stringify([r.seq, r.at, r.actor, r.action, r.subject, r.tenant_id, r.detail, r.prev_hash]));
}

export function createAudit(db: Db, nowIso: () => string) {
  const head = db.prepare<[], { audit_count: number; audit_head: string }>('SELECT audit_count, audit_head FROM sandbox_state WHERE id = 1');
  const insert = db.prepare('INSERT INTO audit_log (seq, at, actor, action, subject, tenant_id, detail, prev_hash, hash) VALUES (?,?,?,?,?,?,?,?,?)');
  // Compare-and-set: the head moves only from the head this connection last knew. The known head is
  // kept in memory, so an append reads nothing; when a rollback (or anything else) moved the stored
  // head away from it, the update changes no row, and the append reads the head and tries again.
  const setHead = db.prepare('UPDATE sandbox_state SET audit_count = ?, audit_head = ? WHERE id = 1 AND audit_count = ? AND audit_head = ?');
  let known: { audit_count: number; audit_head: string } | null = null;

  /** Appends one entry; call inside the transaction of the change it records. */
  function append(entry: AuditEntry): void {
    const at = nowIso();
    const detail = JSON.stringify(entry.detail ?? {});
    for (let attempt = 0; ; attempt++) {
      const h = known ?? head.get()!;
      const row = {
        seq: h.audit_count + 1, at, actor: entry.actor, action: entry.action, subject: entry.subject,
        tenant_id: entry.tenantId ?? null, detail, prev_hash: h.audit_head || GENESIS,
      };
      const hash = rowHash(row);
      if (setHead.run(row.seq, hash, h.audit_count, h.audit_head).changes === 1) {
        insert.run(row.seq, row.at, row.actor, row.action, row.subject, row.tenant_id, row.detail, row.prev_hash, hash);
        known = { audit_count: row.seq, audit_head: hash };
        return;
      }
      known = null;
      if (attempt > 0) throw new Error('audit: the head changed while appending');
    }
  }

  function list(opts: { afterSeq?: number; limit: number; tenantId?: string }): AuditRow[] {
    const rows = db
      .prepare<[number, string | null, string | null, number], AuditRow>(
        'SELECT * FROM audit_log WHERE seq > ? AND (? IS NULL OR tenant_id = ?) ORDER BY seq DESC LIMIT ?',
      )
      .all(opts.afterSeq ?? 0, opts.tenantId ?? null, opts.tenantId ?? null, opts.limit);
    return rows;
  }

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
    return { ok: true, count, head: h.audit_head, first_bad_seq: null, reason: null };
  }

  return { append, list, verify };
}

export type Audit = ReturnType<typeof createAudit>;
