// Quotes: an instrument's live tape price with its previous close, and the detailed quote with the
// reference price, the +/-20% band, the tick and the halt state. Computed from the tape at an instant;
// nothing here is stored.
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { Instrument } from './catalog.js';
import type { MarketState } from './state.js';
import { band, tickSize, type PriceBand } from './ticks.js';

/** A ratio as a fraction rounded to 6 decimals (0.0123 = 1.23%); not a money value. */
export function fraction(numerator: number, denominator: number): number {
  if (denominator === 0) return 0;
  return Math.round((numerator * 1_000_000) / denominator) / 1_000_000;
}

/** The catalog entry of a symbol (any case), or UNKNOWN_SYMBOL. */
export function findInstrument(m: Pick<MarketState, 'catalog'>, symbol: string): Outcome<Instrument> {
  const i = m.catalog.get(symbol);
  return i ? ok(i) : refuse('UNKNOWN_SYMBOL', `No instrument ${symbol}.`);
}

export interface Reference {
  date: string;
  refPriceMicros: number;
  band: PriceBand;
}

/** The reference price (previous close) and band that apply at `ms`. */
export function referenceAt(m: Pick<MarketState, 'calendar' | 'tape'>, symbol: string, ms: number): Reference {
  const ref = m.tape.referencePriceAt(symbol, ms);
  return { date: m.calendar.sessionDateFor(ms), refPriceMicros: ref, band: band(ref) };
}

/**
 * One definition at every instant (docs/api.md "Market"): prev_close_micros is the reference price of
 * the quote's session, the one open or the next to open (the previous close, divided by the splits in
 * force), the same reference a new order's band is built on; change_pct is the move from it. In the
 * session that is the day's move; from the close on, the quote is the next session's, whose reference
 * is today's close, so the price is its reference and the change is 0 until that session opens (or a
 * quote override moves the price).
 */
function liveQuoteOf(m: Pick<MarketState, 'calendar' | 'tape'>, inst: Instrument, ms: number) {
  const { calendar, tape } = m;
  const price = tape.priceAt(inst.symbol, ms);
  const prev = tape.referencePriceAt(inst.symbol, ms);
  return {
    symbol: inst.symbol,
    price_micros: price,
    prev_close_micros: prev,
    change_pct: fraction(price - prev, prev),
    as_of: calendar.toIso(ms),
    session_open: calendar.isOpen(ms),
  };
}

export type LiveQuote = ReturnType<typeof liveQuoteOf>;

export function liveQuote(
  m: Pick<MarketState, 'calendar' | 'catalog' | 'tape'>,
  symbol: string,
  ms: number,
): Outcome<LiveQuote> {
  const inst = findInstrument(m, symbol);
  return inst.ok ? ok(liveQuoteOf(m, inst.value, ms)) : inst;
}

function detailQuoteOf(m: Pick<MarketState, 'calendar' | 'tape' | 'controls'>, inst: Instrument, ms: number) {
  const live = liveQuoteOf(m, inst, ms);
  const ref = referenceAt(m, live.symbol, ms);
  // ref.refPriceMicros === live.prev_close_micros: the same reference, so the quote cannot contradict itself
  const today = m.calendar.localDate(ms);
  const bar = m.calendar.isTradingDay(today) ? m.tape.barAsOf(live.symbol, today, ms) : null;
  return {
    ...live,
    market_id: inst.market_id,
    ref_price_micros: ref.refPriceMicros,
    band: { lower_micros: ref.band.lowerMicros, upper_micros: ref.band.upperMicros, pct: 0.2 },
    tick_micros: tickSize(live.price_micros),
    halted: m.controls.halted.has(live.symbol),
    day:
      bar && bar.volume > 0
        ? { open_micros: bar.open_micros, high_micros: bar.high_micros, low_micros: bar.low_micros, volume: bar.volume }
        : null,
  };
}

/** Quote with band, tick and reference price (GET /v1/instruments/{symbol}/quote). */
export function detailQuote(
  m: Pick<MarketState, 'calendar' | 'catalog' | 'tape' | 'controls'>,
  symbol: string,
  ms: number,
) {
  const inst = findInstrument(m, symbol);
  return inst.ok ? ok(detailQuoteOf(m, inst.value, ms)) : inst;
}
