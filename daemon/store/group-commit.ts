// Group commit. State-changing requests that arrive in the same turn of the event loop share one
// COMMIT: the first opens a transaction, each request runs inside it in its own savepoint (so each is
// still all-or-nothing), and the batch commits at the end of the turn (setImmediate). No request is
// answered before the COMMIT that makes it durable, so "acknowledged means on disk" still holds; what
// is shared is the cost of writing the WAL pages, which dominates a write request's cost otherwise.
// A read that arrives while a batch is open waits for it to settle, so no answer ever shows a change
// that is not yet durable (or that a failed COMMIT would take back).
import type { Db } from './db.js';

export interface GroupCommit {
  /** Joins the open batch, opening one if needed. Resolves once the batch is committed. */
  join(): Promise<void>;
  /** True while a batch is open (its writes are visible to this connection, not yet durable). */
  isOpen(): boolean;
  /** Resolves when the open batch has committed or rolled back (at once when none is open). */
  settled(): Promise<void>;
  /**
   * Runs fn as a transaction of its own, BEGIN to COMMIT, with the batch's hooks around it; a throw rolls
   * it back. Only while no batch is open (the caller awaited `settled`): for a request that runs alone.
   */
  alone<T>(fn: () => T): T;
}

/** What runs at a batch's edges: once it is open, and inside it just before its COMMIT. */
export interface BatchHooks {
  onOpen?(): void;
  /** A throw rolls the whole batch back (every request of it is answered with the error). */
  beforeCommit?(): void;
  /** Right after a COMMIT that succeeded, before anyone of the batch is answered. Must not throw. */
  afterCommit?(): void;
}

/** onRollback: a batch failed to commit; caches of what the database holds must be dropped. */
export function createGroupCommit(db: Db, onRollback: () => void = () => {}, hooks: BatchHooks = {}): GroupCommit {
  let open = false;
  let waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  let readers: Array<() => void> = [];

  function commit(): void {
    const batch = waiters;
    const waitingReads = readers;
    waiters = [];
    readers = [];
    open = false;
    try {
      hooks.beforeCommit?.();
      db.exec('COMMIT');
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      onRollback();
      for (const w of batch) w.reject(err);
      return;
    } finally {
      for (const r of waitingReads) r();
    }
    hooks.afterCommit?.();
    for (const w of batch) w.resolve();
  }

  return {
    join() {
      if (!open) {
        db.exec('BEGIN');
        open = true;
        hooks.onOpen?.();
        // Commit one loop turn later than the first chance: the poll of the next turn is non-blocking
        // (an immediate is pending), so it costs nothing when nothing else arrives, and it catches the
        // requests of connections that became readable meanwhile: with 10 connections under load
        // they answer in two waves, which then share one COMMIT instead of two.
        setImmediate(() => setImmediate(commit));
      }
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    isOpen: () => open,
    alone(fn) {
      if (open || db.inTransaction) throw new Error('group commit: a request alone needs no batch open');
      db.exec('BEGIN');
      try {
        hooks.onOpen?.();
        const out = fn();
        hooks.beforeCommit?.();
        db.exec('COMMIT');
        hooks.afterCommit?.();
        return out;
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        onRollback();
        throw err;
      }
    },
    settled() {
      if (!open) return Promise.resolve();
      return new Promise((resolve) => readers.push(resolve));
    },
  };
}
