// What the console-user bases share (docs/backoffice.md, "Console users"): the params pieces (an
// identity id, a role of the catalog that a person can hold, a scope) and the identity as it is now.
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { refuse, type Outcome } from '../../contract/outcome.js';

export const identityId = z.string().regex(/^[A-Za-z0-9_]{3,64}$/);
/** Every role of daemon/contract/grants.ts but superuser, which only break-glass gives (time-boxed). */
export const PERSON_ROLES = ['dealer', 'admin', 'security', 'approver', 'auditor', 'compliance'] as const;
export const personRole = z.enum(PERSON_ROLES);
export const scope = z
  .string()
  .regex(/^(global|tenant:[A-Za-z0-9_]{1,64}|broker:[A-Za-z0-9_]{1,64})$/, 'global, tenant:<id> or broker:<id>');

export interface ConsoleIdentity {
  id: string;
  name: string;
  display_name: string | null;
  role: string;
  realm: 'admin' | 'console';
  revoked_at: string | null;
  disabled_at: string | null;
}

/** The identity, refused ACTION_NOT_EXECUTABLE when unknown or when its key was revoked for good. */
export function liveIdentity(deps: Deps, id: string): Outcome<ConsoleIdentity> {
  const who = deps.db
    .prepare<[string], ConsoleIdentity>(
      'SELECT id, name, display_name, role, realm, revoked_at, disabled_at FROM operators WHERE id = ?',
    )
    .get(id);
  if (!who) return refuse('ACTION_NOT_EXECUTABLE', `No identity ${id}.`);
  if (who.revoked_at !== null)
    return refuse(
      'ACTION_NOT_EXECUTABLE',
      `The key of ${who.name} was revoked at ${who.revoked_at}; a revoked identity stays revoked.`,
    );
  return { ok: true, value: who };
}

/** A tenant or broker scope must name one that exists. */
export function scopeExists(deps: Deps, s: string): boolean {
  const [kind, id] = s.split(':');
  if (kind === 'tenant') return deps.db.prepare('SELECT 1 FROM tenants WHERE id = ?').get(id) !== undefined;
  if (kind === 'broker') return deps.db.prepare('SELECT 1 FROM brokers WHERE id = ?').get(id) !== undefined;
  return true;
}
