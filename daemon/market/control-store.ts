// The stored sandbox controls of the market: quote overrides (append-only, in time order) and halts
// (one row per symbol). The only SQL of the market domain.
import type { Db } from '../store/db.js';
import type { TapeOverride } from './tape.js';

/** The controls as loaded into memory. */
export interface Controls {
  /** Replaced, never mutated: the tape reads it lazily and is told to forget after a change. */
  overrides: TapeOverride[];
  halted: Set<string>;
}

export interface ControlStore {
  load(): Controls;
  addOverride(symbol: string, atMs: number, priceMicros: number): void;
  setHalt(symbol: string, halted: boolean, atMs: number): void;
}

export function createControlStore(db: Db): ControlStore {
  const q = {
    overrides: db.prepare<[], { symbol: string; at_ms: number; price_micros: number }>('SELECT symbol, at_ms, price_micros FROM quote_overrides ORDER BY at_ms, id'),
    addOverride: db.prepare('INSERT INTO quote_overrides (symbol, at_ms, price_micros) VALUES (?, ?, ?)'),
    halts: db.prepare<[], { symbol: string; halted: number }>('SELECT symbol, halted FROM halts'),
    setHalt: db.prepare('INSERT INTO halts (symbol, halted, at_ms) VALUES (?, ?, ?) ON CONFLICT(symbol) DO UPDATE SET halted = excluded.halted, at_ms = excluded.at_ms'),
  };
  return {
    load: () => ({
      overrides: q.overrides.all().map((r) => ({ symbol: r.symbol, atMs: r.at_ms, priceMicros: r.price_micros })),
      halted: new Set(q.halts.all().filter((h) => h.halted === 1).map((h) => h.symbol)),
    }),
    addOverride: (symbol, atMs, priceMicros) => void q.addOverride.run(symbol, atMs, priceMicros),
    setHalt: (symbol, halted, atMs) => void q.setHalt.run(symbol, halted ? 1 : 0, atMs),
  };
}
