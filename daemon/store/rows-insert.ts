// One INSERT of n rows, prepared once for each n on first use: a batch of rows (a fill's postings or
// activities, a request's id counters) costs one statement instead of n (docs/bench-history.md, "The sixth
// pass"). `sql` gets the n value tuples, joined by commas.
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

export function rowsInsert(
  db: Db,
  sql: (tuples: string) => string,
  tuple: string,
): (n: number) => Statement<unknown[]> {
  const byCount = new Map<number, Statement<unknown[]>>();
  return (n) => {
    let stmt = byCount.get(n);
    if (stmt === undefined) byCount.set(n, (stmt = db.prepare<unknown[]>(sql(Array(n).fill(tuple).join(', ')))));
    return stmt;
  };
}
