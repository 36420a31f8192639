import type { Migration } from './migration.js';

// The back office (docs/backoffice.md). operator_grants: what each identity may do, one row per grant
// and scope (global, tenant:<id>, broker:<id>), with the role that gave it and, for break-glass, when
// it ends; backfilled from the grants the operators held (the security and approver keys get the
// propose and approve grants of every strict-split base). operator_step_up: each identity's TOTP
// secret, sealed under the key-encryption key, and the last time step accepted (a code is used once).
// admin_actions: maker-checker proposals. The database holds the rule, not only the code: a CHECK and
// a trigger refuse maker = checker, a trigger refuses a second decision, another refuses any edit of
// the stored payload, a proposal is never deleted, the maker must hold <base>:propose and the checker
// <base>:approve globally at that moment. audit_seal: the audit chain's head, MACed with a key the
// database does not hold, so cutting the chain's tail and rewriting the head is caught by verify.
export const BACKOFFICE: Migration = {
  version: 15,
  name: 'backoffice',
  sql: `
CREATE TABLE operator_grants (
  operator_id TEXT NOT NULL REFERENCES operators(id),
  grant_name TEXT NOT NULL CHECK (length(grant_name) BETWEEN 3 AND 64),
  scope TEXT NOT NULL CHECK (scope = 'global' OR scope GLOB 'tenant:?*' OR scope GLOB 'broker:?*'),
  role TEXT NOT NULL,
  granted_at TEXT NOT NULL,
  expires_at TEXT,
  review_required INTEGER NOT NULL DEFAULT 0 CHECK (review_required IN (0, 1)),
  PRIMARY KEY (operator_id, grant_name, scope)
) STRICT;

CREATE TEMP TABLE strict_propose (g TEXT);
INSERT INTO strict_propose (g) VALUES
  ('ledger:adjust:propose'),
  ('broker:create:propose'),
  ('fee-schedule:update:propose'),
  ('binding:update:propose'),
  ('keys:rotate-kek:propose'),
  ('keys:rotate-dek:propose'),
  ('console-users:manage:propose'),
  ('console-users:disable:propose'),
  ('console-roles:assign:propose'),
  ('passkey:unlock:propose'),
  ('break-glass:propose'),
  ('idp-config:update:propose'),
  ('corp-action:process:propose'),
  ('marketdata:replay:propose');
CREATE TEMP TABLE strict_approve (g TEXT);
INSERT INTO strict_approve (g) VALUES
  ('ledger:adjust:approve'),
  ('broker:create:approve'),
  ('fee-schedule:update:approve'),
  ('binding:update:approve'),
  ('keys:rotate-kek:approve'),
  ('keys:rotate-dek:approve'),
  ('console-users:manage:approve'),
  ('console-users:disable:approve'),
  ('console-roles:assign:approve'),
  ('passkey:unlock:approve'),
  ('break-glass:approve'),
  ('idp-config:update:approve'),
  ('corp-action:process:approve'),
  ('marketdata:replay:approve');

INSERT INTO operator_grants (operator_id, grant_name, scope, role, granted_at)
  SELECT o.id, j.value, CASE WHEN o.realm = 'console' AND o.broker_id IS NOT NULL THEN 'broker:' || o.broker_id ELSE 'global' END, o.role, o.created_at
  FROM operators o, json_each(o.grants) j WHERE j.value NOT IN ('actions:propose', 'actions:approve');
INSERT INTO operator_grants (operator_id, grant_name, scope, role, granted_at)
  SELECT o.id, p.g, 'global', o.role, o.created_at FROM operators o, strict_propose p WHERE o.role = 'security';
INSERT INTO operator_grants (operator_id, grant_name, scope, role, granted_at)
  SELECT o.id, a.g, 'global', o.role, o.created_at FROM operators o, strict_approve a WHERE o.role = 'approver';
DROP TABLE strict_propose;
DROP TABLE strict_approve;

CREATE TABLE operator_step_up (
  operator_id TEXT PRIMARY KEY REFERENCES operators(id),
  secret_sealed BLOB NOT NULL,
  last_step INTEGER NOT NULL DEFAULT -1
) STRICT;

CREATE TABLE admin_actions (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  action TEXT NOT NULL,
  params TEXT NOT NULL CHECK (json_valid(params)),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  payload_sha256 TEXT NOT NULL CHECK (length(payload_sha256) = 64),
  maker TEXT NOT NULL REFERENCES operators(id),
  created_at TEXT NOT NULL,
  expires_ms INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('proposed', 'approved', 'rejected')),
  checker TEXT REFERENCES operators(id),
  decided_at TEXT,
  decision_reason TEXT,
  result TEXT CHECK (result IS NULL OR json_valid(result)),
  CHECK ((state = 'proposed' AND checker IS NULL AND decided_at IS NULL AND result IS NULL)
      OR (state IN ('approved', 'rejected') AND checker IS NOT NULL AND checker <> maker AND decided_at IS NOT NULL)),
  CHECK (state <> 'rejected' OR (decision_reason IS NOT NULL AND result IS NULL))
) STRICT;
CREATE INDEX admin_actions_state ON admin_actions (state, seq);

CREATE TRIGGER admin_actions_maker_holds_propose BEFORE INSERT ON admin_actions
  WHEN NOT EXISTS (SELECT 1 FROM operator_grants g WHERE g.operator_id = NEW.maker AND g.grant_name = NEW.action || ':propose'
                   AND g.scope = 'global' AND (g.expires_at IS NULL OR g.expires_at > NEW.created_at))
  BEGIN SELECT RAISE(ABORT, 'admin_actions: the maker does not hold the propose grant'); END;
CREATE TRIGGER admin_actions_insert_proposed BEFORE INSERT ON admin_actions
  WHEN NEW.state <> 'proposed'
  BEGIN SELECT RAISE(ABORT, 'admin_actions: an action is stored as proposed'); END;
CREATE TRIGGER admin_actions_one_decision BEFORE UPDATE ON admin_actions
  WHEN OLD.state <> 'proposed'
  BEGIN SELECT RAISE(ABORT, 'admin_actions: the action is already decided'); END;
CREATE TRIGGER admin_actions_payload_frozen BEFORE UPDATE ON admin_actions
  WHEN NEW.id IS NOT OLD.id OR NEW.seq IS NOT OLD.seq OR NEW.action IS NOT OLD.action OR NEW.params IS NOT OLD.params
    OR NEW.reason IS NOT OLD.reason OR NEW.payload_sha256 IS NOT OLD.payload_sha256 OR NEW.maker IS NOT OLD.maker
    OR NEW.created_at IS NOT OLD.created_at OR NEW.expires_ms IS NOT OLD.expires_ms
  BEGIN SELECT RAISE(ABORT, 'admin_actions: the stored payload cannot change'); END;
CREATE TRIGGER admin_actions_checker_not_maker BEFORE UPDATE ON admin_actions
  WHEN NEW.checker = OLD.maker
  BEGIN SELECT RAISE(ABORT, 'admin_actions: the maker cannot decide their own action'); END;
CREATE TRIGGER admin_actions_checker_holds_approve BEFORE UPDATE ON admin_actions
  WHEN NEW.state IN ('approved', 'rejected') AND NOT EXISTS (SELECT 1 FROM operator_grants g WHERE g.operator_id = NEW.checker
    AND g.grant_name = OLD.action || ':approve' AND g.scope = 'global' AND (g.expires_at IS NULL OR g.expires_at > NEW.decided_at))
  BEGIN SELECT RAISE(ABORT, 'admin_actions: the checker does not hold the approve grant'); END;
CREATE TRIGGER admin_actions_no_delete BEFORE DELETE ON admin_actions
  BEGIN SELECT RAISE(ABORT, 'admin_actions: proposals are never deleted'); END;

CREATE TABLE audit_seal (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  count INTEGER NOT NULL,
  head TEXT NOT NULL,
  mac TEXT NOT NULL
) STRICT;
`,
};
