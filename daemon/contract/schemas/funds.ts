// Wire schemas of funds and fund orders (docs/portfolio.md "Funds").
import { z } from 'zod';
import { timestamp, calendarDate, listLimit } from './formats.js';

const investorId = z.string().min(1).max(64).describe('an approved investor (inv_...)');
const fundCode = z.string().min(1).max(35).describe('a fund of GET /v1/funds');
const micros = (what: string) => z.int().positive().describe(what);

export const FundOrderCreateBody = z
  .discriminatedUnion('side', [
    z.strictObject({
      investor_id: investorId,
      fund_code: fundCode,
      side: z.literal('subscribe'),
      amount_micros: micros(
        "EGP micros to invest; a first subscription is at least the fund's min_subscription_micros",
      ),
    }),
    z.strictObject({
      investor_id: investorId,
      fund_code: fundCode,
      side: z.literal('redeem'),
      units_micros: micros('unit-micros to redeem (1 unit = 1,000,000), at most the settled units held'),
    }),
  ])
  .meta({ id: 'FundOrderRequest' });

export const FundSchema = z
  .object({
    fund_code: z.string(),
    name: z.string(),
    name_ar: z.string(),
    manager: z.string(),
    currency: z.literal('EGP'),
    nav_micros: z.int().describe('NAV per whole unit in EGP micros, after the latest daily sweep'),
    nav_date: calendarDate().describe(
      'the sweep date of nav_micros (YYYY-MM-DD): today from the cut-off on, else yesterday',
    ),
    indicative_yield_bps: z
      .int()
      .describe('nominal annual yield net of the management fee, 365-day basis, basis points'),
    management_fee_bps: z.int().describe('for information: already net in the yield'),
    cutoff_local: z
      .string()
      .describe('HH:MM Africa/Cairo: the daily NAV sweep; units executed before it earn that day'),
    settlement_days: z.int().describe('0: orders settle at once'),
    min_subscription_micros: z.int().describe('minimum first subscription, EGP micros'),
    shariah_compliant: z.boolean(),
    logo_url: z.string(),
    accrual: z.string().describe('daily: every calendar day, weekends and holidays included'),
  })
  .meta({ id: 'Fund' });

export const FundList = z
  .object({
    funds: z.array(FundSchema),
    ordering: z.literal('alphabetical').describe('by fund_code'),
    as_of: timestamp(),
  })
  .meta({ id: 'FundList' });

export const FundListQuery = z.strictObject({
  shariah: z.enum(['true', 'false']).optional().describe('true: shariah-compliant funds only'),
  limit: listLimit(),
});

export const FundOrderSchema = z
  .object({
    fund_order_id: z.string().describe('fo_...'),
    investor_id: z.string(),
    fund_code: z.string(),
    side: z.enum(['subscribe', 'redeem']),
    amount_micros: z.int().nullable().describe('subscriptions: the EGP micros asked'),
    units_micros: z.int().nullable().describe('redemptions: the unit-micros asked'),
    state: z.enum(['received', 'validated', 'processed', 'settled', 'rejected']),
    nav_micros: z.int().nullable().describe('the NAV applied (from processed on)'),
    nav_date: calendarDate().nullable().describe('the sweep date of nav_micros'),
    result_units_micros: z.int().nullable().describe('unit-micros bought or redeemed'),
    result_amount_micros: z
      .int()
      .nullable()
      .describe('EGP micros charged (subscription, never more than asked) or paid (redemption)'),
    reason_code: z.string().nullable(),
    first_accrual_date: calendarDate()
      .nullable()
      .describe('subscriptions: the first daily sweep that pays the new units'),
    created_at: timestamp(),
    processed_at: timestamp().nullable(),
    settled_at: timestamp().nullable(),
    updated_at: timestamp(),
  })
  .meta({ id: 'FundOrder' });

export const FundOrderParams = z.strictObject({ id: z.string().min(1).max(64) });

export const NavBody = z.strictObject({
  fund_code: fundCode,
  nav_micros: z
    .int()
    .positive()
    .max(1_000_000_000_000)
    .describe('NAV per whole unit in EGP micros (at most 1,000,000 EGP)'),
});

// The response types, named as /openapi.json names them: the CLI's client is typed with these.
export type Fund = z.infer<typeof FundSchema>;
export type FundList = z.infer<typeof FundList>;
export type FundOrder = z.infer<typeof FundOrderSchema>;
