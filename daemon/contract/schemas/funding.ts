// Wire schemas of transfers and the dealer funding desk.
import { z } from 'zod';
import { timestamp } from './formats.js';
import { FUNDING_REJECT_REASONS, TRANSFER_APPROVALS, TRANSFER_DIRECTIONS, TRANSFER_STATES } from '../funding.js';

export const TransferSchema = z
  .object({
    transfer_id: z.string().describe('trf_...'),
    investor_id: z.string(),
    direction: z.enum(TRANSFER_DIRECTIONS),
    amount_micros: z.int(),
    state: z
      .enum(TRANSFER_STATES)
      .describe('received -> pending_rail -> at_broker -> completed, one simulated minute per step; or failed'),
    approval: z
      .enum(TRANSFER_APPROVALS)
      .describe(
        'automatic unless manual funding approval was on at creation: then pending until a dealer approves or rejects',
      ),
    rail_ref: z.string().nullable().describe('payment-rail reference, assigned at pending_rail'),
    reason_code: z
      .string()
      .nullable()
      .describe('why it failed (RAIL_REJECTED, a dealer reason, ...); null unless failed'),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'Transfer' });

export const TransferCreateBody = z
  .strictObject({
    investor_id: z.string().min(1).max(64),
    direction: z.enum(TRANSFER_DIRECTIONS),
    amount_micros: z.int().positive().describe('integer micros; at most 70,000 EGP (70000000000) per transfer'),
  })
  .meta({ id: 'TransferRequest' });

export const TransferListQuery = z.strictObject({
  investor_id: z.string().min(1).max(64).optional(),
  state: z.enum(TRANSFER_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
  before: z.string().min(1).max(64).optional(),
});

export const TransferList = z
  .object({ transfers: z.array(TransferSchema).describe('newest first'), next_before: z.string().nullable() })
  .meta({ id: 'TransferList' });

export const TransferParams = z.strictObject({ id: z.string().min(1).max(64) });

export const DeskTransferSchema = TransferSchema.extend({
  tenant_id: z.string(),
  account_number: z.string(),
  investor_name: z.string(),
  decided_by: z.string().nullable().describe('operator id of the dealer who approved or rejected'),
  decided_at: timestamp().nullable(),
}).meta({ id: 'FundingDeskTransfer' });

export const DeskListQuery = z.strictObject({
  approval: z
    .enum([...TRANSFER_APPROVALS, 'any'])
    .default('pending')
    .describe('default pending: the transfers waiting for a decision'),
  state: z.enum(TRANSFER_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const RejectBody = z.strictObject({ reason_code: z.enum(FUNDING_REJECT_REASONS) });

export const ManualFundingBody = z.strictObject({ enabled: z.boolean() });

// The response types, named as /openapi.json names them: the CLI's client is typed with these.
export type Transfer = z.infer<typeof TransferSchema>;
export type TransferList = z.infer<typeof TransferList>;
export type FundingDeskTransfer = z.infer<typeof DeskTransferSchema>;
