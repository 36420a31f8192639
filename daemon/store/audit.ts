// Hash-chained audit log. Each row's hash covers its content and the previous row's hash; the head
// (count and last hash) is kept in sandbox_state in the same transaction, so an edited, inserted or
// deleted row — including the last one — breaks verification. Triggers make the table append-only.
// A replayed journal entry is audited truthfully: inside actingFor(operator, fn) every entry names
// the replaying operator as its actor and the actor the code gave as on_behalf_of (the journal's
// recorded principal). A row without on_behalf_of hashes exactly as rows did before the column existed.
// Anchors (daemon/store/audit-anchor.ts): with a seal key (derived from the key-encryption key, which
// the database never holds) every committed head is signed in audit_seal, and with a checkpoint store
// the head of each COMMIT is also kept beside the key (daemon/store/audit-checkpoint.ts), out of reach
// of whoever can write the database. Cutting the tail, rewriting and re-chaining rows, or putting back
// an older signed head copied from the database is then caught by verify, and the daemon signs only
// heads it wrote itself (daemon/store/audit-signer.ts). Not caught: the whole home, key material
// included, put back as it was earlier (docs/reliability.md, "The audit chain against a database writer").
import type { Db } from './db.js';
import { GENESIS, rowHash, type AuditRow } from './audit-row.js';
import { checkSeal, checkpointVerdict, type AnchorProblem, type ChainEnd } from './audit-anchor.js';
import type { CheckpointStore } from './audit-checkpoint.js';
import { createSigner, type Signer } from './audit-signer.js';
import type { SandboxStateRow } from './rows.js';

export type { AuditRow };

export interface AuditEntry {
  actor: string;
  action: string;
  subject: string;
  tenantId?: string | null;
  detail?: Record<string, unknown>;
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

function listAudit(db: Db, f: AuditFilter): AuditRow[] {
  return db
    .prepare<Record<string, string | number | null>, AuditRow>(
      `SELECT * FROM audit_log WHERE seq > @after AND (@before IS NULL OR seq < @before)
         AND (@tenant IS NULL OR tenant_id = @tenant)
         AND (@actor IS NULL OR actor = @actor OR on_behalf_of = @actor) AND (@action IS NULL OR action = @action)
         AND (@from IS NULL OR at >= @from) AND (@to IS NULL OR at <= @to) ORDER BY seq DESC LIMIT @limit`,
    )
    .all({
      after: f.afterSeq ?? 0,
      before: f.beforeSeq ?? null,
      tenant: f.tenantId ?? null,
      actor: f.actor ?? null,
      action: f.action ?? null,
      from: f.from ?? null,
      to: f.to ?? null,
      limit: f.limit,
    });
}

type HeadRow = Pick<SandboxStateRow, 'audit_count' | 'audit_head'>;

export interface AuditVerdict {
  ok: boolean;
  count: number;
  head: string;
  first_bad_seq: number | null;
  reason: string | null;
}

/** Walks the whole chain from its first row: every link and hash, then the recorded head. */
function walkChain(db: Db, h: HeadRow): AuditVerdict {
  let prev = GENESIS;
  let expectedSeq = 1;
  for (const r of db.prepare<[], AuditRow>('SELECT * FROM audit_log ORDER BY seq').iterate()) {
    const bad = (reason: string) => ({
      ok: false,
      count: h.audit_count,
      head: h.audit_head,
      first_bad_seq: r.seq,
      reason,
    });
    if (r.seq !== expectedSeq) return { ...bad(`row ${expectedSeq} is missing`), first_bad_seq: expectedSeq };
    if (r.prev_hash !== prev) return bad('prev_hash does not match the previous row');
    if (rowHash(r) !== r.hash) return bad('row content does not match its hash');
    prev = r.hash;
    expectedSeq++;
  }
  const count = expectedSeq - 1;
  if (count !== h.audit_count || (count > 0 && prev !== h.audit_head)) {
    return {
      ok: false,
      count: h.audit_count,
      head: h.audit_head,
      first_bad_seq: count + 1,
      reason: 'the chain ends before the recorded head',
    };
  }
  return { ok: true, count, head: h.audit_head, first_bad_seq: null, reason: null };
}

/** The anchors' verdicts on a chain whose rows all recompute and end at (count, last). */
function anchorProblems(db: Db, { sealKey, checkpoints }: AuditAnchors, count: number, last: string): AnchorProblem[] {
  const out: AnchorProblem[] = [];
  if (sealKey && checkpoints) {
    const v = checkpointVerdict(db, checkpoints.read(), (end) => checkSeal(db, sealKey, end.count, end.head) === null);
    if ('problem' in v) out.push(v.problem);
  }
  const sealed = sealKey ? checkSeal(db, sealKey, count, last) : null;
  if (sealed && out[0]?.kind !== 'unsealed') out.push({ kind: 'unsealed', first_bad_seq: count + 1, reason: sealed });
  return out;
}

/** Walks the whole chain; reports the first broken row, then what the anchors say of its end. */
function verifyChain(db: Db, h: HeadRow, anchors: AuditAnchors): AuditVerdict {
  const walked = walkChain(db, h);
  if (!walked.ok) return walked;
  const problems = anchorProblems(db, anchors, walked.count, walked.head);
  if (problems.length === 0) return walked;
  return {
    ...walked,
    ok: false,
    first_bad_seq: problems[0].first_bad_seq ?? walked.count + 1,
    reason: problems.map((p) => p.reason).join('; '),
  };
}

/** The audit log's anchors (daemon/store/audit-anchor.ts): the signed head's key, and the checkpoint beside the key. */
export interface AuditAnchors {
  sealKey?: Buffer;
  checkpoints?: CheckpointStore;
}

/** The row an entry appends after head h (`acting`: the operator replaying it, or null). */
function entryRow(h: HeadRow, at: string, detail: string, entry: AuditEntry, acting: string | null) {
  return {
    seq: h.audit_count + 1,
    at,
    actor: acting ?? entry.actor,
    action: entry.action,
    subject: entry.subject,
    tenant_id: entry.tenantId ?? null,
    detail,
    prev_hash: h.audit_head || GENESIS,
    on_behalf_of: acting === null ? null : entry.actor,
  };
}

/** Inserts a row with its hash; prepared at the first append: the snapshot verifier only reads, and may read an
 * older schema. */
function auditInserter(db: Db): (row: ReturnType<typeof entryRow>, hash: string) => void {
  let insert: ReturnType<typeof db.prepare<unknown[]>> | null = null;
  return (row, hash) => {
    insert ??= db.prepare(
      'INSERT INTO audit_log (seq, at, actor, action, subject, tenant_id, detail, prev_hash, hash, ' +
        'on_behalf_of) VALUES (?,?,?,?,?,?,?,?,?,?)',
    );
    insert.run(
      row.seq,
      row.at,
      row.actor,
      row.action,
      row.subject,
      row.tenant_id,
      row.detail,
      row.prev_hash,
      hash,
      row.on_behalf_of,
    );
  };
}

export function createAudit(db: Db, nowIso: () => string, anchors: AuditAnchors = {}) {
  const { sealKey, checkpoints } = anchors;
  const head = db.prepare<[], HeadRow>('SELECT audit_count, audit_head FROM sandbox_state WHERE id = 1');
  const insert = auditInserter(db);
  // Compare-and-set: the head moves only from the head this connection last knew. The known head is
  // kept in memory, so an append reads nothing; when a rollback (or anything else) moved the stored
  // head away from it, the update changes no row, and the append reads the head and tries again
  // (the signer then checks that the head read back is one this daemon wrote).
  const setHead = db.prepare(
    'UPDATE sandbox_state SET audit_count = ?, audit_head = ? WHERE id = 1 AND audit_count = ? AND audit_head = ?',
  );
  let known: HeadRow | null = null;
  const signer = createSigner(db, head, sealKey, checkpoints);
  /** The operator replaying a journal entry, while actingFor runs. */
  let acting: string | null = null;

  /** Runs fn with every entry it appends audited as `operator`, on behalf of the entry's own actor. */
  function actingFor<T>(operator: string, fn: () => T): T {
    const before = acting;
    acting = operator;
    try {
      return fn();
    } finally {
      acting = before;
    }
  }

  function readHead(): HeadRow {
    const h = head.get()!;
    signer.knows(h);
    return h;
  }

  /** Appends one entry; call inside the transaction of the change it records. */
  function append(entry: AuditEntry): void {
    const at = nowIso();
    const detail = JSON.stringify(entry.detail ?? {});
    for (let attempt = 0; ; attempt++) {
      const h = known ?? readHead();
      const row = entryRow(h, at, detail, entry, acting);
      const hash = rowHash(row);
      if (setHead.run(row.seq, hash, h.audit_count, h.audit_head).changes === 1) {
        insert(row, hash);
        known = { audit_count: row.seq, audit_head: hash };
        signer.appended(row.seq, hash);
        return;
      }
      known = null;
      if (attempt > 0) throw new Error('audit: the head changed while appending');
    }
  }

  const sealOk = (end: ChainEnd) => !sealKey || checkSeal(db, sealKey, end.count, end.head) === null;
  const verify = (): AuditVerdict => verifyChain(db, head.get()!, anchors);

  const anchorAtStart = (o: StartOptions): AnchorProblem | null =>
    anchorStart({ db, head, sealKey, checkpoints, signer, sealOk, walk: () => walkChain(db, head.get()!) }, o);
  const list = (f: AuditFilter): AuditRow[] => listAudit(db, f);

  return {
    append,
    actingFor,
    list,
    verify,
    anchorAtStart,
    openBatch: signer.openBatch,
    closeBatch: signer.closeBatch,
    afterCommit: signer.afterCommit,
    /** Why this daemon no longer signs the chain's head (null while it does). */
    anchorProblem: signer.problem,
    checkpointNow: signer.checkpointNow,
  };
}

export interface StartOptions {
  /** The database file was created by this start: a checkpoint left beside the key belongs to a database that is gone.
   * */
  fresh: boolean;
  /** The owner vouches for the chain as it is (`--adopt-audit-head`; a snapshot import): sign its end if every row
   * recomputes. */
  adopt: boolean;
}

interface StartCtx {
  db: Db;
  head: { get(): HeadRow | undefined };
  sealKey?: Buffer;
  checkpoints?: CheckpointStore;
  signer: Signer;
  sealOk(end: ChainEnd): boolean;
  walk(): AuditVerdict;
}

/**
 * At start, before anything appends: sign the chain's end only when the checkpoint beside the key
 * vouches for it (or the home is new, or adopted by its owner). Otherwise the daemon runs but signs
 * nothing, and verification says why (the problem, also returned for the start-up log).
 */
function anchorStart(c: StartCtx, o: StartOptions): AnchorProblem | null {
  const h = c.head.get()!;
  const stored: ChainEnd = { count: h.audit_count, head: h.audit_head };
  if (!c.sealKey) return null;
  if (!c.checkpoints) {
    // no checkpoint (a tool's store): seal the head when no seal exists yet, as before checkpoints
    if (!c.db.prepare('SELECT 1 FROM audit_seal WHERE id = 1').get()) c.signer.trust(stored, false);
    return null;
  }
  if (o.fresh || o.adopt) {
    const w = c.walk();
    if (!w.ok)
      return refuse(c.signer, {
        kind: 'rewritten',
        first_bad_seq: w.first_bad_seq,
        reason: w.reason ?? 'the chain does not verify',
      });
    c.signer.trust(stored, false);
    return null;
  }
  const v = checkpointVerdict(c.db, c.checkpoints.read(), (end) => c.sealOk(end));
  if ('problem' in v) return refuse(c.signer, v.problem);
  if (v.end.count !== stored.count || v.end.head !== stored.head) {
    return refuse(c.signer, {
      kind: 'rewritten',
      first_bad_seq: v.end.count + 1,
      reason: `the recorded head (${stored.count}) is not the chain's end (${v.end.count})`,
    });
  }
  c.signer.trust(v.end, c.sealOk(v.end));
  return null;
}

function refuse(signer: Signer, p: AnchorProblem): AnchorProblem {
  signer.distrust(p);
  return p;
}

export type Audit = ReturnType<typeof createAudit>;
