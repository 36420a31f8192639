// Market data by market id: the live quote, daily candles and the EGX30 series, each for XCAI only
// (UNKNOWN_MARKET otherwise, checked before the symbol). Candles end at the current minute.
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { MarketReader } from './service.js';
import { MARKET_ID } from './catalog.js';
import type { LiveQuote } from './quotes.js';
import type { DayBar, IndexBar } from './tape.js';

/** Market ids compare case-insensitively. */
function checkMarket(id: string): Outcome<void> {
  return id.toUpperCase() === MARKET_ID
    ? ok(undefined)
    : refuse('UNKNOWN_MARKET', `No market ${id}; the exchange is ${MARKET_ID}.`);
}

/** GET /v1/markets/{market_id}/instruments/{symbol}/quote. */
export function marketQuote(deps: Pick<MarketReader, 'market'>, marketId: string, symbol: string): Outcome<LiveQuote> {
  const known = checkMarket(marketId);
  return known.ok ? deps.market.liveQuote(symbol) : known;
}

/** GET /v1/markets/{market_id}/instruments/{symbol}/ohlcv. */
export function symbolCandles(
  deps: MarketReader,
  marketId: string,
  symbol: string,
  days: number,
): Outcome<{ symbol: string; candles: DayBar[] }> {
  const known = checkMarket(marketId);
  if (!known.ok) return known;
  const inst = deps.market.instrument(symbol);
  if (!inst.ok) return inst;
  const now = deps.clock.now();
  return ok({
    symbol: inst.value.symbol,
    candles: deps.market.tape.candles(inst.value.symbol, deps.market.calendar.localDate(now), days, now),
  });
}

/** GET /v1/markets/{market_id}/index/EGX30/ohlcv. */
export function egx30Candles(
  deps: MarketReader,
  marketId: string,
  days: number,
): Outcome<{ index: 'EGX30'; candles: IndexBar[] }> {
  const known = checkMarket(marketId);
  if (!known.ok) return known;
  const now = deps.clock.now();
  return ok({
    index: 'EGX30' as const,
    candles: deps.market.tape.indexCandles(deps.market.calendar.localDate(now), days, now),
  });
}
