// The instrument listing as clients see it: catalog fields plus today's reference price and the logo
// URL on the host the client called. Alphabetical by symbol, always.
import { ok, type Outcome } from '../contract/outcome.js';
import type { MarketReader } from './service.js';
import type { Instrument } from './catalog.js';

type SecurityType = Instrument['security_type'];

function instrumentRow(deps: MarketReader, i: Instrument, baseUrl: string) {
  const ref = deps.market.referenceAt(i.symbol, deps.clock.now()).refPriceMicros;
  return {
    symbol: i.symbol,
    name: i.name,
    name_ar: i.name_ar,
    isin: i.isin,
    sector: i.sector,
    security_type: i.security_type,
    market_id: i.market_id,
    ref_price_micros: ref,
    shariah_compliant: i.shariah_compliant,
    logo_url: baseUrl + i.logo_url,
    fundamentals: i.fundamentals,
    fractionable: false as const,
    lot_size: i.lot_size,
    tradable: i.security_type === 'equity',
  };
}

export type InstrumentRow = ReturnType<typeof instrumentRow>;

/** GET /v1/instruments: the whole catalog, or one security type of it. */
export function listInstruments(deps: MarketReader, securityType: SecurityType | undefined, baseUrl: string) {
  const rows = deps.market.catalog.all
    .filter((i) => !securityType || i.security_type === securityType)
    .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  return { instruments: rows.map((i) => instrumentRow(deps, i, baseUrl)), ordering: 'symbol_asc' as const };
}

/** GET /v1/instruments/{symbol}. */
export function instrumentView(deps: MarketReader, symbol: string, baseUrl: string): Outcome<InstrumentRow> {
  const inst = deps.market.instrument(symbol);
  return inst.ok ? ok(instrumentRow(deps, inst.value, baseUrl)) : inst;
}
