// Market data and calendar: instruments (alphabetical), quotes, OHLCV, clock, calendar, bonds,
// and generated logo images.
import { z } from 'zod';
import { DateTime } from 'luxon';
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { AppError } from '../http/errors.js';
import { clockView } from '../sandbox/service.js';
import { ClockSchema } from '../contract/schemas/sandbox.js';
import { hash32 } from '../sim/prng.js';
import { MARKET_ID, type Instrument } from './catalog.js';
import { accruedMicros, dirtyPriceMicros } from './bonds.js';
import {
  BondSchema, BondsQuery, CalendarQuery, CalendarRowSchema, CandleSchema, DetailQuoteSchema, IndexOhlcvSchema, InstrumentSchema, LiveQuoteSchema, OhlcvQuery,
} from '../contract/schemas/market.js';

const MAX_CALENDAR_DAYS = 731;

function baseUrl(headers: Record<string, string | string[] | undefined>): string {
  const host = typeof headers.host === 'string' ? headers.host : 'localhost';
  return `http://${host}`;
}

function realDate(s: string, field: string): DateTime {
  const d = DateTime.fromISO(s, { zone: 'UTC' });
  if (!d.isValid) throw new AppError('INVALID_DATE', `${field}: ${s} is not a calendar date.`);
  return d;
}

function logoSvg(symbol: string): string {
  const hue = hash32('logo', symbol) % 360;
  const text = symbol.slice(0, 4);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="hsl(${hue},55%,38%)"/><text x="32" y="38" font-family="sans-serif" font-size="${text.length > 3 ? 15 : 18}" font-weight="700" fill="#fff" text-anchor="middle">${text}</text></svg>`;
}

export function marketRoutes(deps: Deps): RouteDef[] {
  const { market } = deps;
  const symbolParams = z.strictObject({ symbol: z.string().min(1).max(16) });
  const marketParams = z.strictObject({ market_id: z.string().min(1).max(16), symbol: z.string().min(1).max(16) });

  function checkMarket(id: string): void {
    if (id.toUpperCase() !== MARKET_ID) throw new AppError('UNKNOWN_MARKET', `No market ${id}; the exchange is ${MARKET_ID}.`);
  }

  function instrumentRow(i: Instrument, base: string) {
    const ref = market.referenceAt(i.symbol, deps.clock.now()).refPriceMicros;
    return {
      symbol: i.symbol, name: i.name, name_ar: i.name_ar, isin: i.isin, sector: i.sector, security_type: i.security_type,
      market_id: i.market_id, ref_price_micros: ref, shariah_compliant: i.shariah_compliant, logo_url: base + i.logo_url,
      fundamentals: i.fundamentals, fractionable: false as const, lot_size: i.lot_size, tradable: i.security_type === 'equity',
    };
  }

  return [
    defineRoute({
      method: 'GET', url: '/v1/clock', auth: 'B', tags: ['market'], summary: 'The sandbox clock: timestamp, is_open, next_open, next_close (Africa/Cairo offsets).',
      response: ClockSchema, handler: () => clockView(deps),
    }),
    defineRoute({
      method: 'GET', url: '/v1/calendar', auth: 'B', tags: ['market'],
      summary: 'Trading days between start and end inclusive (default today through today + 30 days), with T+2 settlement dates.',
      query: CalendarQuery, response: z.object({ calendar: z.array(CalendarRowSchema) }), errors: ['INVALID_DATE', 'INVALID_RANGE'],
      handler: ({ query }) => {
        const today = market.calendar.localDate(deps.clock.now());
        const start = query.start ?? today;
        const end = query.end ?? DateTime.fromISO(start, { zone: 'UTC' }).plus({ days: 30 }).toISODate()!;
        const days = realDate(end, 'end').diff(realDate(start, 'start'), 'days').days;
        if (days < 0) throw new AppError('INVALID_RANGE', `end ${end} is before start ${start}.`);
        if (days > MAX_CALENDAR_DAYS) throw new AppError('INVALID_RANGE', `At most ${MAX_CALENDAR_DAYS} days per request.`);
        return { calendar: market.calendar.rows(start, end) };
      },
    }),
    defineRoute({
      method: 'GET', url: '/v1/instruments', auth: 'B', tags: ['market'],
      summary: 'The tradable universe, alphabetical by symbol (bonds and sukuk share the catalog by security_type).',
      query: z.strictObject({ security_type: z.enum(['equity', 'bond', 'sukuk']).optional() }),
      response: z.object({ instruments: z.array(InstrumentSchema), ordering: z.literal('symbol_asc') }),
      handler: ({ query, headers }) => {
        const base = baseUrl(headers);
        const rows = market.catalog.all
          .filter((i) => !query.security_type || i.security_type === query.security_type)
          .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
        return { instruments: rows.map((i) => instrumentRow(i, base)), ordering: 'symbol_asc' as const };
      },
    }),
    defineRoute({
      method: 'GET', url: '/v1/instruments/:symbol', auth: 'B', tags: ['market'], summary: 'One instrument of the catalog.',
      params: symbolParams, response: InstrumentSchema, errors: ['UNKNOWN_SYMBOL'],
      handler: ({ params, headers }) => instrumentRow(market.instrument(params.symbol), baseUrl(headers)),
    }),
    defineRoute({
      method: 'GET', url: '/v1/instruments/:symbol/quote', auth: 'B', tags: ['market'],
      summary: 'Quote with the reference price, the +/-20% band, the tick for the price level, session_open and halt state.',
      params: symbolParams, response: DetailQuoteSchema, errors: ['UNKNOWN_SYMBOL'],
      handler: ({ params }) => market.detailQuote(params.symbol),
    }),
    defineRoute({
      method: 'GET', url: '/v1/markets/:market_id/instruments/:symbol/quote', auth: 'B', tags: ['market'],
      summary: 'Live tape quote: price_micros, prev_close_micros, change_pct (fraction), as_of, session_open.',
      params: marketParams, response: LiveQuoteSchema, errors: ['UNKNOWN_MARKET', 'UNKNOWN_SYMBOL'],
      handler: ({ params }) => {
        checkMarket(params.market_id);
        return market.liveQuote(params.symbol);
      },
    }),
    defineRoute({
      method: 'GET', url: '/v1/markets/:market_id/instruments/:symbol/ohlcv', auth: 'B', tags: ['market'],
      summary: 'Daily candles for the last `days` trading days (default 90, cap 365), chronological; today truncated at now.',
      params: marketParams, query: OhlcvQuery, response: z.object({ symbol: z.string(), candles: z.array(CandleSchema) }),
      errors: ['UNKNOWN_MARKET', 'UNKNOWN_SYMBOL', 'VALIDATION_FAILED'],
      handler: ({ params, query }) => {
        checkMarket(params.market_id);
        const inst = market.instrument(params.symbol);
        const now = deps.clock.now();
        return { symbol: inst.symbol, candles: market.tape.candles(inst.symbol, market.calendar.localDate(now), query.days, now) };
      },
    }),
    defineRoute({
      method: 'GET', url: '/v1/markets/:market_id/index/EGX30/ohlcv', auth: 'B', tags: ['market'],
      summary: 'Daily EGX30 index levels computed from its constituents on the tape (base 10,000 at the reference prices).',
      params: z.strictObject({ market_id: z.string().min(1).max(16) }), query: OhlcvQuery, response: IndexOhlcvSchema,
      handler: ({ params, query }) => {
        checkMarket(params.market_id);
        const now = deps.clock.now();
        return { index: 'EGX30', candles: market.tape.indexCandles(market.calendar.localDate(now), query.days, now) };
      },
    }),
    defineRoute({
      method: 'GET', url: '/v1/bonds', auth: 'B', tags: ['market'],
      summary: 'Treasury bonds and sukuk, ordered by market_id then symbol; shariah=true narrows to compliant instruments without reordering.',
      query: BondsQuery, response: z.object({ bonds: z.array(BondSchema), ordering: z.literal('alphabetical'), note: z.string() }),
      handler: ({ query, headers }) => {
        const now = deps.clock.now();
        const cal = market.calendar;
        const settlement = cal.addTradingDays(cal.localDate(now), 1);
        const base = baseUrl(headers);
        const toIsoDate = (d: string) => DateTime.fromISO(d, { zone: 'Africa/Cairo' }).toISO({ suppressMilliseconds: true })!;
        const bonds = market.catalog.bonds
          .filter((b) => query.shariah !== 'true' || b.shariah_compliant)
          .map((b) => {
            const clean = market.tape.priceAt(b.symbol, now);
            const accrued = accruedMicros(b as Required<Instrument>, settlement);
            return {
              market_id: b.market_id, symbol: b.symbol, name: b.name, name_ar: b.name_ar, isin: b.isin,
              security_type: b.security_type as 'bond' | 'sukuk', clean_price_micros: clean, ref_price_micros: clean,
              currency: 'EGP' as const, shariah_compliant: b.shariah_compliant, face_value_micros: b.face_value_micros!,
              coupon_rate_bps: b.coupon_rate_bps!, coupon_frequency: b.coupon_frequency!,
              issue_date: toIsoDate(b.issue_date!), maturity_date: toIsoDate(b.maturity_date!),
              day_count_convention: b.day_count_convention!, first_coupon_date: b.first_coupon_date ?? null,
              accrued_interest_micros: accrued, dirty_price_micros: dirtyPriceMicros(clean, accrued, b.face_value_micros!),
              settlement_date: settlement, logo_url: base + b.logo_url,
            };
          });
        return {
          bonds,
          ordering: 'alphabetical' as const,
          note: 'Ordered by market_id then symbol only; no yield or coupon sort is offered. Bonds and sukuk are not orderable in this release. Accrued interest is per unit of face value to the T+1 settlement date.',
        };
      },
    }),
    defineRoute({
      method: 'GET', url: '/assets/logos/:file', auth: 'none', tags: ['assets'], summary: 'Generated logo of an instrument (SVG).',
      params: z.strictObject({ file: z.string().regex(/^[A-Z0-9]{2,12}\.svg$/) }),
      handler: ({ params }) => {
        const symbol = params.file.replace(/\.svg$/, '');
        market.instrument(symbol);
        return { status: 200, raw: Buffer.from(logoSvg(symbol)), contentType: 'image/svg+xml' };
      },
    }),
  ];
}
