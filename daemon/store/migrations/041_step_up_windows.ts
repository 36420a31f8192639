import type { Migration } from './migration.js';

// A machine key's step-up window (docs/backoffice.md, "Step-up"): one row per identity, written when a
// money or approval action of that key carries a valid X-Step-Up-Code. Until fresh_until (wall clock,
// 5 minutes on) the same key's money and approval actions need no new code. The row names the key it
// was opened with (key_hash): a rotated or revoked key finds no window. `mac` is an HMAC of the row's
// fields under a key derived from the key-encryption key (never in the database), so a row written into
// the file by hand, or a fresh_until pushed later, is not a window. IF NOT EXISTS: test/unit/migrations.test.ts
// re-applies every migration after 028 to a store that has them.
export const STEP_UP_WINDOWS: Migration = {
  version: 41,
  name: 'step-up windows',
  sql: `
CREATE TABLE IF NOT EXISTS operator_step_up_windows (
  operator_id TEXT PRIMARY KEY REFERENCES operators(id),
  key_hash TEXT NOT NULL,
  stepped_up_at TEXT NOT NULL,
  fresh_until TEXT NOT NULL,
  mac TEXT NOT NULL,
  CHECK (fresh_until > stepped_up_at)
) STRICT;
`,
};
