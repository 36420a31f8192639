// When, and which heads, the daemon signs (daemon/store/audit-anchor.ts has what the two anchors mean).
//
// The signed head (audit_seal) is written inside a group-commit batch once, at the batch's end
// (openBatch .. closeBatch), rather than by every append: only committed states are ever read, and
// every batch commits with the seal naming the head it leaves (read from the database: a request
// rolled back to its savepoint took its entries with it). Outside a batch, at once, inside the
// caller's transaction. The checkpoint beside the key follows the COMMIT: after a batch's COMMIT
// (afterCommit), and once the transaction of an append outside a batch has ended (the next turn).
//
// Only heads the daemon wrote itself are signed. `mine` holds the heads appended since the last
// checkpoint, and the checkpoint's own: a head read back from the database (after a rollback, or at
// the first append) that is not among them was written by someone else, and from then on this daemon
// signs nothing (distrust): the seal and the checkpoint stay where they were, so verification fails
// until the home is adopted again (docs/reliability.md). At start, the daemon trusts the chain's end
// only once the checkpoint vouches for it (daemon/store/audit.ts, anchorAtStart).
import type { Db } from './db.js';
import { sealMac, type AnchorProblem, type ChainEnd } from './audit-anchor.js';
import type { CheckpointStore } from './audit-checkpoint.js';
import type { SandboxStateRow } from './rows.js';

type HeadRow = Pick<SandboxStateRow, 'audit_count' | 'audit_head'>;

/** Writes the signed head (prepared at the first write: a read-only verifier never writes). */
function sealWriter(db: Db, sealKey: Buffer | undefined): ((end: ChainEnd) => void) | null {
  if (!sealKey) return null;
  let stmt: ReturnType<typeof db.prepare<unknown[]>> | null = null;
  return (end) => {
    stmt ??= db.prepare('INSERT OR REPLACE INTO audit_seal (id, count, head, mac) VALUES (1, ?, ?, ?)');
    stmt.run(end.count, end.head, sealMac(sealKey, end.count, end.head));
  };
}

/** What the signer knows: whether it still signs, why not, and the heads it wrote since the last checkpoint. */
interface Trust {
  anchored: boolean;
  trusted: boolean;
  problem: AnchorProblem | null;
  mine: Map<number, string>;
}

/** The checkpoint side: write after a COMMIT, never for a head the daemon did not write. */
function checkpointer(db: Db, t: Trust, checkpoints: CheckpointStore | undefined) {
  let looseScheduled = false;
  const sealStmt = () => db.prepare<[], ChainEnd>('SELECT count, head FROM audit_seal WHERE id = 1');

  function checkpoint(end: ChainEnd): void {
    if (!t.anchored || !t.trusted) return;
    try {
      checkpoints!.write(end);
    } catch {
      // The file could not be replaced (a full disk): the checkpoint stays behind, which only lets
      // the entries after it stand on the signed head (daemon/store/audit-anchor.ts). Retried next COMMIT.
      return;
    }
    t.mine = new Map([[end.count, end.head]]);
  }

  /** Once the transaction of an append outside a batch has ended: checkpoint the head it committed, if it is ours. */
  function flushLoose(): void {
    looseScheduled = false;
    if (!db.open || !t.trusted) return;
    if (db.inTransaction) return scheduleLoose();
    const s = sealStmt().get();
    if (s && t.mine.get(s.count) === s.head) checkpoint(s);
  }

  function scheduleLoose(): void {
    if (!t.anchored || looseScheduled) return;
    looseScheduled = true;
    setImmediate(flushLoose);
  }

  return { checkpoint, scheduleLoose, flushLoose };
}

/** Someone else wrote the chain: sign nothing more in this process. */
function distrustChain(t: Trust, p: AnchorProblem): void {
  t.trusted = false;
  t.problem ??= p;
  t.mine.clear();
}

/** A head read back from the database: false (and nothing signed from now on) when this daemon did not write it. */
function knowsHead(t: Trust, h: HeadRow): boolean {
  if (!t.anchored || !t.trusted || t.mine.get(h.audit_count) === h.audit_head) return true;
  distrustChain(t, {
    kind: 'rewritten',
    first_bad_seq: h.audit_count,
    reason: `the head moved to entry ${h.audit_count}, which this daemon did not write`,
  });
  return false;
}

export function createSigner(
  db: Db,
  head: { get(): HeadRow | undefined },
  sealKey: Buffer | undefined,
  checkpoints: CheckpointStore | undefined,
) {
  const writeSeal = sealWriter(db, sealKey);
  // Without a checkpoint (a store opened by a tool, a test without a home) every head is signed as it comes.
  const t: Trust = {
    anchored: writeSeal !== null && checkpoints !== undefined,
    trusted: true,
    problem: null,
    mine: new Map(),
  };
  const { checkpoint, scheduleLoose, flushLoose } = checkpointer(db, t, checkpoints);
  let batchOpen = false;
  let owed = false;
  let sealedInBatch: ChainEnd | null = null;

  const distrust = (p: AnchorProblem): void => distrustChain(t, p);
  const knows = (h: HeadRow): boolean => knowsHead(t, h);

  return {
    /** This process appended the entry that makes (count, head) the head. */
    appended(count: number, h: string): void {
      if (t.anchored && t.trusted) t.mine.set(count, h);
      if (batchOpen) {
        owed = true;
        return;
      }
      if (t.trusted) writeSeal?.({ count, head: h });
      scheduleLoose();
    },
    knows,
    /** A group-commit batch has begun (daemon/store/group-commit.ts). */
    openBatch(): void {
      batchOpen = true;
      sealedInBatch = null;
    },
    /** Just before the batch's COMMIT. Nothing when nothing was appended. */
    closeBatch(): void {
      batchOpen = false;
      if (!owed) return;
      owed = false;
      const h = head.get()!;
      if (!t.trusted || !knows(h)) return;
      sealedInBatch = { count: h.audit_count, head: h.audit_head };
      writeSeal?.(sealedInBatch);
    },
    /** The batch's COMMIT succeeded: the head it sealed goes beside the key. */
    afterCommit(): void {
      const end = sealedInBatch;
      sealedInBatch = null;
      if (end) checkpoint(end);
    },
    /** Start: the checkpoint vouches for `end` (or the home is new or adopted). Seals it when the database's seal does
     * not, and checkpoints it. */
    trust(end: ChainEnd, sealOk: boolean): void {
      t.trusted = true;
      t.problem = null;
      if (!sealOk) writeSeal?.(end);
      t.mine = new Map([[end.count, end.head]]);
      checkpoint(end);
    },
    distrust,
    /** Why this daemon stopped signing (null while it signs). */
    problem: (): AnchorProblem | null => t.problem,
    /**
     * Outside any transaction: checkpoint the committed head now instead of on the next turn. A KEK
     * switch-over calls it right after its COMMIT, so that no request can read the checkpoint still
     * MACed under the key that just went away.
     */
    checkpointNow(): void {
      if (db.inTransaction) return;
      flushLoose();
    },
  };
}

export type Signer = ReturnType<typeof createSigner>;
