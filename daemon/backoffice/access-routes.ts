// Identity routes of the back office (X-Admin-Key; docs/backoffice.md): console sessions (list,
// revoke), operator keys (rotate, revoke) and access reviews (snapshot, campaigns, decisions). Parse
// and delegate to sessions.ts, operator-keys.ts and access-review.ts.
import { z } from 'zod';
import { freeText } from '../contract/schemas/free-text.js';
import type { Deps } from '../deps.js';
import { defineRoute, type Operator, type RouteDef } from '../contract/route.js';
import { ok, refuse } from '../contract/outcome.js';
import { listSessions, revokeSessions } from './sessions.js';
import { revokeKey, rotateKey } from './operator-keys.js';
import { accessSnapshot, decideItem, getReview, listReviews, openReview } from './access-review.js';
import {
  AccessReviewSchema,
  AccessSnapshotSchema,
  RevokedKeySchema,
  RotatedKeySchema,
  SessionListSchema,
  SessionsRevokedSchema,
} from '../contract/schemas/access.js';

const tags = ['backoffice'];
const admin = (grant: string) => ({ realm: 'admin', grant }) as const;
const id = z.string().min(1).max(64);

function sessionRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/admin/sessions',
      auth: admin('sessions:read'),
      tags,
      summary: 'List console sessions, newest first: identity, created_at, last_seen_at, stepped_up_until, revocation.',
      response: SessionListSchema,
      handler: () => ({ sessions: listSessions(deps) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/sessions/revoke',
      auth: admin('sessions:revoke'),
      tags,
      summary:
        "End console sessions at once, by id and/or every session of an identity (with identity_id, its key's " +
        'step-up window too); their next request is 401 SESSION_INVALID.',
      body: z
        .strictObject({ session_ids: z.array(id).min(1).max(100).optional(), identity_id: id.optional() })
        .refine((b) => b.session_ids !== undefined || b.identity_id !== undefined, {
          message: 'name session_ids or identity_id',
        }),
      response: SessionsRevokedSchema,
      errors: ['NOT_FOUND'],
      handler: ({ body, operator }) => {
        const op = operator as Operator;
        const r = revokeSessions(deps, body, op.id, deps.wallNow());
        if (!r.ok) return r;
        // an identity's machine key has a session of its own: its step-up window (docs/backoffice.md, "Step-up")
        const stepUpEnded = body.identity_id !== undefined && deps.keys.stepUpWindow.end(body.identity_id);
        deps.audit.append({
          actor: `operator:${op.name}`,
          action: 'console_session.revoked',
          subject: body.identity_id ?? 'sessions',
          detail: {
            grant: 'sessions:revoke',
            revoked: r.value.revoked,
            ...(stepUpEnded ? { step_up_window_ended: true } : {}),
          },
        });
        return r;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/keys/rotate',
      auth: admin('operator-keys:rotate'),
      tags,
      summary: 'Give an identity a new operator key (answered once); the old key is refused from its next request on.',
      body: z.strictObject({ identity_id: id }),
      response: RotatedKeySchema,
      errors: ['NOT_FOUND', 'KEY_REVOKED'],
      handler: ({ body, operator }) => rotateKey(deps, operator as Operator, body.identity_id),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/keys/revoke',
      auth: admin('operator-keys:revoke'),
      tags,
      summary:
        "Revoke an identity's operator key for good and end its console sessions; its next request is 401 KEY_REVOKED.",
      body: z.strictObject({ identity_id: id }),
      response: RevokedKeySchema,
      errors: ['NOT_FOUND', 'KEY_REVOKED'],
      handler: ({ body, operator }) => revokeKey(deps, operator as Operator, body.identity_id),
    }),
  ];
}

function reviewRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/admin/access-review',
      auth: admin('access-review:read'),
      tags,
      summary: 'Access snapshot: every identity with its roles, grants (with scope), created_at and last_used_at.',
      response: AccessSnapshotSchema,
      handler: () => ({ identities: accessSnapshot(deps) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/access-reviews',
      auth: admin('access-review:open'),
      tags,
      status: 201,
      summary: 'Open an access review campaign: one item per identity-grant held now.',
      body: z.strictObject({}).default({}),
      response: AccessReviewSchema,
      handler: ({ operator }) => openReview(deps, operator as Operator),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/access-reviews',
      auth: admin('access-review:read'),
      tags,
      summary: 'List access review campaigns with their items, newest first.',
      query: z.strictObject({
        state: z.enum(['open', 'closed']).optional(),
        limit: z.coerce.number().int().min(1).max(50).default(20),
      }),
      response: z.object({ reviews: z.array(AccessReviewSchema) }),
      handler: ({ query }) => ({ reviews: listReviews(deps, query) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/access-reviews/:id',
      auth: admin('access-review:read'),
      tags,
      params: z.strictObject({ id }),
      summary: 'One access review campaign with its items.',
      response: AccessReviewSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params }) => {
        const r = getReview(deps, params.id);
        return r ? ok(r) : refuse('NOT_FOUND', `No access review ${params.id}.`);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/access-reviews/:id/decisions',
      auth: admin('access-review:decide'),
      tags,
      params: z.strictObject({ id }),
      summary:
        "Certify or revoke one item (not about the reviewer's own access); revoke removes the grant at once. " +
        'The campaign closes with its last item.',
      body: z.strictObject({ item_id: id, decision: z.enum(['certify', 'revoke']), note: freeText(500).optional() }),
      response: AccessReviewSchema,
      errors: ['NOT_FOUND', 'ACCESS_REVIEW_OWN_ACCESS', 'ACCESS_REVIEW_ITEM_DECIDED', 'ACCESS_REVIEW_CLOSED'],
      handler: ({ params, body, operator }) => decideItem(deps, operator as Operator, params.id, body),
    }),
  ];
}

export function accessRoutes(deps: Deps): RouteDef[] {
  return [...sessionRoutes(deps), ...reviewRoutes(deps)];
}
