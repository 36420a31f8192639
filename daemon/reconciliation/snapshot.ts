// One business day as reconciliation sees it: both sides computed from the ledger at the end of the
// day, and the external statements with that day's injected breaks applied.
import type { ReconCtx } from './context.js';
import { cutoffMs } from './days.js';
import { computeSides, type Sides } from './sides.js';
import { externalLines, sourceOf, type ExternalEntry } from './statements.js';

export interface DaySnapshot {
  date: string;
  cutoffMs: number;
  sides: Sides;
  ext: Map<string, ExternalEntry>;
}

export function snapshotOf(ctx: Pick<ReconCtx, 'repo' | 'market'>, date: string): DaySnapshot {
  const cutoff = cutoffMs(ctx, date);
  const sides = computeSides(ctx.repo.accounts(), ctx.repo.entriesBefore(cutoff));
  return { date, cutoffMs: cutoff, sides, ext: externalLines(sides, ctx.repo.overridesOn(date)) };
}

/** How many lines each statement of the day has. */
export function linesPerSource(day: DaySnapshot): { custodian: number; bank: number } {
  const n = { custodian: 0, bank: 0 };
  for (const e of day.ext.values()) n[sourceOf(day.sides.keys.get(e.key)!.asset)] += e.lines.length;
  return n;
}
