// The schema a database must have at its version: exactly what the migrations make (docs/reliability.md,
// "A home whose guards were altered does not start"). Both the snapshot verifier (`svc sandbox import`)
// and the daemon's start use this one check, so a dropped or altered guard trigger, a changed CHECK,
// an extra trigger, view, index or table is named the same way in both places.
//
// It is cheap at start: the digest of the database's sqlite_master (type, name, table and SQL of every
// table, index, trigger and view) is compared with the digest recorded for its version in
// schema-digests.ts (written by scripts/schema-digests.ts, held to the migrations by
// test/unit/schema-digests.test.ts). Only when the digests differ (or the version has none recorded) is
// a fresh database migrated in memory to that version, once per process, to name what differs.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { openSqlite } from './sqlite.js';
import { migrate, type Db } from './db.js';
import { SCHEMA_DIGESTS } from './schema-digests.js';

export interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** Every table, index, trigger and view of a database, by "type name", in a stable order. */
export function schemaOf(db: Db): Map<string, SchemaObject> {
  const rows = db
    .prepare<[], SchemaObject>(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('table', 'index', 'trigger', 'view') " +
        'ORDER BY type, name',
    )
    .all();
  return new Map(rows.map((r) => [`${r.type} ${r.name}`, r]));
}

/** A digest of a schema: what scripts/schema-digests.ts records per version. */
export function schemaDigest(schema: Map<string, SchemaObject>): string {
  const h = createHash('sha256');
  for (const o of schema.values()) h.update(JSON.stringify([o.type, o.name, o.tbl_name, o.sql])).update('\n');
  return h.digest('hex');
}

const expectedCache = new Map<number, Map<string, SchemaObject>>();

/** The schema a fresh database migrated to `version` has (computed once per process and version). */
export function expectedSchema(version: number): Map<string, SchemaObject> {
  const cached = expectedCache.get(version);
  if (cached) return cached;
  const fresh = openSqlite(':memory:');
  try {
    migrate(fresh, version);
    const schema = schemaOf(fresh);
    expectedCache.set(version, schema);
    return schema;
  } finally {
    fresh.close();
  }
}

/** What differs between two schemas, first difference only; null when they are the same. */
function firstDifference(
  actual: Map<string, SchemaObject>,
  expected: Map<string, SchemaObject>,
  version: number,
): string | null {
  for (const [key, want] of expected) {
    const got = actual.get(key);
    if (!got) return `svc.db lacks the ${key} of schema version ${version}`;
    if (got.tbl_name !== want.tbl_name || got.sql !== want.sql)
      return `svc.db's ${key} differs from schema version ${version}`;
  }
  for (const key of actual.keys())
    if (!expected.has(key)) return `svc.db has a ${key} that schema version ${version} does not`;
  return null;
}

/**
 * Null when the database's schema is exactly that of a fresh database migrated to `version`; else the
 * first difference, naming the object ("svc.db lacks the trigger admin_actions_checker_not_maker of
 * schema version 30").
 */
export function schemaProblem(db: Db, version: number): string | null {
  const actual = schemaOf(db);
  if (SCHEMA_DIGESTS[version] !== undefined && SCHEMA_DIGESTS[version] === schemaDigest(actual)) return null;
  return firstDifference(actual, expectedSchema(version), version);
}

/**
 * The tables that hold who may do what (maker-checker, identities, grants, step-up, console sessions
 * and passkeys): at start each is checked row by row against its CHECK constraints (`PRAGMA
 * quick_check(table)`), so a row written with `PRAGMA ignore_check_constraints` (a checker equal to
 * the maker) is found even when every trigger was put back as it was. Small tables: the ledger's are
 * not read here.
 */
export const GUARDED_TABLES = [
  'admin_actions',
  'operators',
  'operator_grants',
  'operator_step_up',
  'console_sessions',
  'console_passkeys',
  'console_enrolments',
  'key_state',
  'access_reviews',
  'access_review_items',
];

function guardedRowsProblem(db: Db): string | null {
  const has = db.prepare<[string], number>("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").pluck();
  for (const table of GUARDED_TABLES) {
    if (has.get(table) === undefined) continue;
    const verdict = db.pragma(`quick_check(${table})`, { simple: true });
    if (verdict !== 'ok') return `svc.db's table ${table} fails its checks (${String(verdict)})`;
  }
  return null;
}

/**
 * The daemon's start: null when the database file (if any) has exactly the schema of its version and
 * its guarded tables pass their CHECK constraints; else what differs. Reads only (query_only), with
 * nothing of the file's schema trusted to run (trusted_schema off), before the migrations.
 */
export function homeSchemaProblem(dbFile: string, latest: number): string | null {
  if (!existsSync(dbFile)) return null;
  // Not opened read-only: SQLite skips CHECK constraints in quick_check on a read-only connection.
  // query_only refuses every write instead.
  const db = openSqlite(dbFile, { fileMustExist: true });
  try {
    db.pragma('query_only = ON');
    db.pragma('trusted_schema = OFF');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === 0) {
      const objects = db
        .prepare<[], number>("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        .pluck()
        .get()!;
      return objects === 0 ? null : `svc.db has no schema version but holds ${objects} schema objects`;
    }
    if (version > latest)
      return `svc.db is at schema version ${version}, newer than this svc knows (${latest}); upgrade svc`;
    return schemaProblem(db, version) ?? guardedRowsProblem(db);
  } finally {
    db.close();
  }
}
