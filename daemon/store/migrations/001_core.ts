import type { Migration } from './migration.js';

export const CORE: Migration = {
  version: 1,
  name: 'core',
  sql: `
CREATE TABLE sandbox_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seed INTEGER NOT NULL,
  start_ms INTEGER NOT NULL,
  clock_mode TEXT NOT NULL CHECK (clock_mode IN ('frozen', 'running')),
  sim_ms INTEGER NOT NULL,
  wall_anchor_ms INTEGER NOT NULL,
  speed_milli INTEGER NOT NULL DEFAULT 1000 CHECK (speed_milli > 0),
  processed_ms INTEGER NOT NULL,
  generation INTEGER NOT NULL DEFAULT 1,
  boot_count INTEGER NOT NULL DEFAULT 0,
  auto_fill INTEGER NOT NULL DEFAULT 1 CHECK (auto_fill IN (0, 1)),
  manual_funding INTEGER NOT NULL DEFAULT 0 CHECK (manual_funding IN (0, 1)),
  audit_count INTEGER NOT NULL DEFAULT 0,
  audit_head TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE TABLE id_seq (
  prefix TEXT PRIMARY KEY,
  next INTEGER NOT NULL CHECK (next >= 0)
) STRICT;

CREATE TABLE tenants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  dek_wrapped BLOB NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
  key_hash TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;

CREATE TABLE signing_secrets (
  id INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  secret_enc BLOB NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;

CREATE TABLE brokers (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  name_ar TEXT NOT NULL,
  fra_license_no TEXT NOT NULL,
  contact_email TEXT NOT NULL,
  contact_phone TEXT NOT NULL
) STRICT;

CREATE TABLE operators (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('admin', 'dealer', 'security', 'approver')),
  realm TEXT NOT NULL CHECK (realm IN ('admin', 'console')),
  key_hash TEXT NOT NULL UNIQUE,
  grants TEXT NOT NULL,
  broker_id TEXT REFERENCES brokers(id),
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE idempotency (
  tenant_id TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  response TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, method, path, key)
) STRICT;
CREATE INDEX idempotency_created ON idempotency(created_ms);

CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  subject TEXT NOT NULL,
  tenant_id TEXT,
  detail TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
) STRICT;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
  BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  due_ms INTEGER NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1))
) STRICT;
CREATE INDEX events_pending ON events(done, due_ms, id);

CREATE TABLE quote_overrides (
  id INTEGER PRIMARY KEY,
  symbol TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  price_micros INTEGER NOT NULL CHECK (price_micros > 0)
) STRICT;

CREATE TABLE halts (
  symbol TEXT PRIMARY KEY,
  halted INTEGER NOT NULL CHECK (halted IN (0, 1)),
  at_ms INTEGER NOT NULL
) STRICT;
`,
};
