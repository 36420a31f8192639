// The EGX price grid, in integer micros: the tick is 0.01 EGP at prices >= 2 EGP and 0.001 EGP below.
// 2 EGP lies on both grids, so rounding with the tick of the unrounded price always lands on the grid
// of the rounded price's level. Pure and shared: the daemon's order rules and tape (daemon/market/
// ticks.ts re-exports these) and the CLI's price checks while typing use the same table.

export const TICK_LEVEL_MICROS = 2_000_000;
export const TICK_HIGH_MICROS = 10_000;
export const TICK_LOW_MICROS = 1_000;
/** The lowest price on the grid: one low tick. */
export const MIN_PRICE_MICROS = TICK_LOW_MICROS;

export type TickRounding = 'down' | 'up' | 'nearest';

export function assertPrice(priceMicros: number): void {
  if (!Number.isSafeInteger(priceMicros) || priceMicros < 0)
    throw new Error(`price must be a non-negative integer of micros, got ${priceMicros}`);
}

export function tickSize(priceMicros: number): number {
  return priceMicros >= TICK_LEVEL_MICROS ? TICK_HIGH_MICROS : TICK_LOW_MICROS;
}

export function isOnTick(priceMicros: number): boolean {
  return Number.isSafeInteger(priceMicros) && priceMicros > 0 && priceMicros % tickSize(priceMicros) === 0;
}

export function roundToTick(priceMicros: number, mode: TickRounding): number {
  assertPrice(priceMicros);
  const tick = tickSize(priceMicros);
  const rest = priceMicros % tick;
  if (rest === 0) return priceMicros;
  const down = priceMicros - rest;
  if (mode === 'down') return down;
  if (mode === 'up') return down + tick;
  return rest * 2 >= tick ? down + tick : down; // half up
}

/** The grid prices either side of an off-tick price (below may be 0 under the lowest tick). */
export function tickNeighbours(priceMicros: number): { tickMicros: number; belowMicros: number; aboveMicros: number } {
  return {
    tickMicros: tickSize(priceMicros),
    belowMicros: roundToTick(priceMicros, 'down'),
    aboveMicros: roundToTick(priceMicros, 'up'),
  };
}
