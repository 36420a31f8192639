// The market domain: the exchange calendar, the instrument catalog, the deterministic tape and the
// sandbox controls over it (quote overrides, halts). Guarantees (docs/market.md):
// - Prices are computed, not stored: a quote is a function of (seed, symbol, minute) and the recorded
//   overrides and splits; only the controls are rows (quote_overrides, halts, market_splits).
// - Every price the tape shows is on the tick grid and inside the day's +/-20% band; an override
//   outside either is refused (PRICE_OFF_TICK, PRICE_BAND_EXCEEDED) and stores nothing.
// - Business refusals are values (Outcome); a thrown error is a bug (e.g. asking the tape for a symbol
//   the catalog does not have).
// - reset(seed) rebuilds everything in memory from the database: same rows, same prices.
//
// This file binds the state (state.ts) to the parts: exchange.ts (calendar and tape instruments from
// the fixtures), control-store.ts (the SQL), quotes.ts, controls.ts. The views the routes answer with
// (listings.ts, bond-list.ts, market-data.ts, calendar-view.ts, logo.ts) take the service through Deps.
import type { Db } from '../store/db.js';
import type { Clock } from '../sim/clock.js';
import { loadCatalog, type Catalog } from './catalog.js';
import type { Calendar } from './calendar.js';
import type { Controls } from './control-store.js';
import { createControlStore } from './control-store.js';
import { setHalt, setQuote } from './controls.js';
import { applySplit, checkSplit, type SplitPlan } from './splits.js';
import { loadExchangeCalendar, tapeInstruments } from './exchange.js';
import { detailQuote, findInstrument, liveQuote, referenceAt } from './quotes.js';
import type { MarketState } from './state.js';
import { createTape, type Tape } from './tape.js';

export { fraction } from './quotes.js';

function buildTape(calendar: Calendar, catalog: Catalog, controls: Controls, seed: number): Tape {
  return createTape({
    seed,
    calendar,
    instruments: tapeInstruments(catalog),
    overrides: () => controls.overrides,
    splits: () => controls.splits,
  });
}

export function createMarket({ db, clock, seed }: { db: Db; clock: Clock; seed: number }) {
  const calendar = loadExchangeCalendar();
  const catalog = loadCatalog();
  const store = createControlStore(db);
  const controls = store.load();
  const m: MarketState = {
    calendar,
    catalog,
    clock,
    store,
    controls,
    tape: buildTape(calendar, catalog, controls, seed),
    listeners: [],
  };
  return {
    calendar,
    catalog,
    get tape() {
      return m.tape;
    },
    instrument: (symbol: string) => findInstrument(m, symbol),
    referenceAt: (symbol: string, ms: number) => referenceAt(m, symbol, ms),
    liveQuote: (symbol: string, ms = clock.now()) => liveQuote(m, symbol, ms),
    detailQuote: (symbol: string, ms = clock.now()) => detailQuote(m, symbol, ms),
    isHalted: (symbol: string) => controls.halted.has(symbol),
    onChange: (listener: (symbol: string) => void) => void m.listeners.push(listener),
    setQuote: (symbol: string, priceMicros: number) => setQuote(m, symbol, priceMicros),
    setHalt: (symbol: string, halted: boolean) => setHalt(m, symbol, halted),
    /** A stock split at the clock's now (splits.ts): check first, then apply in the same transaction. */
    checkSplit: (symbol: string, ratio: number) => checkSplit(m, symbol, ratio),
    applySplit: (plan: SplitPlan, ids: { id: string; actionId: string | null }) => applySplit(m, plan, ids),
    /** After reset or import: reload overrides and halts, rebuild the tape for the seed. */
    reset(newSeed: number) {
      Object.assign(controls, store.load());
      m.tape = buildTape(calendar, catalog, controls, newSeed);
    },
  };
}

export type Market = ReturnType<typeof createMarket>;

/**
 * What the market's read views and routes use: the market and the sandbox clock. The container
 * (daemon/deps.ts) has both; the views name this instead of `Deps`, since deps.ts builds the market.
 */
export interface MarketReader {
  market: Market;
  clock: Clock;
}
