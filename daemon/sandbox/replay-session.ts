// The replay session: the offline rebuild (replay-offline.ts) runs journal entries as their recorded
// principals, which is a way to rebuild a sandbox from a journal and must not be a way around the
// realms. No route reaches it; inside the rebuild it is a check on the rebuild itself: an entry is
// replayed only inside the one session a sandbox may have, opened on a fresh sandbox (an empty journal)
// created with the journal's origin; entries come in journal order (seq = last + 1); and the session
// closes for good as soon as the journal gains an entry that is not a replay (the sandbox is no longer
// the journal's prefix). The row lives in replay_session (migration 012) and survives the reset.
// docs/snapshots.md, "Replay".
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { JournalOrigin } from '../contract/journal.js';
import type { ReplaySessionRow } from '../store/rows.js';

type SessionRow = Omit<ReplaySessionRow, 'id'>;

export interface ReplaySessionView {
  state: 'open' | 'closed';
  opened_by: string;
  /** The last entry replayed in the session (0 before the first). */
  last_seq: number;
  /** Why it closed; null while open. */
  closed_reason: string | null;
}

type SessionDeps = Pick<Deps, 'db' | 'journal' | 'audit' | 'market'>;

const view = (r: SessionRow): ReplaySessionView => ({
  state: r.state,
  opened_by: r.opened_by,
  last_seq: r.last_seq,
  closed_reason: r.closed_reason,
});

function row(deps: Pick<Deps, 'db'>): SessionRow | undefined {
  return deps.db
    .prepare<[], SessionRow>(
      'SELECT state, opened_by, last_seq, journal_seq, closed_reason FROM replay_session WHERE id = 1',
    )
    .get();
}

function close(deps: Pick<Deps, 'db'>, reason: string): void {
  deps.db
    .prepare("UPDATE replay_session SET state = 'closed', closed_reason = ? WHERE id = 1 AND state = 'open'")
    .run(reason);
}

/** The origin this sandbox was created with, compared field by field with the journal's. */
function originDiffers(deps: SessionDeps, origin: JournalOrigin): string | null {
  const o = deps.journal.origin();
  const mine = {
    seed: o.seed,
    start: deps.market.calendar.toIso(o.start_ms),
    clock: o.clock_mode,
    speed: o.speed_milli / 1000,
  };
  if (o.seed !== origin.seed)
    return `the journal was recorded with seed ${origin.seed}; this sandbox was created with seed ${o.seed}.`;
  if (Date.parse(origin.start) !== o.start_ms)
    return `the journal starts at ${origin.start}; this sandbox started at ${mine.start}.`;
  if (o.clock_mode !== origin.clock)
    return `the journal's clock was ${origin.clock}; this sandbox's was ${o.clock_mode}.`;
  if (Math.round(origin.speed * 1000) !== o.speed_milli)
    return `the journal's clock speed was ${origin.speed}; this sandbox's was ${mine.speed}.`;
  return null;
}

/** Opens the session: only on a sandbox that has journaled nothing, created with the journal's origin. */
export function openSession(deps: SessionDeps, by: string, origin: JournalOrigin): Outcome<ReplaySessionView> {
  const last = deps.journal.lastSeq();
  if (last > 0)
    return refuse(
      'SANDBOX_NOT_FRESH',
      `This sandbox's journal already holds ${last} entries: a journal replays only into a fresh sandbox ` +
        `started with its seed and start.`,
    );
  const differs = originDiffers(deps, origin);
  if (differs) return refuse('REPLAY_ORIGIN_MISMATCH', differs);
  deps.db.transaction(() => {
    deps.db
      .prepare(
        'INSERT OR REPLACE INTO replay_session (id, state, opened_by, last_seq, journal_seq, closed_reason) ' +
          "VALUES (1, 'open', ?, 0, 0, NULL)",
      )
      .run(by);
    deps.audit.append({
      actor: by,
      action: 'sandbox.replay_session_opened',
      subject: 'journal',
      detail: { seed: origin.seed, start: origin.start },
    });
  })();
  return ok(view(row(deps)!));
}

/** Closes the session (the CLI does at the end of a replay); closing a closed one is a no-op. */
export function closeSession(deps: SessionDeps, by: string): Outcome<ReplaySessionView> {
  const r = row(deps);
  if (!r) return refuse('REPLAY_SESSION_REQUIRED', 'This sandbox has no replay session.');
  if (r.state === 'open') close(deps, `closed by ${by} after seq ${r.last_seq}`);
  return ok(view(row(deps)!));
}

/** Whether entry `seq` may be replayed now: an open session, nothing else journaled, the next seq. */
export function admitEntry(deps: SessionDeps, seq: number): Outcome<null> {
  const r = row(deps);
  if (!r)
    return refuse(
      'REPLAY_SESSION_REQUIRED',
      'Open a replay session first (POST /admin/sandbox/replay-session, on a fresh sandbox started with the ' +
        "journal's origin).",
    );
  if (r.state === 'open') {
    const extra = deps.journal.since(r.journal_seq)[0];
    if (extra)
      close(
        deps,
        `the journal gained entry ${extra.seq} (${extra.route} by ${extra.principal}), which is not a replay`,
      );
  }
  const now = row(deps)!;
  if (now.state !== 'open')
    return refuse('REPLAY_SESSION_REQUIRED', `The replay session is closed: ${now.closed_reason}.`);
  if (seq !== now.last_seq + 1)
    return refuse(
      'REPLAY_OUT_OF_ORDER',
      `Entry ${seq} is not the next one: the session has replayed up to seq ${now.last_seq}, so it takes seq ` +
        `${now.last_seq + 1}.`,
    );
  return ok(null);
}

/**
 * After the entry's request: the journal must have gained at most that request's own entry (a
 * replayed request that is refused before its handler is not journaled, like its original). Anything
 * else journaled meanwhile closes the session.
 */
export function entryReplayed(deps: SessionDeps, seq: number, requestId: string): void {
  const r = row(deps);
  if (r?.state !== 'open') return;
  const added = deps.journal.since(r.journal_seq);
  const own = added[0]?.request_id === requestId ? added[0] : undefined;
  const foreign = own ? added[1] : added[0];
  if (foreign) {
    close(
      deps,
      `the journal gained entry ${foreign.seq} (${foreign.route} by ${foreign.principal}), which is not a replay`,
    );
    return;
  }
  deps.db
    .prepare('UPDATE replay_session SET last_seq = ?, journal_seq = ? WHERE id = 1')
    .run(seq, own ? own.seq : r.journal_seq);
}
