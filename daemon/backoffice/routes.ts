// Back office routes (X-Admin-Key): parse and delegate to backoffice/service.ts and the audit log.
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { provisionTenant } from './service.js';
import { actionRoutes } from './action-routes.js';
import { accessRoutes } from './access-routes.js';
import { idpRoutes } from './idp-routes.js';
import { ok, refuse } from '../contract/outcome.js';
import { tenantScopeOf } from '../contract/grants.js';
import { drawableText } from '../contract/font-coverage.js';
import { AuditListSchema, AuditVerifySchema, TenantCredentialsSchema } from '../contract/schemas/backoffice.js';

export function backofficeRoutes(deps: Deps): RouteDef[] {
  return [
    ...actionRoutes(deps),
    ...accessRoutes(deps),
    ...idpRoutes(deps),
    defineRoute({
      method: 'POST',
      url: '/admin/tenants',
      auth: { realm: 'admin', grant: 'tenants:create' },
      tags: ['backoffice'],
      summary: 'Provision a tenant: returns its api_key and signing_secret (shown once).',
      status: 201,
      body: z.strictObject({ name: drawableText(z.string().trim().min(1).max(100)) }),
      response: TenantCredentialsSchema,
      errors: ['TENANT_NAME_TAKEN', 'UNDRAWABLE_TEXT'],
      handler: ({ body }) => provisionTenant(deps, body.name),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/audit',
      auth: { realm: 'admin', grant: 'audit:read' },
      tags: ['backoffice'],
      summary:
        'Read the hash-chained audit log, newest first, filtered by actor, action, tenant and time; paged with ' +
        'before_seq.',
      query: z.strictObject({
        limit: z.coerce.number().int().min(1).max(200).default(100),
        after_seq: z.coerce.number().int().min(0).optional(),
        before_seq: z.coerce
          .number()
          .int()
          .min(1)
          .optional()
          .describe('Cursor: entries older than this seq (the last seq of the previous page).'),
        tenant_id: z.string().max(64).optional(),
        actor: z
          .string()
          .max(100)
          .optional()
          .describe('Entries by this actor (or done on its behalf), e.g. operator:approver.'),
        action: z.string().max(100).optional().describe('Entries of this action, e.g. admin_action.approved.'),
        from: z.iso.datetime({ offset: true }).optional().describe('Entries at or after this instant.'),
        to: z.iso.datetime({ offset: true }).optional().describe('Entries at or before this instant.'),
      }),
      response: AuditListSchema,
      handler: ({ query, operator }) => {
        // An auditor of one tenant reads that tenant's entries; another tenant's are not found.
        const scope = tenantScopeOf(operator?.scopes, 'audit:read');
        if (scope && query.tenant_id !== undefined && query.tenant_id !== scope)
          return refuse('NOT_FOUND', `No tenant ${query.tenant_id}.`);
        const { after_seq: afterSeq, before_seq: beforeSeq, tenant_id: tenantId, from, to, ...rest } = query;
        // Entries carry the sandbox's own offset; bounds in any offset are compared as that instant.
        const at = (iso: string | undefined) =>
          iso === undefined ? undefined : deps.market.calendar.toIso(Date.parse(iso));
        return ok({
          entries: deps.audit.list({
            ...rest,
            afterSeq,
            beforeSeq,
            tenantId: scope ?? tenantId,
            from: at(from),
            to: at(to),
          }),
        });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/audit/verify',
      auth: { realm: 'admin', grant: 'audit:read' },
      tags: ['backoffice'],
      summary: 'Verify the audit chain: recomputes every hash and checks the recorded head.',
      response: AuditVerifySchema,
      handler: ({ operator }) =>
        tenantScopeOf(operator?.scopes, 'audit:read')
          ? refuse('FORBIDDEN', 'Verifying the whole chain needs audit:read held globally.')
          : ok(deps.audit.verify()),
    }),
  ];
}
