// Runs an approved key rotation in the background, in bounded slices (docs/backoffice.md "Key
// rotation"). Each slice is one short transaction of at most a few hundred rows of one sealed column
// (keyset pagination by rowid) that also records where it stopped (rotation-progress.ts); between two
// slices the event loop runs everything waiting (setImmediate), so requests never queue behind a
// rotation for longer than one slice. When every column is done, one transaction switches the keys
// over and appends the rotation's audit entry. A crash at any moment leaves the store in a state a
// start resumes from: every value under the old key or the new one, both keys stored.
import type { Deps } from '../../deps.js';
import { withResealing, resealSlice, stallMs, UnreadableSealed, type SealedColumn } from './reseal.js';
import {
  addCounts,
  advanceRotation,
  blockRotation,
  finishRotation,
  runningRotation,
  type RotationRow,
} from './rotation-progress.js';
import { dekPair, switchOverDek, TENANT_SEALED } from './dek-plan.js';
import { afterKekSwitchOver, KEK_SEALED, switchOverKek, useKek } from './kek-plan.js';

/** Rows per slice at most: about 5 ms of the thread for journal entries on a quiet machine (docs/reliability.md). */
export const SLICE_ROWS = 400;
/** And no more rows once a slice has held the thread this long (a loaded machine, large values). */
export const SLICE_BUDGET_MS = 20;
/** Columns of large values (ID images, logos, statement PDFs) take fewer rows per slice. */
const LARGE_SLICE_ROWS = 16;
const LARGE = new Set(['id_images', 'logo', 'statements']);

interface Plan {
  columns: SealedColumn[];
  args: unknown[];
  ring: Buffer[];
  to: Buffer;
  /** The switch-over (inside the final transaction); what it re-sealed itself. */
  switchOver(at: string): Record<string, number>;
  /** After the switch-over committed. */
  after(): void;
}

interface RunnerState {
  scheduled: boolean;
  closed: boolean;
}

const states = new WeakMap<Deps, RunnerState>();

function stateOf(deps: Deps): RunnerState {
  let s = states.get(deps);
  if (!s) states.set(deps, (s = { scheduled: false, closed: false }));
  return s;
}

function sliceRows(col: SealedColumn): number {
  const forced = Number(process.env.SVC_TEST_KEY_ROTATION_SLICE_ROWS ?? 0);
  if (Number.isInteger(forced) && forced > 0) return forced;
  return LARGE.has(col.names[0]) ? LARGE_SLICE_ROWS : SLICE_ROWS;
}

function planOf(deps: Deps, row: RotationRow): Plan | null {
  if (row.kind === 'dek') {
    const tenantId = row.tenant_id!;
    const pair = dekPair(deps, tenantId);
    if (!pair) return null;
    return {
      columns: TENANT_SEALED,
      args: [tenantId],
      ring: [pair.current, pair.next],
      to: pair.next,
      switchOver: () => {
        switchOverDek(deps.db, tenantId);
        return {};
      },
      after: () => {
        deps.keys.clearCaches();
        pair.current.fill(0);
      },
    };
  }
  const next = deps.kekNext;
  if (!next) return null;
  return {
    columns: KEK_SEALED,
    args: [],
    ring: [deps.kek, next],
    to: next,
    switchOver: (at) => switchOverKek(deps, next, row.after_rowid, at),
    after: () => afterKekSwitchOver(deps),
  };
}

/** One slice of the current column, and where the next one starts, in one transaction. */
function slice(deps: Deps, row: RotationRow, plan: Plan): void {
  const col = plan.columns[row.step]!;
  const limit = sliceRows(col);
  deps.db.transaction(() =>
    withResealing(deps.db, deps.kek, () => {
      const upto =
        row.upto_rowid ?? (col.upto ? (deps.db.prepare<[], { m: number | null }>(col.upto).get()?.m ?? 0) : null);
      const r = resealSlice(deps.db, col, plan.args, plan.ring, plan.to, {
        after: row.after_rowid,
        limit,
        budgetMs: SLICE_BUDGET_MS,
      });
      const lastColumn = row.step === plan.columns.length - 1;
      const done = r.exhausted || (upto !== null && r.last >= upto);
      // the last column keeps its position: the KEK switch-over re-seals the journal's rows after it
      const at = done
        ? { step: row.step + 1, after: lastColumn ? r.last : 0, upto: null }
        : { step: row.step, after: r.last, upto };
      advanceRotation(deps.db, row, at, addCounts(row, r.counts));
    }),
  )();
}

/** The switch-over, the rotation marked finished and its audit entry, in one transaction. */
function finish(deps: Deps, row: RotationRow, plan: Plan): void {
  const old = Buffer.from(deps.kek);
  const at = deps.nowIso();
  try {
    deps.db.transaction(() =>
      withResealing(deps.db, deps.kek, () => {
        const resealed = addCounts(row, plan.switchOver(at));
        finishRotation(deps.db, row, resealed, at);
        const base = row.kind === 'kek' ? 'keys:rotate-kek' : 'keys:rotate-dek';
        deps.audit.append({
          actor: 'system',
          action: 'keys.rotation.completed',
          subject: row.action_id,
          tenantId: row.tenant_id,
          detail: { base, resealed },
        }); // not the slice count: it depends on the machine's speed
      }),
    )();
  } catch (e) {
    if (!deps.kek.equals(old)) useKek(deps, old); // the switch-over rolled back: the old key again
    throw e;
  }
  // the audit checkpoint beside the key follows the new KEK at once (a crash before this line is
  // settled at the next start: store/kek-file.ts re-keys the checkpoint when it promotes the key)
  deps.audit.checkpointNow();
  plan.after();
}

function block(deps: Deps, row: RotationRow, what: string): void {
  deps.db.transaction(() => {
    blockRotation(deps.db, row, what);
    deps.audit.append({
      actor: 'system',
      action: 'keys.rotation.blocked',
      subject: row.action_id,
      tenantId: row.tenant_id,
      detail: { value: what },
    });
  })();
}

/** One step of the running rotation (a slice, or the switch-over); whether there is more to do. */
function runStep(deps: Deps, row: RotationRow): boolean {
  const plan = planOf(deps, row);
  if (!plan) {
    block(
      deps,
      row,
      row.kind === 'kek' ? 'the next key-encryption key (kek.next.key) is missing' : 'the next data key is missing',
    );
    return false;
  }
  try {
    if (row.step < plan.columns.length) {
      slice(deps, row, plan);
      return true;
    }
    finish(deps, row, plan);
    return false;
  } catch (e) {
    if (!(e instanceof UnreadableSealed)) throw e;
    block(deps, row, e.what);
    return false;
  }
}

function step(deps: Deps): void {
  const s = stateOf(deps);
  s.scheduled = false;
  if (s.closed || !deps.db.open) return;
  if (deps.db.inTransaction) return kickRotation(deps); // a batch is open: after its COMMIT
  const row = runningRotation(deps.db);
  if (!row || row.blocked !== null) return;
  let more = false;
  try {
    more = runStep(deps, row);
  } catch (e) {
    // a bug, not a refusal: the rotation stays recorded, and the next start resumes it
    deps.log.error({ err: e, action_id: row.action_id }, 'key rotation stopped');
  }
  if (more) kickRotation(deps);
}

/** Runs the recorded rotation from where it stands, one slice per event-loop turn, until it is done. */
export function kickRotation(deps: Deps): void {
  const s = stateOf(deps);
  if (s.scheduled || s.closed) return;
  s.scheduled = true;
  const stall = stallMs(); // test hook: slices observable from outside (test/crash/key-rotation.test.ts)
  if (stall > 0) setTimeout(() => step(deps), Math.max(1, Math.floor(stall / 8)));
  else setImmediate(() => step(deps));
}

/** The runner of this daemon: resumes a rotation a stop cut short, and stops when the app closes. */
export function startRotationRunner(deps: Deps): void {
  deps.onClose.push(async () => {
    stateOf(deps).closed = true;
  });
  if (!deps.db.open || !runningRotation(deps.db)) return;
  // a rotation a value blocked is tried again at each start (the value may have been repaired)
  deps.db.prepare('UPDATE key_rotations SET blocked = NULL WHERE finished_at IS NULL').run();
  kickRotation(deps);
}
