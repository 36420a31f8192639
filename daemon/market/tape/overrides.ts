// The recorded `quote` overrides, indexed once per change: by symbol, by the trading day whose ticks
// each one moves, and by time for binary search. Built lazily on first use after invalidate(), so a
// burst of quote controls costs one sort when the tape is next read.
import type { Calendar } from '../calendar.js';
import type { TapeOverride } from './types.js';

export interface IndexedOverride {
  atMs: number;
  tickDate: string;
  indexInDay: number;
}

export interface SymbolOverrides {
  all: IndexedOverride[];
  /** atMs of `all`, for binary search. */
  times: number[];
  /** The override days, ascending. */
  days: string[];
  byDay: Map<string, TapeOverride[]>;
}

export interface OverrideBook {
  of(symbol: string): SymbolOverrides | undefined;
  invalidate(): void;
}

/** Number of elements of a sorted array that are < value (or <= value when inclusive). */
export function countBelow<T>(sorted: readonly T[], value: T, inclusive: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value || (inclusive && sorted[mid] === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The trading date of the first tick at or after atMs: the date whose ticks the override moves. */
function tickDateOf(cal: Calendar, atMs: number): string {
  const today = cal.localDate(atMs);
  const n = cal.sessionMinutes(today);
  if (n > 0 && atMs <= cal.tickMs(today, n - 1)) return today;
  return cal.localDate(cal.nextOpen(atMs));
}

function buildIndex(
  cal: Calendar,
  overrides: readonly TapeOverride[],
  known: (symbol: string) => boolean,
): Map<string, SymbolOverrides> {
  const index = new Map<string, SymbolOverrides>();
  const sorted = overrides.filter((o) => known(o.symbol)).sort((x, y) => x.atMs - y.atMs);
  for (const o of sorted) {
    let so = index.get(o.symbol);
    if (!so) index.set(o.symbol, (so = { all: [], times: [], days: [], byDay: new Map() }));
    const tickDate = tickDateOf(cal, o.atMs);
    let day = so.byDay.get(tickDate);
    if (!day) {
      so.byDay.set(tickDate, (day = []));
      so.days.push(tickDate);
    }
    so.all.push({ atMs: o.atMs, tickDate, indexInDay: day.length });
    so.times.push(o.atMs);
    day.push(o);
  }
  for (const so of index.values()) so.days.sort();
  return index;
}

export function createOverrideBook(
  cal: Calendar,
  read: () => readonly TapeOverride[],
  known: (symbol: string) => boolean,
): OverrideBook {
  let index: Map<string, SymbolOverrides> | null = null;
  return {
    of(symbol) {
      index ??= buildIndex(cal, read(), known);
      return index.get(symbol);
    },
    invalidate() {
      index = null;
    },
  };
}
