// Caches of what a table holds, kept true by the database itself: temporary triggers (this connection
// only, never stored in the file) call back into JavaScript on every write to the table, whoever
// writes it (the daemon's code, a reset's DELETE, a test's UPDATE). A write may still be rolled back
// with its transaction, so a cache must not keep what it reads until that transaction has ended:
// writtenInOpenTransaction says when that is still the case.
import type { Db } from './db.js';

interface Watch {
  listeners: Map<string, Array<() => void>>;
}

const watches = new WeakMap<Db, Watch>();

function watchOf(db: Db): Watch {
  let w = watches.get(db);
  if (!w) {
    const listeners = new Map<string, Array<() => void>>();
    w = { listeners };
    db.function('svc_table_written', (name: unknown) => {
      for (const fn of listeners.get(String(name)) ?? []) fn();
      return null;
    });
    watches.set(db, w);
  }
  return w;
}

/** Calls onWrite after every INSERT, UPDATE (of `columns`, when given) and DELETE on table. */
export function onTableWrite(db: Db, table: string, onWrite: () => void, columns?: readonly string[]): void {
  const w = watchOf(db);
  const key = columns ? `${table}(${columns.join(',')})` : table;
  let list = w.listeners.get(key);
  if (!list) {
    w.listeners.set(key, (list = []));
    const tag = key.replace(/\W+/g, '_');
    const update = columns ? `UPDATE OF ${columns.join(', ')}` : 'UPDATE';
    for (const [op, what] of [
      ['insert', 'INSERT'],
      ['update', update],
      ['delete', 'DELETE'],
    ]) {
      db.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS svc_watch_${tag}_${op} AFTER ${what} ON main.${table} BEGIN SELECT ` +
          `svc_table_written('${key}'); END`,
      );
    }
  }
  list.push(onWrite);
}

/** One cached value of a table: read once, dropped on any write, not kept while a write may roll back. */
export function cachedRead<T>(
  db: Db,
  table: string,
  read: () => T,
  columns?: readonly string[],
): { get(): T; forget(): void } {
  let value: { v: T } | null = null;
  let written = false;
  onTableWrite(
    db,
    table,
    () => {
      value = null;
      written = true;
    },
    columns,
  );
  return {
    get(): T {
      if (written && !db.inTransaction) written = false;
      if (written) return read();
      return (value ??= { v: read() }).v;
    },
    forget(): void {
      value = null;
    },
  };
}
