import type { Migration } from './migration.js';

// KYC applications and their ID images. Nothing identifying is stored in clear: the national id is
// sealed (AES-256-GCM under the tenant data key) with a keyed hash for duplicate lookups, the other
// contact details are one sealed JSON document, and the images are sealed bytes. Only the name stays
// readable (the investor row carries it anyway) for the dealer's queue.
export const ONBOARDING: Migration = {
  version: 3,
  name: 'onboarding',
  sql: `
CREATE TABLE kyc_applications (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  broker_id TEXT NOT NULL REFERENCES brokers(id),
  state TEXT NOT NULL CHECK (state IN ('received', 'screened', 'screening_referred', 'approved', 'rejected')),
  path TEXT CHECK (path IN ('documents', 'dossier')),
  full_name TEXT NOT NULL,
  national_id_enc BLOB NOT NULL,
  national_id_hash TEXT NOT NULL,
  details_enc BLOB NOT NULL,
  investor_id TEXT UNIQUE,
  reason_code TEXT,
  decided_by TEXT,
  created_at TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  submitted_at TEXT,
  decided_at TEXT,
  updated_at TEXT NOT NULL,
  CHECK ((state = 'approved') = (investor_id IS NOT NULL)),
  CHECK ((state = 'rejected') = (reason_code IS NOT NULL)),
  CHECK ((state IN ('received', 'screened')) = (path IS NULL))
) STRICT;
CREATE INDEX kyc_applications_tenant ON kyc_applications(tenant_id, created_ms DESC, id DESC);
CREATE INDEX kyc_applications_nid ON kyc_applications(tenant_id, national_id_hash);
-- One person, one account per tenant.
CREATE UNIQUE INDEX kyc_applications_one_approved ON kyc_applications(tenant_id, national_id_hash) WHERE state = 'approved';
CREATE INDEX kyc_applications_queue ON kyc_applications(broker_id, state, submitted_at, id);

-- A decision is final: approved and rejected applications never change state again.
CREATE TRIGGER kyc_applications_final BEFORE UPDATE OF state ON kyc_applications
  WHEN OLD.state IN ('approved', 'rejected') AND NEW.state <> OLD.state
  BEGIN SELECT RAISE(ABORT, 'kyc application already decided'); END;

CREATE TABLE kyc_documents (
  application_id TEXT NOT NULL REFERENCES kyc_applications(id) ON DELETE CASCADE,
  side TEXT NOT NULL CHECK (side IN ('national_id_front', 'national_id_back')),
  content_type TEXT NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  bytes_enc BLOB NOT NULL,
  sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
  size_bytes INTEGER NOT NULL CHECK (size_bytes BETWEEN 1 AND 524288),
  uploaded_at TEXT NOT NULL,
  PRIMARY KEY (application_id, side)
) STRICT;

-- Images are evidence under review: once submitted, an application's documents are frozen.
CREATE TRIGGER kyc_documents_frozen_insert BEFORE INSERT ON kyc_documents
  WHEN (SELECT state FROM kyc_applications WHERE id = NEW.application_id) NOT IN ('received', 'screened')
  BEGIN SELECT RAISE(ABORT, 'kyc documents are frozen after submit'); END;
CREATE TRIGGER kyc_documents_frozen_update BEFORE UPDATE ON kyc_documents
  WHEN (SELECT state FROM kyc_applications WHERE id = OLD.application_id) NOT IN ('received', 'screened')
  BEGIN SELECT RAISE(ABORT, 'kyc documents are frozen after submit'); END;
`,
};
