// Maker-checker routes (X-Admin-Key; docs/backoffice.md): propose, list, approve, reject. The route
// grant is actions:read; the base's own grant (<base>:propose or <base>:approve) is checked by the
// service, and the decision routes need a step-up code (daemon/contract/grants.ts STEP_UP_ROUTES).
import { z } from 'zod';
import { freeText } from '../contract/schemas/free-text.js';
import type { Deps } from '../deps.js';
import { defineRoute, type Operator, type RouteDef } from '../contract/route.js';
import { decideAction, listActions, proposeAction } from './actions.js';
import { registerKeyRotation } from './bases/rotate-kek.js';

const auth = { realm: 'admin', grant: 'actions:read' } as const;
const tags = ['backoffice'];

const ActionSchema = z
  .object({
    action_id: z.string(),
    action: z.string(),
    params: z.record(z.string(), z.unknown()),
    reason: z.string(),
    payload_sha256: z.string(),
    state: z.enum(['proposed', 'approved', 'rejected', 'expired']),
    maker: z.string(),
    checker: z.string().nullable(),
    created_at: z.iso.datetime({ offset: true }),
    expires_at: z.iso.datetime({ offset: true }),
    decided_at: z.iso.datetime({ offset: true }).nullable(),
    decision_reason: z.string().nullable(),
    result: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'AdminAction' });

const idParams = z.strictObject({ id: z.string().max(64) });
const reason = freeText(500);

export function actionRoutes(deps: Deps): RouteDef[] {
  registerKeyRotation(deps);
  return [
    defineRoute({
      method: 'POST',
      url: '/admin/actions',
      auth,
      tags,
      status: 201,
      summary: 'Propose a privileged change (maker: <base>:propose); the full payload is stored, validated per base.',
      body: z.strictObject({
        action: z.string().max(64),
        params: z.record(z.string(), z.unknown()).default({}),
        reason,
      }),
      response: ActionSchema,
      errors: ['UNKNOWN_ACTION', 'INVALID_ACTION_PARAMS', 'FORBIDDEN'],
      handler: ({ body, operator }) => proposeAction(deps, operator as Operator, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/actions',
      auth,
      tags,
      summary: 'List proposals, newest first (state: proposed, approved, rejected or expired).',
      query: z.strictObject({
        state: z.enum(['proposed', 'approved', 'rejected', 'expired']).optional(),
        limit: z.coerce.number().int().min(1).max(200).default(50),
      }),
      response: z.object({ actions: z.array(ActionSchema) }),
      handler: ({ query }) => ({ actions: listActions(deps, query) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/actions/:id/approve',
      auth,
      tags,
      params: idParams,
      summary: 'Approve and execute a proposal (checker: a different identity with <base>:approve, X-Step-Up-Code).',
      body: z.strictObject({ reason: reason.optional() }).default({}),
      response: ActionSchema,
      errors: [
        'NOT_FOUND',
        'FORBIDDEN',
        'MAKER_CANNOT_APPROVE',
        'ACTION_ALREADY_DECIDED',
        'ACTION_EXPIRED',
        'ACTION_NOT_EXECUTABLE',
        'ACTION_NOT_AVAILABLE',
        'BREAK_STATE_CONFLICT',
        'UNKNOWN_SYMBOL',
        'SPLIT_ALREADY_APPLIED',
        'SPLIT_NOT_APPLICABLE',
      ],
      handler: ({ params, body, operator }) =>
        decideAction(deps, operator as Operator, params.id, { approve: true, reason: body.reason }),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/actions/:id/reject',
      auth,
      tags,
      params: idParams,
      summary: 'Reject a proposal with a reason (checker: a different identity with <base>:approve, X-Step-Up-Code).',
      body: z.strictObject({ reason }),
      response: ActionSchema,
      errors: ['NOT_FOUND', 'FORBIDDEN', 'MAKER_CANNOT_APPROVE', 'ACTION_ALREADY_DECIDED', 'ACTION_EXPIRED'],
      handler: ({ params, body, operator }) =>
        decideAction(deps, operator as Operator, params.id, { approve: false, reason: body.reason }),
    }),
  ];
}
