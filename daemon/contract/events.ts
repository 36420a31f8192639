// The sandbox's push events (GET /admin/sandbox/events, server-sent events; `svc events tail`):
// their types and the JSON each event's data line carries. A development tool only: the tenant API
// stays polling-only. docs/inspector.md, "Events".
import { z } from 'zod';
import { timestamp } from './schemas/formats.js';

export const EVENT_TYPES = [
  'order.partially_filled',
  'order.filled',
  'order.canceled',
  'order.expired',
  'order.rejected',
  'transfer.received',
  'transfer.approved',
  'transfer.pending_rail',
  'transfer.at_broker',
  'transfer.completed',
  'transfer.failed',
  'kyc.referred',
  'kyc.approved',
  'kyc.rejected',
  'fund_order.received',
  'fund_order.validated',
  'fund_order.processed',
  'fund_order.settled',
  'fund_order.rejected',
  /** A client statement became ready to download (docs/reports.md). */
  'report.ready',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(s: string): s is EventType {
  return (EVENT_TYPES as readonly string[]).includes(s);
}

export const EventsQuery = z.strictObject({
  types: z
    .string()
    .max(2000)
    .regex(/^[a-z_]+(\.[a-z_*]+)?(,[a-z_]+(\.[a-z_*]+)?)*$/)
    .optional()
    .describe('comma-separated event types; `order.*` takes a family (default: every type)'),
  after: z.coerce
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('resume after this event id (as the Last-Event-ID header does)'),
});
export type EventsQuery = z.infer<typeof EventsQuery>;

export const SandboxEvent = z
  .object({
    /** Increasing within the daemon's life (and across its restarts): the SSE `id:` line. */
    id: z.int().min(1),
    type: z.enum(EVENT_TYPES),
    /** The simulated time of the change (the row's updated_at): no wall clock, so a rerun gives the same events. */
    at: timestamp(),
    /** The id of what changed: ord_..., trf_..., kyc_..., fo_..., rpt_... */
    subject: z.string(),
    tenant_id: z.string().nullable(),
    /** The changed object's public fields (never personal data). */
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'SandboxEvent' });
export type SandboxEvent = z.infer<typeof SandboxEvent>;
