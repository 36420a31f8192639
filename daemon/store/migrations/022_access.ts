import type { Migration } from './migration.js';

// Identity hygiene (docs/backoffice.md, "Sessions, keys and access reviews").
//
// operators is rebuilt (SQLite cannot change a CHECK in place): its role CHECK now lists every role
// of the catalog (daemon/contract/grants.ts), and it gains revoked_at/revoked_by (a revoked key is
// refused at its next request) and key_rotated_at.
//
// console_sessions: one row per console sign-in. Only the SHA-256 of the session token is kept; the
// token itself is answered once. Times are wall clock (a session is a person at a browser now, like a
// step-up code, not a simulated instant). A revocation is final.
//
// access_reviews and access_review_items: a campaign and one item per identity-grant it reviews. The
// database holds the rules: a reviewer cannot decide an item about their own access (a CHECK and a
// trigger), an item is decided once, the subject of an item never changes, the decider must hold
// access-review:decide globally, an item of a closed campaign cannot change, nothing is deleted, and
// the campaign closes (in the same statement) when its last item is decided.
//
// The roles that review access and end sessions get their new grants on existing identities.
const ROLES = `'admin', 'dealer', 'security', 'approver', 'auditor', 'compliance', 'superuser'`;

export const ACCESS: Migration = {
  version: 22,
  name: 'access',
  rebuildsTables: true,
  sql: `
CREATE TABLE operators_v22 (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN (${ROLES})),
  realm TEXT NOT NULL CHECK (realm IN ('admin', 'console')),
  key_hash TEXT NOT NULL UNIQUE,
  grants TEXT NOT NULL,
  broker_id TEXT REFERENCES brokers(id),
  created_at TEXT NOT NULL,
  key_rotated_at TEXT,
  revoked_at TEXT,
  revoked_by TEXT,
  CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
) STRICT;
INSERT INTO operators_v22 (id, name, role, realm, key_hash, grants, broker_id, created_at)
  SELECT id, name, role, realm, key_hash, grants, broker_id, created_at FROM operators;
DROP TABLE operators;
ALTER TABLE operators_v22 RENAME TO operators;
CREATE TRIGGER operators_revocation_final BEFORE UPDATE ON operators
  WHEN OLD.revoked_at IS NOT NULL AND (NEW.revoked_at IS NULL OR NEW.key_hash IS NOT OLD.key_hash)
  BEGIN SELECT RAISE(ABORT, 'operators: a revoked key stays revoked'); END;

CREATE TABLE console_sessions (
  id TEXT PRIMARY KEY,
  operator_id TEXT NOT NULL REFERENCES operators(id),
  token_sha256 TEXT NOT NULL UNIQUE CHECK (length(token_sha256) = 64),
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  stepped_up_until TEXT,
  revoked_at TEXT,
  revoked_by TEXT,
  CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
) STRICT;
CREATE INDEX console_sessions_operator ON console_sessions (operator_id);
CREATE TRIGGER console_sessions_frozen BEFORE UPDATE ON console_sessions
  WHEN NEW.id IS NOT OLD.id OR NEW.operator_id IS NOT OLD.operator_id OR NEW.token_sha256 IS NOT OLD.token_sha256
    OR NEW.created_at IS NOT OLD.created_at
  BEGIN SELECT RAISE(ABORT, 'console_sessions: a session''s identity and token cannot change'); END;
CREATE TRIGGER console_sessions_revocation_final BEFORE UPDATE ON console_sessions
  WHEN OLD.revoked_at IS NOT NULL AND (NEW.revoked_at IS NOT OLD.revoked_at OR NEW.revoked_by IS NOT OLD.revoked_by
    OR NEW.stepped_up_until IS NOT OLD.stepped_up_until)
  BEGIN SELECT RAISE(ABORT, 'console_sessions: a revoked session stays revoked'); END;

CREATE TABLE access_reviews (
  id TEXT PRIMARY KEY,
  opened_by TEXT NOT NULL REFERENCES operators(id),
  opened_at TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
  closed_at TEXT,
  CHECK ((state = 'open') = (closed_at IS NULL))
) STRICT;
CREATE TABLE access_review_items (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  review_id TEXT NOT NULL REFERENCES access_reviews(id),
  operator_id TEXT NOT NULL REFERENCES operators(id),
  grant_name TEXT NOT NULL,
  scope TEXT NOT NULL,
  role TEXT NOT NULL,
  decision TEXT CHECK (decision IN ('certify', 'revoke')),
  decided_by TEXT REFERENCES operators(id),
  decided_at TEXT,
  note TEXT CHECK (note IS NULL OR length(note) <= 500),
  CHECK ((decision IS NULL) = (decided_by IS NULL) AND (decision IS NULL) = (decided_at IS NULL)),
  CHECK (decided_by IS NULL OR decided_by <> operator_id),
  UNIQUE (review_id, operator_id, grant_name, scope)
) STRICT;
CREATE INDEX access_review_items_review ON access_review_items (review_id, seq);

CREATE TRIGGER access_reviews_closed_final BEFORE UPDATE ON access_reviews
  WHEN OLD.state = 'closed'
  BEGIN SELECT RAISE(ABORT, 'access_reviews: a closed campaign cannot change'); END;
CREATE TRIGGER access_reviews_no_delete BEFORE DELETE ON access_reviews
  BEGIN SELECT RAISE(ABORT, 'access_reviews: campaigns are never deleted'); END;
CREATE TRIGGER access_review_items_insert_open BEFORE INSERT ON access_review_items
  WHEN NEW.decision IS NOT NULL OR (SELECT state FROM access_reviews WHERE id = NEW.review_id) IS NOT 'open'
  BEGIN SELECT RAISE(ABORT, 'access_review_items: an item is added undecided to an open campaign'); END;
CREATE TRIGGER access_review_items_not_own BEFORE UPDATE ON access_review_items
  WHEN NEW.decided_by = OLD.operator_id
  BEGIN SELECT RAISE(ABORT, 'access_review_items: a reviewer cannot decide an item about their own access'); END;
CREATE TRIGGER access_review_items_one_decision BEFORE UPDATE ON access_review_items
  WHEN OLD.decision IS NOT NULL
  BEGIN SELECT RAISE(ABORT, 'access_review_items: the item is already decided'); END;
CREATE TRIGGER access_review_items_subject_frozen BEFORE UPDATE ON access_review_items
  WHEN NEW.id IS NOT OLD.id OR NEW.seq IS NOT OLD.seq OR NEW.review_id IS NOT OLD.review_id OR NEW.operator_id IS NOT OLD.operator_id
    OR NEW.grant_name IS NOT OLD.grant_name OR NEW.scope IS NOT OLD.scope OR NEW.role IS NOT OLD.role
  BEGIN SELECT RAISE(ABORT, 'access_review_items: the subject of an item cannot change'); END;
CREATE TRIGGER access_review_items_campaign_open BEFORE UPDATE ON access_review_items
  WHEN (SELECT state FROM access_reviews WHERE id = OLD.review_id) IS NOT 'open'
  BEGIN SELECT RAISE(ABORT, 'access_review_items: the campaign is closed'); END;
CREATE TRIGGER access_review_items_decider_holds_grant BEFORE UPDATE ON access_review_items
  WHEN NEW.decision IS NOT NULL AND NOT EXISTS (SELECT 1 FROM operator_grants g WHERE g.operator_id = NEW.decided_by
    AND g.grant_name = 'access-review:decide' AND g.scope = 'global' AND (g.expires_at IS NULL OR g.expires_at > NEW.decided_at))
  BEGIN SELECT RAISE(ABORT, 'access_review_items: the reviewer does not hold access-review:decide'); END;
CREATE TRIGGER access_review_items_no_delete BEFORE DELETE ON access_review_items
  BEGIN SELECT RAISE(ABORT, 'access_review_items: items are never deleted'); END;
CREATE TRIGGER access_review_items_close_campaign AFTER UPDATE OF decision ON access_review_items
  WHEN NEW.decision IS NOT NULL AND NOT EXISTS (SELECT 1 FROM access_review_items i WHERE i.review_id = NEW.review_id AND i.decision IS NULL)
  BEGIN UPDATE access_reviews SET state = 'closed', closed_at = NEW.decided_at WHERE id = NEW.review_id; END;

INSERT OR IGNORE INTO operator_grants (operator_id, grant_name, scope, role, granted_at)
  SELECT o.id, g.value, 'global', o.role, o.created_at FROM operators o,
    json_each('["sessions:read","sessions:revoke","operator-keys:rotate","operator-keys:revoke","access-review:read","access-review:open","access-review:decide"]') g
  WHERE o.role = 'security';
INSERT OR IGNORE INTO operator_grants (operator_id, grant_name, scope, role, granted_at)
  SELECT o.id, g.value, 'global', o.role, o.created_at FROM operators o,
    json_each('["access-review:read","access-review:open","access-review:decide"]') g
  WHERE o.role = 'compliance';
`,
};
