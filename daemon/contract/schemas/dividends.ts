// Wire schemas of the declare-dividend sandbox control and the dividend it answers.
import { z } from 'zod';
import { timestamp, calendarDate } from './formats.js';

const date = (what: string) =>
  calendarDate()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
    .describe(what);

export const DeclareDividendBody = z
  .strictObject({
    symbol: z.string().min(1).max(16).describe('an equity of the catalog'),
    amount_per_share_micros: z.int().positive().describe('gross cash per share, EGP micros'),
    ex_date: date('YYYY-MM-DD, today or later (Cairo): holders at the start of this date are paid'),
    pay_date: date('YYYY-MM-DD, on or after ex_date: paid at the start of this date'),
  })
  .meta({ id: 'DeclareDividendRequest' });

export const DividendSchema = z
  .object({
    dividend_id: z.string().describe('div_...'),
    symbol: z.string(),
    amount_per_share_micros: z.int(),
    ex_date: calendarDate(),
    pay_date: calendarDate(),
    record_at: timestamp().describe('the start of ex_date (Africa/Cairo): holders at this instant are entitled'),
    pay_at: timestamp().describe('the start of pay_date: when entitlements are paid'),
    withholding_bps: z.int().describe('withholding tax on the gross, basis points (1000 = 10%)'),
    state: z.enum(['declared', 'recorded', 'paid']),
    declared_at: timestamp(),
    recorded_at: timestamp().nullable(),
    paid_at: timestamp().nullable(),
    holders: z.int().describe('entitled investors, every tenant'),
    gross_micros: z.int(),
    tax_micros: z.int(),
    net_micros: z.int(),
    entitlements: z.array(
      z.object({
        tenant_id: z.string(),
        investor_id: z.string(),
        shares: z.int().describe('settled, reserved and unsettled shares at record_at'),
        gross_micros: z.int().nullable(),
        tax_micros: z.int().nullable(),
        net_micros: z.int().nullable(),
        state: z.enum(['pending', 'paid', 'failed']),
        reason_code: z.string().nullable(),
        paid_at: timestamp().nullable(),
      }),
    ),
  })
  .meta({ id: 'Dividend' });

export const DividendParams = z.strictObject({ id: z.string().min(1).max(64) });

// The response types, named as /openapi.json names them: the CLI's client is typed with these.
export type Dividend = z.infer<typeof DividendSchema>;
