import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createGroupCommit } from '../../daemon/store/group-commit.js';

function db() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-gc-'));
  const d = new Database(join(dir, 'x.db'));
  d.pragma('journal_mode = WAL');
  d.exec('CREATE TABLE t (v INTEGER NOT NULL CHECK (v >= 0))');
  return {
    d,
    done: () => {
      d.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('Group commit: requests of one turn share a COMMIT; nobody is answered before it', () => {
  it('writes joined in one turn commit together, each in its own savepoint', async () => {
    const { d, done } = db();
    const g = createGroupCommit(d);
    const a = g.join();
    d.transaction(() => d.prepare('INSERT INTO t VALUES (1)').run())();
    const b = g.join();
    expect(() => d.transaction(() => d.prepare('INSERT INTO t VALUES (-1)').run())()).toThrow();
    expect(g.isOpen()).toBe(true);
    expect(d.inTransaction).toBe(true);
    await Promise.all([a, b]);
    expect(d.inTransaction).toBe(false);
    expect(d.prepare('SELECT v FROM t').all()).toEqual([{ v: 1 }]);
    done();
  });

  it('a read waits for the open batch to settle', async () => {
    const { d, done } = db();
    const g = createGroupCommit(d);
    const write = g.join();
    d.prepare('INSERT INTO t VALUES (2)').run();
    let readDone = false;
    const read = g.settled().then(() => (readDone = true));
    expect(readDone).toBe(false);
    await Promise.all([write, read]);
    expect(readDone).toBe(true);
    expect(g.isOpen()).toBe(false);
    await g.settled();
    done();
  });

  it('a failed COMMIT rejects every waiting writer and rolls the batch back', async () => {
    const { d, done } = db();
    d.exec(
      'CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p(id) DEFERRABLE ' +
        'INITIALLY DEFERRED)',
    );
    d.pragma('foreign_keys = ON');
    const g = createGroupCommit(d);
    const w = g.join();
    d.prepare('INSERT INTO c VALUES (99)').run();
    await expect(w).rejects.toThrow(/FOREIGN KEY/);
    expect(d.inTransaction).toBe(false);
    expect(d.prepare('SELECT COUNT(*) AS n FROM c').get()).toEqual({ n: 0 });
    done();
  });

  it('a request alone is a transaction of its own with the batch hooks; refused while a batch is open', async () => {
    const { d, done } = db();
    const seen: string[] = [];
    const g = createGroupCommit(d, () => seen.push('rollback'), {
      onOpen: () => seen.push('open'),
      beforeCommit: () => seen.push('before'),
      afterCommit: () => seen.push('after'),
    });
    const out = g.alone(() => {
      expect(d.inTransaction).toBe(true);
      d.prepare('INSERT INTO t VALUES (3)').run();
      return 'done';
    });
    expect(out).toBe('done');
    expect(d.inTransaction).toBe(false);
    expect(seen).toEqual(['open', 'before', 'after']);
    const w = g.join();
    expect(() => g.alone(() => 'never')).toThrow(/no batch open/);
    await w;
    expect(d.prepare('SELECT v FROM t').all()).toEqual([{ v: 3 }]);
    done();
  });

  it('a request alone that throws is rolled back whole, and the caches are told', () => {
    const { d, done } = db();
    let rolledBack = 0;
    const g = createGroupCommit(d, () => rolledBack++);
    expect(() =>
      g.alone(() => {
        d.prepare('INSERT INTO t VALUES (4)').run();
        d.transaction(() => d.prepare('INSERT INTO t VALUES (5)').run())();
        throw new Error('a bug after two writes');
      }),
    ).toThrow(/a bug/);
    expect(d.inTransaction).toBe(false);
    expect(rolledBack).toBe(1);
    expect(d.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 0 });
    done();
  });
});
