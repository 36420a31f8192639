// The event scheduler. Capabilities register two kinds of work:
//  - stored events (`schedule(kind, dueMs, payload)` + `on(kind, handler)`): rows in `events`, e.g. a
//    transfer's next rail step or a settlement;
//  - computed sources (`addSource`): work whose due times are derived, not stored — session open and
//    close from the calendar, resting orders from the tape.
// Advancing runs every due item in time order, each instant in its own transaction with the clock
// pinned to that instant, so an advance of a year is a few hundred transactions, not a walk per minute.
//
// Isolation (docs/reliability.md, "One failing event fails alone"): the scheduler is shared by every
// tenant, so each stored event and each computed source's run has a savepoint of its own inside the
// instant. One that throws is rolled back alone, marked done (it is never retried: a poisoned event
// would otherwise fail every later advance, after a restart too), handed to its kind's `onFailed`
// (e.g. the report it names becomes `failed` with a code) and to the failure listeners (the daemon
// logs and audits it, and drops its in-memory caches); the instant, and the advance, go on.
import type { Db } from '../store/db.js';
import type { Clock } from './clock.js';
import type { EventsRow } from '../store/rows.js';

export interface EventSource {
  name: string;
  /** Earliest instant > afterMs at which this source has work, or null. */
  nextDue(afterMs: number): number | null;
  /** Does the work due at exactly atMs. Runs inside a transaction with the clock pinned. */
  run(atMs: number): void;
}

/**
 * Handles one stored event. The payload is what `schedule` stored for the same kind, read back from
 * JSON: each capability schedules and handles its own kinds, so it names the payload's type once.
 */
export type EventHandler<P> = (payload: P, atMs: number) => void;

/** What became of a stored event or a source's run that threw (its writes already rolled back). */
export interface EventFailure {
  /** The stored event's kind, or `source:<name>` for a computed source. */
  kind: string;
  /** The stored event's row id (null for a source). */
  eventId: number | null;
  atMs: number;
  error: unknown;
}

/**
 * Called after a failed event's savepoint rolled back, inside the instant's transaction, with the
 * payload (null when it was not readable JSON): records the failure on what the event names (a report
 * marked `failed`). It runs in a savepoint of its own too; if it throws as well, that is logged.
 */
export type FailureHandler<P> = (payload: P | null, atMs: number, error: unknown) => void;

export interface Scheduler {
  on<P>(kind: string, handler: EventHandler<P>, onFailed?: FailureHandler<P>): void;
  /** Told of every failed event or source run (after its kind's onFailed), inside the instant's transaction. */
  onFailure(listener: (f: EventFailure) => void): void;
  addSource(source: EventSource): void;
  /** Stores a timed event; call inside the transaction of the change that causes it. */
  schedule(kind: string, dueMs: number, payload: unknown): void;
  /** A computed source's due times changed (e.g. a new resting order). */
  changed(): void;
  /** Processes all work due at or before target, in time order. Returns the number of instants run. */
  runUntil(target: number): number;
  /** Catches up to the clock: cheap when nothing is due (the common case on every request). */
  catchUp(): number;
  /**
   * Advances the clock to target, running everything due on the way. Inside an open transaction the
   * caller's unit must roll back whole if this throws (a request's savepoint, an alone route's
   * transaction): the instants then add no savepoint of their own, only their events do.
   */
  advanceTo(target: number): number;
}

type EventRow = Pick<EventsRow, 'id' | 'due_ms' | 'kind' | 'payload'>;

function prepare(db: Db) {
  return {
    insert: db.prepare('INSERT INTO events (due_ms, kind, payload) VALUES (?, ?, ?)'),
    minPending: db.prepare<[], { m: number | null }>('SELECT MIN(due_ms) AS m FROM events WHERE done = 0'),
    dueRows: db.prepare<[number], EventRow>(
      'SELECT id, due_ms, kind, payload FROM events WHERE done = 0 AND due_ms <= ? ORDER BY due_ms, id',
    ),
    markDone: db.prepare('UPDATE events SET done = 1 WHERE id = ?'),
    getProcessed: db.prepare<[], { processed_ms: number }>('SELECT processed_ms FROM sandbox_state WHERE id = 1'),
    setProcessed: db.prepare('UPDATE sandbox_state SET processed_ms = ? WHERE id = 1'),
  };
}

interface Registered {
  handler: EventHandler<unknown>;
  onFailed?: FailureHandler<unknown>;
}

interface SchedulerState {
  db: Db;
  clock: Clock;
  st: ReturnType<typeof prepare>;
  handlers: Map<string, Registered>;
  listeners: Array<(f: EventFailure) => void>;
  sources: EventSource[];
  /** The next instant with work, when known (undefined: ask the database and the sources again). */
  cachedNext: number | null | undefined;
}

function processed(s: SchedulerState): number {
  return s.st.getProcessed.get()!.processed_ms;
}

/** Earliest instant with work, given everything up to `after` is done. */
function nextDue(s: SchedulerState, after: number): number | null {
  let best = s.st.minPending.get()!.m;
  if (best !== null && best < after) best = after;
  for (const source of s.sources) {
    const t = source.nextDue(after);
    if (t !== null && (best === null || t < best)) best = t;
  }
  return best;
}

/** Runs fn in a savepoint of its own: true if it completed, else the error (its writes rolled back). */
function isolated(s: SchedulerState, fn: () => void): { ok: true } | { ok: false; error: unknown } {
  try {
    s.db.transaction(fn)();
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

/** A failed event or source run: its kind's own record of it, then the listeners (log, audit, caches). */
function failed(s: SchedulerState, f: EventFailure, record: (() => void) | null): void {
  if (record) {
    const r = isolated(s, record);
    if (!r.ok)
      f = {
        ...f,
        error: new AggregateError([f.error, r.error], `${String(f.error)}; recording the failure failed too`),
      };
  }
  for (const listener of s.listeners) listener(f);
  // a listener may reload in-memory state (which unpins the clock): the rest of the instant still runs at t
  s.clock.pin(f.atMs);
}

function runEvent(s: SchedulerState, row: EventRow, t: number): void {
  s.st.markDone.run(row.id);
  const entry = s.handlers.get(row.kind);
  let payload: unknown = null;
  const r = isolated(s, () => {
    if (!entry) throw new Error(`no handler for event kind ${row.kind}`);
    payload = JSON.parse(row.payload);
    entry.handler(payload, t);
  });
  if (r.ok) return;
  const onFailed = entry?.onFailed;
  failed(
    s,
    { kind: row.kind, eventId: row.id, atMs: t, error: r.error },
    onFailed ? () => onFailed(payload, t, r.error) : null,
  );
}

function instantBody(s: SchedulerState, t: number, withSources: boolean): void {
  if (withSources) {
    for (const source of s.sources) {
      if (source.nextDue(t - 1) !== t) continue;
      const r = isolated(s, () => source.run(t));
      if (!r.ok) failed(s, { kind: `source:${source.name}`, eventId: null, atMs: t, error: r.error }, null);
    }
  }
  for (const row of s.st.dueRows.all(t)) runEvent(s, row, t);
  s.st.setProcessed.run(t);
}

/**
 * Runs instant t; computed sources only when t is new (an overdue stored event reruns `after`). On its
 * own it is a transaction, inside one already open a savepoint; `enclosed`: inside an open transaction
 * whose unit rolls back whole if this throws (an advance's request), it adds no savepoint, since every
 * event already has one (a savepoint around many events is what is costly: docs/architecture.md,
 * "Long advances").
 */
function runInstant(s: SchedulerState, t: number, withSources: boolean, enclosed: boolean): void {
  s.clock.pin(t);
  try {
    if (enclosed && s.db.inTransaction) instantBody(s, t, withSources);
    else s.db.transaction(() => instantBody(s, t, withSources))();
  } finally {
    s.clock.unpin();
  }
}

function runUntil(s: SchedulerState, target: number, enclosed = false): number {
  let count = 0;
  let after = processed(s);
  for (;;) {
    const t = nextDue(s, after);
    if (t === null || t > target) break;
    runInstant(s, t, t > after, enclosed);
    after = t;
    count++;
  }
  if (after < target) s.st.setProcessed.run(target);
  s.cachedNext = undefined;
  return count;
}

export function createScheduler(db: Db, clock: Clock): Scheduler {
  const s: SchedulerState = {
    db,
    clock,
    st: prepare(db),
    handlers: new Map(),
    listeners: [],
    sources: [],
    cachedNext: undefined,
  };
  return {
    on<P>(kind: string, handler: EventHandler<P>, onFailed?: FailureHandler<P>) {
      // The one cast of a payload: `kind` is this handler's own, so its rows hold what it scheduled.
      s.handlers.set(kind, {
        handler: handler as EventHandler<unknown>,
        onFailed: onFailed as FailureHandler<unknown> | undefined,
      });
    },
    onFailure(listener) {
      s.listeners.push(listener);
    },
    addSource(source) {
      s.sources.push(source);
      s.cachedNext = undefined;
    },
    schedule(kind, dueMs, payload) {
      s.st.insert.run(dueMs, kind, JSON.stringify(payload));
      if (s.cachedNext === undefined || s.cachedNext === null || dueMs < s.cachedNext) s.cachedNext = undefined;
    },
    changed() {
      s.cachedNext = undefined;
    },
    runUntil: (target) => runUntil(s, target),
    catchUp() {
      const now = clock.now();
      if (s.cachedNext === undefined) s.cachedNext = nextDue(s, processed(s));
      if (s.cachedNext === null || s.cachedNext > now) return 0;
      return runUntil(s, now);
    },
    advanceTo(target) {
      const n = runUntil(s, target, true);
      db.transaction(() => clock.set(target))();
      return n;
    },
  };
}
