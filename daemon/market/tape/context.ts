// What every part of the tape reads: the seed, the calendar, the instruments, the override book and the
// memo tables. Built once per tape. The base tables depend only on the seed and the calendar; the
// effective ones also on the overrides, so invalidate() clears those and keeps the base.
import type { Calendar, Session } from '../calendar.js';
import { BoundedCache } from './cache.js';
import { createOverrideBook, type OverrideBook } from './overrides.js';
import { createSplitBook, divisorAt, type SplitBook } from './splits.js';
import type { DayStats, EffectiveOverride, IndexBar, Instrument, TapeParams } from './types.js';

const PATH_CACHE_LIMIT = 30_000;
const SMALL_CACHE_LIMIT = 200_000;

export interface TapeCtx {
  readonly seed: number | string;
  readonly cal: Calendar;
  readonly instruments: ReadonlyMap<string, Instrument>;
  /** The index constituents (weight > 0) and the sum of their weights. */
  readonly index: { readonly constituents: readonly Instrument[]; readonly totalWeightBps: number };
  readonly overrides: OverrideBook;
  readonly splits: SplitBook;
  readonly base: { readonly closes: BoundedCache<number>; readonly paths: BoundedCache<number[]> };
  readonly effective: {
    readonly closes: BoundedCache<number>;
    readonly paths: BoundedCache<number[]>;
    readonly stats: BoundedCache<DayStats>;
    readonly overridesByDay: BoundedCache<EffectiveOverride[]>;
    readonly indexBars: BoundedCache<IndexBar>;
    /** The same after the splits (adjusted.ts). */
    readonly adjustedPaths: BoundedCache<number[]>;
    readonly adjustedCloses: BoundedCache<number>;
    readonly adjustedStats: BoundedCache<DayStats>;
  };
}

export function createTapeContext(params: TapeParams): TapeCtx {
  const instruments = new Map<string, Instrument>();
  for (const i of params.instruments) {
    instruments.set(i.symbol, {
      symbol: i.symbol,
      refPriceMicros: i.refPriceMicros,
      weightBps: i.weightBps ?? 0,
      volatilityPct: i.volatilityPct ?? 100,
    });
  }
  const constituents = [...instruments.values()].filter((i) => i.weightBps > 0);
  const splits = createSplitBook(params.splits ?? (() => []));
  // An override set after a split is in adjusted prices; the effective paths are computed before the
  // split adjustment, so the override enters them multiplied back by the divisor of its instant.
  const rawOverrides = () =>
    params.overrides().map((o) => {
      const d = divisorAt(splits, o.symbol, o.atMs);
      return d === 1 ? o : { ...o, priceMicros: o.priceMicros * d };
    });
  return {
    seed: params.seed,
    cal: params.calendar,
    instruments,
    index: { constituents, totalWeightBps: constituents.reduce((sum, i) => sum + i.weightBps, 0) },
    overrides: createOverrideBook(params.calendar, rawOverrides, (symbol) => instruments.has(symbol)),
    splits,
    base: { closes: new BoundedCache(SMALL_CACHE_LIMIT), paths: new BoundedCache(PATH_CACHE_LIMIT) },
    effective: {
      closes: new BoundedCache(SMALL_CACHE_LIMIT),
      paths: new BoundedCache(PATH_CACHE_LIMIT),
      stats: new BoundedCache(SMALL_CACHE_LIMIT),
      overridesByDay: new BoundedCache(SMALL_CACHE_LIMIT),
      indexBars: new BoundedCache(SMALL_CACHE_LIMIT),
      adjustedPaths: new BoundedCache(PATH_CACHE_LIMIT),
      adjustedCloses: new BoundedCache(SMALL_CACHE_LIMIT),
      adjustedStats: new BoundedCache(SMALL_CACHE_LIMIT),
    },
  };
}

/** After the overrides or splits change: everything derived from them is recomputed on demand. */
export function invalidate(t: Pick<TapeCtx, 'overrides' | 'splits' | 'effective'>): void {
  t.overrides.invalidate();
  t.splits.invalidate();
  for (const cache of Object.values(t.effective)) cache.clear();
}

/** An unknown symbol here is a caller's bug: the market service checks symbols against the catalog. */
export function instrumentOf(t: Pick<TapeCtx, 'instruments'>, symbol: string): Instrument {
  const inst = t.instruments.get(symbol);
  if (!inst) throw new Error(`tape has no instrument ${symbol}`);
  return inst;
}

export function sessionOf(cal: Calendar, date: string): Session {
  const s = cal.session(date);
  if (!s) throw new Error(`${date} is not a trading day`);
  return s;
}
