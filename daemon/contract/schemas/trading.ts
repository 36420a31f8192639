// Wire schemas of orders, contract notes and the order desk. The order request's schema is the one
// description of the order body: its fields' failures carry the INVALID_* codes, answered in their
// documented precedence (the route's issuePrecedence), before the business rules of validate.ts.
import { z } from 'zod';
import { timestamp, calendarDate } from './formats.js';
import { ORDER_STATES } from '../orders.js';

const STATUSES = [
  'pending_new',
  'accepted',
  'new',
  'partially_filled',
  'filled',
  'pending_cancel',
  'canceled',
  'rejected',
  'expired',
] as const;

const ORDER_TIFS = ['day', 'gtc', 'ioc', 'fok'] as const;

/** Larger orders are refused as INVALID_QTY: no exchange accepts a billion shares in one order. */
export const MAX_ORDER_QTY = 1_000_000_000;

/** A limit order carries its price; a market order none (null is tolerated). Types are the fields' own checks. */
function pricedByType(v: { type?: unknown; limit_price_micros?: unknown }): boolean {
  if (v.type === 'limit') return v.limit_price_micros !== undefined && v.limit_price_micros !== null;
  if (v.type === 'market') return v.limit_price_micros === undefined || v.limit_price_micros === null;
  return true; // no valid type: INVALID_TYPE is answered first
}

/**
 * The order body, the one description of it: POST /v1/orders validates with it and /openapi.json shows
 * it (OrderRequest). Each field's failure has its own code (ORDER_FIELD_CODES), answered in the
 * route's precedence (ORDER_BODY_PRECEDENCE; docs/trading.md): a body the schema refuses names one
 * field; the business rules (validate.ts) start where it ends.
 */
export const OrderCreateBody = z
  .strictObject({
    investor_id: z.string().min(1).max(64).describe('an approved investor (inv_...)'),
    symbol: z.string().min(1).max(16).describe('exchange symbol (equities only)'),
    side: z.enum(['buy', 'sell'], { error: 'side must be buy or sell.' }),
    type: z.enum(['market', 'limit'], { error: 'type must be market or limit.' }),
    qty: z
      .int({ error: `qty must be a whole number of shares from 1 to ${MAX_ORDER_QTY}.` })
      .min(1, { error: `qty must be a whole number of shares from 1 to ${MAX_ORDER_QTY}.` })
      .max(MAX_ORDER_QTY, { error: `qty must be a whole number of shares from 1 to ${MAX_ORDER_QTY}.` })
      .describe('whole shares'),
    limit_price_micros: z
      .int({ error: 'limit_price_micros must be a positive integer of micros.' })
      .min(1, { error: 'limit_price_micros must be a positive integer of micros.' })
      .max(Number.MAX_SAFE_INTEGER)
      .nullable()
      .optional()
      .describe('limit orders only (a market order carries none, or null): on the tick grid, inside the +/-20% band'),
    time_in_force: z
      .enum(ORDER_TIFS, { error: 'time_in_force must be day, gtc, ioc or fok.' })
      .nullable()
      .optional()
      .describe('default day; ioc and fok need an open session'),
    client_order_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe('tenant-unique forever; a repeat is 422 CLIENT_ORDER_ID_EXISTS'),
  })
  .refine(pricedByType, {
    path: ['limit_price_micros'],
    error: 'A limit order needs limit_price_micros; a market order carries none.',
    // checked even when another field failed, so that INVALID_PRICE keeps its place in the precedence
    when: ({ value }) => typeof value === 'object' && value !== null,
  })
  .meta({ id: 'OrderRequest' });

/** The code of each order field's failure; any other failure of the body is VALIDATION_FAILED. */
export const ORDER_FIELD_CODES = {
  side: 'INVALID_SIDE',
  type: 'INVALID_TYPE',
  qty: 'INVALID_QTY',
  limit_price_micros: 'INVALID_PRICE',
  time_in_force: 'INVALID_TIME_IN_FORCE',
} as const;

/** Which failure of the order body is answered when it has several: the first code of this list. */
export const ORDER_BODY_PRECEDENCE = [
  'VALIDATION_FAILED',
  'INVALID_SIDE',
  'INVALID_TYPE',
  'INVALID_QTY',
  'INVALID_PRICE',
  'INVALID_TIME_IN_FORCE',
] as const;

const ts = (what: string) => timestamp().nullable().describe(what);

export const OrderSchema = z
  .object({
    order_id: z.string().describe('ord_...'),
    client_order_id: z.string().nullable(),
    investor_id: z.string(),
    market_id: z.literal('XCAI'),
    symbol: z.string(),
    asset_class: z.literal('egx_equity'),
    side: z.enum(['buy', 'sell']),
    type: z.enum(['market', 'limit']),
    order_class: z.literal('simple'),
    time_in_force: z.enum(ORDER_TIFS),
    qty: z.int(),
    limit_price_micros: z.int().nullable(),
    state: z.enum(ORDER_STATES).describe('internal lifecycle state'),
    status: z
      .enum(STATUSES)
      .describe(
        'reference-aligned status (spec table: received/transmitted -> pending_new, validated -> accepted, ' +
          'acked -> new, cancel_requested -> pending_cancel, cancelled -> canceled)',
      ),
    filled_qty: z.int(),
    avg_price_micros: z
      .int()
      .nullable()
      .describe('filled value / filled_qty, rounded half up; null before the first fill'),
    reason_code: z.string().nullable().describe('on rejection or cancel: a code of the reject-code registry'),
    created_at: timestamp(),
    updated_at: timestamp(),
    submitted_at: ts('when it was transmitted to the exchange (null while queued or at the desk)'),
    filled_at: ts('when it was completely filled'),
    canceled_at: ts('when it was cancelled'),
    expired_at: ts('when it expired'),
  })
  .meta({ id: 'Order' });

export const OrderList = z.object({ orders: z.array(OrderSchema).describe('newest first') }).meta({ id: 'OrderList' });

export const OrderListQuery = z.strictObject({
  investor_id: z.string().min(1).max(64).optional(),
  status: z.enum(['open', 'closed']).optional().describe('open: not yet filled, cancelled, rejected or expired'),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const OrderParams = z.strictObject({ id: z.string().min(1).max(64) });

const FeeLines = {
  commission_micros: z.int(),
  egx_micros: z.int(),
  mcdr_micros: z.int(),
  ipf_micros: z.int().describe('investor protection fund'),
  fra_micros: z.int(),
  total_micros: z.int(),
};

export const ContractNoteSchema = z
  .object({
    order_id: z.string(),
    client_order_id: z.string().nullable(),
    investor_id: z.string(),
    account_number: z.string(),
    market_id: z.string(),
    symbol: z.string(),
    side: z.enum(['buy', 'sell']),
    type: z.enum(['market', 'limit']),
    time_in_force: z.enum(ORDER_TIFS),
    limit_price_micros: z.int().nullable(),
    order_qty: z.int(),
    state: z.enum(ORDER_STATES),
    status: z.enum(STATUSES),
    currency: z.literal('EGP'),
    trade_date: calendarDate().describe('date of the first execution (YYYY-MM-DD, Cairo)'),
    settlement_date: calendarDate().describe('settlement date of the last execution (T+2 business days)'),
    filled_qty: z.int(),
    avg_price_micros: z.int().nullable(),
    fills: z.array(
      z.object({
        fill_id: z.string(),
        executed_at: timestamp(),
        trade_date: calendarDate(),
        settlement_date: calendarDate(),
        venue: z.enum(['tape', 'desk']),
        qty: z.int(),
        price_micros: z.int(),
        gross_micros: z.int(),
        fees: z.object(FeeLines),
        withholding: z.object({ stamp_duty_micros: z.int() }),
        net_micros: z.int(),
      }),
    ),
    gross_consideration_micros: z.int(),
    fees: z.object(FeeLines),
    withholding: z.object({ stamp_duty_micros: z.int(), total_micros: z.int() }),
    net_consideration_micros: z
      .int()
      .describe('buy: gross + fees + withholding, debited; sell: gross - fees - withholding, credited'),
    net_direction: z.enum(['debit', 'credit']),
    issued_at: timestamp(),
  })
  .meta({ id: 'ContractNote' });

export const DeskQueueQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(100) });

export const DeskExecuteBody = z.strictObject({
  price_micros: z
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('default: the tape price now; on the tick grid, inside the band, never worse than the limit'),
  qty: z.int().positive().max(1_000_000_000).optional().describe('default: the whole remaining quantity'),
});

export const DeskRejectBody = z.strictObject({
  reason_code: z.string().min(1).max(64).describe('a dealer reason of fixtures/reject-codes.json'),
});

export const BlotterQuery = z.strictObject({
  date: z.iso.date().optional().describe('trade date (YYYY-MM-DD, Cairo); default today'),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const BookParams = z.strictObject({ m: z.string().min(1).max(16), s: z.string().min(1).max(16) });
export const BookQuery = z.strictObject({ levels: z.coerce.number().int().min(1).max(20).default(5) });

export const AutoFillBody = z.strictObject({ enabled: z.boolean() });

// What the order desk answers (daemon/trading/desk.ts).

const Side = z.enum(['buy', 'sell']);

export const PriceBandSchema = z
  .object({
    lower_micros: z.int().describe('lowest price allowed today: the reference price -20%, rounded up to the tick grid'),
    upper_micros: z
      .int()
      .describe('highest price allowed today: the reference price +20%, rounded down to the tick grid'),
  })
  .meta({ id: 'PriceBand' });

export const DeskOrderSchema = OrderSchema.extend({
  tenant_id: z.string().describe('tnt_... of the tenant that placed it'),
  account_number: z.string().describe("the investor's account number"),
  investor_name: z.string().describe("the investor's full name"),
  routing: z
    .enum(['auto', 'desk'])
    .describe('desk: placed while auto-fill was off, waits for a dealer; auto: sent to the exchange (the tape)'),
}).meta({ id: 'DeskOrder' });

export const DeskQueueItemSchema = DeskOrderSchema.extend({
  market: z
    .object({
      price_micros: z.int().describe('the tape price now: the default execution price'),
      band: PriceBandSchema,
      session_open: z.boolean().describe('the desk executes only in session'),
    })
    .describe("the market for the order's symbol now"),
}).meta({ id: 'DeskQueueItem' });

export const DeskQueueSchema = z
  .object({
    auto_fill: z
      .boolean()
      .describe('false: new orders wait here; true: new orders go to the exchange (those already here stay)'),
    orders: z
      .array(DeskQueueItemSchema)
      .describe('desk orders not yet filled, cancelled, rejected or expired, oldest first; at most limit'),
  })
  .meta({ id: 'DeskQueue' });

export const BlotterExecutionSchema = z
  .object({
    fill_id: z.string().describe('fil_...'),
    order_id: z.string().describe('ord_...'),
    tenant_id: z.string(),
    investor_id: z.string(),
    account_number: z.string(),
    symbol: z.string(),
    side: Side,
    qty: z.int().describe('shares executed'),
    price_micros: z.int().describe('execution price per share'),
    gross_micros: z.int().describe('qty x price'),
    net_micros: z
      .int()
      .describe(
        'buy: gross + fees + stamp duty, debited; sell: gross - fees - stamp duty, credited (negative when the ' +
          'charges exceed the proceeds)',
      ),
    venue: z.enum(['tape', 'desk']).describe('tape: auto-filled against the tape; desk: executed by a dealer'),
    executed_by: z.string().nullable().describe('name of the dealer who executed it; null for tape fills'),
    executed_at: timestamp().describe('RFC 3339, Cairo offset'),
    settlement_date: calendarDate().describe('T+2 business days (YYYY-MM-DD, Cairo)'),
  })
  .meta({ id: 'BlotterExecution' });

export const BlotterSchema = z
  .object({
    date: calendarDate().describe('the trade date shown (YYYY-MM-DD, Cairo)'),
    executions: z
      .array(BlotterExecutionSchema)
      .describe("executions of the dealer's broker on that date, newest first; at most limit"),
  })
  .meta({ id: 'Blotter' });

export const ExposureSchema = z
  .object({
    as_of: timestamp().describe('RFC 3339, Cairo offset'),
    trade_date: calendarDate().describe('today (YYYY-MM-DD, Cairo): the date of traded_today'),
    open_orders: z
      .array(
        z.object({
          side: Side,
          orders: z.int().describe('open orders (not yet filled, cancelled, rejected or expired)'),
          qty: z.int().describe('their ordered shares'),
          filled_qty: z.int().describe('of which filled'),
          reserved_cash_micros: z
            .int()
            .describe('cash still reserved for them (what remains of their pending cash holds)'),
        }),
      )
      .describe('one row per side that has open orders, buy before sell'),
    unsettled: z
      .array(
        z.object({
          settlement_date: calendarDate().describe('YYYY-MM-DD, Cairo'),
          side: Side,
          fills: z.int().describe('executions settling that day'),
          gross_micros: z.int().describe('their traded value'),
          net_micros: z.int().describe('their net consideration (see BlotterExecution.net_micros)'),
        }),
      )
      .describe('executions not yet settled, by settlement date then side'),
    traded_today: z
      .array(
        z.object({
          symbol: z.string(),
          bought_qty: z.int(),
          sold_qty: z.int(),
          net_qty: z.int().describe('bought_qty - sold_qty (negative when net sold)'),
          bought_value_micros: z.int().describe('gross value bought'),
          sold_value_micros: z.int().describe('gross value sold'),
        }),
      )
      .describe('executions of trade_date per symbol, alphabetical'),
  })
  .meta({ id: 'DeskExposure' });

const BookLevel = z
  .object({
    price_micros: z.int(),
    qty: z.int().describe('simulated shares at this level'),
    orders: z.int().describe('simulated orders at this level'),
  })
  .meta({ id: 'BookLevel' });

export const OrderBookSchema = z
  .object({
    market_id: z.string().describe('XCAI'),
    symbol: z.string(),
    as_of: timestamp().describe('RFC 3339, Cairo offset'),
    session_open: z.boolean(),
    halted: z.boolean(),
    last_price_micros: z.int().describe('the tape price now'),
    band: PriceBandSchema,
    bids: z
      .array(BookLevel)
      .describe('from one tick below the tape price down, one tick apart, inside the band; at most levels'),
    asks: z.array(BookLevel).describe('from the tape price up, one tick apart, inside the band; at most levels'),
    note: z.string(),
  })
  .meta({ id: 'OrderBook' });

export const AutoFillSchema = z
  .object({
    auto_fill: z.boolean().describe('true: orders execute against the tape; false: new orders wait at the dealer desk'),
  })
  .meta({ id: 'AutoFill' });

// The response types, named as /openapi.json names them: the CLI's client is typed with these.
export type Order = z.infer<typeof OrderSchema>;
export type OrderList = z.infer<typeof OrderList>;
export type ContractNote = z.infer<typeof ContractNoteSchema>;
export type PriceBand = z.infer<typeof PriceBandSchema>;
export type DeskOrder = z.infer<typeof DeskOrderSchema>;
export type DeskQueueItem = z.infer<typeof DeskQueueItemSchema>;
export type DeskQueue = z.infer<typeof DeskQueueSchema>;
export type BlotterExecution = z.infer<typeof BlotterExecutionSchema>;
export type Blotter = z.infer<typeof BlotterSchema>;
export type DeskExposure = z.infer<typeof ExposureSchema>;
export type OrderBook = z.infer<typeof OrderBookSchema>;
export type AutoFill = z.infer<typeof AutoFillSchema>;
