import type { Migration } from './migration.js';

// Console users managed through maker-checker (docs/backoffice.md, "Console users"). operators gains a
// display name and a disabled state: a disabled identity is refused at its next request (key or
// console session) until console-users:manage enables it again; unlike a key revocation, disabling is
// not final. idp_configs records each approved identity-provider configuration (the sandbox signs in
// only with passkeys; the configuration is kept for parity): append-only, the newest row is in force.
export const CONSOLE_USERS: Migration = {
  version: 26,
  name: 'console_users',
  sql: `
ALTER TABLE operators ADD COLUMN display_name TEXT CHECK (display_name IS NULL OR length(display_name) BETWEEN 1 AND 120);
ALTER TABLE operators ADD COLUMN disabled_at TEXT;
ALTER TABLE operators ADD COLUMN disabled_by TEXT;
CREATE TRIGGER operators_disabled_pair BEFORE UPDATE OF disabled_at, disabled_by ON operators
  WHEN (NEW.disabled_at IS NULL) <> (NEW.disabled_by IS NULL)
  BEGIN SELECT RAISE(ABORT, 'operators: disabled_at and disabled_by go together'); END;

CREATE TABLE idp_configs (
  version INTEGER PRIMARY KEY,
  issuer TEXT NOT NULL CHECK (issuer LIKE 'https://%' AND length(issuer) <= 300),
  client_id TEXT NOT NULL CHECK (length(client_id) BETWEEN 1 AND 200),
  allowed_domains TEXT NOT NULL CHECK (json_valid(allowed_domains) AND json_array_length(allowed_domains) >= 1),
  action_id TEXT NOT NULL UNIQUE REFERENCES admin_actions(id),
  recorded_at TEXT NOT NULL
) STRICT;
CREATE TRIGGER idp_configs_append_only BEFORE UPDATE ON idp_configs
  BEGIN SELECT RAISE(ABORT, 'idp_configs: a recorded configuration never changes'); END;
CREATE TRIGGER idp_configs_no_delete BEFORE DELETE ON idp_configs
  BEGIN SELECT RAISE(ABORT, 'idp_configs: a recorded configuration is never deleted'); END;
`,
};
