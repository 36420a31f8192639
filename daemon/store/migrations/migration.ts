// One versioned migration (daemon/store/migrations/index.ts lists them). Its own file, so that each
// NNN_name.ts names the type without importing the list that imports it.
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * Rebuilds a table others reference (create, copy, drop, rename): run with foreign keys off, as
   * SQLite's ALTER TABLE recipe requires, and checked with PRAGMA foreign_key_check before it commits.
   */
  rebuildsTables?: boolean;
}
