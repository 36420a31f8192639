// The console's enrolment route: a sandbox admin issues a one-time code that enrols the first passkey
// of an operator identity (svc console enroll --as ROLE prints the link). docs/console.md.
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { EnrolmentBody, EnrolmentSchema, type Enrolment } from '../contract/schemas/console.js';
import { createPasskeyStore } from './passkeys.js';

export function consoleRoutes(deps: Deps): RouteDef[] {
  const passkeys = createPasskeyStore(deps.db, deps.kek);

  function enrol(body: { role?: string; identity_id?: string }): Outcome<Enrolment> {
    if ((body.role === undefined) === (body.identity_id === undefined))
      return refuse('VALIDATION_FAILED', 'body: send exactly one of role and identity_id.');
    const who = body.role !== undefined ? passkeys.identityByRole(body.role) : passkeys.identity(body.identity_id!);
    if (!who)
      return refuse(
        'NOT_FOUND',
        body.role !== undefined ? `No identity holds the role ${body.role}.` : 'No such identity.',
      );
    const wall = deps.wallNow();
    const { code, expiresAtMs } = passkeys.createEnrolment(who.id, wall, deps.nowIso());
    return ok({
      identity_id: who.id,
      name: who.name,
      role: who.role,
      enrolment_token: code,
      expires_at: new Date(expiresAtMs).toISOString(),
    });
  }

  return [
    defineRoute({
      method: 'POST',
      url: '/admin/console/enrolments',
      auth: { realm: 'admin', grant: 'sandbox:control' },
      tags: ['sandbox'],
      status: 201,
      summary:
        'Issue a one-time code (15 minutes, wall clock) that enrols a passkey for an operator identity in the ' +
        'browser console.',
      body: EnrolmentBody,
      response: EnrolmentSchema,
      errors: ['NOT_FOUND'],
      handler: ({ body }) => enrol(body),
    }),
  ];
}
