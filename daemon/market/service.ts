// Market service: calendar, catalog, the deterministic tape with recorded quote overrides, and halts.
// Quotes are computed from (seed, symbol, minute); only overrides and halts are stored.
import type { Db } from '../store/db.js';
import type { Clock } from '../sim/clock.js';
import { readFixture } from '../fixtures.js';
import { AppError } from '../http/errors.js';
import { createCalendar } from './calendar.js';
import { createTape } from './tape.js';
import { band, isOnTick, tickSize } from './ticks.js';
import { loadCatalog, type Instrument } from './catalog.js';

interface SessionsFixture {
  zone: string;
  weekend: number[];
  open: string;
  close: string;
  short_sessions: { from: string; to: string; open: string; close: string }[];
}

const BOND_VOLATILITY_PCT = 8;

interface Override {
  symbol: string;
  atMs: number;
  priceMicros: number;
}

/** A ratio as a fraction rounded to 6 decimals (0.0123 = 1.23%); not a money value. */
export function fraction(numerator: number, denominator: number): number {
  if (denominator === 0) return 0;
  return Math.round((numerator * 1_000_000) / denominator) / 1_000_000;
}

export function createMarket({ db, clock, seed }: { db: Db; clock: Clock; seed: number }) {
  const sessions = readFixture<SessionsFixture>('sessions.json');
  const holidays = readFixture<{ holidays: { date: string }[] }>('holidays.json').holidays.map((h) => h.date);
  const calendar = createCalendar({
    zone: sessions.zone,
    weekend: sessions.weekend,
    open: sessions.open,
    close: sessions.close,
    shortSessions: sessions.short_sessions,
    holidays,
  });
  const catalog = loadCatalog();

  const q = {
    overrides: db.prepare<[], { symbol: string; at_ms: number; price_micros: number }>('SELECT symbol, at_ms, price_micros FROM quote_overrides ORDER BY at_ms, id'),
    addOverride: db.prepare('INSERT INTO quote_overrides (symbol, at_ms, price_micros) VALUES (?, ?, ?)'),
    halts: db.prepare<[], { symbol: string; halted: number }>('SELECT symbol, halted FROM halts'),
    setHalt: db.prepare('INSERT INTO halts (symbol, halted, at_ms) VALUES (?, ?, ?) ON CONFLICT(symbol) DO UPDATE SET halted = excluded.halted, at_ms = excluded.at_ms'),
  };

  let overrides: Override[] = [];
  let halted = new Set<string>();
  function loadState(): void {
    overrides = q.overrides.all().map((r) => ({ symbol: r.symbol, atMs: r.at_ms, priceMicros: r.price_micros }));
    halted = new Set(q.halts.all().filter((h) => h.halted === 1).map((h) => h.symbol));
  }
  loadState();

  function buildTape(s: number) {
    return createTape({
      seed: s,
      calendar,
      instruments: catalog.all.map((i) => ({
        symbol: i.symbol,
        refPriceMicros: i.ref_price_micros,
        weightBps: i.egx30 ? i.index_weight_bps : 0,
        // Government paper moves far less than equities.
        volatilityPct: i.security_type === 'equity' ? 100 : BOND_VOLATILITY_PCT,
      })),
      overrides: () => overrides,
    });
  }
  let tape = buildTape(seed);
  /** Told the symbol whose future ticks or tradability changed (a quote override, a halt). */
  const changeListeners: Array<(symbol: string) => void> = [];

  function instrument(symbol: string): Instrument {
    const i = catalog.get(symbol);
    if (!i) throw new AppError('UNKNOWN_SYMBOL', `No instrument ${symbol}.`);
    return i;
  }

  /** The reference price (previous close) and band that apply at `ms`. */
  function referenceAt(symbol: string, ms: number) {
    const ref = tape.referencePriceAt(symbol, ms);
    return { date: calendar.sessionDateFor(ms), refPriceMicros: ref, band: band(ref) };
  }

  function liveQuote(symbol: string, ms = clock.now()) {
    const inst = instrument(symbol);
    const today = calendar.localDate(ms);
    const price = tape.priceAt(inst.symbol, ms);
    const prev = calendar.isTradingDay(today) && ms >= (calendar.session(today)?.openMs ?? Infinity)
      ? tape.prevClose(inst.symbol, today)
      : price;
    return {
      symbol: inst.symbol,
      price_micros: price,
      prev_close_micros: prev,
      change_pct: fraction(price - prev, prev),
      as_of: calendar.toIso(ms),
      session_open: calendar.isOpen(ms),
    };
  }

  return {
    calendar,
    catalog,
    get tape() {
      return tape;
    },
    instrument,
    referenceAt,
    liveQuote,
    isHalted: (symbol: string) => halted.has(symbol),
    onChange: (listener: (symbol: string) => void) => void changeListeners.push(listener),

    /** Quote with band, tick and reference price (GET /v1/instruments/{symbol}/quote). */
    detailQuote(symbol: string, ms = clock.now()) {
      const live = liveQuote(symbol, ms);
      const ref = referenceAt(live.symbol, ms);
      const bar = calendar.isTradingDay(calendar.localDate(ms)) ? tape.barAsOf(live.symbol, calendar.localDate(ms), ms) : null;
      return {
        ...live,
        market_id: instrument(symbol).market_id,
        ref_price_micros: ref.refPriceMicros,
        band: { lower_micros: ref.band.lowerMicros, upper_micros: ref.band.upperMicros, pct: 0.2 },
        tick_micros: tickSize(live.price_micros),
        halted: halted.has(live.symbol),
        day: bar && bar.volume > 0 ? { open_micros: bar.open_micros, high_micros: bar.high_micros, low_micros: bar.low_micros, volume: bar.volume } : null,
      };
    },

    /** Sandbox control: the tape price of a symbol from now on. */
    setQuote(symbol: string, priceMicros: number) {
      const inst = instrument(symbol);
      const now = clock.now();
      if (!isOnTick(priceMicros)) throw new AppError('PRICE_OFF_TICK', `${priceMicros} is not a multiple of the tick ${tickSize(priceMicros)}.`);
      const ref = referenceAt(inst.symbol, now);
      if (priceMicros < ref.band.lowerMicros || priceMicros > ref.band.upperMicros) {
        throw new AppError('PRICE_BAND_EXCEEDED', `The band is ${ref.band.lowerMicros}-${ref.band.upperMicros} around the reference ${ref.refPriceMicros}.`);
      }
      q.addOverride.run(inst.symbol, now, priceMicros);
      overrides = [...overrides, { symbol: inst.symbol, atMs: now, priceMicros }];
      tape.invalidate();
      for (const l of changeListeners) l(inst.symbol);
      return liveQuote(inst.symbol, now);
    },

    setHalt(symbol: string, isHalted: boolean) {
      const inst = instrument(symbol);
      q.setHalt.run(inst.symbol, isHalted ? 1 : 0, clock.now());
      if (isHalted) halted.add(inst.symbol);
      else halted.delete(inst.symbol);
      for (const l of changeListeners) l(inst.symbol);
      return { symbol: inst.symbol, halted: isHalted, as_of: calendar.toIso(clock.now()) };
    },

    /** After reset or import: reload overrides and halts, rebuild the tape for the seed. */
    reset(newSeed: number) {
      loadState();
      tape = buildTape(newSeed);
    },
  };
}

export type Market = ReturnType<typeof createMarket>;
