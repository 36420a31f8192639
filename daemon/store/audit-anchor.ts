// What ties the audit chain to its writer, the daemon. Two anchors, both MACed with the audit seal key
// (derived from the key-encryption key, which the database never holds):
// - the signed head, in the database (audit_seal): the chain's exact end, written in the transaction
//   that moved it. Someone who cannot MAC cannot make one for a head of their own; but they can put
//   back an older one copied from the database, with the chain cut back to it.
// - the checkpoint, beside the key (daemon/store/audit-checkpoint.ts): the head of the daemon's last
//   COMMIT that appended, out of the database's writer's reach. The chain must reach it: no fewer
//   entries, the same entry at its count; entries beyond it (a crash between a COMMIT and the
//   checkpoint's write) only under a valid signed head naming the chain's exact end.
import type { Db } from './db.js';
import { keyedHash } from './crypto.js';
import { GENESIS, rowHash, type AuditRow } from './audit-row.js';
import type { Checkpoint, CheckpointRead } from './audit-checkpoint.js';

export const sealMac = (key: Buffer, count: number, head: string) => keyedHash(key, `audit-seal:${count}:${head}`);

/** The signed head's verdict on a chain ending at (count, last): null when it agrees. */
export function checkSeal(db: Db, sealKey: Buffer, count: number, last: string): string | null {
  const s = db
    .prepare<[], { count: number; head: string; mac: string }>('SELECT count, head, mac FROM audit_seal WHERE id = 1')
    .get();
  if (!s) return count === 0 ? null : 'the signed head is missing';
  if (s.mac !== sealMac(sealKey, s.count, s.head)) return 'the signed head does not verify';
  if (s.count !== count || (count > 0 && s.head !== last))
    return `the chain ends at ${count} but the signed head names ${s.count}`;
  return null;
}

/** Why the chain does not reach its checkpoint. */
export type AnchorKind = 'missing' | 'foreign' | 'truncated' | 'rewritten' | 'unsealed';

export interface AnchorProblem {
  kind: AnchorKind;
  first_bad_seq: number | null;
  reason: string;
}

export interface ChainEnd {
  count: number;
  head: string;
}

const KEPT = 'the checkpoint kept with the key';

/** Rows after `from`, in order: each follows the one before and recomputes; the end they reach, or the first bad row.
 * */
function walkFrom(db: Db, from: Checkpoint): { end: ChainEnd } | { bad: number; why: string } {
  let prev = from.count === 0 ? GENESIS : from.head;
  let seq = from.count;
  for (const r of db
    .prepare<[number], AuditRow>('SELECT * FROM audit_log WHERE seq > ? ORDER BY seq')
    .iterate(from.count)) {
    if (r.seq !== seq + 1) return { bad: seq + 1, why: `entry ${seq + 1} is missing` };
    if (r.prev_hash !== prev || rowHash(r) !== r.hash)
      return { bad: r.seq, why: `entry ${r.seq} does not follow the chain the daemon wrote` };
    prev = r.hash;
    seq = r.seq;
  }
  return { end: { count: seq, head: seq === 0 ? '' : prev } };
}

const lastSeq = (db: Db): number =>
  db.prepare<[], { n: number | null }>('SELECT max(seq) AS n FROM audit_log').get()?.n ?? 0;

/**
 * The checkpoint's verdict on the database's chain. `sealed(end)`: the end carries a valid signed head
 * (the entries beyond the checkpoint are the daemon's own). On success, the chain's end, and whether
 * the checkpoint is behind it (to be caught up).
 */
export function checkpointVerdict(
  db: Db,
  read: CheckpointRead,
  sealed: (end: ChainEnd) => boolean,
): { problem: AnchorProblem } | { end: ChainEnd; behind: boolean } {
  const problem = (kind: AnchorKind, first: number | null, reason: string) => ({
    problem: { kind, first_bad_seq: first, reason },
  });
  const last = lastSeq(db);
  if (read.state === 'missing') {
    return last === 0
      ? { end: { count: 0, head: '' }, behind: true }
      : problem(
          'missing',
          null,
          `${KEPT} (audit.checkpoint) is missing: nothing vouches for the ${last} entries of the chain`,
        );
  }
  if (read.state === 'foreign')
    return problem('foreign', null, `${KEPT} (audit.checkpoint) was not written under this home's key`);
  const cp = read.checkpoint;
  if (last < cp.count)
    return problem(
      'truncated',
      last + 1,
      `the chain has ${last} entries but ${KEPT} names ${cp.count}: it was cut short or rolled back`,
    );
  const at =
    cp.count === 0
      ? null
      : db.prepare<[number], { hash: string }>('SELECT hash FROM audit_log WHERE seq = ?').get(cp.count);
  if (cp.count > 0 && at?.hash !== cp.head)
    return problem('rewritten', cp.count, `entry ${cp.count} is not the one ${KEPT} names: the chain was rewritten`);
  const walked = walkFrom(db, cp);
  if ('bad' in walked) return problem('rewritten', walked.bad, `${walked.why} after ${KEPT} (${cp.count})`);
  if (walked.end.count > cp.count && !sealed(walked.end)) {
    return problem(
      'unsealed',
      cp.count + 1,
      `entries ${cp.count + 1}..${walked.end.count} go beyond ${KEPT} without a valid signed head`,
    );
  }
  return { end: walked.end, behind: walked.end.count > cp.count };
}
