// The exchange as the fixtures describe it: the EGX session calendar (fixtures/sessions.json and
// fixtures/holidays.json) and the instruments the tape prices, with their index weights and volatility.
import { readFixture } from '../fixtures.js';
import { createCalendar, type Calendar } from './calendar.js';
import type { Catalog } from './catalog.js';
import type { TapeInstrument } from './tape.js';

interface SessionsFixture {
  zone: string;
  weekend: number[];
  open: string;
  close: string;
  short_sessions: { from: string; to: string; open: string; close: string }[];
}

/** Government paper moves far less than equities. */
const BOND_VOLATILITY_PCT = 8;

export function loadExchangeCalendar(): Calendar {
  const sessions = readFixture<SessionsFixture>('sessions.json');
  const holidays = readFixture<{ holidays: { date: string }[] }>('holidays.json').holidays.map((h) => h.date);
  return createCalendar({
    zone: sessions.zone,
    weekend: sessions.weekend,
    open: sessions.open,
    close: sessions.close,
    shortSessions: sessions.short_sessions,
    holidays,
  });
}

export function tapeInstruments(catalog: Catalog): TapeInstrument[] {
  return catalog.all.map((i) => ({
    symbol: i.symbol,
    refPriceMicros: i.ref_price_micros,
    weightBps: i.egx30 ? i.index_weight_bps : 0,
    volatilityPct: i.security_type === 'equity' ? 100 : BOND_VOLATILITY_PCT,
  }));
}
