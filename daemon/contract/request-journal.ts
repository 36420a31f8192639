// What the request pipeline and the request journal say to each other, below both: the pipeline
// (daemon/http/) records every state-changing request that reached its handler and takes the replay
// tickets that let a replayed request run as its recorded principal; daemon/record/journal.ts
// implements it. docs/snapshots.md describes the journal and the replay.
import type { JournalFault } from './journal.js';
import type { Operator, OperatorRealm } from './route.js';

/** One request as the pipeline hands it to the journal, inside the request's own savepoint. */
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
  /** The JSON answer's text (undefined for a raw answer or none), for replays to compare bodies. */
  response?: string;
  /** The fault that fired on the request (a lost_response or a latency), as the journal keeps it. */
  fault?: JournalFault | null;
}

/** Who a replayed request runs as, handed from the offline rebuild (daemon/sandbox/replay.ts) to the pipeline. */
export type ReplayPrincipal =
  | { kind: 'tenant'; tenantId: string }
  | { kind: 'operator'; operator: Operator & { realm: OperatorRealm } }
  | { kind: 'anonymous' };

export interface ReplayTicket {
  principal: ReplayPrincipal;
  /** The original request id: the replayed answer (error bodies, stored idempotent answers) carries it. */
  requestId: string;
  /** Who replays the entry (`replay`, the offline rebuild): the audit names it as the actor, on the principal's behalf.
   * */
  replayedBy: string;
  /** The fault the entry records: the replayed request's own entry records it again. */
  fault?: JournalFault | null;
}

/** The header a replayed entry's in-process request carries; its value is a one-time ticket token. */
export const REPLAY_HEADER = 'x-svc-replay-ticket';

/** The journal as the pipeline uses it. */
export interface RequestJournal {
  /** Appends one entry; called inside the savepoint of the request it records. */
  record(e: JournalRecord): void;
  /** The ticket of this token, once (a second use, or an unknown token, gives undefined). */
  takeTicket(token: string): ReplayTicket | undefined;
}
