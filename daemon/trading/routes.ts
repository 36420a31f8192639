// Orders (tenant: POST and DELETE are signed and idempotent), contract notes, the order desk
// (/broker/v1, X-Console-Key with its grants) and the auto-fill sandbox control. Creating the module
// registers the order source and the settlement event with the scheduler.
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { createTradingService, type TradingService } from './service.js';
import { createOrderDesk, type OrderDesk } from './desk.js';
import {
  AutoFillBody,
  AutoFillSchema,
  BlotterQuery,
  BlotterSchema,
  BookParams,
  BookQuery,
  ContractNoteSchema,
  DeskExecuteBody,
  DeskOrderSchema,
  DeskQueueQuery,
  DeskQueueSchema,
  DeskRejectBody,
  ExposureSchema,
  OrderBookSchema,
  ORDER_BODY_PRECEDENCE,
  ORDER_FIELD_CODES,
  OrderCreateBody,
  OrderList,
  OrderListQuery,
  OrderParams,
  OrderSchema,
} from '../contract/schemas/trading.js';

const ORDER_ERRORS = [
  'VALIDATION_FAILED',
  'INVALID_SIDE',
  'INVALID_TYPE',
  'INVALID_QTY',
  'INVALID_PRICE',
  'INVALID_TIME_IN_FORCE',
  'UNKNOWN_SYMBOL',
  'TICK_VIOLATION',
  'PRICE_BAND_EXCEEDED',
  'NOT_FOUND',
  'INVESTOR_NOT_APPROVED',
  'INVESTOR_CLOSED',
  'SUITABILITY_REQUIRED',
  'RISK_ACK_REQUIRED',
  'INVESTOR_RESTRICTED',
  'SHARIAH_RESTRICTED',
  'INSTRUMENT_HALTED',
  'INSTRUMENT_NOT_ORDERABLE',
  'MARKET_CLOSED',
  'INSUFFICIENT_SETTLED_CASH',
  'INSUFFICIENT_SETTLED_SECURITIES',
  'CLIENT_ORDER_ID_EXISTS',
] as const;

/** The code of a failure of the order body's field `key` (undefined: VALIDATION_FAILED). */
function orderFieldCode(key: PropertyKey | undefined) {
  return typeof key === 'string' && Object.hasOwn(ORDER_FIELD_CODES, key)
    ? ORDER_FIELD_CODES[key as keyof typeof ORDER_FIELD_CODES]
    : undefined;
}

const grant = (g: string) => ({ realm: 'console', grant: g }) as const;

export function tradingRoutes(deps: Deps): RouteDef[] {
  const trading = createTradingService(deps);
  const desk = createOrderDesk(deps, trading.desk);
  return [
    ...orderRoutes(trading),
    ...deskRoutes(desk),
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/auto-fill',
      auth: { realm: 'admin', grant: 'sandbox:control' },
      tags: ['sandbox'],
      summary:
        'Auto-fill on (default): orders execute against the tape. Off: new orders wait at the dealer desk (GET ' +
        '/broker/v1/queue).',
      body: AutoFillBody,
      response: AutoFillSchema,
      handler: ({ body }) => trading.setAutoFill(body.enabled),
    }),
  ];
}

function orderRoutes(trading: TradingService): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/orders',
      auth: 'S',
      tags: ['orders'],
      status: 201,
      summary:
        'Place an order. Validation answers the first failing code in the documented precedence ' +
        '(docs/trading.md); a buy reserves settled cash, a sell settled shares. In session a market order ' +
        'fills at once; outside it day and gtc orders are queued (accepted).',
      body: OrderCreateBody,
      issueCode: (path, where) => (where === 'body' ? orderFieldCode(path[0]) : undefined),
      issuePrecedence: ORDER_BODY_PRECEDENCE,
      response: OrderSchema,
      errors: [...ORDER_ERRORS],
      handler: ({ body, tenantId }) => trading.place(tenantId!, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/orders',
      auth: 'B',
      tags: ['orders'],
      summary:
        'Orders of the tenant, newest first; filter by investor_id and status (open | closed); limit 1-200 ' +
        '(default 100).',
      query: OrderListQuery,
      response: OrderList,
      errors: ['NOT_FOUND', 'VALIDATION_FAILED'],
      handler: ({ query, tenantId }) => trading.list(tenantId!, query),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/orders/:id',
      auth: 'B',
      tags: ['orders'],
      summary: 'One order; poll it to follow fills, cancellation and expiry.',
      params: OrderParams,
      response: OrderSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params, tenantId }) => trading.get(tenantId!, params.id),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v1/orders/:id',
      auth: 'S',
      tags: ['orders'],
      status: 202,
      summary:
        'Request cancellation: the order is pending_cancel at once and canceled at the next simulated minute, ' +
        'unless a fill completes it first (the fill stands).',
      params: OrderParams,
      response: OrderSchema,
      errors: ['NOT_FOUND', 'ORDER_NOT_CANCELLABLE'],
      handler: ({ params, tenantId }) => trading.cancel(tenantId!, params.id),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/orders/:id/contract-note',
      auth: 'B',
      tags: ['orders'],
      summary:
        'Contract note: trade and settlement dates, each fill, each fee, the stamp duty withheld, gross and ' +
        'net consideration.',
      params: OrderParams,
      response: ContractNoteSchema,
      errors: ['NOT_FOUND', 'NO_EXECUTIONS'],
      handler: ({ params, tenantId }) => trading.contractNote(tenantId!, params.id),
    }),
  ];
}

function deskRoutes(desk: OrderDesk): RouteDef[] {
  return [...deskQueueRoutes(desk), ...deskViewRoutes(desk)];
}

function deskQueueRoutes(desk: OrderDesk): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/broker/v1/queue',
      auth: grant('queue:read'),
      tags: ['desk'],
      summary:
        'Orders waiting at the dealer desk (placed while auto-fill was off), oldest first, with the tape price ' +
        'and band.',
      query: DeskQueueQuery,
      response: DeskQueueSchema,
      handler: ({ query, operator }) => desk.queue(operator!, query.limit),
    }),
    defineRoute({
      method: 'POST',
      url: '/broker/v1/queue/:id/execute',
      auth: grant('orders:execute'),
      tags: ['desk'],
      summary:
        'Execute a desk order in session at price_micros (default the tape price; inside the band, never worse ' +
        'than the limit) for qty (default all that remains).',
      params: OrderParams,
      body: DeskExecuteBody,
      response: DeskOrderSchema,
      errors: [
        'NOT_FOUND',
        'ORDER_NOT_IN_QUEUE',
        'MARKET_CLOSED',
        'INSTRUMENT_HALTED',
        'TICK_VIOLATION',
        'PRICE_BAND_EXCEEDED',
        'PRICE_WORSE_THAN_LIMIT',
        'INVALID_QTY',
        'INSUFFICIENT_BUYING_POWER',
      ],
      handler: ({ params, body, operator }) => desk.execute(operator!, params.id, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/broker/v1/queue/:id/reject',
      auth: grant('orders:execute'),
      tags: ['desk'],
      summary:
        'Reject a desk order with a dealer reason code of the reject-code registry; its reservation is released.',
      params: OrderParams,
      body: DeskRejectBody,
      response: DeskOrderSchema,
      errors: ['NOT_FOUND', 'ORDER_NOT_IN_QUEUE', 'INVALID_REJECT_REASON'],
      handler: ({ params, body, operator }) => desk.reject(operator!, params.id, body.reason_code),
    }),
  ];
}

function deskViewRoutes(desk: OrderDesk): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/broker/v1/blotter',
      auth: grant('blotter:read'),
      tags: ['desk'],
      summary: "Executions of a trade date (default today) for the dealer's broker, newest first.",
      query: BlotterQuery,
      response: BlotterSchema,
      errors: ['DATE_OUT_OF_RANGE'],
      handler: ({ query, operator }) => desk.blotter(operator!, query),
    }),
    defineRoute({
      method: 'GET',
      url: '/broker/v1/exposure',
      auth: grant('exposure:read'),
      tags: ['desk'],
      summary:
        "The broker's exposure: open orders and their reserved cash, unsettled executions by settlement date, " +
        "today's traded quantity per symbol.",
      response: ExposureSchema,
      handler: ({ operator }) => desk.exposure(operator!),
    }),
    defineRoute({
      method: 'GET',
      url: '/broker/v1/markets/:m/instruments/:s/book',
      auth: grant('orderbook:read'),
      tags: ['desk'],
      summary:
        'A simulated order book around the tape price (deterministic per seed, symbol and minute); levels 1-20 ' +
        '(default 5).',
      params: BookParams,
      query: BookQuery,
      response: OrderBookSchema,
      errors: ['UNKNOWN_MARKET', 'UNKNOWN_SYMBOL'],
      handler: ({ params, query }) => desk.book(params.m, params.s, query.levels),
    }),
  ];
}
