// The order source: what the scheduler runs to wake resting orders (settlement.ts has the T+2 event).
//
// It keeps, per open order, the matcher's next step (cached in memory, recomputed when the
// order, its symbol's tape or halt changes). An order with nothing to do within a horizon wakes at the
// horizon's end to look further, so no single look scans more than ~32 days; horizons are aligned so
// all idle orders share the same few wake-ups (docs/trading.md "Performance").
import type { Deps } from '../deps.js';
import { isTerminal, nextStep, type MarketView, type MatchOrder, type Step } from './matcher.js';
import { toMatch } from './plan.js';
import type { OrderRow, TradingRepo } from './repository.js';

const DAY_MS = 86_400_000;
const HORIZON_MS = 16 * DAY_MS;

export type OrderSourceDeps = Pick<Deps, 'scheduler' | 'market' | 'onReset'>;

interface Due {
  seq: number;
  order: MatchOrder;
  evaluatedMs: number;
  dueMs: number;
  step: Step | null;
}

interface Dues {
  byOrder: Map<string, Due>;
  /** Orders whose row changed: reread, then recompute. */
  dirty: Set<string>;
  /** Orders whose row did not change but whose next step must be looked for again (horizon, tape change). */
  stale: Set<string>;
  loaded: boolean;
}

export interface OrderSource {
  /** An order's row changed (placed, booked, cancel requested): look at it again. */
  touch(orderId: string): void;
}

function horizonEnd(fromMs: number): number {
  return (Math.floor(fromMs / HORIZON_MS) + 2) * HORIZON_MS;
}

function lookAhead(view: MarketView, d: Omit<Due, 'dueMs' | 'step'>, afterMs: number): Due {
  const from = Math.max(d.evaluatedMs, afterMs);
  const until = horizonEnd(from);
  const step = nextStep(d.order, from, until, view);
  return { ...d, dueMs: step ? step.atMs : until, step };
}

function refresh(s: Dues, repo: Pick<TradingRepo, 'byId' | 'openOrderIds'>, view: MarketView, afterMs: number): void {
  if (!s.loaded) {
    for (const id of repo.openOrderIds()) s.dirty.add(id);
    s.loaded = true;
  }
  for (const id of s.dirty) {
    s.stale.delete(id);
    const r = repo.byId(id);
    if (!r || isTerminal(r)) s.byOrder.delete(id);
    else s.byOrder.set(id, lookAhead(view, { seq: r.seq, order: toMatch(r), evaluatedMs: r.evaluated_ms }, afterMs));
  }
  s.dirty.clear();
  for (const id of s.stale) {
    const d = s.byOrder.get(id);
    if (d) s.byOrder.set(id, lookAhead(view, d, afterMs));
  }
  s.stale.clear();
}

function earliestAfter(s: Dues, afterMs: number): number | null {
  let best: number | null = null;
  for (const d of s.byOrder.values()) if (d.dueMs > afterMs && (best === null || d.dueMs < best)) best = d.dueMs;
  return best;
}

/** Runs the orders due at atMs in the order they were placed; a horizon's end only looks again. */
function runDue(
  s: Dues,
  repo: Pick<TradingRepo, 'byId'>,
  atMs: number,
  apply: (r: OrderRow, step: Step) => void,
): void {
  const due: Array<[string, Due]> = [];
  for (const entry of s.byOrder) if (entry[1].dueMs === atMs) due.push(entry);
  due.sort((a, b) => a[1].seq - b[1].seq);
  for (const [id, d] of due) {
    if (!d.step) {
      s.stale.add(id);
      continue;
    }
    s.dirty.add(id);
    const r = repo.byId(id);
    if (r && !isTerminal(r)) apply(r, d.step);
  }
}

/**
 * Registers the order source with the scheduler; `apply` books a due step from the tape (booking.ts).
 * A quote override, halt change or split moves a symbol's future: its orders are reread and look again;
 * a reset forgets all.
 */
export function startOrderSource(
  deps: OrderSourceDeps,
  repo: Pick<TradingRepo, 'byId' | 'openOrderIds'>,
  view: MarketView,
  apply: (r: OrderRow, step: Step) => void,
): OrderSource {
  const { scheduler } = deps;
  const s: Dues = { byOrder: new Map(), dirty: new Set(), stale: new Set(), loaded: false };
  scheduler.addSource({
    name: 'orders',
    nextDue(afterMs) {
      refresh(s, repo, view, afterMs);
      return earliestAfter(s, afterMs);
    },
    run: (atMs) => runDue(s, repo, atMs, apply),
  });
  deps.market.onChange((symbol) => {
    // reread, not only look again: a split amends the symbol's open orders in the same transaction
    for (const [id, d] of s.byOrder) if (d.order.symbol === symbol) s.dirty.add(id);
    scheduler.changed();
  });
  deps.onReset.push(() => {
    s.byOrder.clear();
    s.dirty.clear();
    s.stale.clear();
    s.loaded = false;
  });
  return {
    touch(orderId) {
      s.dirty.add(orderId);
      scheduler.changed();
    },
  };
}
