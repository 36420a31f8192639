// Market data and calendar routes: instruments (alphabetical), quotes, OHLCV, clock, calendar, bonds,
// and generated logo images. Each route parses and delegates to the market domain's views.
import { z } from 'zod';
import type { MarketReader } from './service.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { baseUrl } from '../contract/base-url.js';
import { firstOf } from '../contract/list-page.js';
import { listLimit } from '../contract/schemas/formats.js';
import { ClockSchema } from '../contract/schemas/sandbox.js';
import {
  BondSchema,
  BondsQuery,
  CalendarQuery,
  CalendarRowSchema,
  ClosedDaySchema,
  CandleSchema,
  DetailQuoteSchema,
  IndexOhlcvSchema,
  InstrumentSchema,
  LiveQuoteSchema,
  OhlcvQuery,
} from '../contract/schemas/market.js';
import { listBonds } from './bond-list.js';
import { calendarRange, clockView } from './calendar-view.js';
import { listInstruments, instrumentView } from './listings.js';
import { catalogLogo } from './logo.js';
import { egx30Candles, marketQuote, symbolCandles } from './market-data.js';

const symbolParams = z.strictObject({ symbol: z.string().min(1).max(16) });
const marketParams = z.strictObject({ market_id: z.string().min(1).max(16), symbol: z.string().min(1).max(16) });

/** The clock, the calendar and the instrument catalog with its quotes. */
function calendarAndCatalogRoutes(deps: MarketReader): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/clock',
      auth: 'B',
      tags: ['market'],
      summary: 'The sandbox clock: timestamp, is_open, next_open, next_close (Africa/Cairo offsets).',
      response: ClockSchema,
      handler: () => clockView(deps),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/calendar',
      auth: 'B',
      tags: ['market'],
      summary:
        'Trading days between start and end inclusive (default today through today + 30 days), with T+2 ' +
        'settlement dates, and the named holidays in that range (closed_days).',
      query: CalendarQuery,
      response: z.object({ calendar: z.array(CalendarRowSchema), closed_days: z.array(ClosedDaySchema) }),
      errors: ['INVALID_DATE', 'DATE_OUT_OF_RANGE', 'INVALID_RANGE'],
      handler: ({ query }) => calendarRange(deps, query.start, query.end),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/instruments',
      auth: 'B',
      tags: ['market'],
      summary: 'The tradable universe, alphabetical by symbol (bonds and sukuk share the catalog by security_type).',
      query: z.strictObject({ security_type: z.enum(['equity', 'bond', 'sukuk']).optional(), limit: listLimit() }),
      response: z.object({ instruments: z.array(InstrumentSchema), ordering: z.literal('symbol_asc') }),
      handler: ({ query, headers }) =>
        firstOf(listInstruments(deps, query.security_type, baseUrl(headers)), 'instruments', query.limit),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/instruments/:symbol',
      auth: 'B',
      tags: ['market'],
      summary: 'One instrument of the catalog.',
      params: symbolParams,
      response: InstrumentSchema,
      errors: ['UNKNOWN_SYMBOL'],
      handler: ({ params, headers }) => instrumentView(deps, params.symbol, baseUrl(headers)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/instruments/:symbol/quote',
      auth: 'B',
      tags: ['market'],
      summary:
        'Quote with the reference price, the +/-20% band, the tick for the price level, session_open and halt state.',
      params: symbolParams,
      response: DetailQuoteSchema,
      errors: ['UNKNOWN_SYMBOL'],
      handler: ({ params }) => deps.market.detailQuote(params.symbol),
    }),
  ];
}

/** Market data by market id, the bond listing and the logo images. */
function pricesAndAssetsRoutes(deps: MarketReader, otherLogos: ReadonlySet<string>): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/markets/:market_id/instruments/:symbol/quote',
      auth: 'B',
      tags: ['market'],
      summary: 'Live tape quote: price_micros, prev_close_micros, change_pct (fraction), as_of, session_open.',
      params: marketParams,
      response: LiveQuoteSchema,
      errors: ['UNKNOWN_MARKET', 'UNKNOWN_SYMBOL'],
      handler: ({ params }) => marketQuote(deps, params.market_id, params.symbol),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/markets/:market_id/instruments/:symbol/ohlcv',
      auth: 'B',
      tags: ['market'],
      summary:
        'Daily candles for the last `days` trading days (default 90, cap 365), chronological; today truncated at now.',
      params: marketParams,
      query: OhlcvQuery,
      response: z.object({ symbol: z.string(), candles: z.array(CandleSchema) }),
      errors: ['UNKNOWN_MARKET', 'UNKNOWN_SYMBOL', 'VALIDATION_FAILED'],
      handler: ({ params, query }) => symbolCandles(deps, params.market_id, params.symbol, query.days),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/markets/:market_id/index/EGX30/ohlcv',
      auth: 'B',
      tags: ['market'],
      summary:
        'Daily EGX30 index levels computed from its constituents on the tape (base 10,000 at the reference prices).',
      params: z.strictObject({ market_id: z.string().min(1).max(16) }),
      query: OhlcvQuery,
      response: IndexOhlcvSchema,
      errors: ['UNKNOWN_MARKET'],
      handler: ({ params, query }) => egx30Candles(deps, params.market_id, query.days),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/bonds',
      auth: 'B',
      tags: ['market'],
      summary:
        'Treasury bonds and sukuk, ordered by market_id then symbol; shariah=true narrows to compliant ' +
        'instruments without reordering.',
      query: BondsQuery,
      response: z.object({ bonds: z.array(BondSchema), ordering: z.literal('alphabetical'), note: z.string() }),
      handler: ({ query, headers }) =>
        firstOf(listBonds(deps, query.shariah === 'true', baseUrl(headers)), 'bonds', query.limit),
    }),
    defineRoute({
      method: 'GET',
      url: '/assets/logos/:file',
      auth: 'none',
      tags: ['assets'],
      summary:
        'Generated logo of an instrument or a fund (SVG): the logo_url of GET /v1/instruments, /v1/bonds and ' +
        '/v1/funds.',
      params: z.strictObject({ file: z.string().regex(/^[A-Z0-9]{2,12}\.svg$/) }),
      produces: ['image/svg+xml'],
      errors: ['UNKNOWN_SYMBOL'],
      handler: ({ params }) => {
        const logo = catalogLogo(deps, otherLogos, params.file);
        return logo.ok ? { status: 200, raw: logo.value.bytes, contentType: logo.value.contentType } : logo;
      },
    }),
  ];
}

/** otherLogos: the names beside the catalog's symbols that have a logo too (the fund codes). */
export function marketRoutes(deps: MarketReader, otherLogos: ReadonlySet<string> = new Set()): RouteDef[] {
  return [...calendarAndCatalogRoutes(deps), ...pricesAndAssetsRoutes(deps, otherLogos)];
}
