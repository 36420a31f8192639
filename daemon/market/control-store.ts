// The stored sandbox controls of the market: quote overrides (append-only, in time order), halts
// (one row per symbol) and stock splits (append-only, migration 028). The only SQL of the market domain.
import type { Db } from '../store/db.js';
import type { TapeOverride, TapeSplit } from './tape.js';
import type { MarketSplitsRow } from '../store/rows.js';

/** The controls as loaded into memory. */
export interface Controls {
  /** Replaced, never mutated: the tape reads it lazily and is told to forget after a change. */
  overrides: TapeOverride[];
  halted: Set<string>;
  /** Replaced, never mutated, like overrides. */
  splits: TapeSplit[];
}

export type SplitRow = Omit<MarketSplitsRow, 'seq'>;

export interface ControlStore {
  load(): Controls;
  addOverride(symbol: string, atMs: number, priceMicros: number): void;
  setHalt(symbol: string, halted: boolean, atMs: number): void;
  addSplit(row: SplitRow): void;
  splitAt(symbol: string, atMs: number): SplitRow | undefined;
}

export function createControlStore(db: Db): ControlStore {
  const q = {
    overrides: db.prepare<[], { symbol: string; at_ms: number; price_micros: number }>(
      'SELECT symbol, at_ms, price_micros FROM quote_overrides ORDER BY at_ms, id',
    ),
    addOverride: db.prepare('INSERT INTO quote_overrides (symbol, at_ms, price_micros) VALUES (?, ?, ?)'),
    halts: db.prepare<[], { symbol: string; halted: number }>('SELECT symbol, halted FROM halts'),
    splits: db.prepare<[], { symbol: string; effective_ms: number; ratio: number }>(
      'SELECT symbol, effective_ms, ratio FROM market_splits ORDER BY effective_ms, seq',
    ),
    addSplit: db.prepare(
      'INSERT INTO market_splits (id, symbol, ratio, effective_ms, effective_at, action_id) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    splitAt: db.prepare<[string, number], SplitRow>(
      'SELECT id, symbol, ratio, effective_ms, effective_at, action_id FROM market_splits WHERE symbol = ? AND ' +
        'effective_ms = ?',
    ),
    setHalt: db.prepare(
      'INSERT INTO halts (symbol, halted, at_ms) VALUES (?, ?, ?) ON CONFLICT(symbol) DO UPDATE SET halted = ' +
        'excluded.halted, at_ms = excluded.at_ms',
    ),
  };
  return {
    load: () => ({
      overrides: q.overrides.all().map((r) => ({ symbol: r.symbol, atMs: r.at_ms, priceMicros: r.price_micros })),
      halted: new Set(
        q.halts
          .all()
          .filter((h) => h.halted === 1)
          .map((h) => h.symbol),
      ),
      splits: q.splits.all().map((r) => ({ symbol: r.symbol, atMs: r.effective_ms, ratio: r.ratio })),
    }),
    addOverride: (symbol, atMs, priceMicros) => void q.addOverride.run(symbol, atMs, priceMicros),
    setHalt: (symbol, halted, atMs) => void q.setHalt.run(symbol, halted ? 1 : 0, atMs),
    addSplit: (r) => void q.addSplit.run(r.id, r.symbol, r.ratio, r.effective_ms, r.effective_at, r.action_id),
    splitAt: (symbol, atMs) => q.splitAt.get(symbol, atMs),
  };
}
