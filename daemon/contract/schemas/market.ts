import { z } from 'zod';
import { timestamp, calendarDate, exactMicros, listLimit } from './formats.js';

const micros = z.number().int();

export const FundamentalsSchema = z
  .object({
    market_cap_micros: exactMicros().describe('ref_price_micros x shares_outstanding; above 2^53: parse losslessly'),
    pe_ratio: z.number().nullable(),
    dividend_yield: z.number(),
    beta: z.number(),
    net_income_micros: exactMicros().describe('may pass 2^53: parse losslessly'),
    shares_outstanding: z.int(),
    website: z.string(),
    headquarters: z.string(),
  })
  .meta({ id: 'Fundamentals' });

export const InstrumentSchema = z
  .object({
    symbol: z.string(),
    name: z.string(),
    name_ar: z.string(),
    isin: z.string(),
    sector: z.string(),
    security_type: z.enum(['equity', 'bond', 'sukuk']),
    market_id: z.string(),
    ref_price_micros: micros,
    shariah_compliant: z.boolean(),
    logo_url: z.string(),
    fundamentals: FundamentalsSchema.nullable(),
    fractionable: z.literal(false),
    lot_size: z.int(),
    tradable: z.boolean(),
  })
  .meta({ id: 'Instrument' });

export const LiveQuoteSchema = z
  .object({
    symbol: z.string(),
    price_micros: micros,
    prev_close_micros: micros.describe(
      "the reference price of the quote's session (the open one, else the next to open): the close of the " +
        "trading day before it. From the close on that is today's close",
    ),
    change_pct: z
      .number()
      .describe(
        'fraction: 0.0123 = 1.23%; the move of price_micros from prev_close_micros (0 between sessions unless ' +
          'a quote override moved the price)',
      ),
    as_of: timestamp(),
    session_open: z.boolean(),
  })
  .meta({ id: 'LiveQuote' });

export const DetailQuoteSchema = LiveQuoteSchema.extend({
  market_id: z.string(),
  ref_price_micros: micros.describe('the reference price the band is built on: always equal to prev_close_micros'),
  band: z
    .object({ lower_micros: micros, upper_micros: micros, pct: z.number() })
    .describe(
      '+/-20% of ref_price_micros on the tick grid: the band an order placed now is checked against (between ' +
        "sessions, the next session's)",
    ),
  tick_micros: micros,
  halted: z.boolean(),
  day: z.object({ open_micros: micros, high_micros: micros, low_micros: micros, volume: z.int() }).nullable(),
}).meta({ id: 'Quote' });

export const CandleSchema = z
  .object({
    date: calendarDate(),
    open_micros: micros,
    high_micros: micros,
    low_micros: micros,
    close_micros: micros,
    volume: z.int(),
  })
  .meta({ id: 'Candle' });

export const IndexCandleSchema = z
  .object({
    date: calendarDate().describe('trading day (YYYY-MM-DD, Cairo)'),
    open_micros: micros.describe('level at the open, in micro-points (10,000 points = 10000000000)'),
    high_micros: micros.describe('highest level of the day so far, in micro-points'),
    low_micros: micros.describe('lowest level of the day so far, in micro-points'),
    close_micros: micros.describe('level at the close, or now for today, in micro-points'),
  })
  .meta({ id: 'IndexCandle' });

export const IndexOhlcvSchema = z
  .object({
    index: z.literal('EGX30'),
    candles: z
      .array(IndexCandleSchema)
      .describe("the last `days` trading days, chronological; today's bar is cut at the current minute"),
  })
  .meta({ id: 'IndexOhlcv' });

export const HaltSchema = z
  .object({
    symbol: z.string(),
    halted: z.boolean().describe('true: halted; false: trading resumed'),
    as_of: timestamp().describe('when the halt or resumption took effect (RFC 3339, Cairo offset)'),
  })
  .meta({ id: 'Halt' });

export const CalendarRowSchema = z
  .object({
    date: calendarDate(),
    open: z.string(),
    close: z.string(),
    session_open: z.string(),
    session_close: z.string(),
    settlement_date: calendarDate(),
  })
  .meta({ id: 'CalendarDay' });

export const ClosedDaySchema = z
  .object({ date: calendarDate(), name: z.string(), name_ar: z.string() })
  .describe(
    'A weekday the exchange is closed (a holiday), with its English and Arabic name; Fridays and Saturdays are ' +
      'the weekend and not listed.',
  )
  .meta({ id: 'ClosedDay' });

export const BondSchema = z
  .object({
    market_id: z.string(),
    symbol: z.string(),
    name: z.string(),
    name_ar: z.string(),
    isin: z.string(),
    security_type: z.enum(['bond', 'sukuk']),
    clean_price_micros: micros.describe('percent of par: 100000000 = 100.000%'),
    ref_price_micros: micros,
    currency: z.literal('EGP'),
    shariah_compliant: z.boolean(),
    face_value_micros: micros,
    coupon_rate_bps: z.int(),
    coupon_frequency: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(4)]),
    issue_date: timestamp().describe("RFC 3339: the day's start in Cairo (the spec's bond table)"),
    maturity_date: timestamp().describe("RFC 3339: the day's start in Cairo; after issue_date"),
    day_count_convention: z.string(),
    first_coupon_date: calendarDate()
      .nullable()
      .describe('YYYY-MM-DD: the first coupon when it differs from the regular schedule, else null'),
    accrued_interest_micros: micros.describe('per unit of face value, as of the settlement date'),
    dirty_price_micros: micros.describe('clean price + accrued interest, per unit, in EGP micros'),
    settlement_date: calendarDate(),
    logo_url: z.string(),
  })
  .meta({ id: 'Bond' });

const isoDate = calendarDate().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

export const CalendarQuery = z.strictObject({ start: isoDate.optional(), end: isoDate.optional() });
export const OhlcvQuery = z.strictObject({ days: z.coerce.number().int().min(1).max(365).default(90) });
export const BondsQuery = z.strictObject({ shariah: z.enum(['true', 'false']).optional(), limit: listLimit() });

// The response types, named as /openapi.json names them: the CLI's client is typed with these.
export type Fundamentals = z.infer<typeof FundamentalsSchema>;
export type Instrument = z.infer<typeof InstrumentSchema>;
export type LiveQuote = z.infer<typeof LiveQuoteSchema>;
export type Quote = z.infer<typeof DetailQuoteSchema>;
export type Candle = z.infer<typeof CandleSchema>;
export type IndexCandle = z.infer<typeof IndexCandleSchema>;
export type IndexOhlcv = z.infer<typeof IndexOhlcvSchema>;
export type Halt = z.infer<typeof HaltSchema>;
export type CalendarDay = z.infer<typeof CalendarRowSchema>;
export type Bond = z.infer<typeof BondSchema>;
