import type { Migration } from './migration.js';

// Passkeys of operator identities for the browser console (docs/console.md). A passkey belongs to one
// identity; its public key is stored as the authenticator sent it (COSE), with the last signature
// counter (0 stays 0: synced passkeys never count). An enrolment code is one-time and expiring: only
// its SHA-256 hash is stored, it is used once (used_at), and an expired or used code never enrols.
export const CONSOLE_PASSKEYS: Migration = {
  version: 23,
  name: 'console_passkeys',
  sql: `
CREATE TABLE IF NOT EXISTS console_passkeys (
  credential_id TEXT PRIMARY KEY CHECK (length(credential_id) BETWEEN 16 AND 1400),
  operator_id TEXT NOT NULL REFERENCES operators(id),
  public_key BLOB NOT NULL,
  counter INTEGER NOT NULL CHECK (counter >= 0),
  transports TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  last_used_at TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS console_passkeys_operator ON console_passkeys(operator_id);
CREATE TABLE IF NOT EXISTS console_enrolments (
  code_hash TEXT PRIMARY KEY CHECK (length(code_hash) = 64),
  operator_id TEXT NOT NULL REFERENCES operators(id),
  created_at TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL,
  used_at TEXT,
  CHECK (expires_at_ms > 0)
) STRICT;
CREATE TRIGGER IF NOT EXISTS console_enrolments_once BEFORE UPDATE OF used_at ON console_enrolments
WHEN OLD.used_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'enrolment code already used'); END;
`,
};
