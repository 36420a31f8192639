// Wire schemas of the dealer desk's reports: the end of day (GET /broker/v1/eod) and the reference
// data (GET /broker/v1/reference/{instruments,calendar,fees,ticks,holidays}). Money is integer micros.
import { z } from 'zod';
import { ACTIVITY_TYPES } from '../activities.js';
import { calendarDate, timestamp } from './formats.js';
import { CalendarRowSchema, InstrumentSchema } from './market.js';
import { BlotterExecutionSchema } from './trading.js';

const micros = (what: string) => z.int().describe(`${what}; EGP micros`);

export const EodQuery = z.strictObject({
  date: z
    .string()
    .max(32)
    .optional()
    .describe('exchange date (YYYY-MM-DD, Cairo); default today on the sandbox clock; a future date is DATE_IN_FUTURE'),
});

const FeeLineFields = {
  commission_micros: micros('broker commission'),
  egx_micros: micros('exchange fee'),
  mcdr_micros: micros('central depository fee'),
  ipf_micros: micros('investor protection fund'),
  fra_micros: micros('regulator fee'),
  stamp_duty_micros: micros('stamp duty withheld (a tax, not a fee)'),
};

// a blotter execution with its fee lines
const EodTradeSchema = BlotterExecutionSchema.extend({
  fees: z.object(FeeLineFields).describe('each charge of this fill'),
  fees_micros: micros('commission + EGX + MCDR + IPF + FRA (stamp duty apart)'),
}).meta({ id: 'EodTrade' });

const EodMovementSchema = z
  .object({
    activity_id: z.string(),
    activity_type: z
      .enum(ACTIVITY_TYPES)
      .describe(
        'CSD deposit, CSW withdrawal, FILL trade consideration, FEE fees, TAX withholding, DIV dividend, ' +
          'SUB/RED fund orders, JNLC journal',
      ),
    tenant_id: z.string(),
    investor_id: z.string(),
    account_number: z.string(),
    amount_micros: micros("signed effect on the investor's cash: + in, - out"),
    description: z.string(),
    ref_type: z.string().nullable(),
    ref_id: z.string().nullable(),
    at: timestamp(),
  })
  .meta({ id: 'EodCashMovement' });

const SideTotal = z.object({
  fills: z.int(),
  gross_micros: micros('qty x price summed'),
  net_micros: micros('net consideration summed'),
});

const EodObligationSchema = z
  .object({
    investor_id: z.string(),
    tenant_id: z.string(),
    account_number: z.string(),
    buy: SideTotal.describe('what the investor pays on this date'),
    sell: SideTotal.describe('what the investor receives on this date'),
    pending_fills: z.int().describe('fills of these not settled yet'),
    net_cash_micros: micros('sell.net - buy.net: positive, cash due to the investor; negative, due from them'),
  })
  .meta({ id: 'EodObligation' });

export const EodSchema = z
  .object({
    date: calendarDate().describe('the exchange date reported (YYYY-MM-DD, Cairo)'),
    broker_id: z.string().nullable().describe("the dealer's broker (null: an identity of every broker)"),
    as_of: timestamp(),
    trading_day: z.boolean().describe('false on a weekend or an exchange holiday'),
    trades: z.array(EodTradeSchema).describe("every fill of the broker's investors on that date, oldest first"),
    fees_by_line: z
      .object({
        ...FeeLineFields,
        fees_micros: micros('every line but stamp duty'),
        total_micros: micros('fees + stamp duty'),
      })
      .describe('the charges of those trades, summed by line'),
    cash: z
      .object({
        movements: z
          .array(EodMovementSchema)
          .describe("every activity of the day that moved an investor's cash, oldest first"),
        totals: z
          .array(
            z.object({
              activity_type: z.enum(ACTIVITY_TYPES),
              count: z.int(),
              in_micros: micros('credited'),
              out_micros: micros('debited'),
              net_micros: micros('in - out'),
            }),
          )
          .describe('the movements summed by activity type, alphabetical'),
      })
      .describe("cash movements of the day from the ledger's activity feed"),
    settlements_due: z
      .object({
        investors: z.array(EodObligationSchema).describe('per investor, for fills settling on that date'),
        broker: z
          .object({
            buy: SideTotal,
            sell: SideTotal,
            pending_fills: z.int(),
            net_cash_micros: micros(
              'sell.net - buy.net over every investor: positive, the broker pays its investors on balance',
            ),
            market_net_micros: micros(
              'sell.gross - buy.gross: positive, the broker receives from the market on balance',
            ),
          })
          .describe("the broker's net for the date"),
      })
      .describe('settlement obligations falling due on that date (T+2 of earlier trades)'),
  })
  .meta({ id: 'DeskEod' });

// Reference data

const yearRe = /^\d{4}$/;
const dateRe = /^\d{4}-\d{2}-\d{2}$/;

export const ReferenceCalendarQuery = z.strictObject({
  year: z.string().regex(yearRe, 'expected YYYY').optional().describe('every trading day of this year'),
  start: calendarDate().regex(dateRe, 'expected YYYY-MM-DD').optional().describe('first date (default today)'),
  end: calendarDate().regex(dateRe, 'expected YYYY-MM-DD').optional().describe('last date (default start + 30 days)'),
});

export const ReferenceHolidaysQuery = z.strictObject({
  year: z.string().regex(yearRe, 'expected YYYY').optional().describe('only this year (default every year listed)'),
});

export const ReferenceInstrumentsSchema = z
  .object({ instruments: z.array(InstrumentSchema), ordering: z.literal('symbol_asc') })
  .meta({ id: 'ReferenceInstruments' });

export const ReferenceCalendarSchema = z
  .object({
    zone: z.string().describe("the exchange's IANA zone"),
    start_date: calendarDate().describe('first date of the range'),
    end_date: calendarDate().describe('last date of the range'),
    calendar: z
      .array(CalendarRowSchema)
      .describe('trading days from start_date to end_date inclusive, with session hours and T+2 settlement dates'),
  })
  .meta({ id: 'ReferenceCalendar' });

export const ReferenceFeesSchema = z
  .object({
    basis: z.literal('order'),
    note: z.string(),
    lines: z.array(
      z.object({
        line: z.enum(['commission', 'egx', 'mcdr', 'ipf', 'fra', 'stamp_duty']),
        kind: z.enum(['fee', 'withholding']),
        rate_bps_x10: z.int().describe('rate in tenths of a basis point (15 = 1.5 bp)'),
        rate: z.string().describe('the same rate as an exact decimal fraction ("0.00015")'),
        min_micros: z.int().nullable().describe('minimum per order; null: none'),
        max_micros: z.int().nullable().describe('cap per order; null: none'),
        description: z.string(),
      }),
    ),
  })
  .meta({ id: 'ReferenceFees' });

export const ReferenceTicksSchema = z
  .object({
    ticks: z.array(
      z.object({
        from_micros: z.int(),
        below_micros: z.int().nullable().describe('null: no upper bound'),
        tick_micros: z.int(),
      }),
    ),
    band_bps: z.int().describe('the daily price band around the reference price, in basis points (2000 = 20%)'),
    note: z.string(),
  })
  .meta({ id: 'ReferenceTicks' });

export const ReferenceHolidaysSchema = z
  .object({
    holidays: z.array(
      z.object({
        date: calendarDate(),
        name: z.string(),
        name_ar: z.string(),
        status: z.string().describe('confirmed or calendar (derived)'),
      }),
    ),
  })
  .meta({ id: 'ReferenceHolidays' });

export type DeskEod = z.infer<typeof EodSchema>;
export type ReferenceInstruments = z.infer<typeof ReferenceInstrumentsSchema>;
export type ReferenceCalendar = z.infer<typeof ReferenceCalendarSchema>;
export type ReferenceFees = z.infer<typeof ReferenceFeesSchema>;
export type ReferenceTicks = z.infer<typeof ReferenceTicksSchema>;
export type ReferenceHolidays = z.infer<typeof ReferenceHolidaysSchema>;
