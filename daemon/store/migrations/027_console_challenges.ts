import type { Migration } from './migration.js';

// The open WebAuthn challenges of the console (docs/console.md, "Signing in: passkeys"), in the
// database so that a ceremony in progress survives a daemon restart. A challenge is issued for one
// purpose: enrol a passkey for one identity (operator_id), sign in, or step up one session
// (session_id). Only its SHA-256 is kept; it expires on the wall clock (expires_at_ms) and is used
// once: taking it deletes the row (DELETE ... RETURNING), so of two finishes with the same challenge
// exactly one finds it. Expired rows are purged whenever a challenge is issued or taken.
export const CONSOLE_CHALLENGES: Migration = {
  version: 27,
  name: 'console_challenges',
  sql: `
CREATE TABLE console_challenges (
  challenge_sha256 TEXT PRIMARY KEY CHECK (length(challenge_sha256) = 64),
  purpose TEXT NOT NULL CHECK (purpose IN ('enrol', 'sign-in', 'step-up')),
  operator_id TEXT REFERENCES operators(id),
  session_id TEXT REFERENCES console_sessions(id),
  expires_at_ms INTEGER NOT NULL CHECK (expires_at_ms > 0),
  CHECK ((purpose = 'enrol') = (operator_id IS NOT NULL)),
  CHECK ((purpose = 'step-up') = (session_id IS NOT NULL))
) STRICT;
CREATE INDEX console_challenges_expiry ON console_challenges (expires_at_ms);
`,
};
