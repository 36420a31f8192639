// Order validation: a chain of early returns in documented precedence (docs/trading.md). The first
// failing rule names the code; after the last one the order is accepted and its reservation is known.
//
//  1 INVALID_SIDE  2 INVALID_TYPE  3 INVALID_QTY  4 INVALID_PRICE  5 INVALID_TIME_IN_FORCE
//  6 UNKNOWN_SYMBOL (404)  7 TICK_VIOLATION  8 PRICE_BAND_EXCEEDED
//  9 the investor: NOT_FOUND (404), INVESTOR_NOT_APPROVED, INVESTOR_CLOSED
// 10 SUITABILITY_REQUIRED  11 RISK_ACK_REQUIRED  12 INVESTOR_RESTRICTED  13 SHARIAH_RESTRICTED
// 14 INSTRUMENT_HALTED  15 INSTRUMENT_NOT_ORDERABLE  16 MARKET_CLOSED
// 17 INSUFFICIENT_SETTLED_CASH  18 INSUFFICIENT_SETTLED_SECURITIES  19 CLIENT_ORDER_ID_EXISTS
//
// The body's shape (a JSON object without unknown fields, investor_id and symbol strings,
// client_order_id 1-128 characters) is checked by the route schema before this chain.
import type { ErrorCode } from '../contract/errors.js';
import { formatEgp } from '../contract/money.js';
import type { Outcome } from '../http/errors.js';
import type { InvestorRow } from '../investors/repo.js';
import type { Instrument } from '../market/catalog.js';
import { isOnTick, tickSize, type PriceBand } from '../market/ticks.js';
import { reservationFor, type FeeSchedule, type Reservation } from '../contract/fees.js';
import type { OrderType, Side, TimeInForce } from './matcher.js';

// The reservation rule is shared with the CLI's estimate (daemon/contract/fees.ts).
export { notional, reservationFor, type Reservation } from '../contract/fees.js';

/** Larger orders are refused as INVALID_QTY: no exchange accepts a billion shares in one order. */
export const MAX_ORDER_QTY = 1_000_000_000;

export interface OrderBody {
  investor_id: string;
  symbol: string;
  side?: unknown;
  type?: unknown;
  qty?: unknown;
  limit_price_micros?: unknown;
  time_in_force?: unknown;
  client_order_id?: string;
}

export interface ValidationEnv {
  instrument(symbol: string): Instrument | null;
  /** The price band that applies now (this session's, or the next one's when closed). */
  band(symbol: string): PriceBand;
  /** The investor as funding and trading see it (unknown, unapproved or closed: a failure). */
  investor(investorId: string): Outcome<InvestorRow>;
  isHalted(symbol: string): boolean;
  isOpen(): boolean;
  settledCashMicros(investorId: string): number;
  settledShares(investorId: string, symbol: string): number;
  clientOrderIdExists(clientOrderId: string): boolean;
  fees: FeeSchedule;
}

export interface ValidOrder {
  investor: InvestorRow;
  instrument: Instrument;
  side: Side;
  type: OrderType;
  tif: TimeInForce;
  qty: number;
  limitPriceMicros: number | null;
  clientOrderId: string | null;
  band: PriceBand;
  reservation: Reservation;
}

const SIDES = new Set(['buy', 'sell']);
const TYPES = new Set(['market', 'limit']);
const TIFS = new Set(['day', 'gtc', 'ioc', 'fok']);

function no(code: ErrorCode, message?: string): Outcome<never> {
  return { ok: false, code, message };
}

export function validateOrder(body: OrderBody, env: ValidationEnv): Outcome<ValidOrder> {
  if (typeof body.side !== 'string' || !SIDES.has(body.side)) return no('INVALID_SIDE');
  const side = body.side as Side;
  if (typeof body.type !== 'string' || !TYPES.has(body.type)) return no('INVALID_TYPE');
  const type = body.type as OrderType;
  const qty = body.qty;
  if (typeof qty !== 'number' || !Number.isInteger(qty) || qty <= 0 || qty > MAX_ORDER_QTY) {
    return no('INVALID_QTY', `qty must be a whole number of shares from 1 to ${MAX_ORDER_QTY}.`);
  }
  const rawPrice = body.limit_price_micros;
  let limitPriceMicros: number | null = null;
  if (type === 'limit') {
    if (typeof rawPrice !== 'number' || !Number.isSafeInteger(rawPrice) || rawPrice <= 0) {
      return no('INVALID_PRICE', 'A limit order needs limit_price_micros, a positive integer of micros.');
    }
    limitPriceMicros = rawPrice;
  } else if (rawPrice !== undefined && rawPrice !== null) {
    return no('INVALID_PRICE', 'A market order carries no limit_price_micros.');
  }
  const rawTif = body.time_in_force ?? 'day';
  if (typeof rawTif !== 'string' || !TIFS.has(rawTif)) return no('INVALID_TIME_IN_FORCE');
  const tif = rawTif as TimeInForce;

  const instrument = env.instrument(body.symbol);
  if (!instrument) return no('UNKNOWN_SYMBOL', `No instrument ${body.symbol}.`);
  const band = env.band(instrument.symbol);
  if (limitPriceMicros !== null && !isOnTick(limitPriceMicros)) {
    return no('TICK_VIOLATION', `${limitPriceMicros} is not a multiple of the tick ${tickSize(limitPriceMicros)} micros.`);
  }
  if (limitPriceMicros !== null && (limitPriceMicros < band.lowerMicros || limitPriceMicros > band.upperMicros)) {
    return no('PRICE_BAND_EXCEEDED', `The band of ${instrument.symbol} is ${formatEgp(band.lowerMicros)}-${formatEgp(band.upperMicros)} EGP (${band.lowerMicros}-${band.upperMicros} micros).`);
  }

  const inv = env.investor(body.investor_id);
  if (!inv.ok) return inv;
  const investor = inv.value;
  if (investor.suitability_recorded !== 1) return no('SUITABILITY_REQUIRED');
  if (investor.risk_acknowledged !== 1) return no('RISK_ACK_REQUIRED');
  if (investor.status === 'restricted' && side === 'buy') return no('INVESTOR_RESTRICTED');
  // Like a restriction, the shariah election stops new positions, never the exit from an old one.
  if (investor.shariah_only === 1 && !instrument.shariah_compliant && side === 'buy') return no('SHARIAH_RESTRICTED', `${instrument.symbol} is not shariah-compliant.`);
  if (env.isHalted(instrument.symbol)) return no('INSTRUMENT_HALTED', `Trading in ${instrument.symbol} is halted.`);
  if (instrument.security_type !== 'equity') return no('INSTRUMENT_NOT_ORDERABLE', `${instrument.symbol} is a ${instrument.security_type}; bonds and sukuk are not orderable in this release.`);
  if ((tif === 'ioc' || tif === 'fok') && !env.isOpen()) return no('MARKET_CLOSED', `A ${tif} order needs an open session; send day or gtc to queue it for the next open.`);

  const reservation = reservationFor({ side, qty, limitPriceMicros }, band, env.fees);
  const cash = env.settledCashMicros(investor.id);
  if (reservation === null || reservation.cashMicros > cash) {
    const need = reservation ? `${formatEgp(reservation.cashMicros)} EGP` : 'more than any balance can hold';
    return no('INSUFFICIENT_SETTLED_CASH', `The order needs ${need} of settled cash; ${formatEgp(cash)} EGP is available.`);
  }
  if (side === 'sell') {
    const held = env.settledShares(investor.id, instrument.symbol);
    if (qty > held) return no('INSUFFICIENT_SETTLED_SECURITIES', `The sell needs ${qty} settled ${instrument.symbol} shares; ${held} are available.`);
  }
  const clientOrderId = body.client_order_id ?? null;
  if (clientOrderId !== null && env.clientOrderIdExists(clientOrderId)) return no('CLIENT_ORDER_ID_EXISTS');

  return { ok: true, value: { investor, instrument, side, type, tif, qty, limitPriceMicros, clientOrderId, band, reservation } };
}
