// A zone's UTC offsets as a table (daemon/market/calendar/zone-offsets.ts, generated from node's own zone
// data): the offset at an instant is a binary search, with no Intl behind it. zone-time.ts uses it within the
// table's span and asks luxon (Intl) outside it, and for a zone the table does not hold.

export interface ZoneOffsetTable {
  /** The span the table answers for, epoch ms: [from, until). */
  from: number;
  until: number;
  /** The offset in minutes at `from`. */
  initial: number;
  /** The instants (epoch ms, ascending) at which the offset changes, and the offset from each on. */
  at: readonly number[];
  offset: readonly number[];
}

/** The offset in minutes at `ms`, or undefined outside the table's span. */
export function tableOffset(t: ZoneOffsetTable, ms: number): number | undefined {
  if (!(ms >= t.from && ms < t.until)) return undefined;
  let lo = 0;
  let hi = t.at.length;
  // the number of changes at or before ms
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t.at[mid] <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? t.initial : t.offset[lo - 1];
}
