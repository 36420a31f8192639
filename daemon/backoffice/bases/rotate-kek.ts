// keys:rotate-kek (docs/backoffice.md "Key rotation"): a new key-encryption key. In the approving
// transaction every value sealed directly under the KEK is opened with the old key and sealed with the
// new one (each tenant's data key, each identity's step-up secret, the request journal's non-tenant
// bodies and answers), the console's session, passkey and enrolment rows get their MACs under the key
// derived from the new KEK (store/row-mac.ts: a row that did not verify under the old one still does
// not), and key_state.kek_check names the new key; the approval's own audit entry re-signs the audit
// head under the key derived from it.
//
// Crash safety: the new key is written to kek.next.key (fsynced) before anything changes, and renamed
// over kek.key only once the transaction has committed; on start, daemon/store/kek-file.ts keeps
// whichever file the database's kek_check names. So a crash at any moment leaves every sealed value
// openable under the old key or the new one, never neither.
//
// In memory the KEK is one Buffer shared by every sealer (deps.kek); the rotation overwrites its bytes
// in the same synchronous turn as the writes, and puts the old bytes back if the writes roll back.
import type { Deps } from '../../deps.js';
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import { newKey } from '../../store/crypto.js';
import { auditSealKeyOf, dropNextKek, kekCheck, promoteNextKek, writeNextKek } from '../../store/kek-file.js';
import type { ExecCtx } from './exec.js';
import { resealColumn, stallForTests, unlessUnreadable, withResealing } from './reseal.js';
import { remacSessions } from '../sessions.js';
import { remacPasskeys } from '../passkeys.js';

interface Pending {
  old: Buffer;
  next: Buffer;
}

/** A rotation whose transaction has not ended yet, per daemon. */
const pendingOf = new WeakMap<Deps, Pending>();

export const rotationPending = (deps: Deps): boolean => pendingOf.has(deps);

const storedCheck = (deps: Deps) => deps.db.prepare<[], { kek_check: string }>('SELECT kek_check FROM key_state WHERE id = 1').get()?.kek_check ?? null;

function useKek(deps: Deps, kek: Buffer): void {
  deps.kek.set(kek);
  deps.auditSealKey.set(auditSealKeyOf(kek));
  deps.keys.clearCaches();
}

/** The writes rolled back: the old key again, in memory and in the home. */
function undo(deps: Deps, p: Pending): void {
  useKek(deps, p.old);
  if (deps.home) dropNextKek(deps.home);
  pendingOf.delete(deps);
}

/** Once the approving transaction has ended: keep the new key (committed) or undo. */
function finishWhenSettled(deps: Deps): void {
  const p = pendingOf.get(deps);
  if (!p) return;
  if (!deps.db.open) return void pendingOf.delete(deps); // closed meanwhile: the next start settles the files
  if (deps.db.inTransaction) {
    setImmediate(() => finishWhenSettled(deps));
    return;
  }
  if (storedCheck(deps) !== kekCheck(p.next)) return undo(deps, p);
  const promote = () => {
    if (deps.home) promoteNextKek(deps.home);
    pendingOf.delete(deps);
  };
  const stall = Number(process.env.SVC_TEST_KEY_ROTATION_STALL_MS ?? 0);
  if (stall > 0) setTimeout(promote, Math.min(stall, 60_000));
  else promote();
}

/** A rollback the code did not plan (deps.reload runs the onReset hooks): undo a rotation it took back. */
export function registerKeyRotation(deps: Deps): void {
  deps.onReset.push(() => {
    const p = pendingOf.get(deps);
    if (p && storedCheck(deps) !== kekCheck(p.next)) undo(deps, p);
    deps.keys.clearCaches();
  });
}

function resealUnderKek(deps: Deps, from: Buffer, to: Buffer): Record<string, number> {
  const db = deps.db;
  return {
    data_keys: resealColumn(db, { select: "SELECT id AS k, dek_wrapped AS sealed, 'dek:' || id AS aad FROM tenants", update: 'UPDATE tenants SET dek_wrapped = ? WHERE id = ?' }, from, to),
    step_up_secrets: resealColumn(db, {
      select: "SELECT operator_id AS k, secret_sealed AS sealed, 'stepup:' || operator_id AS aad FROM operator_step_up", update: 'UPDATE operator_step_up SET secret_sealed = ? WHERE operator_id = ?',
    }, from, to),
    journal_bodies: resealColumn(db, {
      select: "SELECT seq AS k, body_sealed AS sealed, CASE answer_in_body WHEN 1 THEN 'journal+response:' ELSE 'journal:' END || principal AS aad FROM journal WHERE body_sealed IS NOT NULL AND principal NOT LIKE 'tenant:%'", update: 'UPDATE journal SET body_sealed = ? WHERE seq = ?',
    }, from, to),
    journal_answers: resealColumn(db, {
      select: "SELECT seq AS k, response_sealed AS sealed, 'journal-response:' || principal AS aad FROM journal WHERE response_sealed IS NOT NULL AND principal NOT LIKE 'tenant:%'",
      update: 'UPDATE journal SET response_sealed = ? WHERE seq = ?',
    }, from, to),
    console_rows: remacSessions(db, from, to) + remacPasskeys(db, from, to),
  };
}

export function rotateKek({ deps }: ExecCtx): Outcome<Record<string, unknown>> {
  if (pendingOf.has(deps)) return refuse('ACTION_NOT_EXECUTABLE', 'A key rotation is still being finished; approve again in a moment.');
  const old = Buffer.from(deps.kek);
  const next = newKey();
  if (deps.home) writeNextKek(deps.home, next);
  pendingOf.set(deps, { old, next });
  const resealed = unlessUnreadable(() => withResealing(deps.db, old, () => {
    const counts = resealUnderKek(deps, old, next);
    deps.db.prepare('UPDATE key_state SET kek_check = ?, kek_version = kek_version + 1, rotated_at = ? WHERE id = 1').run(kekCheck(next), deps.nowIso());
    stallForTests();
    return counts;
  }), () => {
    if (deps.home) dropNextKek(deps.home);
    pendingOf.delete(deps);
  });
  if (!resealed.ok) return refuse('ACTION_NOT_EXECUTABLE', `Nothing was rotated: ${resealed.what} does not open under the current key-encryption key.`);
  useKek(deps, next);
  setImmediate(() => finishWhenSettled(deps));
  const version = deps.db.prepare<[], { kek_version: number }>('SELECT kek_version FROM key_state WHERE id = 1').get()!.kek_version;
  return ok({ kek_version: version, resealed: resealed.value });
}
