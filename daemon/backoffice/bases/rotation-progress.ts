// A key rotation's progress (key_rotations, migration 037): recorded by the approval, advanced by
// every slice in the slice's own transaction (so a crash resumes exactly after the last committed
// slice), finished by the switch-over. At most one rotation runs at a time (a unique partial index).
import type { Db } from '../../store/db.js';
import type { KeyRotationsRow } from '../../store/rows.js';

export type RotationRow = KeyRotationsRow;

/** What GET /admin/actions shows of a rotation under the action's result. */
export interface RotationView {
  state: 'running' | 'done' | 'blocked';
  slices: number;
  resealed: Record<string, number>;
  started_at: string;
  finished_at: string | null;
  blocked: string | null;
}

export const runningRotation = (db: Db): RotationRow | undefined =>
  db.prepare<[], RotationRow>('SELECT * FROM key_rotations WHERE finished_at IS NULL').get();

export function recordRotation(
  db: Db,
  r: { actionId: string; kind: 'kek' | 'dek'; tenantId: string | null; at: string },
): void {
  db.prepare('INSERT INTO key_rotations (action_id, kind, tenant_id, started_at) VALUES (?, ?, ?, ?)').run(
    r.actionId,
    r.kind,
    r.tenantId,
    r.at,
  );
}

/** Adds `counts` to what the rotation re-sealed so far; the new totals. */
export function addCounts(row: RotationRow, counts: Record<string, number>): Record<string, number> {
  const total: Record<string, number> = JSON.parse(row.resealed);
  for (const [name, n] of Object.entries(counts)) total[name] = (total[name] ?? 0) + n;
  return total;
}

export function advanceRotation(
  db: Db,
  row: RotationRow,
  at: { step: number; after: number; upto: number | null },
  resealed: Record<string, number>,
): void {
  db.prepare(
    'UPDATE key_rotations SET step = ?, after_rowid = ?, upto_rowid = ?, resealed = ?, slices = slices + 1 ' +
      'WHERE seq = ?',
  ).run(at.step, at.after, at.upto, JSON.stringify(resealed), row.seq);
}

export function finishRotation(db: Db, row: RotationRow, resealed: Record<string, number>, at: string): void {
  db.prepare('UPDATE key_rotations SET resealed = ?, finished_at = ?, slices = slices + 1 WHERE seq = ?').run(
    JSON.stringify(resealed),
    at,
    row.seq,
  );
}

export function blockRotation(db: Db, row: RotationRow, what: string): void {
  db.prepare('UPDATE key_rotations SET blocked = ? WHERE seq = ?').run(what, row.seq);
}

export function rotationView(db: Db, actionId: string): RotationView | null {
  const r = db.prepare<[string], RotationRow>('SELECT * FROM key_rotations WHERE action_id = ?').get(actionId);
  if (!r) return null;
  const state = r.finished_at !== null ? 'done' : r.blocked !== null ? 'blocked' : 'running';
  return {
    state,
    slices: r.slices,
    resealed: JSON.parse(r.resealed),
    started_at: r.started_at,
    finished_at: r.finished_at,
    blocked: r.blocked,
  };
}
