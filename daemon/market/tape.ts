// The deterministic tape: every price is a function of (seed, symbol, trading day, minute) plus the
// recorded `quote` overrides. Nothing is stored per tick and nothing walks from an epoch:
//
// - Base close of a trading day: the fixture reference price times (10000 + dev) / 10000, where dev is
//   integer value noise over the calendar's trading-day number (O(log holidays) to compute). Because
//   consecutive trading days differ by exactly 1 in that number, a day-to-day move is bounded by the
//   noise slopes (<= ~5%), far inside the 20% band, whatever the holidays in between.
// - Base open: the previous base close plus a small seeded gap.
// - Base minute path: a Brownian bridge from open to close (recursive midpoint displacement with a
//   per-day seeded generator), on the tick grid and clamped to the day's band; cached per day.
// - Overrides: from an override on, ticks are base x price/base_at_override (exact fractions in BigInt,
//   rounded to the tick, clamped to the band). After an override day every later day is scaled by that
//   day's close / base close, so closes and references shift with it. Cost: one path per override day.
import { hash32, hashInt, Prng } from '../sim/prng.js';
import type { Calendar } from './calendar.js';
import { band, clampToBand, mulDivFloor, roundRatioToTick, roundToTick, MIN_PRICE_MICROS } from './ticks.js';

export interface TapeInstrument {
  symbol: string;
  refPriceMicros: number;
  /** Weight in the market index; absent or 0 when not a constituent. */
  weightBps?: number;
  /** Scales every seeded move (100 = equity default; bonds want far less). Up to ~300 keeps daily moves inside the band. */
  volatilityPct?: number;
}

export interface TapeOverride {
  symbol: string;
  atMs: number;
  priceMicros: number;
}

export interface TapeParams {
  seed: number | string;
  calendar: Calendar;
  instruments: readonly TapeInstrument[];
  /** The recorded `quote` controls, read lazily; call tape.invalidate() after they change. */
  overrides: () => readonly TapeOverride[];
}

export interface DayBar {
  date: string;
  open_micros: number;
  high_micros: number;
  low_micros: number;
  close_micros: number;
  volume: number;
}

/** Index levels in micro-points: 10,000 points = 10_000_000_000. */
export interface IndexBar {
  date: string;
  open_micros: number;
  high_micros: number;
  low_micros: number;
  close_micros: number;
}

export type Side = 'buy' | 'sell';

export interface TickHit {
  date: string;
  minute: number;
  atMs: number;
  priceMicros: number;
}

export interface Tape {
  has(symbol: string): boolean;
  priceAt(symbol: string, ms: number): number;
  prevClose(symbol: string, date: string): number;
  /** The reference price (previous close) of the session containing ms, or of the next one. */
  referencePriceAt(symbol: string, ms: number): number;
  dayBar(symbol: string, date: string): DayBar | null;
  barAsOf(symbol: string, date: string, ms: number): DayBar | null;
  minutePrices(symbol: string, date: string): readonly number[];
  candles(symbol: string, endDate: string, days: number, asOfMs: number): DayBar[];
  firstMinuteReaching(symbol: string, date: string, side: Side, limitMicros: number, fromMinute: number): number | null;
  firstTickReaching(symbol: string, side: Side, limitMicros: number, fromMs: number, toMs: number): TickHit | null;
  indexLevel(date: string): number;
  indexLevelAt(ms: number): number;
  indexBarAsOf(date: string, ms: number): IndexBar | null;
  indexCandles(endDate: string, days: number, asOfMs: number): IndexBar[];
  invalidate(): void;
}

const MINUTE_MS = 60_000;
const BPS = 10_000;
/** Octaves of value noise over trading days: long swings plus shorter wiggles; the sum stays within +/-40%. */
const OCTAVES = [
  { periodDays: 512, amplitudeBps: 2_500 },
  { periodDays: 128, amplitudeBps: 900 },
  { periodDays: 32, amplitudeBps: 400 },
  { periodDays: 8, amplitudeBps: 150 },
] as const;
const DAILY_JITTER_BPS = 100;
const OPEN_GAP_BPS = 60;
/** Midpoint displacement amplitude over a span of L minutes is isqrt(L * this) bps: ~115 bps for a whole day. */
const BRIDGE_SPREAD_BPS2 = 50;
const TURNOVER_MIN_KEGP = 2_000;
const TURNOVER_MAX_KEGP = 60_000;
const MICROS_PER_KEGP = 1_000_000_000;
const INDEX_BASE_POINTS = 10_000;
const PPM = 1_000_000;
const PATH_CACHE_LIMIT = 30_000;
const SMALL_CACHE_LIMIT = 200_000;

interface Instrument {
  symbol: string;
  refPriceMicros: number;
  weightBps: number;
  volatilityPct: number;
}

/** A price multiplier num/den, kept exact. */
interface Factor {
  num: bigint;
  den: bigint;
}

const IDENTITY: Factor = { num: 1n, den: 1n };

interface EffectiveOverride {
  atMs: number;
  priceMicros: number;
  factor: Factor;
}

interface IndexedOverride {
  atMs: number;
  tickDate: string;
  indexInDay: number;
}

interface SymbolOverrides {
  all: IndexedOverride[];
  /** atMs of `all`, for binary search. */
  times: number[];
  days: string[];
  byDay: Map<string, TapeOverride[]>;
}

interface DayStats {
  high: number;
  low: number;
}

/** Map that drops its oldest entry when full, so long simulations do not grow without bound. */
class BoundedCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, v: V): V {
    if (this.map.size >= this.limit) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, v);
    return v;
  }
  clear(): void {
    this.map.clear();
  }
}

function memo<V>(cache: BoundedCache<V>, key: string, compute: () => V): V {
  const hit = cache.get(key);
  return hit !== undefined ? hit : cache.set(key, compute());
}

function isqrt(n: number): number {
  if (n < 2) return n;
  let x = n;
  let y = Math.floor((x + 1) / 2);
  while (y < x) {
    x = y;
    y = Math.floor((x + Math.floor(n / x)) / 2);
  }
  return x;
}

/** Number of elements of a sorted array that are < value (or <= value when inclusive). */
function countBelow<T>(sorted: readonly T[], value: T, inclusive: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value || (inclusive && sorted[mid] === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function scale(priceMicros: number, f: Factor): number {
  if (f.num === f.den) return priceMicros;
  return Math.max(MIN_PRICE_MICROS, roundRatioToTick(BigInt(priceMicros) * f.num, f.den, 'nearest'));
}

function applyBps(priceMicros: number, bps: number): number {
  return Math.max(MIN_PRICE_MICROS, roundRatioToTick(BigInt(priceMicros) * BigInt(BPS + bps), BigInt(BPS), 'nearest'));
}

export function createTape(params: TapeParams): Tape {
  const { seed, calendar: cal } = params;
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
  const totalWeightBps = constituents.reduce((sum, i) => sum + i.weightBps, 0);

  // Base caches depend only on the seed and the calendar; effective caches also on the overrides.
  const baseCloses = new BoundedCache<number>(SMALL_CACHE_LIMIT);
  const basePaths = new BoundedCache<number[]>(PATH_CACHE_LIMIT);
  const closes = new BoundedCache<number>(SMALL_CACHE_LIMIT);
  const paths = new BoundedCache<number[]>(PATH_CACHE_LIMIT);
  const stats = new BoundedCache<DayStats>(SMALL_CACHE_LIMIT);
  const effectiveByDay = new BoundedCache<EffectiveOverride[]>(SMALL_CACHE_LIMIT);
  const indexBars = new BoundedCache<IndexBar>(SMALL_CACHE_LIMIT);
  let overrideIndex: Map<string, SymbolOverrides> | null = null;

  function instrument(symbol: string): Instrument {
    const inst = instruments.get(symbol);
    if (!inst) throw new Error(`tape has no instrument ${symbol}`);
    return inst;
  }

  function session(date: string) {
    const s = cal.session(date);
    if (!s) throw new Error(`${date} is not a trading day`);
    return s;
  }

  // ---- base layer: no overrides -------------------------------------------------------------

  function octave(inst: Instrument, k: number, n: number): number {
    const { periodDays, amplitudeBps } = OCTAVES[k];
    const bucket = Math.floor(n / periodDays);
    const along = n - bucket * periodDays;
    const v0 = hashInt(-amplitudeBps, amplitudeBps, seed, inst.symbol, 'octave', k, bucket);
    const v1 = hashInt(-amplitudeBps, amplitudeBps, seed, inst.symbol, 'octave', k, bucket + 1);
    return v0 + mulDivFloor(v1 - v0, along, periodDays);
  }

  function deviationBps(inst: Instrument, n: number): number {
    let dev = hashInt(-DAILY_JITTER_BPS, DAILY_JITTER_BPS, seed, inst.symbol, 'jitter', n);
    for (let k = 0; k < OCTAVES.length; k++) dev += octave(inst, k, n);
    return mulDivFloor(dev, inst.volatilityPct, 100);
  }

  function baseClose(inst: Instrument, date: string): number {
    return memo(baseCloses, `${inst.symbol}|${date}`, () =>
      applyBps(inst.refPriceMicros, deviationBps(inst, cal.tradingDayNumber(date))),
    );
  }

  function baseOpen(inst: Instrument, date: string, ref: number): number {
    const gapBps = hashInt(-OPEN_GAP_BPS, OPEN_GAP_BPS, seed, inst.symbol, 'gap', cal.tradingDayNumber(date));
    return clampToBand(applyBps(ref, mulDivFloor(gapBps, inst.volatilityPct, 100)), band(ref));
  }

  /** Fills p[a+1 .. z-1] between fixed ends; the draw order is fixed, so one generator per day suffices. */
  function bridge(p: number[], a: number, z: number, levelMicros: number, volPct: number, rng: Prng): void {
    if (z - a < 2) return;
    const m = (a + z) >>> 1;
    const amp = mulDivFloor(isqrt((z - a) * BRIDGE_SPREAD_BPS2), volPct, 100);
    const mid = p[a] + mulDivFloor(p[z] - p[a], m - a, z - a);
    p[m] = mid + mulDivFloor(levelMicros, rng.int(-amp, amp), BPS);
    bridge(p, a, m, levelMicros, volPct, rng);
    bridge(p, m, z, levelMicros, volPct, rng);
  }

  function computeBasePath(inst: Instrument, date: string): number[] {
    const n = cal.sessionMinutes(date);
    const close = baseClose(inst, date);
    if (n === 1) return [close];
    const ref = baseClose(inst, cal.prevTradingDay(date));
    const p = new Array<number>(n);
    p[0] = baseOpen(inst, date, ref);
    p[n - 1] = close;
    const rng = new Prng(hash32(seed, inst.symbol, 'path', cal.tradingDayNumber(date)));
    bridge(p, 0, n - 1, ref, inst.volatilityPct, rng);
    const b = band(ref);
    for (let i = 1; i < n - 1; i++) p[i] = clampToBand(roundToTick(Math.max(MIN_PRICE_MICROS, p[i]), 'nearest'), b);
    return p;
  }

  function basePath(inst: Instrument, date: string): number[] {
    return memo(basePaths, `${inst.symbol}|${date}`, () => computeBasePath(inst, date));
  }

  function baseVolume(inst: Instrument, date: string): number {
    const turnoverKegp = hashInt(TURNOVER_MIN_KEGP, TURNOVER_MAX_KEGP, seed, inst.symbol, 'volume', cal.tradingDayNumber(date));
    return mulDivFloor(turnoverKegp, MICROS_PER_KEGP, baseClose(inst, date));
  }

  // ---- overrides --------------------------------------------------------------------------

  /** The trading date of the first tick at or after atMs: the date whose ticks the override moves. */
  function tickDateOf(atMs: number): string {
    const today = cal.localDate(atMs);
    const n = cal.sessionMinutes(today);
    if (n > 0 && atMs <= cal.tickMs(today, n - 1)) return today;
    return cal.localDate(cal.nextOpen(atMs));
  }

  function buildOverrideIndex(): Map<string, SymbolOverrides> {
    const index = new Map<string, SymbolOverrides>();
    const sorted = [...params.overrides()].filter((o) => instruments.has(o.symbol)).sort((x, y) => x.atMs - y.atMs);
    for (const o of sorted) {
      let so = index.get(o.symbol);
      if (!so) index.set(o.symbol, (so = { all: [], times: [], days: [], byDay: new Map() }));
      const tickDate = tickDateOf(o.atMs);
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

  function overridesOf(symbol: string): SymbolOverrides | undefined {
    overrideIndex ??= buildOverrideIndex();
    return overrideIndex.get(symbol);
  }

  /** Base price of the last tick at or before atMs on (or, before the open, just before) `date`. */
  function baseTickAtOrBefore(inst: Instrument, date: string, atMs: number): number {
    const s = session(date);
    if (atMs < s.openMs) return baseClose(inst, cal.prevTradingDay(date));
    return basePath(inst, date)[Math.floor((atMs - s.openMs) / MINUTE_MS)];
  }

  /** The overrides whose next tick falls on `date`, each clamped to the day's band with its scale factor. */
  function effectiveOverrides(inst: Instrument, date: string): EffectiveOverride[] {
    return memo(effectiveByDay, `${inst.symbol}|${date}`, () => {
      const raw = overridesOf(inst.symbol)?.byDay.get(date) ?? [];
      const b = band(closeOf(inst, cal.prevTradingDay(date)));
      return raw.map((o) => {
        const priceMicros = clampToBand(roundToTick(Math.max(MIN_PRICE_MICROS, o.priceMicros), 'nearest'), b);
        const factor = { num: BigInt(priceMicros), den: BigInt(baseTickAtOrBefore(inst, date, o.atMs)) };
        return { atMs: o.atMs, priceMicros, factor };
      });
    });
  }

  /** Scale carried into `date` from the latest override day before it: that day's close / base close. */
  function anchorBefore(inst: Instrument, date: string): Factor {
    const so = overridesOf(inst.symbol);
    if (!so) return IDENTITY;
    const k = countBelow(so.days, date, false);
    if (k === 0) return IDENTITY;
    const day = so.days[k - 1];
    return { num: BigInt(closeOf(inst, day)), den: BigInt(baseClose(inst, day)) };
  }

  // ---- effective layer --------------------------------------------------------------------

  function isOverrideDay(inst: Instrument, date: string): boolean {
    return overridesOf(inst.symbol)?.byDay.has(date) ?? false;
  }

  /**
   * Close of a trading day. Off override days it is the scaled base close in O(1) (no band clamp: the
   * base moves are bounded well inside the band, so it never binds); on an override day, the path's end.
   */
  function closeOf(inst: Instrument, date: string): number {
    return memo(closes, `${inst.symbol}|${date}`, () => {
      if (isOverrideDay(inst, date)) {
        const p = effectivePath(inst, date);
        return p[p.length - 1];
      }
      return scale(baseClose(inst, date), anchorBefore(inst, date));
    });
  }

  function computeEffectivePath(inst: Instrument, date: string): number[] {
    const base = basePath(inst, date);
    const anchor = anchorBefore(inst, date);
    const overriding = isOverrideDay(inst, date);
    if (!overriding && anchor.num === anchor.den) return base;
    const b = band(closeOf(inst, cal.prevTradingDay(date)));
    const effs = overriding ? effectiveOverrides(inst, date) : [];
    const openMs = session(date).openMs;
    const out = new Array<number>(base.length);
    let j = -1;
    for (let i = 0; i < base.length; i++) {
      while (j + 1 < effs.length && effs[j + 1].atMs <= openMs + i * MINUTE_MS) j++;
      out[i] = clampToBand(scale(base[i], j >= 0 ? effs[j].factor : anchor), b);
    }
    if (!overriding) out[out.length - 1] = scale(base[base.length - 1], anchor);
    return out;
  }

  function effectivePath(inst: Instrument, date: string): number[] {
    return memo(paths, `${inst.symbol}|${date}`, () => computeEffectivePath(inst, date));
  }

  function dayStats(inst: Instrument, date: string): DayStats {
    return memo(stats, `${inst.symbol}|${date}`, () => {
      const p = effectivePath(inst, date);
      let high = p[0];
      let low = p[0];
      for (const x of p) {
        if (x > high) high = x;
        if (x < low) low = x;
      }
      return { high, low };
    });
  }

  // ---- queries ----------------------------------------------------------------------------

  /** The last tick at or before ms: a minute of today's session, or the close of the last trading day. */
  function lastTick(ms: number): { date: string; minute: number; atMs: number } {
    const today = cal.localDate(ms);
    const s = cal.session(today);
    if (s && ms >= s.openMs) {
      const minute = Math.min(Math.floor((ms - s.openMs) / MINUTE_MS), cal.sessionMinutes(today) - 1);
      return { date: today, minute, atMs: s.openMs + minute * MINUTE_MS };
    }
    const date = cal.prevTradingDay(today);
    const minute = cal.sessionMinutes(date) - 1;
    return { date, minute, atMs: cal.tickMs(date, minute) };
  }

  /** An override set after the last tick shows until the next tick replaces it. */
  function pendingOverridePrice(inst: Instrument, ms: number, lastTickMs: number): number | null {
    const so = overridesOf(inst.symbol);
    if (!so) return null;
    const k = countBelow(so.times, ms, true);
    if (k === 0 || so.all[k - 1].atMs <= lastTickMs) return null;
    const o = so.all[k - 1];
    return effectiveOverrides(inst, o.tickDate)[o.indexInDay].priceMicros;
  }

  function priceAt(symbol: string, ms: number): number {
    const inst = instrument(symbol);
    const tick = lastTick(ms);
    const pending = pendingOverridePrice(inst, ms, tick.atMs);
    if (pending !== null) return pending;
    if (tick.minute === cal.sessionMinutes(tick.date) - 1) return closeOf(inst, tick.date);
    return effectivePath(inst, tick.date)[tick.minute];
  }

  function prevClose(symbol: string, date: string): number {
    return closeOf(instrument(symbol), cal.prevTradingDay(date));
  }

  function referencePriceAt(symbol: string, ms: number): number {
    return prevClose(symbol, cal.sessionDateFor(ms));
  }

  function barUpTo(inst: Instrument, date: string, lastMinute: number): DayBar {
    const p = effectivePath(inst, date);
    const full = lastMinute === p.length - 1;
    let high = p[0];
    let low = p[0];
    if (full) ({ high, low } = dayStats(inst, date));
    else for (let i = 1; i <= lastMinute; i++) (high = Math.max(high, p[i])), (low = Math.min(low, p[i]));
    const volume = mulDivFloor(baseVolume(inst, date), lastMinute + 1, p.length);
    return { date, open_micros: p[0], high_micros: high, low_micros: low, close_micros: p[lastMinute], volume };
  }

  /** Last minute of `date` ticked by ms, or null when the session has not opened by then (or never does). */
  function lastMinuteAsOf(date: string, ms: number): number | null {
    const s = cal.session(date);
    if (!s || ms < s.openMs) return null;
    return Math.min(Math.floor((ms - s.openMs) / MINUTE_MS), cal.sessionMinutes(date) - 1);
  }

  function dayBar(symbol: string, date: string): DayBar | null {
    const inst = instrument(symbol);
    return cal.isTradingDay(date) ? barUpTo(inst, date, cal.sessionMinutes(date) - 1) : null;
  }

  function barAsOf(symbol: string, date: string, ms: number): DayBar | null {
    const inst = instrument(symbol);
    const last = lastMinuteAsOf(date, ms);
    return last === null ? null : barUpTo(inst, date, last);
  }

  function minutePrices(symbol: string, date: string): readonly number[] {
    const inst = instrument(symbol);
    return cal.isTradingDay(date) ? effectivePath(inst, date) : [];
  }

  /** The last `days` trading days on or before endDate that have opened by asOfMs, oldest first. */
  function collectBars<B>(endDate: string, days: number, asOfMs: number, barOf: (date: string) => B | null): B[] {
    const out: B[] = [];
    let date = cal.isTradingDay(endDate) ? endDate : cal.prevTradingDay(endDate);
    // Days not yet opened at asOfMs are skipped; the guard stops at ten trading weeks past them.
    for (let guard = 0; out.length < days && guard < days + 50; guard++) {
      const bar = barOf(date);
      if (bar) out.push(bar);
      date = cal.prevTradingDay(date);
    }
    return out.reverse();
  }

  function candles(symbol: string, endDate: string, days: number, asOfMs: number): DayBar[] {
    instrument(symbol);
    return collectBars(endDate, days, asOfMs, (date) => barAsOf(symbol, date, asOfMs));
  }

  function firstMinuteReaching(symbol: string, date: string, side: Side, limitMicros: number, fromMinute: number): number | null {
    const inst = instrument(symbol);
    if (!cal.isTradingDay(date)) return null;
    const { high, low } = dayStats(inst, date);
    if (side === 'buy' ? low > limitMicros : high < limitMicros) return null;
    const p = effectivePath(inst, date);
    for (let i = Math.max(0, fromMinute); i < p.length; i++) {
      if (side === 'buy' ? p[i] <= limitMicros : p[i] >= limitMicros) return i;
    }
    return null;
  }

  /** First tick in [fromMs, toMs) at or through the limit, across sessions. */
  function firstTickReaching(symbol: string, side: Side, limitMicros: number, fromMs: number, toMs: number): TickHit | null {
    for (let date = cal.sessionDateFor(fromMs); ; date = cal.nextTradingDay(date)) {
      const s = session(date);
      if (s.openMs >= toMs) return null;
      const from = fromMs <= s.openMs ? 0 : Math.ceil((fromMs - s.openMs) / MINUTE_MS);
      const minute = firstMinuteReaching(symbol, date, side, limitMicros, from);
      if (minute === null) continue;
      const atMs = s.openMs + minute * MINUTE_MS;
      if (atMs >= toMs) return null;
      return { date, minute, atMs, priceMicros: effectivePath(instrument(symbol), date)[minute] };
    }
  }

  // ---- market index -----------------------------------------------------------------------

  /** 10,000 x sum(w x price / base) / sum(w), with each ratio taken in parts per million. */
  function indexLevelOf(priceOf: (inst: Instrument, k: number) => number): number {
    if (constituents.length === 0) throw new Error('tape has no index constituents');
    let weighted = 0;
    for (let k = 0; k < constituents.length; k++) {
      const c = constituents[k];
      weighted += c.weightBps * mulDivFloor(priceOf(c, k), PPM, c.refPriceMicros);
    }
    return mulDivFloor(weighted, INDEX_BASE_POINTS, totalWeightBps);
  }

  function indexLevel(date: string): number {
    const day = cal.isTradingDay(date) ? date : cal.prevTradingDay(date);
    return indexLevelOf((c) => closeOf(c, day));
  }

  function indexLevelAt(ms: number): number {
    return indexLevelOf((c) => priceAt(c.symbol, ms));
  }

  function indexBarUpTo(date: string, lastMinute: number): IndexBar {
    const series = constituents.map((c) => effectivePath(c, date));
    const levelAt = (i: number) => indexLevelOf((_, k) => series[k][i]);
    const open = levelAt(0);
    let high = open;
    let low = open;
    let close = open;
    for (let i = 1; i <= lastMinute; i++) {
      close = levelAt(i);
      high = Math.max(high, close);
      low = Math.min(low, close);
    }
    return { date, open_micros: open, high_micros: high, low_micros: low, close_micros: close };
  }

  function indexBarAsOf(date: string, ms: number): IndexBar | null {
    const last = lastMinuteAsOf(date, ms);
    if (last === null) return null;
    if (last < cal.sessionMinutes(date) - 1) return indexBarUpTo(date, last);
    return memo(indexBars, date, () => indexBarUpTo(date, last));
  }

  function indexCandles(endDate: string, days: number, asOfMs: number): IndexBar[] {
    return collectBars(endDate, days, asOfMs, (date) => indexBarAsOf(date, asOfMs));
  }

  function invalidate(): void {
    overrideIndex = null;
    closes.clear();
    paths.clear();
    stats.clear();
    effectiveByDay.clear();
    indexBars.clear();
  }

  return {
    has: (symbol) => instruments.has(symbol),
    priceAt, prevClose, referencePriceAt, dayBar, barAsOf, minutePrices, candles,
    firstMinuteReaching, firstTickReaching, indexLevel, indexLevelAt, indexBarAsOf, indexCandles, invalidate,
  };
}
