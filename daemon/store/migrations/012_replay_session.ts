import type { Migration } from './migration.js';

// Journal replay is a way to rebuild a sandbox, not a way around the realms (docs/snapshots.md,
// "Replay"):
//  - replay_session: the one replay session a sandbox may have. POST /admin/sandbox/replay-session
//    opens it on a fresh sandbox (an empty journal, the journal's origin); replay-entry is accepted
//    only while it is open, takes entries in order (last_seq + 1), and closes it when the journal
//    gained an entry that is not a replay (journal_seq is the journal's last seq after the last
//    replayed entry). It survives the sandbox reset, like the journal it follows.
//  - audit_log.on_behalf_of: a replayed request is audited as the operator who replayed it (actor),
//    on behalf of the journal's recorded principal. NULL for every other row, whose hash is computed
//    exactly as before (daemon/store/audit.ts), so existing chains still verify.
//  - journal.response_sealed: the JSON answer of the request (sealed like its body; secrets shown
//    once, such as a provisioned tenant's keys, replaced), so a replay compares bodies, not only
//    statuses. NULL for raw answers and for entries written before this migration.
export const REPLAY_SESSION: Migration = {
  version: 12,
  name: 'replay-session',
  sql: `
CREATE TABLE replay_session (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
  opened_by TEXT NOT NULL,
  last_seq INTEGER NOT NULL CHECK (last_seq >= 0),
  journal_seq INTEGER NOT NULL CHECK (journal_seq >= 0),
  closed_reason TEXT,
  CHECK ((state = 'closed') = (closed_reason IS NOT NULL))
) STRICT;

ALTER TABLE audit_log ADD COLUMN on_behalf_of TEXT;

ALTER TABLE journal ADD COLUMN response_sealed BLOB;
`,
};
