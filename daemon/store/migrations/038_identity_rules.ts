import type { Migration } from './migration.js';

// Two rules about identities (docs/backoffice.md). First, a lapsing grant sits beside the identity's own
// (break-glass). operator_grants
// was keyed (operator_id, grant_name, scope), so break-glass, which writes every superuser grant with
// an end, replaced the identity's own row of the same grant and scope: when it lapsed, the identity had
// lost grants of its own roles (an approver could no longer approve). The key is now
// (operator_id, grant_name, scope, whether the row lapses): at most one standing row and one lapsing
// row per grant and scope. A second break-glass replaces the lapsing row (its new end) and never the
// standing one; the standing row is what roles give and take. Every column, value and trigger that
// reads the table is as before; only the key changes (a table rebuild: SQLite cannot drop a key). The
// rename runs with legacy_alter_table on: the triggers of migrations 015 and 022 name operator_grants in
// their bodies, which must keep meaning the rebuilt table (the modern rename would refuse them while the
// old table is gone, between DROP and RENAME). Second, no console session is opened for an identity
// whose key was revoked or that is disabled: the sign-in refuses first (daemon/console/routes.ts), and
// a trigger refuses the row whatever path writes it, so /admin/sessions never lists such a session.
export const IDENTITY_RULES: Migration = {
  version: 38,
  name: 'identity_rules',
  rebuildsTables: true,
  sql: `
CREATE TABLE operator_grants_v38 (
  operator_id TEXT NOT NULL REFERENCES operators(id),
  grant_name TEXT NOT NULL CHECK (length(grant_name) BETWEEN 3 AND 64),
  scope TEXT NOT NULL CHECK (scope = 'global' OR scope GLOB 'tenant:?*' OR scope GLOB 'broker:?*'),
  role TEXT NOT NULL,
  granted_at TEXT NOT NULL,
  expires_at TEXT,
  review_required INTEGER NOT NULL DEFAULT 0 CHECK (review_required IN (0, 1))
) STRICT;
INSERT INTO operator_grants_v38 (operator_id, grant_name, scope, role, granted_at, expires_at, review_required)
  SELECT operator_id, grant_name, scope, role, granted_at, expires_at, review_required FROM operator_grants;
DROP TABLE operator_grants;
PRAGMA legacy_alter_table = ON;
ALTER TABLE operator_grants_v38 RENAME TO operator_grants;
PRAGMA legacy_alter_table = OFF;
CREATE UNIQUE INDEX operator_grants_key ON operator_grants (operator_id, grant_name, scope, expires_at IS NOT NULL);

DROP TRIGGER IF EXISTS console_sessions_identity_live; -- so the migration can be applied again (test/unit/migrations.test.ts)
CREATE TRIGGER console_sessions_identity_live BEFORE INSERT ON console_sessions
  WHEN EXISTS (SELECT 1 FROM operators o WHERE o.id = NEW.operator_id AND (o.revoked_at IS NOT NULL OR o.disabled_at IS NOT NULL))
  BEGIN SELECT RAISE(ABORT, 'console_sessions: the identity was revoked or is disabled'); END;
`,
};
