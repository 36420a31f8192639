// console-users:manage (docs/backoffice.md, "Console users"). Two shapes of params:
// - create: { name, role, scope?, display_name? }: a new identity holding the role in the scope
//   (default global; a broker scope also makes it that broker's identity). Its sign-in is a passkey:
//   the result carries a one-time enrolment code (15 minutes, wall clock) answered once and not
//   stored with the action. Its operator key is random and never shown.
// - update: { identity_id, display_name?, enable? }: renames it for display and/or (enable: true)
//   enables a disabled identity again.
import { z } from 'zod';
import { ok, refuse, type Outcome } from '../../contract/outcome.js';
import { ROLES } from '../../contract/grants.js';
import { newSecret, sha256 } from '../../store/crypto.js';
import { createPasskeyStore } from '../passkeys.js';
import type { ExecCtx } from './exec.js';
import { identityId, liveIdentity, personRole, scope, scopeExists } from './console-identity.js';

export const manageParams = z
  .strictObject({
    identity_id: identityId.optional(),
    name: z
      .string()
      .regex(/^[a-z0-9._-]{2,40}$/, 'lower-case letters, digits, . _ -, 2 to 40')
      .optional(),
    display_name: z.string().trim().min(1).max(120).optional(),
    role: personRole.optional(),
    scope: scope.optional(),
    enable: z.literal(true).optional(),
  })
  .superRefine((p, ctx) => {
    const bad = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (p.identity_id === undefined) {
      if (p.name === undefined) bad('name', 'required to create an identity (or name identity_id to update one)');
      if (p.role === undefined) bad('role', 'required to create an identity');
      if (p.enable !== undefined) bad('enable', 'only with identity_id');
    } else {
      for (const k of ['name', 'role', 'scope'] as const)
        if (p[k] !== undefined) bad(k, 'cannot change on an existing identity (roles: console-roles:assign)');
      if (p.display_name === undefined && p.enable === undefined)
        bad('display_name', 'name display_name or enable to update an identity');
    }
  });

type Params = z.infer<typeof manageParams>;

function create(
  c: ExecCtx,
  p: Params & { name: string; role: z.infer<typeof personRole> },
): Outcome<Record<string, unknown>> {
  const { deps } = c;
  const s = p.scope ?? 'global';
  if (deps.db.prepare('SELECT 1 FROM operators WHERE name = ?').get(p.name))
    return refuse('ACTION_NOT_EXECUTABLE', `An identity named ${p.name} exists.`);
  if (!scopeExists(deps, s)) return refuse('ACTION_NOT_EXECUTABLE', `The scope ${s} names nothing that exists.`);
  const { realm, grants } = ROLES[p.role];
  const id = deps.ids.next('opr');
  const brokerId = s.startsWith('broker:') ? s.slice('broker:'.length) : null;
  const key = newSecret(realm === 'admin' ? 'ak_sbx_' : 'ck_sbx_');
  deps.db
    .prepare(
      'INSERT INTO operators (id, name, display_name, role, realm, key_hash, grants, broker_id, created_at) ' +
        'VALUES (?,?,?,?,?,?,?,?,?)',
    )
    .run(
      id,
      p.name,
      p.display_name ?? null,
      p.role,
      realm,
      sha256(key),
      JSON.stringify(grants),
      brokerId,
      deps.nowIso(),
    );
  deps.keys.identities.assignRole(id, p.role, s);
  const enrol = createPasskeyStore(deps.db, deps.kek).createEnrolment(id, deps.wallNow(), deps.nowIso());
  return ok({
    identity_id: id,
    name: p.name,
    display_name: p.display_name ?? null,
    role: p.role,
    realm,
    scope: s,
    answered_once: {
      enrolment_code: enrol.code,
      enrolment_path: `/console/enroll?code=${encodeURIComponent(enrol.code)}`,
      expires_at: new Date(enrol.expiresAtMs).toISOString(),
    },
  });
}

function update(c: ExecCtx, p: Params & { identity_id: string }): Outcome<Record<string, unknown>> {
  const { deps } = c;
  const who = liveIdentity(deps, p.identity_id);
  if (!who.ok) return who;
  if (p.enable && who.value.disabled_at === null)
    return refuse('ACTION_NOT_EXECUTABLE', `${who.value.name} is not disabled.`);
  if (p.display_name !== undefined)
    deps.db.prepare('UPDATE operators SET display_name = ? WHERE id = ?').run(p.display_name, who.value.id);
  if (p.enable)
    deps.db.prepare('UPDATE operators SET disabled_at = NULL, disabled_by = NULL WHERE id = ?').run(who.value.id);
  deps.keys.clearCaches();
  return ok({
    identity_id: who.value.id,
    name: who.value.name,
    display_name: p.display_name ?? who.value.display_name,
    disabled: p.enable ? false : who.value.disabled_at !== null,
  });
}

export function manageConsoleUser(c: ExecCtx, params: Record<string, unknown>): Outcome<Record<string, unknown>> {
  const p = params as Params;
  if (p.identity_id !== undefined) return update(c, { ...p, identity_id: p.identity_id });
  return create(c, { ...p, name: p.name!, role: p.role! });
}
