import type { Migration } from './migration.js';

// An investor is the account: one row per approved KYC application, scoped to its tenant.
export const INVESTORS: Migration = {
  version: 2,
  name: 'investors',
  sql: `
CREATE TABLE investors (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  broker_id TEXT NOT NULL REFERENCES brokers(id),
  application_id TEXT NOT NULL UNIQUE,
  account_number TEXT NOT NULL UNIQUE,
  full_name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'restricted', 'closed')),
  shariah_only INTEGER NOT NULL DEFAULT 0 CHECK (shariah_only IN (0, 1)),
  suitability_tier INTEGER NOT NULL DEFAULT 0 CHECK (suitability_tier BETWEEN 0 AND 3),
  suitability_recorded INTEGER NOT NULL DEFAULT 0 CHECK (suitability_recorded IN (0, 1)),
  risk_acknowledged INTEGER NOT NULL DEFAULT 0 CHECK (risk_acknowledged IN (0, 1)),
  questionnaire TEXT,
  created_at TEXT NOT NULL,
  created_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX investors_tenant ON investors(tenant_id, created_ms DESC, id DESC);
`,
};
