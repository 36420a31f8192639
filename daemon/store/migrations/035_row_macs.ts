import type { Migration } from './migration.js';

// Rows that open the console carry a MAC under a key derived from the key-encryption key
// (daemon/store/row-mac.ts, docs/reliability.md "Session and step-up rows need the key"): a console
// session (with its last use, step-up and revocation), a passkey, an enrolment code. A row without a
// valid MAC is treated as absent, so the rows written before this version (mac NULL) open nothing:
// their sessions sign in again, their passkeys are enrolled again (passkey:unlock issues a code).
export const ROW_MACS: Migration = {
  version: 35,
  name: 'row macs',
  sql: `
ALTER TABLE console_sessions ADD COLUMN mac TEXT CHECK (mac IS NULL OR length(mac) = 64);
ALTER TABLE console_passkeys ADD COLUMN mac TEXT CHECK (mac IS NULL OR length(mac) = 64);
ALTER TABLE console_enrolments ADD COLUMN mac TEXT CHECK (mac IS NULL OR length(mac) = 64);
`,
};
