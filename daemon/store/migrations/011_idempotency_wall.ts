import type { Migration } from './migration.js';

// An idempotency record's wall-clock birth (docs/api.md, "Idempotency"). A signed request passes the
// signature check for a window of wall-clock time, whatever the simulated clock does; the record that
// makes its second arrival a replay must live at least that long, so it carries the wall time it was
// written at as well as the simulated one. Records older than this migration count as written at
// wall time 0 (long past every window).
export const IDEMPOTENCY_WALL: Migration = {
  version: 11,
  name: 'idempotency-wall',
  sql: `
ALTER TABLE idempotency ADD COLUMN created_wall_ms INTEGER NOT NULL DEFAULT 0;
`,
};
