// Order validation: a chain of early returns in documented precedence (docs/trading.md). The first
// failing rule names the code; after the last one the order is accepted and its reservation is known.
// Tick, band, halt and session are rules.ts's, shared with the desk's execution validator.
//
//  1 INVALID_SIDE  2 INVALID_TYPE  3 INVALID_QTY  4 INVALID_PRICE  5 INVALID_TIME_IN_FORCE: the body's
//    own fields, checked by the route's schema (OrderCreateBody, answered in ORDER_BODY_PRECEDENCE),
//    so this chain starts from a typed body
//  6 UNKNOWN_SYMBOL (404)  7 TICK_VIOLATION  8 PRICE_BAND_EXCEEDED
//  9 the investor: NOT_FOUND (404), INVESTOR_NOT_APPROVED, INVESTOR_CLOSED
// 10 SUITABILITY_REQUIRED  11 RISK_ACK_REQUIRED  12 INVESTOR_RESTRICTED  13 SHARIAH_RESTRICTED
// 14 INSTRUMENT_HALTED  15 INSTRUMENT_NOT_ORDERABLE  16 MARKET_CLOSED
// 17 INSUFFICIENT_SETTLED_CASH  18 INSUFFICIENT_SETTLED_SECURITIES  19 CLIENT_ORDER_ID_EXISTS
import type { z } from 'zod';
import { egpHeld, egpNeeded, formatEgp } from '../contract/money.js';
import type { OrderCreateBody } from '../contract/schemas/trading.js';
import { ok, refuse, type Outcome, type Refusal } from '../contract/outcome.js';
import type { InvestorRow } from '../investors/repo.js';
import type { Instrument } from '../market/catalog.js';
import type { PriceBand } from '../market/ticks.js';
import { reservationFor, type FeeSchedule, type Reservation } from '../contract/fees.js';
import type { OrderType, Side, TimeInForce } from './matcher.js';
import { bandRule, haltRule, sessionRule, tickRule } from './rules.js';

// The reservation rule is shared with the CLI's estimate (daemon/contract/fees.ts).
export { notional, reservationFor, type Reservation } from '../contract/fees.js';

export { MAX_ORDER_QTY } from '../contract/schemas/trading.js';

/** The order body as the route's schema parsed it. */
export type OrderBody = z.output<typeof OrderCreateBody>;

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

type Shape = Pick<ValidOrder, 'side' | 'type' | 'qty' | 'limitPriceMicros' | 'tif'>;

export function validateOrder(body: OrderBody, env: ValidationEnv): Outcome<ValidOrder> {
  const o = shapeOf(body);
  const instrument = env.instrument(body.symbol);
  if (!instrument) return refuse('UNKNOWN_SYMBOL', `No instrument ${body.symbol}.`);
  const band = env.band(instrument.symbol);
  if (o.limitPriceMicros !== null) {
    const price = o.limitPriceMicros;
    const off =
      tickRule(price) ??
      bandRule(
        price,
        band,
        (b) =>
          `The band of ${instrument.symbol} is ${formatEgp(b.lowerMicros)}-${formatEgp(b.upperMicros)} EGP (` +
          `${b.lowerMicros}-${b.upperMicros} micros).`,
      );
    if (off) return off;
  }
  const inv = checkInvestor(body.investor_id, o.side, instrument, env);
  if (!inv.ok) return inv;
  const investor = inv.value;
  const market = checkMarket(o.tif, instrument, env);
  if (market) return market;
  const reservation = checkHoldings(o, investor, instrument, band, env);
  if (!reservation.ok) return reservation;
  const clientOrderId = body.client_order_id ?? null;
  if (clientOrderId !== null && env.clientOrderIdExists(clientOrderId)) return refuse('CLIENT_ORDER_ID_EXISTS');
  return ok({ investor, instrument, ...o, clientOrderId, band, reservation: reservation.value });
}

/** The body's own fields (rules 1-5, which the route's schema checked), with their defaults. */
function shapeOf(body: OrderBody): Shape {
  // the schema holds a limit order to a price and a market order to none (or null)
  const limitPriceMicros = body.type === 'limit' ? (body.limit_price_micros ?? null) : null;
  return { side: body.side, type: body.type, qty: body.qty, limitPriceMicros, tif: body.time_in_force ?? 'day' };
}

/** Rules 9-13: who may place it. */
function checkInvestor(
  investorId: string,
  side: Side,
  instrument: Instrument,
  env: ValidationEnv,
): Outcome<InvestorRow> {
  const inv = env.investor(investorId);
  if (!inv.ok) return inv;
  const investor = inv.value;
  if (investor.suitability_recorded !== 1) return refuse('SUITABILITY_REQUIRED');
  if (investor.risk_acknowledged !== 1) return refuse('RISK_ACK_REQUIRED');
  if (investor.status === 'restricted' && side === 'buy') return refuse('INVESTOR_RESTRICTED');
  // Like a restriction, the shariah election stops new positions, never the exit from an old one.
  if (investor.shariah_only === 1 && !instrument.shariah_compliant && side === 'buy')
    return refuse('SHARIAH_RESTRICTED', `${instrument.symbol} is not shariah-compliant.`);
  return inv;
}

/** Rules 14-16: whether the instrument trades, and now when the order cannot wait. */
function checkMarket(tif: TimeInForce, instrument: Instrument, env: ValidationEnv): Refusal | null {
  const halted = haltRule(instrument.symbol, env.isHalted(instrument.symbol));
  if (halted) return halted;
  if (instrument.security_type !== 'equity')
    return refuse(
      'INSTRUMENT_NOT_ORDERABLE',
      `${instrument.symbol} is a ${instrument.security_type}; bonds and sukuk are not orderable in this release.`,
    );
  if (tif !== 'ioc' && tif !== 'fok') return null;
  return sessionRule(
    env.isOpen(),
    () => `A ${tif} order needs an open session; send day or gtc to queue it for the next open.`,
  );
}

/** Rules 17-18: the settled cash and shares the reservation needs. */
function checkHoldings(
  o: Shape,
  investor: InvestorRow,
  instrument: Instrument,
  band: PriceBand,
  env: ValidationEnv,
): Outcome<Reservation> {
  const reservation = reservationFor(o, band, env.fees);
  const cash = env.settledCashMicros(investor.id);
  if (reservation === null || reservation.cashMicros > cash) {
    const need = reservation ? egpNeeded(reservation.cashMicros) : 'more than any balance can hold';
    return refuse(
      'INSUFFICIENT_SETTLED_CASH',
      `The order needs ${need} of settled cash; ${egpHeld(cash)} is available.`,
    );
  }
  if (o.side === 'sell') {
    const held = env.settledShares(investor.id, instrument.symbol);
    if (o.qty > held)
      return refuse(
        'INSUFFICIENT_SETTLED_SECURITIES',
        `The sell needs ${o.qty} settled ${instrument.symbol} shares; ${held} are available.`,
      );
  }
  return ok(reservation);
}
