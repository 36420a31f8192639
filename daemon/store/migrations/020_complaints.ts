import type { Migration } from './migration.js';

// The complaints register (docs/complaints.md): one row per complaint and one append-only row per
// change of state. The database keeps the lifecycle whatever the code does: received -> investigating
// -> resolved | rejected, never a skipped or a backward step; a resolved or rejected complaint carries
// its resolution note; the receipt, the investor and the due date never change.
export const COMPLAINTS: Migration = {
  version: 20,
  name: 'complaints',
  sql: `
CREATE TABLE IF NOT EXISTS complaints (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  category TEXT NOT NULL CHECK (category IN ('execution', 'fees', 'statement', 'account', 'service', 'other')),
  channel TEXT NOT NULL CHECK (channel IN ('email', 'phone', 'branch', 'app', 'letter')),
  summary TEXT NOT NULL CHECK (length(summary) BETWEEN 1 AND 2000),
  state TEXT NOT NULL CHECK (state IN ('received', 'investigating', 'resolved', 'rejected')),
  received_at TEXT NOT NULL,
  received_date TEXT NOT NULL,
  due_date TEXT NOT NULL CHECK (due_date > received_date),
  resolution_note TEXT CHECK (resolution_note IS NULL OR length(resolution_note) BETWEEN 1 AND 2000),
  closed_at TEXT,
  updated_at TEXT NOT NULL,
  CHECK ((state IN ('resolved', 'rejected')) = (closed_at IS NOT NULL)),
  CHECK ((state IN ('resolved', 'rejected')) = (resolution_note IS NOT NULL))
) STRICT;
CREATE INDEX IF NOT EXISTS complaints_state ON complaints(state, seq);
CREATE INDEX IF NOT EXISTS complaints_investor ON complaints(investor_id, seq);

CREATE TRIGGER IF NOT EXISTS complaints_update BEFORE UPDATE ON complaints
BEGIN
  SELECT RAISE(ABORT, 'complaints: the receipt of a complaint never changes')
    WHERE NEW.id <> OLD.id OR NEW.tenant_id <> OLD.tenant_id OR NEW.investor_id <> OLD.investor_id
       OR NEW.category <> OLD.category OR NEW.channel <> OLD.channel OR NEW.summary <> OLD.summary
       OR NEW.received_at <> OLD.received_at OR NEW.received_date <> OLD.received_date OR NEW.due_date <> OLD.due_date;
  SELECT RAISE(ABORT, 'complaints: received -> investigating -> resolved | rejected, one step at a time')
    WHERE NOT ((OLD.state = 'received' AND NEW.state = 'investigating')
            OR (OLD.state = 'investigating' AND NEW.state IN ('resolved', 'rejected')));
END;

CREATE TRIGGER IF NOT EXISTS complaints_no_delete BEFORE DELETE ON complaints
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'complaints are never deleted');
END;

CREATE TABLE IF NOT EXISTS complaint_events (
  seq INTEGER PRIMARY KEY,
  complaint_id TEXT NOT NULL REFERENCES complaints(id),
  from_state TEXT CHECK (from_state IS NULL OR from_state IN ('received', 'investigating')),
  to_state TEXT NOT NULL CHECK (to_state IN ('received', 'investigating', 'resolved', 'rejected')),
  actor TEXT NOT NULL,
  note TEXT CHECK (note IS NULL OR length(note) BETWEEN 1 AND 2000),
  at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS complaint_events_complaint ON complaint_events(complaint_id, seq);

CREATE TRIGGER IF NOT EXISTS complaint_events_no_update BEFORE UPDATE ON complaint_events
BEGIN
  SELECT RAISE(ABORT, 'complaint events are append-only');
END;

CREATE TRIGGER IF NOT EXISTS complaint_events_no_delete BEFORE DELETE ON complaint_events
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'complaint events are append-only');
END;
`,
};
