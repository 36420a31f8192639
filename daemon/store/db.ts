// The daemon's system of record: one SQLite file in WAL mode. Every state change runs inside one
// transaction (`tx`); migrations are versioned by PRAGMA user_version and applied in order at open.
import { chmodSync, existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { openSqlite } from './sqlite.js';
import { MIGRATIONS } from './migrations/index.js';

export type Db = Database.Database;

/** The newest schema version this svc migrates to. */
export const LATEST_SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

/**
 * The database holds personal data and sealed secrets: owner only. SQLite creates the -wal and -shm
 * files with the database file's mode, so tightening the database before WAL mode is set covers them;
 * files left by an earlier run are tightened here too.
 */
function makePrivate(file: string): void {
  if (file === ':memory:' || file === '') return;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
}

export function openDb(file: string): Db {
  const db = openSqlite(file);
  makePrivate(file);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a committed transaction survives a crash of the process (not of the OS).
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // A 16 MiB page cache (the default is 2 MiB) and statement and savepoint journals in memory: a
  // request's savepoint and its reads stay off the file system.
  db.pragma('cache_size = -16384');
  db.pragma('temp_store = MEMORY');
  // Checkpoint every 4,000 WAL pages (16 MiB) rather than 1,000: hot pages (balances, the sandbox
  // row) are copied back once per checkpoint however often they changed, and each checkpoint fsyncs.
  // The checkpoint runs in the COMMIT that crosses the line, on the writing connection: it then
  // copies everything committed, so the next transaction starts the WAL again from its beginning.
  // (A checkpointer thread with its own connection was tried and removed: in the 10-minute soak,
  // every kind of request saw stalls of up to 4.8 s, just under this connection's 5 s busy timeout,
  // as the writer waited on the thread's checkpoint.)
  db.pragma('wal_autocheckpoint = 4000');
  migrate(db);
  return db;
}

/** Applies the migrations above the database's version, up to `target` (default: the newest). */
export function migrate(db: Db, target = LATEST_SCHEMA_VERSION): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = LATEST_SCHEMA_VERSION;
  // A database written by a newer svc (an imported snapshot, say): refuse rather than run on a schema
  // this code does not know.
  if (current > latest)
    throw new Error(`the database is at schema version ${current}, newer than this svc knows (${latest}); upgrade svc`);
  for (const m of MIGRATIONS) {
    if (m.version <= current || m.version > target) continue;
    const fk = db.pragma('foreign_keys', { simple: true }) as number;
    if (m.rebuildsTables) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(m.sql);
        if (m.rebuildsTables) {
          const broken = db.pragma('foreign_key_check') as unknown[];
          if (broken.length > 0)
            throw new Error(`migration ${m.version} (${m.name}) broke ${broken.length} foreign keys`);
        }
        db.pragma(`user_version = ${m.version}`);
      })();
    } finally {
      if (m.rebuildsTables) db.pragma(`foreign_keys = ${fk ? 'ON' : 'OFF'}`);
    }
  }
}

/** Runs fn in a transaction (a savepoint when already inside one). */
export function tx<T>(db: Db, fn: () => T): T {
  return db.transaction(fn)();
}
