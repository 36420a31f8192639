import type { Migration } from './migration.js';

// The fault that fired on a journaled request (docs/faults.md, "Replay"): a lost_response (applied and
// committed, the answer dropped) or a latency (the request ran late). The rule's id and the effect, as
// JSON ({"rule_id":"flt_1","effect":"lost_response","delay_ms":null}); null for a request no fault
// touched, and for every entry written before this migration. Faults that stop a request before it
// does anything (a status, a reset, a timeout) leave no entry: the report holds them.
export const JOURNAL_FAULTS: Migration = {
  version: 42,
  name: 'journal faults',
  sql: `
ALTER TABLE journal ADD COLUMN fault TEXT CHECK (fault IS NULL OR json_valid(fault));
`,
};
