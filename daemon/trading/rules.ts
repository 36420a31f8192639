// The order rules both validators apply: the order validator (validate.ts) when an order is placed
// and the desk's execution validator (validate-desk.ts) when a dealer executes one. Each answers null
// when the rule holds, else its refusal, so a validator is its rules in precedence order. Where the
// two word a refusal differently on the wire, the caller words it (`says`), only when it refuses.
import { refuse, type Refusal } from '../contract/outcome.js';
import { offTickMessage } from '../contract/money.js';
import { isOnTick } from '../contract/tick.js';
import type { PriceBand } from '../market/ticks.js';

/** TICK_VIOLATION: a price off the tick grid (0.01 EGP at 2 EGP and above, 0.001 below). */
export function tickRule(priceMicros: number): Refusal | null {
  return isOnTick(priceMicros) ? null : refuse('TICK_VIOLATION', offTickMessage(priceMicros));
}

/** PRICE_BAND_EXCEEDED: a price outside the band in force. */
export function bandRule(priceMicros: number, band: PriceBand, says: (band: PriceBand) => string): Refusal | null {
  return priceMicros < band.lowerMicros || priceMicros > band.upperMicros
    ? refuse('PRICE_BAND_EXCEEDED', says(band))
    : null;
}

/** INSTRUMENT_HALTED: nothing trades in a halted symbol. */
export function haltRule(symbol: string, halted: boolean): Refusal | null {
  return halted ? refuse('INSTRUMENT_HALTED', `Trading in ${symbol} is halted.`) : null;
}

/** MARKET_CLOSED: what must happen now needs an open session. */
export function sessionRule(open: boolean, says: () => string): Refusal | null {
  return open ? null : refuse('MARKET_CLOSED', says());
}
