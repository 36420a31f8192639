// console-users:disable (docs/backoffice.md, "Console users"): the identity is disabled in the
// approving transaction: every open console session of it is revoked, its keys are refused (401
// IDENTITY_DISABLED) and a session cannot be used (401 SESSION_INVALID) from the next request on.
// Not final, unlike a key revocation: console-users:manage { identity_id, enable: true } enables it.
import { z } from 'zod';
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import { revokeSessions } from '../sessions.js';
import type { ExecCtx } from './exec.js';
import { identityId, liveIdentity } from './console-identity.js';

export const disableParams = z.strictObject({ identity_id: identityId });

export function disableConsoleUser(
  { deps, actionId }: ExecCtx,
  params: Record<string, unknown>,
): Outcome<Record<string, unknown>> {
  const { identity_id: id } = params as z.infer<typeof disableParams>;
  const who = liveIdentity(deps, id);
  if (!who.ok) return who;
  if (who.value.disabled_at !== null)
    return refuse('ACTION_NOT_EXECUTABLE', `${who.value.name} is already disabled (since ${who.value.disabled_at}).`);
  const at = deps.nowIso();
  deps.db
    .prepare('UPDATE operators SET disabled_at = ?, disabled_by = ? WHERE id = ?')
    .run(at, `action:${actionId}`, id);
  const s = revokeSessions(deps, { identity_id: id }, `action:${actionId}`, deps.wallNow());
  deps.keys.stepUpWindow.end(id); // enabled again, it steps up again
  deps.keys.clearCaches();
  return ok({ identity_id: id, name: who.value.name, disabled_at: at, sessions_revoked: s.ok ? s.value.revoked : [] });
}
