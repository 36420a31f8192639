// Response shapes of the back office's identity routes: console sessions, operator keys and access
// reviews (docs/backoffice.md, "Sessions and keys", "Access reviews").
import { z } from 'zod';

const at = z.iso.datetime({ offset: true });

export const ConsoleSessionSchema = z
  .object({
    session_id: z.string(),
    identity_id: z.string(),
    identity_name: z.string(),
    identity_display_name: z
      .string()
      .nullable()
      .describe("The identity's name for people (console-users:manage); null when it has none."),
    identity_disabled_at: at
      .nullable()
      .describe(
        'When the identity was disabled (console-users:disable); its sessions are refused while it is. Null ' +
          'while enabled.',
      ),
    role: z.string(),
    created_at: at,
    last_seen_at: at,
    idle_expires_at: at.describe(
      'When the session stops being accepted unless used before (30 minutes after last_seen_at).',
    ),
    stepped_up_until: at.nullable(),
    revoked_at: at.nullable(),
    revoked_by: z.string().nullable(),
  })
  .meta({ id: 'ConsoleSession' });

export const SessionListSchema = z.object({ sessions: z.array(ConsoleSessionSchema) });
export const SessionsRevokedSchema = z.object({
  revoked: z.array(z.string()).describe('The sessions this request ended (already revoked ones are not listed).'),
});

export const RotatedKeySchema = z
  .object({
    identity_id: z.string(),
    name: z.string(),
    role: z.string(),
    realm: z.string(),
    operator_key: z.string().describe('The new key, shown once; the old one is refused from the next request on.'),
    rotated_at: at,
  })
  .meta({ id: 'RotatedOperatorKey' });

export const RevokedKeySchema = z
  .object({
    identity_id: z.string(),
    name: z.string(),
    revoked_at: at,
    revoked_by: z.string(),
    sessions_revoked: z.array(z.string()),
  })
  .meta({ id: 'RevokedOperatorKey' });

const IdentityGrantSchema = z.object({
  grant: z.string(),
  scope: z.string(),
  role: z.string(),
  granted_at: at,
  expires_at: at.nullable(),
  review_required: z.boolean(),
});

export const AccessSnapshotSchema = z
  .object({
    identities: z.array(
      z.object({
        identity_id: z.string(),
        name: z.string(),
        display_name: z
          .string()
          .nullable()
          .describe('Its name for people (console-users:manage); null when it has none.'),
        role: z.string(),
        realm: z.string(),
        broker_id: z.string().nullable(),
        roles: z.array(z.string()),
        created_at: at,
        key_rotated_at: at.nullable(),
        revoked_at: at.nullable(),
        disabled_at: at
          .nullable()
          .describe('When it was disabled (console-users:disable; enabling clears it); null while enabled.'),
        last_used_at: at.nullable().describe('Its latest audited action (as actor or on whose behalf), sandbox clock.'),
        grants: z.array(IdentityGrantSchema),
      }),
    ),
  })
  .meta({ id: 'AccessSnapshot' });

export const AccessReviewSchema = z
  .object({
    review_id: z.string(),
    state: z.enum(['open', 'closed']),
    opened_by: z.string(),
    opened_at: at,
    closed_at: at.nullable(),
    items_total: z.number().int(),
    items_open: z.number().int(),
    items: z.array(
      z.object({
        item_id: z.string(),
        identity_id: z.string(),
        identity_name: z.string(),
        grant: z.string(),
        scope: z.string(),
        role: z.string(),
        decision: z.enum(['certify', 'revoke']).nullable(),
        decided_by: z.string().nullable(),
        decided_at: at.nullable(),
        note: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'AccessReview' });
