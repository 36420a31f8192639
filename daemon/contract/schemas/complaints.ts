// Wire schemas of the complaints register (docs/complaints.md).
import { z } from 'zod';
import { calendarDate, timestamp } from './formats.js';
import { freeText, optionalText } from './free-text.js';

export const COMPLAINT_STATES = ['received', 'investigating', 'resolved', 'rejected'] as const;
export const COMPLAINT_CATEGORIES = ['execution', 'fees', 'statement', 'account', 'service', 'other'] as const;
export const COMPLAINT_CHANNELS = ['email', 'phone', 'branch', 'app', 'letter'] as const;

const ymd = (what: string) => calendarDate().describe(what);

export const ComplaintEventSchema = z
  .object({
    from: z.enum(COMPLAINT_STATES).nullable().describe('null for the receipt'),
    to: z.enum(COMPLAINT_STATES),
    actor: z.string(),
    note: z.string().nullable(),
    at: timestamp(),
  })
  .meta({ id: 'ComplaintEvent' });

export const ComplaintSchema = z
  .object({
    complaint_id: z.string().describe('cmp_...'),
    tenant_id: z.string(),
    investor_id: z.string(),
    category: z.enum(COMPLAINT_CATEGORIES),
    channel: z.enum(COMPLAINT_CHANNELS),
    summary: z.string(),
    state: z.enum(COMPLAINT_STATES),
    received_at: timestamp(),
    due_date: ymd(
      'the response is due by this date: 15 EGX business days after receipt (weekends and holidays do not count)',
    ),
    overdue: z.boolean().describe('still received or investigating and the sandbox date is after due_date'),
    resolution_note: z.string().nullable(),
    closed_at: timestamp().nullable(),
    updated_at: timestamp(),
    history: z.array(ComplaintEventSchema).describe('every change of state, oldest first'),
  })
  .meta({ id: 'Complaint' });

export const ComplaintListSchema = z
  .object({ complaints: z.array(ComplaintSchema).describe('oldest first') })
  .meta({ id: 'ComplaintList' });

export const ComplaintCreateSchema = z.strictObject({
  investor_id: z.string().min(1).max(64),
  category: z.enum(COMPLAINT_CATEGORIES),
  channel: z.enum(COMPLAINT_CHANNELS).default('email'),
  summary: freeText(2000),
});

export const ComplaintTransitionSchema = z.strictObject({
  to: z.enum(COMPLAINT_STATES),
  note: optionalText(2000).optional().describe('required for resolved and rejected: the resolution'),
});

export const ComplaintListQuerySchema = z.strictObject({
  state: z.enum(COMPLAINT_STATES).optional(),
  investor_id: z.string().max(64).optional(),
  tenant_id: z.string().max(64).optional(),
  overdue: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
