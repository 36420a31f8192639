import type { Migration } from './migration.js';

// Tenant branding (docs/branding.md): one row per tenant, written at its first change. A NULL theme
// field means "the default" (the tenant's name, #1F3A5F, #C8102E, Noto Sans, ""), so a tenant that
// never changed a field follows the default. The rules the API checks are checked here a second time:
// colours are exactly # and six upper-case hex digits (the API stores them upper case), the display
// name 1-80 characters and the footer 0-300 (length() counts characters), and the logo's four columns
// are all set or all NULL. The logo is sealed under the tenant's data key (AES-256-GCM, 28 bytes of IV
// and tag before the ciphertext); its clear bytes are never stored. The font is not checked here: the
// embedded set lives in code (daemon/contract/brand-fonts.ts) and may grow without a table rebuild.
// IF NOT EXISTS: re-running the migrations over a store that has the table keeps it and its rows.
const HEX6 = '[0-9A-F]'.repeat(6);
const HEX64 = '[0-9a-f]'.repeat(64);
const color = (col: string) => `${col} TEXT CHECK (${col} IS NULL OR ${col} GLOB '#${HEX6}')`;

export const BRANDING: Migration = {
  version: 13,
  name: 'branding',
  sql: `
CREATE TABLE IF NOT EXISTS brandings (
  tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
  display_name TEXT CHECK (display_name IS NULL OR length(display_name) BETWEEN 1 AND 80),
  ${color('primary_color')},
  ${color('accent_color')},
  font TEXT CHECK (font IS NULL OR length(font) BETWEEN 1 AND 64),
  footer_text TEXT CHECK (footer_text IS NULL OR length(footer_text) <= 300),
  logo_sealed BLOB CHECK (logo_sealed IS NULL OR length(logo_sealed) > 28),
  logo_content_type TEXT CHECK (logo_content_type IS NULL OR logo_content_type IN ('image/png', 'image/jpeg')),
  logo_sha256 TEXT CHECK (logo_sha256 IS NULL OR logo_sha256 GLOB '${HEX64}'),
  logo_bytes INTEGER CHECK (logo_bytes IS NULL OR logo_bytes BETWEEN 1 AND 524288),
  updated_at TEXT NOT NULL,
  CHECK ((logo_sealed IS NULL) = (logo_content_type IS NULL)
     AND (logo_sealed IS NULL) = (logo_sha256 IS NULL)
     AND (logo_sealed IS NULL) = (logo_bytes IS NULL))
) STRICT;
`,
};
