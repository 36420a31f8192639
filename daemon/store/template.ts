// The migrated template database: a fresh home's svc.db is a copy of dist/daemon/template.db, which the
// build writes by running every migration (`node dist/daemon/main.js --write-template <file>`), instead
// of running the migrations again at every first start (about 60 ms of a start that should take a
// blink: docs/bench.md, "Start-up"). A template is used only when it is exactly what the migrations make
// at this svc's newest version: its user_version, and its schema's digest against the recorded one
// (daemon/store/schema-digests.ts); anything else, or no template at all, and the first start runs the
// migrations as before. The tests' in-process apps start from it too (test/helpers/app.ts).
// test/unit/fresh-home-template.test.ts proves the copy equals the migrations' output, schema and rows.
import { chmodSync, copyFileSync, constants, existsSync, rmSync } from 'node:fs';
import { openSqlite } from './sqlite.js';
import { LATEST_SCHEMA_VERSION, openDb } from './db.js';
import { schemaDigest, schemaOf } from './schema-check.js';
import { SCHEMA_DIGESTS } from './schema-digests.js';

/** Writes the template: a new file holding exactly what the migrations make, in rollback-journal mode. */
export function writeTemplate(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  const db = openDb(file);
  try {
    // one self-contained file: the WAL folded in, then out of WAL mode so that a copy needs no -wal
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/** Why `file` is not a usable template for this svc, or null when it is. */
export function templateProblem(file: string): string | null {
  if (!existsSync(file)) return 'no template';
  const db = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== LATEST_SCHEMA_VERSION) return `the template is at version ${version}, not ${LATEST_SCHEMA_VERSION}`;
    const digest = SCHEMA_DIGESTS[version];
    if (digest === undefined) return `no recorded schema digest for version ${version}`;
    return schemaDigest(schemaOf(db)) === digest ? null : 'the template schema differs from the migrations';
  } finally {
    db.close();
  }
}

/**
 * A first start: copies the template to `dbFile` (which must not exist yet), owner-only. False when
 * the template is missing or not this svc's (the caller then lets the migrations build the database).
 */
export function seedFromTemplate(templateFile: string, dbFile: string): boolean {
  if (existsSync(dbFile) || templateProblem(templateFile) !== null) return false;
  copyFileSync(templateFile, dbFile, constants.COPYFILE_EXCL);
  chmodSync(dbFile, 0o600);
  return true;
}
