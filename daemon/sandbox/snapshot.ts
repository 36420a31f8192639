// GET /admin/sandbox/export: the whole sandbox in one file (docs/snapshots.md). A consistent copy of
// the committed database (VACUUM INTO a temporary file: reads run only once the open group-commit
// batch has settled, so the copy never holds a half-made batch), the key-encryption key (sealed
// national ids, ID images and signing secrets stay readable) and, for a daemon, the credentials file
// of its home, packed with a manifest by daemon/contract/snapshot.ts.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../store/sqlite.js';
import type { Deps } from '../deps.js';
import type { BytesReply } from '../contract/route.js';
import { packSnapshot } from '../contract/snapshot.js';
import { sandboxState } from './service.js';

export function exportSnapshot(deps: Deps): BytesReply<'application/vnd.svc.snapshot'> {
  const db = deps.db;
  // The pipeline runs reads only after an open batch settles; a transaction here would be a bug.
  if (db.inTransaction) throw new Error('export: a transaction is open');
  const state = sandboxState(deps);
  const tmp = `${db.name}.export.tmp`;
  rmSync(tmp, { force: true });
  let dbBytes: Buffer;
  let schemaVersion: number;
  try {
    db.prepare('VACUUM INTO ?').run(tmp);
    const copy = openSqlite(tmp);
    try {
      copy.pragma('journal_mode = DELETE');
      // The clock as it is now: a running clock resumes from here once imported (the importer
      // re-anchors it to its own wall clock), a frozen one is already there.
      copy
        .prepare('UPDATE sandbox_state SET sim_ms = ?, wall_anchor_ms = ? WHERE id = 1')
        .run(deps.clock.now(), deps.wallNow());
      schemaVersion = copy.pragma('user_version', { simple: true }) as number;
    } finally {
      copy.close();
    }
    dbBytes = readFileSync(tmp);
  } finally {
    rmSync(tmp, { force: true });
  }
  const files = [
    { name: 'svc.db', data: dbBytes },
    { name: 'kek.key', data: Buffer.from(deps.kek) },
  ];
  const credentials = deps.home ? join(deps.home, 'credentials.json') : null;
  if (credentials && existsSync(credentials)) files.push({ name: 'credentials.json', data: readFileSync(credentials) });
  const { container, manifest } = packSnapshot(
    {
      svc_version: deps.version,
      schema_version: schemaVersion,
      created_at: new Date(deps.wallNow()).toISOString(),
      seed: state.seed,
      start: state.start,
      generation: state.generation,
      clock: { timestamp: state.clock.timestamp, mode: state.clock.mode, speed: state.clock.speed },
      journal_entries: deps.journal.count(),
    },
    files,
  );
  const day = state.clock.timestamp.slice(0, 10);
  return {
    status: 200,
    raw: container,
    contentType: 'application/vnd.svc.snapshot',
    headers: {
      'content-disposition': `attachment; filename="svc-${state.seed}-${day}.svcsnap"`,
      'x-svc-snapshot-sha256': manifest.payload.sha256,
    },
  };
}
