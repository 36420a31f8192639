// The daemon's bundle carries better-sqlite3's JavaScript, and inside a bundle better-sqlite3 cannot find its
// addon on its own (its `bindings` search starts from the caller's file, the bundle): every database is opened
// through daemon/store/sqlite.ts, which names the addon by path. A `new Database(...)` elsewhere would work from
// the sources (the tests) and fail in the built daemon only, so it is refused here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqlite, sqliteAddon } from '../../daemon/store/sqlite.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('opening SQLite in the daemon', () => {
  it('no daemon module but daemon/store/sqlite.ts constructs a better-sqlite3 Database itself', () => {
    const offenders = sources('daemon').filter(
      (f) => f !== join('daemon', 'store', 'sqlite.ts') && /new\s+Database\s*\(/.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('the addon is named by its path in better-sqlite3’s package, and a database opened with it works', () => {
    expect(sqliteAddon()).toMatch(/node_modules[/\\]better-sqlite3[/\\]build[/\\]Release[/\\]better_sqlite3\.node$/);
    const db = openSqlite(':memory:');
    expect(db.prepare('select 40 + 2 as n').get()).toEqual({ n: 42 });
    db.close();
  });
});
