// The sandbox controls of the market: a quote override (the tape price of a symbol from now on) and a
// halt. Each is stored, applied to the in-memory state, and announced to the listeners (the trading
// service re-plans that symbol's resting orders). A refused override stores nothing.
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { findInstrument, liveQuote, referenceAt, type LiveQuote } from './quotes.js';
import type { MarketState } from './state.js';
import { isOnTick } from './ticks.js';
import { offTickMessage } from '../contract/money.js';

function announce(m: Pick<MarketState, 'listeners'>, symbol: string): void {
  for (const l of m.listeners) l(symbol);
}

/** An override must be a legal limit price now: on the tick grid and inside today's band. */
function checkOverridePrice(
  m: Pick<MarketState, 'calendar' | 'tape'>,
  symbol: string,
  priceMicros: number,
  now: number,
): Outcome<void> {
  if (!isOnTick(priceMicros)) return refuse('PRICE_OFF_TICK', offTickMessage(priceMicros));
  const ref = referenceAt(m, symbol, now);
  if (priceMicros < ref.band.lowerMicros || priceMicros > ref.band.upperMicros) {
    return refuse(
      'PRICE_BAND_EXCEEDED',
      `The band is ${ref.band.lowerMicros}-${ref.band.upperMicros} around the reference ${ref.refPriceMicros}.`,
    );
  }
  return ok(undefined);
}

/** POST /admin/sandbox/quote: the tape price of a symbol from now on; answers the live quote. */
export function setQuote(m: MarketState, symbol: string, priceMicros: number): Outcome<LiveQuote> {
  const inst = findInstrument(m, symbol);
  if (!inst.ok) return inst;
  const sym = inst.value.symbol;
  const now = m.clock.now();
  const legal = checkOverridePrice(m, sym, priceMicros, now);
  if (!legal.ok) return legal;
  m.store.addOverride(sym, now, priceMicros);
  m.controls.overrides = [...m.controls.overrides, { symbol: sym, atMs: now, priceMicros }];
  m.tape.invalidate();
  announce(m, sym);
  return liveQuote(m, sym, now);
}

/** POST /admin/sandbox/halt: halts or resumes a symbol. */
export function setHalt(m: MarketState, symbol: string, halted: boolean) {
  const inst = findInstrument(m, symbol);
  if (!inst.ok) return inst;
  const sym = inst.value.symbol;
  m.store.setHalt(sym, halted, m.clock.now());
  if (halted) m.controls.halted.add(sym);
  else m.controls.halted.delete(sym);
  announce(m, sym);
  return ok({ symbol: sym, halted, as_of: m.calendar.toIso(m.clock.now()) });
}
