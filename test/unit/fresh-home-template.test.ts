// A first start copies the migrated template the build made (dist/daemon/template.db) instead of running
// every migration (daemon/store/template.ts). No guarantee may be lost by it: the template, and a fresh
// home started from it, must be exactly what the migrations make.
import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { LATEST_SCHEMA_VERSION, migrate, type Db } from '../../daemon/store/db.js';
import { schemaOf } from '../../daemon/store/schema-check.js';
import { seedFromTemplate, templateProblem, writeTemplate } from '../../daemon/store/template.js';
import { runSvc } from '../helpers/cli.js';

const TEMPLATE = resolve('dist/daemon/template.db');
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-template-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function migrated(): Db {
  const db = new Database(':memory:');
  migrate(db);
  return db;
}

/** Every table's rows, in rowid order, by table name. */
function rowsOf(db: Db): Record<string, unknown[]> {
  const tables = db
    .prepare<[], string>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all();
  return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}"`).raw().all()]));
}

describe('a fresh home is exactly what the migrations make', () => {
  it('the template the build ships has the schema, the rows and the version the migrations produce', () => {
    expect(existsSync(TEMPLATE)).toBe(true);
    const want = migrated();
    const got = new Database(TEMPLATE, { readonly: true });
    try {
      expect(got.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
      expect([...schemaOf(got).values()]).toEqual([...schemaOf(want).values()]);
      expect(rowsOf(got)).toEqual(rowsOf(want));
      expect(templateProblem(TEMPLATE)).toBeNull();
    } finally {
      got.close();
      want.close();
    }
  });

  it('svc sandbox start on a fresh home starts from the template, with the migrations schema, owner-only', async () => {
    const home = tempDir();
    const r = await runSvc(['sandbox', 'start', '--home', home, '--port', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    await runSvc(['sandbox', 'stop', '--home', home]);
    const log = readFileSync(join(home, 'daemon.log'), 'utf8');
    expect(log).toContain('"from_template":true');
    expect(statSync(join(home, 'svc.db')).mode & 0o777).toBe(0o600);
    const want = migrated();
    const got = new Database(join(home, 'svc.db'), { readonly: true });
    try {
      expect(got.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
      expect([...schemaOf(got).values()]).toEqual([...schemaOf(want).values()]);
    } finally {
      got.close();
      want.close();
    }
  });

  it('a template whose schema differs from the migrations is not copied (the migrations run instead)', () => {
    const dir = tempDir();
    const template = join(dir, 'template.db');
    writeTemplate(template);
    expect(templateProblem(template)).toBeNull();
    const altered = join(dir, 'altered.db');
    copyFileSync(template, altered);
    const db = new Database(altered);
    db.exec('DROP TRIGGER IF EXISTS admin_actions_checker_not_maker');
    db.close();
    expect(templateProblem(altered)).toMatch(/differs/);
    expect(seedFromTemplate(altered, join(dir, 'svc.db'))).toBe(false);
    expect(existsSync(join(dir, 'svc.db'))).toBe(false);
    expect(seedFromTemplate(template, join(dir, 'svc.db'))).toBe(true);
    expect(statSync(join(dir, 'svc.db')).mode & 0o777).toBe(0o600);
  });
});
