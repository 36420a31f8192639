// The recorded stock splits, indexed once per change: per symbol, the effective instants in order and
// the cumulative divisor after each (a 2-for-1 then a 5-for-1 divide later prices by 2, then by 10).
// Built lazily on first use after invalidate(), like the override book. A price at an instant is
// divided by the divisor at that instant: the product of the ratios of the splits at or before it.
import { countBelow } from './overrides.js';
import type { TapeSplit } from './types.js';

export interface SymbolSplits {
  /** Effective instants, ascending. */
  times: number[];
  /** Cumulative divisor from times[k] on. */
  divisors: number[];
}

export interface SplitBook {
  of(symbol: string): SymbolSplits | undefined;
  invalidate(): void;
}

function buildIndex(splits: readonly TapeSplit[]): Map<string, SymbolSplits> {
  const index = new Map<string, SymbolSplits>();
  for (const s of [...splits].sort((x, y) => x.atMs - y.atMs)) {
    let so = index.get(s.symbol);
    if (!so) index.set(s.symbol, (so = { times: [], divisors: [] }));
    so.divisors.push((so.divisors[so.divisors.length - 1] ?? 1) * s.ratio);
    so.times.push(s.atMs);
  }
  return index;
}

export function createSplitBook(read: () => readonly TapeSplit[]): SplitBook {
  let index: Map<string, SymbolSplits> | null = null;
  return {
    of(symbol) {
      index ??= buildIndex(read());
      return index.get(symbol);
    },
    invalidate() {
      index = null;
    },
  };
}

/** The divisor in force at ms: 1 before the symbol's first split. O(log splits). */
export function divisorAt(book: SplitBook, symbol: string, ms: number): number {
  const so = book.of(symbol);
  if (!so) return 1;
  const k = countBelow(so.times, ms, true);
  return k === 0 ? 1 : so.divisors[k - 1];
}
