import type { Migration } from './migration.js';

// Client statements (docs/reports.md). A report's PDF is sealed under its tenant's data key before it
// is written (pdf_sealed); after the retention the ciphertext is deleted and the record kept
// (purged_at). The database holds the rules too: the state moves pending -> generating -> ready or
// failed and never back, a ready report has its digest, size and time, a failed one its reason, and
// a purged one no ciphertext.
export const REPORTS: Migration = {
  version: 14,
  name: 'reports',
  sql: `
CREATE TABLE reports (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  investor_id TEXT NOT NULL REFERENCES investors(id),
  type TEXT NOT NULL CHECK (type = 'client_statement'),
  period_start TEXT NOT NULL CHECK (period_start GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  period_end TEXT NOT NULL CHECK (period_end GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND period_end >= period_start),
  sections TEXT NOT NULL CHECK (json_valid(sections) AND json_array_length(sections) BETWEEN 1 AND 4),
  locale TEXT NOT NULL CHECK (locale IN ('en', 'ar')),
  state TEXT NOT NULL CHECK (state IN ('pending', 'generating', 'ready', 'failed')),
  created_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  ready_at TEXT,
  expires_ms INTEGER NOT NULL CHECK (expires_ms > created_ms),
  expires_at TEXT NOT NULL,
  bytes INTEGER CHECK (bytes > 0),
  sha256 TEXT CHECK (length(sha256) = 64),
  reason_code TEXT,
  pdf_sealed BLOB,
  purged_at TEXT,
  CHECK ((state = 'ready') = (ready_at IS NOT NULL AND bytes IS NOT NULL AND sha256 IS NOT NULL)),
  CHECK ((state = 'failed') = (reason_code IS NOT NULL)),
  CHECK (state = 'ready' OR (pdf_sealed IS NULL AND purged_at IS NULL)),
  CHECK (NOT (pdf_sealed IS NOT NULL AND purged_at IS NOT NULL)),
  CHECK (state <> 'ready' OR pdf_sealed IS NOT NULL OR purged_at IS NOT NULL)
) STRICT;
CREATE INDEX reports_tenant ON reports(tenant_id, seq);

CREATE TRIGGER reports_state_flow BEFORE UPDATE OF state ON reports
WHEN NOT (OLD.state = NEW.state
       OR (OLD.state = 'pending' AND NEW.state IN ('generating', 'failed'))
       OR (OLD.state = 'generating' AND NEW.state IN ('ready', 'failed')))
BEGIN
  SELECT RAISE(ABORT, 'reports: a report moves pending -> generating -> ready or failed, never back');
END;

CREATE TRIGGER reports_fixed_fields BEFORE UPDATE OF id, tenant_id, investor_id, type, period_start, period_end, sections, locale, created_ms, created_at, expires_ms, expires_at ON reports
BEGIN
  SELECT RAISE(ABORT, 'reports: what a report covers is fixed at creation');
END;
`,
};
