import type { Migration } from './migration.js';

// Transfers between an investor's bank and the broker (docs/funding.md). The state machine is closed:
// received -> pending_rail -> at_broker -> completed, and received | pending_rail -> failed; a manual
// approval waits in received with approval = pending. Money moves only in the ledger: a withdrawal
// holds settled cash from creation (hold_id), a deposit is credited on completion.
export const TRANSFERS: Migration = {
  version: 5,
  name: 'transfers',
  sql: `
CREATE TABLE transfers (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  direction TEXT NOT NULL CHECK (direction IN ('deposit', 'withdrawal')),
  amount_micros INTEGER NOT NULL CHECK (amount_micros > 0 AND amount_micros <= 70000000000),
  state TEXT NOT NULL CHECK (state IN ('received', 'pending_rail', 'at_broker', 'completed', 'failed')),
  approval TEXT NOT NULL CHECK (approval IN ('automatic', 'pending', 'approved', 'rejected')),
  rail_ref TEXT UNIQUE,
  reason_code TEXT,
  hold_id TEXT UNIQUE REFERENCES ledger_holds(id),
  -- Africa/Cairo calendar day of creation on the simulated clock: the daily limit's day
  local_date TEXT NOT NULL,
  decided_by TEXT,
  decided_at TEXT,
  created_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((state = 'failed') = (reason_code IS NOT NULL)),
  CHECK ((direction = 'withdrawal') = (hold_id IS NOT NULL)),
  -- the rail reference exists from pending_rail on; a transfer rejected before the rail has none
  CHECK (CASE state WHEN 'received' THEN rail_ref IS NULL WHEN 'failed' THEN 1 ELSE rail_ref IS NOT NULL END),
  CHECK (approval <> 'pending' OR state = 'received'),
  CHECK (approval <> 'rejected' OR state = 'failed'),
  CHECK ((decided_by IS NULL) = (approval IN ('automatic', 'pending'))),
  CHECK ((decided_by IS NULL) = (decided_at IS NULL))
) STRICT;
CREATE INDEX transfers_tenant ON transfers(tenant_id, seq DESC);
CREATE INDEX transfers_investor ON transfers(tenant_id, investor_id, seq DESC);
CREATE INDEX transfers_day ON transfers(tenant_id, investor_id, local_date);
CREATE INDEX transfers_approval ON transfers(approval, seq DESC);

CREATE TRIGGER transfers_update BEFORE UPDATE ON transfers
BEGIN
  SELECT RAISE(ABORT, 'transfers: a completed or failed transfer is final') WHERE OLD.state IN ('completed', 'failed');
  SELECT RAISE(ABORT, 'transfers: only state, approval, rail_ref, reason_code and the decision change')
    WHERE NEW.seq <> OLD.seq OR NEW.id <> OLD.id OR NEW.tenant_id <> OLD.tenant_id
       OR NEW.investor_id <> OLD.investor_id OR NEW.direction <> OLD.direction
       OR NEW.amount_micros <> OLD.amount_micros OR NEW.hold_id IS NOT OLD.hold_id
       OR NEW.local_date <> OLD.local_date OR NEW.created_ms <> OLD.created_ms OR NEW.created_at <> OLD.created_at
       OR (OLD.rail_ref IS NOT NULL AND NEW.rail_ref IS NOT OLD.rail_ref)
       OR (OLD.decided_by IS NOT NULL AND (NEW.decided_by IS NOT OLD.decided_by OR NEW.decided_at IS NOT OLD.decided_at));
  SELECT RAISE(ABORT, 'transfers: not a transition of the transfer state machine')
    WHERE NOT (
         (OLD.state = 'received' AND NEW.state = 'received' AND OLD.approval = 'pending' AND NEW.approval = 'approved')
      OR (OLD.state = 'received' AND NEW.state = 'pending_rail' AND OLD.approval IN ('automatic', 'approved') AND NEW.approval = OLD.approval)
      OR (OLD.state = 'received' AND NEW.state = 'failed' AND OLD.approval = 'pending' AND NEW.approval = 'rejected')
      OR (OLD.state = 'pending_rail' AND NEW.state IN ('at_broker', 'failed') AND NEW.approval = OLD.approval)
      OR (OLD.state = 'at_broker' AND NEW.state IN ('completed', 'failed') AND NEW.approval = OLD.approval));
END;

CREATE TRIGGER transfers_no_delete BEFORE DELETE ON transfers
  WHEN (SELECT wiping FROM sandbox_state WHERE id = 1) = 0
BEGIN
  SELECT RAISE(ABORT, 'transfers are never deleted');
END;
`,
};
