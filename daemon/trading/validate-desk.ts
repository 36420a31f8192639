// The dealer desk's validators, chains of early returns in documented precedence (docs/trading.md
// "Dealer desk"), like the order validator beside it (validate.ts) and with its rules (rules.ts) where
// they are the same rules. The first failing rule names the code; the desk acts only after the last.
//
// execute: 1 NOT_FOUND (404)  2 ORDER_NOT_IN_QUEUE  3 MARKET_CLOSED  4 INSTRUMENT_HALTED
//          5 TICK_VIOLATION  6 PRICE_BAND_EXCEEDED  7 PRICE_WORSE_THAN_LIMIT
//          8 INVALID_QTY (more than remains; a fok not whole)  9 INSUFFICIENT_BUYING_POWER
// reject:  1 INVALID_REJECT_REASON  2 NOT_FOUND (404)  3 ORDER_NOT_IN_QUEUE
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { PriceBand } from '../market/ticks.js';
import { isMarketable, isTerminal } from './matcher.js';
import { toMatch } from './plan.js';
import type { DeskOrderRow } from './repository.js';
import { bandRule, haltRule, sessionRule, tickRule } from './rules.js';

/** What the execution checks read: the market now and the order's cash (booking.ts DeskBooking). */
export interface DeskExecutionEnv {
  isOpen(): boolean;
  isHalted(symbol: string): boolean;
  tapePriceMicros(symbol: string): number;
  band(symbol: string): PriceBand;
  cashLeftMicros(r: DeskOrderRow): number;
  cashNeededMicros(r: DeskOrderRow, qty: number, priceMicros: number): number | null;
}

/** A desk execution that passed every rule. */
export interface DeskExecution {
  order: DeskOrderRow;
  qty: number;
  priceMicros: number;
}

/** Rules 1-2 of both: the dealer's broker's order, still waiting at the desk. */
export function inQueue(id: string, r: DeskOrderRow | undefined): Outcome<DeskOrderRow> {
  if (!r) return refuse('NOT_FOUND', `No order ${id}.`);
  if (r.routing !== 'desk' || isTerminal(r))
    return refuse(
      'ORDER_NOT_IN_QUEUE',
      `Order ${id} is ${r.state}${r.routing === 'auto' ? ' and was routed to the exchange' : ''}.`,
    );
  return ok(r);
}

export function validateDeskExecution(
  id: string,
  found: DeskOrderRow | undefined,
  body: { price_micros?: number; qty?: number },
  env: DeskExecutionEnv,
): Outcome<DeskExecution> {
  const queued = inQueue(id, found);
  if (!queued.ok) return queued;
  const r = queued.value;
  const closed =
    sessionRule(
      env.isOpen(),
      () => 'The desk executes during the session (Sunday-Thursday 10:00-14:30 Africa/Cairo).',
    ) ?? haltRule(r.symbol, env.isHalted(r.symbol));
  if (closed) return closed;
  const price = body.price_micros ?? env.tapePriceMicros(r.symbol);
  const off =
    tickRule(price) ??
    bandRule(price, env.band(r.symbol), (b) => `The band is ${b.lowerMicros}-${b.upperMicros} micros.`);
  if (off) return off;
  if (!isMarketable(toMatch(r), price))
    return refuse('PRICE_WORSE_THAN_LIMIT', `The order's limit is ${r.limit_price_micros} micros (${r.side}).`);
  const remaining = r.qty - r.filled_qty;
  const qty = body.qty ?? remaining;
  if (qty > remaining) return refuse('INVALID_QTY', `${remaining} shares remain to execute.`);
  if (r.time_in_force === 'fok' && qty !== remaining)
    return refuse('INVALID_QTY', `A fok order executes whole: ${remaining} shares.`);
  const need = env.cashNeededMicros(r, qty, price);
  if (need === null || need > env.cashLeftMicros(r)) {
    return refuse(
      'INSUFFICIENT_BUYING_POWER',
      `The order's reservation does not cover ${qty} at ${price} micros with charges.`,
    );
  }
  return ok({ order: r, qty, priceMicros: price });
}

export function validateDeskRejection(
  id: string,
  find: () => DeskOrderRow | undefined,
  reasonCode: string,
  reasons: readonly string[],
): Outcome<DeskOrderRow> {
  if (!reasons.includes(reasonCode))
    return refuse('INVALID_REJECT_REASON', `reason_code must be one of ${reasons.join(', ')}.`);
  return inQueue(id, find());
}
