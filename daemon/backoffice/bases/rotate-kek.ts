// keys:rotate-kek (docs/backoffice.md "Key rotation"): a new key-encryption key. The approval checks
// that every value re-sealed by the switch-over opens (each tenant's data key, each identity's step-up
// secret), writes the new key to kek.next.key (fsynced) before anything changes, names it in
// key_state.kek_next_check and records the rotation, and answers at once. After its commit the
// journal's non-tenant entries are re-sealed in bounded slices (rotation-runner.ts) and the
// switch-over (kek-plan.ts switchOverKek) re-wraps the rest, makes kek_check name the new key and
// re-signs the audit head under the key derived from it, in one transaction; only then is
// kek.next.key renamed over kek.key.
//
// Crash safety: daemon/store/kek-file.ts keeps kek.next.key on start while kek_next_check names it
// (the rotation resumes), promotes it when kek_check does (the switch-over committed), and deletes it
// otherwise (the approval never committed). So every sealed value opens under one of the two files.
import type { Deps } from '../../deps.js';
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import { newKey, pairKey, unpairKey } from '../../store/crypto.js';
import { dropNextKek, kekCheck, writeNextKek } from '../../store/kek-file.js';
import type { ExecCtx } from './exec.js';
import { firstUnreadable } from './reseal.js';
import { recordRotation, runningRotation } from './rotation-progress.js';
import { kekFilePending } from './kek-plan.js';
import { kickRotation, startRotationRunner } from './rotation-runner.js';

/** Why no rotation can start now (one runs, or a KEK file is still being renamed), or null. */
export function rotationRefusal(deps: Deps): string | null {
  const running = runningRotation(deps.db);
  if (running)
    return (
      `A key rotation (${running.action_id}) is still re-sealing; approve again once it has finished (GET ` +
      `/admin/actions shows its progress).`
    );
  if (kekFilePending(deps)) return 'A key-encryption key rotation is still being finished; approve again in a moment.';
  return null;
}

/** Once the approving transaction has ended: start the slices (it committed) or undo what lives outside the database.
 * */
export function startAfterCommit(deps: Deps, actionId: string, undo: () => void): void {
  const check = () => {
    if (!deps.db.open) return; // closed meanwhile: the next start settles the files
    if (deps.db.inTransaction) return void setImmediate(check);
    if (deps.db.prepare('SELECT 1 FROM key_rotations WHERE action_id = ?').get(actionId)) kickRotation(deps);
    else undo();
  };
  setImmediate(check);
}

/** The next KEK leaves memory and the home: its approval rolled back. */
function dropNext(deps: Deps): void {
  unpairKey(deps.kek);
  deps.kekNext = null;
  if (deps.home) dropNextKek(deps.home);
}

/** The runner (resuming a rotation a stop cut short); a rollback the code did not plan undoes an approval it took back.
 * */
export function registerKeyRotation(deps: Deps): void {
  deps.onReset.push(() => {
    if (deps.kekNext && runningRotation(deps.db)?.kind !== 'kek') dropNext(deps);
    deps.keys.clearCaches();
  });
  startRotationRunner(deps);
}

const SWITCHED_OVER = [
  "SELECT id AS k, dek_wrapped AS sealed, 'dek:' || id AS aad FROM tenants",
  "SELECT operator_id AS k, secret_sealed AS sealed, 'stepup:' || operator_id AS aad FROM operator_step_up",
];

export function rotateKek({ deps, actionId }: ExecCtx): Outcome<Record<string, unknown>> {
  const busy = rotationRefusal(deps);
  if (busy) return refuse('ACTION_NOT_EXECUTABLE', busy);
  for (const select of SWITCHED_OVER) {
    const what = firstUnreadable(deps.db, select, [], deps.kek);
    if (what)
      return refuse(
        'ACTION_NOT_EXECUTABLE',
        `Nothing was rotated: ${what} does not open under the current key-encryption key.`,
      );
  }
  const next = newKey();
  if (deps.home) writeNextKek(deps.home, next); // durable before anything is sealed under it
  deps.db
    .prepare('INSERT INTO key_state (id, kek_check) VALUES (1, ?) ON CONFLICT (id) DO NOTHING')
    .run(kekCheck(deps.kek));
  deps.db.prepare('UPDATE key_state SET kek_next_check = ? WHERE id = 1').run(kekCheck(next));
  recordRotation(deps.db, { actionId, kind: 'kek', tenantId: null, at: deps.nowIso() });
  deps.kekNext = next;
  pairKey(deps.kek, next);
  startAfterCommit(deps, actionId, () => dropNext(deps));
  const version = deps.db
    .prepare<[], { kek_version: number }>('SELECT kek_version FROM key_state WHERE id = 1')
    .get()!.kek_version;
  return ok({ kek_version: version + 1 });
}
