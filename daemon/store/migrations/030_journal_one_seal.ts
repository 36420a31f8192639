import type { Migration } from './migration.js';

// A journal entry with both a body and an answer seals them together, once (daemon/record/journal.ts,
// docs/snapshots.md "How the journal is stored"): `answer_in_body = 1` says that `body_sealed` holds
// both, framed, and that `response_sealed` is empty. Entries written before keep their two seals
// (`answer_in_body = 0`). One AES-GCM message instead of two for every write that has a body: about
// 7 µs of an order's CPU (docs/bench.md, "The seventh pass").
export const JOURNAL_ONE_SEAL: Migration = {
  version: 30,
  name: 'journal one seal',
  sql: `
ALTER TABLE journal ADD COLUMN answer_in_body INTEGER NOT NULL DEFAULT 0
  CHECK (answer_in_body = 0 OR (answer_in_body = 1 AND body_sealed IS NOT NULL AND response_sealed IS NULL));
`,
};
