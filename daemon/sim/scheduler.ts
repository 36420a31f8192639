// The event scheduler. Capabilities register two kinds of work:
//  - stored events (`schedule(kind, dueMs, payload)` + `on(kind, handler)`): rows in `events`, e.g. a
//    transfer's next rail step or a settlement;
//  - computed sources (`addSource`): work whose due times are derived, not stored — session open and
//    close from the calendar, resting orders from the tape.
// Advancing runs every due item in time order, each instant in its own transaction with the clock
// pinned to that instant, so an advance of a year is a few hundred transactions, not a walk per minute.
import type { Db } from '../store/db.js';
import type { Clock } from './clock.js';

export interface EventSource {
  name: string;
  /** Earliest instant > afterMs at which this source has work, or null. */
  nextDue(afterMs: number): number | null;
  /** Does the work due at exactly atMs. Runs inside a transaction with the clock pinned. */
  run(atMs: number): void;
}

export type EventHandler = (payload: any, atMs: number) => void;

interface EventRow {
  id: number;
  due_ms: number;
  kind: string;
  payload: string;
}

export function createScheduler(db: Db, clock: Clock) {
  const handlers = new Map<string, EventHandler>();
  const sources: EventSource[] = [];
  const insert = db.prepare('INSERT INTO events (due_ms, kind, payload) VALUES (?, ?, ?)');
  const minPending = db.prepare<[], { m: number | null }>('SELECT MIN(due_ms) AS m FROM events WHERE done = 0');
  const dueRows = db.prepare<[number], EventRow>('SELECT id, due_ms, kind, payload FROM events WHERE done = 0 AND due_ms <= ? ORDER BY due_ms, id');
  const markDone = db.prepare('UPDATE events SET done = 1 WHERE id = ?');
  const getProcessed = db.prepare<[], { processed_ms: number }>('SELECT processed_ms FROM sandbox_state WHERE id = 1');
  const setProcessed = db.prepare('UPDATE sandbox_state SET processed_ms = ? WHERE id = 1');

  let cachedNext: number | null | undefined;

  function processed(): number {
    return getProcessed.get()!.processed_ms;
  }

  /** Earliest instant with work, given everything up to `after` is done. */
  function nextDue(after: number): number | null {
    let best = minPending.get()!.m;
    if (best !== null && best < after) best = after;
    for (const s of sources) {
      const t = s.nextDue(after);
      if (t !== null && (best === null || t < best)) best = t;
    }
    return best;
  }

  /** Runs instant t; computed sources only when t is new (an overdue stored event reruns `after`). */
  function runInstant(t: number, withSources: boolean): void {
    clock.pin(t);
    try {
      db.transaction(() => {
        if (withSources) for (const s of sources) if (s.nextDue(t - 1) === t) s.run(t);
        for (const row of dueRows.all(t)) {
          const h = handlers.get(row.kind);
          if (!h) throw new Error(`no handler for event kind ${row.kind}`);
          markDone.run(row.id);
          h(JSON.parse(row.payload), t);
        }
        setProcessed.run(t);
      })();
    } finally {
      clock.unpin();
    }
  }

  /** Processes all work due at or before target, in time order. Returns the number of instants run. */
  function runUntil(target: number): number {
    let count = 0;
    let after = processed();
    for (;;) {
      const t = nextDue(after);
      if (t === null || t > target) break;
      runInstant(t, t > after);
      after = t;
      count++;
    }
    if (after < target) setProcessed.run(target);
    cachedNext = undefined;
    return count;
  }

  return {
    on(kind: string, handler: EventHandler) {
      handlers.set(kind, handler);
    },
    addSource(source: EventSource) {
      sources.push(source);
      cachedNext = undefined;
    },
    /** Stores a timed event; call inside the transaction of the change that causes it. */
    schedule(kind: string, dueMs: number, payload: unknown) {
      insert.run(dueMs, kind, JSON.stringify(payload));
      if (cachedNext === undefined || cachedNext === null || dueMs < cachedNext) cachedNext = undefined;
    },
    /** A computed source's due times changed (e.g. a new resting order). */
    changed() {
      cachedNext = undefined;
    },
    runUntil,
    /** Catches up to the clock: cheap when nothing is due (the common case on every request). */
    catchUp(): number {
      const now = clock.now();
      if (cachedNext === undefined) cachedNext = nextDue(processed());
      if (cachedNext === null || cachedNext > now) return 0;
      return runUntil(now);
    },
    /** Advances the clock to target, running everything due on the way. */
    advanceTo(target: number): number {
      const n = runUntil(target);
      db.transaction(() => clock.set(target))();
      return n;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
