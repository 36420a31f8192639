import type { Migration } from './migration.js';

// Reconciliation (docs/reconciliation.md). The external statements (the custodian's holdings, the
// bank's cash) are computed from the ledger, never stored; what is stored is how the sandbox corrupts
// them (recon_overrides, one row per injected break), the runs, and the breaks they found. The database
// holds the rules too: one unresolved break per (tenant, investor, asset, kind); a break moves open ->
// acknowledged -> resolved (or open -> resolved) and never back; a resolved break has its resolution,
// and an accepted one its note.
export const RECONCILIATION: Migration = {
  version: 18,
  name: 'reconciliation',
  sql: `
CREATE TABLE recon_overrides (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  asset TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('position', 'cash', 'missing', 'duplicate')),
  amount INTEGER NOT NULL,
  from_date TEXT NOT NULL CHECK (from_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  through_date TEXT CHECK (through_date IS NULL OR through_date >= from_date),
  created_at TEXT NOT NULL,
  CHECK ((kind = 'cash') = (asset = 'cash:EGP') OR kind IN ('missing', 'duplicate')),
  CHECK (kind IN ('position', 'cash') OR amount = 0),
  CHECK (kind NOT IN ('position', 'cash') OR amount <> 0)
) STRICT;

CREATE TRIGGER recon_overrides_fixed BEFORE UPDATE ON recon_overrides
BEGIN
  SELECT RAISE(ABORT, 'reconciliation: an injected break is never edited');
END;

CREATE TABLE recon_runs (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL,
  investors INTEGER NOT NULL CHECK (investors >= 0),
  custodian_lines INTEGER NOT NULL CHECK (custodian_lines >= 0),
  bank_lines INTEGER NOT NULL CHECK (bank_lines >= 0),
  breaks_found INTEGER NOT NULL CHECK (breaks_found >= 0),
  breaks_opened INTEGER NOT NULL CHECK (breaks_opened >= 0),
  breaks_auto_resolved INTEGER NOT NULL CHECK (breaks_auto_resolved >= 0)
) STRICT;
CREATE INDEX recon_runs_date ON recon_runs(date, seq);

CREATE TRIGGER recon_runs_fixed BEFORE UPDATE OF id, date, created_at, created_by, investors, custodian_lines, bank_lines, breaks_found ON recon_runs
BEGIN
  SELECT RAISE(ABORT, 'reconciliation: a run keeps what it compared and found');
END;

CREATE TRIGGER recon_runs_tally_once BEFORE UPDATE OF breaks_opened, breaks_auto_resolved ON recon_runs
WHEN OLD.breaks_opened <> 0 OR OLD.breaks_auto_resolved <> 0
BEGIN
  SELECT RAISE(ABORT, 'reconciliation: a run counts what it opened and resolved once');
END;

CREATE TABLE recon_breaks (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  asset TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('position', 'cash', 'missing', 'duplicate')),
  ledger_value INTEGER NOT NULL,
  external_value INTEGER NOT NULL,
  difference INTEGER NOT NULL CHECK (difference = ledger_value - external_value),
  first_run_id TEXT NOT NULL REFERENCES recon_runs(id),
  first_seen_date TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  last_run_id TEXT NOT NULL REFERENCES recon_runs(id),
  last_seen_date TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'acknowledged', 'resolved')),
  acknowledged_at TEXT,
  acknowledged_by TEXT,
  resolution TEXT CHECK (resolution IN ('auto', 'accepted', 'adjusted')),
  resolved_at TEXT,
  resolved_by TEXT,
  note TEXT,
  reopens TEXT REFERENCES recon_breaks(id),
  CHECK ((state = 'resolved') = (resolution IS NOT NULL AND resolved_at IS NOT NULL AND resolved_by IS NOT NULL)),
  CHECK (resolution IS NOT 'accepted' OR length(note) > 0),
  CHECK ((acknowledged_at IS NULL) = (acknowledged_by IS NULL))
) STRICT;
CREATE UNIQUE INDEX recon_breaks_one_open ON recon_breaks(tenant_id, investor_id, asset, kind) WHERE state <> 'resolved';
CREATE INDEX recon_breaks_state ON recon_breaks(state, seq);
CREATE INDEX recon_breaks_investor ON recon_breaks(investor_id, seq);

CREATE TRIGGER recon_breaks_state_flow BEFORE UPDATE OF state ON recon_breaks
WHEN NOT (OLD.state = NEW.state AND OLD.state <> 'resolved'
       OR (OLD.state = 'open' AND NEW.state IN ('acknowledged', 'resolved'))
       OR (OLD.state = 'acknowledged' AND NEW.state = 'resolved'))
BEGIN
  SELECT RAISE(ABORT, 'reconciliation: a break moves open -> acknowledged -> resolved, never back, and is resolved once');
END;

CREATE TRIGGER recon_breaks_fixed BEFORE UPDATE OF id, tenant_id, investor_id, asset, kind, first_run_id, first_seen_date, first_seen_at, reopens ON recon_breaks
BEGIN
  SELECT RAISE(ABORT, 'reconciliation: a break keeps what it is about and when it was first seen');
END;
`,
};
