// The daemon's system of record: one SQLite file in WAL mode. Every state change runs inside one
// transaction (`tx`); migrations are versioned by PRAGMA user_version and applied in order at open.
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations/index.js';

export type Db = Database.Database;

export function openDb(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a committed transaction survives a crash of the process (not of the OS).
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // A 64 MiB page cache (the default is 2 MiB): a sandbox's working set stays in memory, so reads
  // do not go back to the file (measured: halved the kernel time of an order).
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
  // Checkpoint every 4,000 WAL pages (16 MiB) rather than 1,000: hot pages (balances, the sandbox
  // row) are copied back once per checkpoint however often they changed, and each checkpoint fsyncs.
  db.pragma('wal_autocheckpoint = 4000');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = Math.max(...MIGRATIONS.map((m) => m.version));
  // A database written by a newer svc (an imported snapshot, say): refuse rather than run on a schema
  // this code does not know.
  if (current > latest) throw new Error(`the database is at schema version ${current}, newer than this svc knows (${latest}); upgrade svc`);
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    const fk = db.pragma('foreign_keys', { simple: true }) as number;
    if (m.rebuildsTables) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(m.sql);
        if (m.rebuildsTables) {
          const broken = db.pragma('foreign_key_check') as unknown[];
          if (broken.length > 0) throw new Error(`migration ${m.version} (${m.name}) broke ${broken.length} foreign keys`);
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
