import type { Migration } from './migration.js';

// What the maker-checker bases change (docs/backoffice.md "Bases").
//
// fee_schedules: every fee schedule approved through fee-schedule:update, append-only; the newest row
// is the schedule in force (none: fixtures/fees.json). A fill is charged with the schedule in force
// when it is booked, and its fee lines are stored with it, so a past contract note never changes.
//
// key_state: which key-encryption key the database is sealed under (kek_check, an HMAC of a fixed
// label under the KEK: never the key itself), so a start with two candidate KEK files in the home (a
// rotation cut short) knows which one to keep. `resealing` is raised by a key rotation only, for the
// length of its transaction: it is the one way past the journal's append-only trigger and the frozen
// KYC documents, and only for re-sealing what they hold under a new key.
export const BACKOFFICE_BASES: Migration = {
  version: 21,
  name: 'backoffice_bases',
  sql: `
CREATE TABLE IF NOT EXISTS fee_schedules (
  seq INTEGER PRIMARY KEY,
  schedule TEXT NOT NULL CHECK (json_valid(schedule)),
  action_id TEXT NOT NULL,
  effective_at TEXT NOT NULL
) STRICT;
CREATE TRIGGER fee_schedules_no_update BEFORE UPDATE ON fee_schedules
BEGIN SELECT RAISE(ABORT, 'fee schedules are append-only'); END;
CREATE TRIGGER fee_schedules_no_delete BEFORE DELETE ON fee_schedules
BEGIN SELECT RAISE(ABORT, 'fee schedules are append-only'); END;

CREATE TABLE IF NOT EXISTS key_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  kek_check TEXT NOT NULL CHECK (length(kek_check) = 64),
  kek_version INTEGER NOT NULL DEFAULT 1 CHECK (kek_version >= 1),
  resealing INTEGER NOT NULL DEFAULT 0 CHECK (resealing IN (0, 1)),
  rotated_at TEXT
) STRICT;

DROP TRIGGER journal_no_update;
CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
  WHEN COALESCE((SELECT resealing FROM key_state WHERE id = 1), 0) = 0
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;

DROP TRIGGER kyc_documents_frozen_update;
CREATE TRIGGER kyc_documents_frozen_update BEFORE UPDATE ON kyc_documents
  WHEN (SELECT state FROM kyc_applications WHERE id = OLD.application_id) NOT IN ('received', 'screened')
   AND COALESCE((SELECT resealing FROM key_state WHERE id = 1), 0) = 0
  BEGIN SELECT RAISE(ABORT, 'kyc documents are frozen after submit'); END;
`,
};
