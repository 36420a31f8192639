// Complaints routes (X-Admin-Key, compliance grants): record a complaint, list and read the register,
// move a complaint through its states. Parse and delegate to service.ts.
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import {
  ComplaintCreateSchema,
  ComplaintListQuerySchema,
  ComplaintListSchema,
  ComplaintSchema,
  ComplaintTransitionSchema,
} from '../contract/schemas/complaints.js';
import { createComplaintsService } from './service.js';

const tags = ['complaints'];
// One grant for the register, reads and changes alike (the compliance role's).
const AUTH = { realm: 'admin', grant: 'complaints:manage' } as const;
const Params = z.strictObject({ complaint_id: z.string().min(1).max(64) });

export function complaintsRoutes(deps: Deps): RouteDef[] {
  const svc = createComplaintsService(deps);
  return [
    defineRoute({
      method: 'POST',
      url: '/admin/complaints',
      auth: AUTH,
      tags,
      status: 201,
      summary:
        'Record a complaint of an investor: state received, received_at now (sandbox clock), due_date 15 EGX ' +
        'business days later.',
      body: ComplaintCreateSchema,
      response: ComplaintSchema,
      errors: ['NOT_FOUND'],
      handler: ({ body, actor }) => svc.create(body, actor),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/complaints',
      auth: AUTH,
      tags,
      summary: 'The complaints register, oldest first, filtered by state, investor_id, tenant_id and overdue.',
      query: ComplaintListQuerySchema,
      response: ComplaintListSchema,
      handler: ({ query }) => svc.list(query),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/complaints/:complaint_id',
      auth: AUTH,
      tags,
      summary: 'One complaint with its history of changes.',
      params: Params,
      response: ComplaintSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params }) => svc.get(params.complaint_id),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/complaints/:complaint_id/transitions',
      auth: AUTH,
      tags,
      summary:
        'Move a complaint one step: received -> investigating -> resolved | rejected (resolved and rejected ' +
        'need a note). A skipped step is 409 COMPLAINT_TRANSITION_INVALID and changes nothing.',
      params: Params,
      body: ComplaintTransitionSchema,
      response: ComplaintSchema,
      errors: ['NOT_FOUND', 'COMPLAINT_TRANSITION_INVALID', 'COMPLAINT_NOTE_REQUIRED'],
      handler: ({ params, body, actor }) => svc.transition(params.complaint_id, body.to, body.note, actor),
    }),
  ];
}
