import type { Migration } from './migration.js';

// Key rotations re-seal in bounded slices, in the background (docs/backoffice.md "Key rotation"):
// the approval records the rotation and its new key, then one short transaction per slice re-seals
// the next rows by rowid. While it runs both keys open what they sealed, so the new key is stored
// before anything is sealed under it: a tenant's next data key in `tenants.dek_next_wrapped` (wrapped
// by the KEK), a next KEK named by `key_state.kek_next_check` (the key itself is `kek.next.key` in the
// home). `key_rotations` is each rotation's progress: the sealed column it is at (`step`), the last
// rowid it re-sealed there (`after_rowid`), the column's last rowid when the rotation reached it
// (`upto_rowid`: a data key rotation stops there, since rows written later are sealed under the new
// key already), what it re-sealed so far, and when it finished; a start
// resumes the one that has not finished. `blocked` names a stored value that opens under neither key
// (the rotation stops there and keeps both keys).
export const KEY_ROTATION_SLICES: Migration = {
  version: 37,
  name: 'key rotation slices',
  sql: `
ALTER TABLE tenants ADD COLUMN dek_next_wrapped BLOB;
ALTER TABLE key_state ADD COLUMN kek_next_check TEXT CHECK (kek_next_check IS NULL OR length(kek_next_check) = 64);

CREATE TABLE key_rotations (
  seq INTEGER PRIMARY KEY,
  action_id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind = 'kek' OR kind = 'dek'),
  tenant_id TEXT REFERENCES tenants(id),
  step INTEGER NOT NULL DEFAULT 0 CHECK (step >= 0),
  after_rowid INTEGER NOT NULL DEFAULT 0,
  upto_rowid INTEGER,
  resealed TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(resealed)),
  slices INTEGER NOT NULL DEFAULT 0,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  blocked TEXT,
  CHECK ((kind = 'dek') = (tenant_id IS NOT NULL))
) STRICT;
CREATE UNIQUE INDEX key_rotations_one_running ON key_rotations (finished_at IS NULL) WHERE finished_at IS NULL;
`,
};
