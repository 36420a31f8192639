// console-roles:assign (docs/backoffice.md, "Console users"): { identity_id, role, scope, change }
// gives ('give', the default) or takes ('take') one role of the catalog in one scope. Grants are read
// on every request, so the change bites at the identity's next request. A role is given only to an
// identity of the role's realm (a key goes in one header). Taking a role removes its grants in that
// scope except the ones another role the identity still holds there also gives.
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import { ROLES, type RoleName } from '../../contract/grants.js';
import type { ExecCtx } from './exec.js';
import { identityId, liveIdentity, personRole, scope, scopeExists } from './console-identity.js';

export const assignParams = z.strictObject({
  identity_id: identityId,
  role: personRole,
  scope,
  change: z.enum(['give', 'take']).default('give'),
});

type Params = z.infer<typeof assignParams>;

const rolesIn = (deps: Deps, id: string, s: string): string[] =>
  deps.db
    .prepare<[string, string], string>(
      'SELECT DISTINCT role FROM operator_grants WHERE operator_id = ? AND scope = ? AND expires_at IS NULL ' +
        'ORDER BY role',
    )
    .pluck()
    .all(id, s);

function take(deps: Deps, p: Params): Outcome<string[]> {
  const held = rolesIn(deps, p.identity_id, p.scope);
  if (!held.includes(p.role))
    return refuse('ACTION_NOT_EXECUTABLE', `The identity does not hold the role ${p.role} in ${p.scope}.`);
  const keep = new Set(held.filter((r) => r !== p.role && r in ROLES).flatMap((r) => [...ROLES[r as RoleName].grants]));
  const del = deps.db.prepare(
    'DELETE FROM operator_grants WHERE operator_id = ? AND grant_name = ? AND scope = ? AND expires_at IS NULL',
  );
  const taken = ROLES[p.role].grants.filter((g) => !keep.has(g));
  for (const g of taken) del.run(p.identity_id, g, p.scope);
  // A kept grant labelled with the taken role is relabelled with a role that still gives it.
  const relabel = deps.db.prepare(
    'UPDATE operator_grants SET role = ? WHERE operator_id = ? AND grant_name = ? AND scope = ? AND role = ?',
  );
  for (const r of held.filter((x) => x !== p.role && x in ROLES))
    for (const g of ROLES[r as RoleName].grants) relabel.run(r, p.identity_id, g, p.scope, p.role);
  return ok(taken);
}

export function assignConsoleRole(
  { deps }: ExecCtx,
  params: Record<string, unknown>,
): Outcome<Record<string, unknown>> {
  const p = params as Params;
  const who = liveIdentity(deps, p.identity_id);
  if (!who.ok) return who;
  if (ROLES[p.role].realm !== who.value.realm)
    return refuse(
      'ACTION_NOT_EXECUTABLE',
      `${p.role} is a role of the ${ROLES[p.role].realm} realm; ${who.value.name} is a ${who.value.realm} identity.`,
    );
  if (p.change === 'take') {
    const taken = take(deps, p);
    if (!taken.ok) return taken;
    return ok({
      identity_id: p.identity_id,
      role: p.role,
      scope: p.scope,
      change: 'take',
      grants_removed: taken.value,
    });
  }
  if (!scopeExists(deps, p.scope))
    return refuse('ACTION_NOT_EXECUTABLE', `The scope ${p.scope} names nothing that exists.`);
  deps.keys.identities.assignRole(p.identity_id, p.role, p.scope);
  return ok({
    identity_id: p.identity_id,
    role: p.role,
    scope: p.scope,
    change: 'give',
    grants: [...ROLES[p.role].grants],
  });
}
