// Every SQLite database the daemon opens is opened here: better-sqlite3 with its compiled addon named by path.
// The daemon's bundle carries better-sqlite3's JavaScript (so the startup snapshot holds it, compiled), and only
// the addon itself is loaded at run time, from its package's build/Release, where both its prebuilt download and
// a build from source put it. Without the path, better-sqlite3 would search for the addon from the caller's file
// (the `bindings` package), which inside a bundle is the bundle, not the package: it is never asked to.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';

let addon: string | undefined;

/** better_sqlite3.node of the better-sqlite3 this code resolves to. */
export function sqliteAddon(): string {
  addon ??= join(
    dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
    'build',
    'Release',
    'better_sqlite3.node',
  );
  return addon;
}

/** `new Database(file, options)`, with the addon found as above. */
export function openSqlite(file: string | Buffer, options: Database.Options = {}): Database.Database {
  return new Database(file, { ...options, nativeBinding: sqliteAddon() });
}
