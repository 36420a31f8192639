// The daemon's start compares the home's schema with the digest recorded for its version
// (daemon/store/schema-check.ts); a recorded digest that is not what the migrations make would let a
// start accept a schema they do not make, or send every start down the slow path. Regenerate with
// `npx tsx scripts/schema-digests.ts` after adding a migration.
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { computeSchemaDigests } from '../../scripts/schema-digests.js';
import { SCHEMA_DIGESTS } from '../../daemon/store/schema-digests.js';
import { LATEST_SCHEMA_VERSION, migrate } from '../../daemon/store/db.js';
import { schemaProblem } from '../../daemon/store/schema-check.js';

describe('schema digests', () => {
  it('every migration version has the digest of the schema the migrations make (run scripts/schema-digests.ts)', () => {
    expect(SCHEMA_DIGESTS).toEqual(computeSchemaDigests());
  });

  it('a freshly migrated database passes; a dropped guard trigger is named even though the digest is recorded', () => {
    const db = new Database(':memory:');
    migrate(db);
    expect(schemaProblem(db, LATEST_SCHEMA_VERSION)).toBeNull();
    db.exec('DROP TRIGGER admin_actions_checker_not_maker');
    expect(schemaProblem(db, LATEST_SCHEMA_VERSION)).toBe(
      `svc.db lacks the trigger admin_actions_checker_not_maker of schema version ${LATEST_SCHEMA_VERSION}`,
    );
    db.close();
  });
});
