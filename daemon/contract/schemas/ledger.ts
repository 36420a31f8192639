// Wire schemas of the ledger's read routes: balances and the activity feed.
import { z } from 'zod';
import { timestamp } from './formats.js';
import { ACTIVITY_REF_TYPES, ACTIVITY_TYPES } from '../activities.js';

const amount = (what: string) => z.int().describe(what);

const PositionFields = {
  asset: z.string().describe('cash:EGP, an equity symbol, or fund:<code>'),
  settled: amount('available to trade or withdraw'),
  reserved: amount('held against open orders and pending withdrawals'),
  unsettled: amount('pending settlement (T+2)'),
};

export const BalancesSchema = z
  .object({
    investor_id: z.string(),
    as_of: timestamp().describe('simulated time of the read (RFC 3339, Africa/Cairo offset)'),
    cash: z.array(z.object(PositionFields)).describe('amounts in micros; cash:EGP is always present'),
    securities: z
      .array(z.object({ ...PositionFields, symbol: z.string() }))
      .describe('amounts in whole shares; listed while any bucket is non-zero'),
    funds: z
      .array(z.object({ ...PositionFields, fund_code: z.string() }))
      .describe('amounts in unit micros; listed while any bucket is non-zero'),
  })
  .meta({ id: 'Balances' });

export const ActivitySchema = z
  .object({
    id: z.string().describe('act_...'),
    activity_type: z
      .enum(ACTIVITY_TYPES)
      .describe(
        'CSD cash deposit, CSW cash withdrawal, FILL execution, FEE, TAX, DIV dividend, INT interest, JNLC ' +
          'cash journal, JNLS security journal, SUB fund subscription, RED fund redemption, SPLIT shares added ' +
          'by a stock split',
      ),
    investor_id: z.string(),
    at: timestamp().describe('when it was booked, simulated time (RFC 3339)'),
    net_amount_micros: z
      .int()
      .describe('signed effect on cash: positive in, negative out, 0 for a holdings-only movement'),
    description: z.string(),
    status: z.literal('executed').describe('rows are immutable; a correction is a new row'),
    ref_type: z.enum(ACTIVITY_REF_TYPES).nullable().describe('kind of the object that caused it'),
    ref_id: z.string().nullable().describe('its id (trf_..., ord_...), also the ref of its ledger postings'),
    symbol: z.string().nullable(),
    side: z.enum(['buy', 'sell']).nullable(),
    qty: z.int().nullable().describe('whole shares (fills)'),
    price_micros: z.int().nullable().describe('per share (fills) or per unit'),
  })
  .meta({ id: 'Activity' });

export const ActivitiesSchema = z
  .object({
    activities: z.array(ActivitySchema).describe('newest first'),
    next_before: z.string().nullable().describe('pass as before= for the next older page; null on the last page'),
  })
  .meta({ id: 'ActivityFeed' });

export const InvestorParams = z.strictObject({ id: z.string().min(1).max(64) });

export const ActivitiesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(100),
  before: z.string().min(1).max(64).optional(),
});

// The response types, named as /openapi.json names them: the CLI's client is typed with these.
export type Balances = z.infer<typeof BalancesSchema>;
export type Activity = z.infer<typeof ActivitySchema>;
export type ActivityFeed = z.infer<typeof ActivitiesSchema>;
