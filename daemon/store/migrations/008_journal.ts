import type { Migration } from './migration.js';

// The request journal (docs/snapshots.md): every state-changing request that reached its handler and
// committed, in commit order, written in the request's own savepoint. Bodies are sealed (AES-256-GCM
// under the tenant's data key, or the key-encryption key for operator requests): they hold national
// ids and ID images. The journal survives the sandbox reset (the reset is itself an entry) and is
// never edited: a replay from the origin's seed and start re-runs the whole history.
// journal_origin is the sandbox as it was created (seed, start, clock), filled by a trigger when the
// state row is first inserted; a database that predates this migration gets an origin marked
// incomplete at its next start.
export const JOURNAL: Migration = {
  version: 8,
  name: 'journal',
  sql: `
CREATE TABLE journal (
  seq INTEGER PRIMARY KEY,
  request_id TEXT NOT NULL,
  sim_ms INTEGER NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('POST', 'PUT', 'PATCH', 'DELETE')),
  route TEXT NOT NULL,
  path TEXT NOT NULL,
  query TEXT NOT NULL,
  principal TEXT NOT NULL,
  idempotency_key TEXT,
  content_type TEXT,
  body_kind TEXT NOT NULL CHECK (body_kind IN ('none', 'text', 'bytes')),
  body_sealed BLOB,
  status INTEGER NOT NULL CHECK (status BETWEEN 100 AND 599),
  CHECK ((body_kind = 'none') = (body_sealed IS NULL))
) STRICT;

CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER journal_no_delete BEFORE DELETE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;

CREATE TABLE journal_origin (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seed INTEGER NOT NULL,
  start_ms INTEGER NOT NULL,
  clock_mode TEXT NOT NULL CHECK (clock_mode IN ('frozen', 'running')),
  speed_milli INTEGER NOT NULL,
  complete INTEGER NOT NULL CHECK (complete IN (0, 1))
) STRICT;

CREATE TRIGGER journal_origin_at_creation AFTER INSERT ON sandbox_state
BEGIN
  INSERT OR IGNORE INTO journal_origin (id, seed, start_ms, clock_mode, speed_milli, complete)
  VALUES (1, NEW.seed, NEW.start_ms, NEW.clock_mode, NEW.speed_milli, 1);
END;
`,
};
