// daemon/store/table-watch.ts: a cached read follows every write to its table, whoever makes it, and
// keeps nothing a rollback could take back.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachedRead } from '../../daemon/store/table-watch.js';

function setup() {
  const db = new Database(':memory:');
  db.exec(
    'CREATE TABLE state (id INTEGER PRIMARY KEY, flag INTEGER NOT NULL, other INTEGER NOT NULL); INSERT INTO ' +
      'state VALUES (1, 1, 0)',
  );
  let reads = 0;
  const q = db.prepare<[], { flag: number }>('SELECT flag FROM state WHERE id = 1');
  const flag = cachedRead(
    db,
    'state',
    () => {
      reads++;
      return q.get()!.flag;
    },
    ['flag'],
  );
  return { db, flag, reads: () => reads };
}

describe('cachedRead', () => {
  it('reads once, and again after any write of the watched column (not of others)', () => {
    const { db, flag, reads } = setup();
    expect([flag.get(), flag.get()]).toEqual([1, 1]);
    expect(reads()).toBe(1);
    db.prepare('UPDATE state SET other = other + 1').run();
    expect(flag.get()).toBe(1);
    expect(reads()).toBe(1);
    db.prepare('UPDATE state SET flag = 0').run();
    expect(flag.get()).toBe(0);
    expect(reads()).toBe(2);
  });

  it('keeps nothing read after a write until that transaction ends, so a rollback leaves no stale value', () => {
    const { db, flag } = setup();
    expect(flag.get()).toBe(1);
    db.exec('BEGIN');
    db.exec('SAVEPOINT request');
    db.prepare('UPDATE state SET flag = 0').run();
    expect(flag.get()).toBe(0);
    db.exec('ROLLBACK TO request');
    db.exec('RELEASE request');
    expect(flag.get()).toBe(1);
    db.exec('COMMIT');
    expect(flag.get()).toBe(1);
  });
});
