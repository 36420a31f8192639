// passkey:unlock (docs/backoffice.md, "Console users"): for an operator locked out of the console.
// In the approving transaction the identity's passkeys are deleted, its unused enrolment codes are
// spent, its open console sessions are revoked, and a fresh one-time enrolment code (15 minutes, wall
// clock) is issued: answered once in the approval's result, never stored with the action.
import { z } from 'zod';
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import { createPasskeyStore } from '../passkeys.js';
import { revokeSessions } from '../sessions.js';
import type { ExecCtx } from './exec.js';
import { identityId, liveIdentity } from './console-identity.js';

export const unlockParams = z.strictObject({ identity_id: identityId });

export function unlockPasskeys(
  { deps, actionId }: ExecCtx,
  params: Record<string, unknown>,
): Outcome<Record<string, unknown>> {
  const { identity_id: id } = params as z.infer<typeof unlockParams>;
  const who = liveIdentity(deps, id);
  if (!who.ok) return who;
  if (who.value.disabled_at !== null)
    return refuse('ACTION_NOT_EXECUTABLE', `${who.value.name} is disabled; enable it first (console-users:manage).`);
  const at = deps.nowIso();
  const removed = deps.db.prepare('DELETE FROM console_passkeys WHERE operator_id = ?').run(id).changes;
  // spent without a new MAC: a spent code's row stops verifying, which enrols nothing either way
  deps.db.prepare('UPDATE console_enrolments SET used_at = ? WHERE operator_id = ? AND used_at IS NULL').run(at, id);
  const s = revokeSessions(deps, { identity_id: id }, `action:${actionId}`, deps.wallNow());
  const enrol = createPasskeyStore(deps.db, deps.kek).createEnrolment(id, deps.wallNow(), at);
  return ok({
    identity_id: id,
    name: who.value.name,
    passkeys_removed: removed,
    sessions_revoked: s.ok ? s.value.revoked : [],
    answered_once: {
      enrolment_code: enrol.code,
      enrolment_path: `/console/enroll?code=${encodeURIComponent(enrol.code)}`,
      expires_at: new Date(enrol.expiresAtMs).toISOString(),
    },
  });
}
