// keys:rotate-dek (docs/backoffice.md "Key rotation"): a new data key for one tenant. The approving
// transaction checks the tenant's small sealed values (signing secrets, logo) open, stores the new key
// wrapped by the KEK beside the current one (tenants.dek_next_wrapped) and records the rotation; it
// answers at once. The re-sealing runs after its commit, in bounded slices (rotation-runner.ts,
// dek-plan.ts); from the commit on, the tenant's values are sealed under the new key and open under
// either, and the switch-over makes the new key the tenant's only key.
import { z } from 'zod';
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import { newKey } from '../../store/crypto.js';
import type { ExecCtx } from './exec.js';
import { firstUnreadable } from './reseal.js';
import { recordRotation } from './rotation-progress.js';
import { storeNextDek } from './dek-plan.js';
import { rotationRefusal, startAfterCommit } from './rotate-kek.js';

export const rotateDekParams = z.strictObject({ tenant_id: z.string().regex(/^[A-Za-z0-9_]{3,64}$/) });

/** Checked at the approval (a handful of rows): the rest is checked as it is re-sealed. */
const CHECKED_AT_APPROVAL = [
  "SELECT id AS k, secret_enc AS sealed, 'secret:' || tenant_id AS aad FROM signing_secrets WHERE tenant_id = ?",
  "SELECT tenant_id AS k, logo_sealed AS sealed, 'branding:logo:' || tenant_id AS aad FROM brandings WHERE " +
    'tenant_id = ?',
];

export function rotateDek({ deps, actionId }: ExecCtx, p: Record<string, unknown>): Outcome<Record<string, unknown>> {
  const { tenant_id: tenantId } = p as z.infer<typeof rotateDekParams>;
  if (!deps.db.prepare('SELECT 1 FROM tenants WHERE id = ?').get(tenantId))
    return refuse('ACTION_NOT_EXECUTABLE', `No tenant ${tenantId}.`);
  const busy = rotationRefusal(deps);
  if (busy) return refuse('ACTION_NOT_EXECUTABLE', busy);
  const dek = deps.keys.tenantDek(tenantId);
  for (const select of CHECKED_AT_APPROVAL) {
    const what = firstUnreadable(deps.db, select, [tenantId], dek);
    if (what)
      return refuse('ACTION_NOT_EXECUTABLE', `Nothing was rotated: ${what} does not open under the tenant's data key.`);
  }
  const next = newKey();
  storeNextDek(deps.db, deps.kek, tenantId, next);
  next.fill(0);
  recordRotation(deps.db, { actionId, kind: 'dek', tenantId, at: deps.nowIso() });
  deps.keys.clearCaches(); // from here on the tenant's values are sealed under the next key
  startAfterCommit(deps, actionId, () => deps.keys.clearCaches());
  return ok({ tenant_id: tenantId });
}
