// Average-cost basis of every holding of an investor, recomputed from what happened, oldest first:
// equity fills (a buy adds its consideration plus its fees and stamp duty, a sell releases a
// proportional share: analytics.ts averageCostAfterBuy / averageCostAfterSell), settled fund orders
// (a subscription costs the amount charged, a redemption releases proportionally), and any other
// movement of a holding through the ledger (a journal from the adjustments account, a corporate
// action): in at zero cost, out releasing its proportional share. Dividends are income and leave the
// basis alone. Recomputing (rather than keeping a running table) means the basis can never drift from
// the fills and fund orders it is made of, and needs no hook in the services that book them.
import { averageCostAfterBuy, averageCostAfterSell, type CostBasis } from './analytics.js';
import type { Movement } from '../ledger/history.js';

export interface CostEvent {
  atMs: number;
  /** Tie-break within one instant: its booking order. */
  seq: number;
  asset: string;
  side: 'in' | 'out';
  qty: number;
  /** in: what it cost (consideration or amount charged); out: what it brought (proceeds or amount paid). */
  amountMicros: number;
  /** Charges on top (in: part of the cost; out: deducted from the proceeds). */
  feesMicros: number;
}

/** Ledger kinds whose holdings movement is already a fill or a fund order event. */
const EXPLAINED_KINDS = new Set(['trade', 'subscription', 'redemption']);

/** Movements of holdings (not cash) that no fill or fund order explains. */
export function otherHoldingEvents(movements: readonly Movement[]): CostEvent[] {
  return movements
    .filter((m) => !m.asset.startsWith('cash:') && !EXPLAINED_KINDS.has(m.kind))
    .map((m) => ({
      atMs: m.atMs,
      seq: m.id,
      asset: m.asset,
      side: m.delta > 0 ? 'in' : 'out',
      qty: Math.abs(m.delta),
      amountMicros: 0,
      feesMicros: 0,
    }));
}

/** The average-cost basis per asset after every event, in time order (inflows first within an instant). */
export function costBases(events: readonly CostEvent[]): Map<string, CostBasis> {
  const sorted = [...events].sort(
    (a, b) => a.atMs - b.atMs || (a.side === b.side ? 0 : a.side === 'in' ? -1 : 1) || a.seq - b.seq,
  );
  const out = new Map<string, CostBasis>();
  for (const e of sorted) {
    const b = out.get(e.asset) ?? { qty: 0, costMicros: 0 };
    if (e.side === 'in') {
      out.set(
        e.asset,
        averageCostAfterBuy(b, { qty: e.qty, considerationMicros: e.amountMicros, feesMicros: e.feesMicros }),
      );
    } else {
      // The ledger never lets more leave than is held; should history hold a quantity no event
      // explains, it enters at zero cost just before it leaves.
      const held =
        b.qty < e.qty ? averageCostAfterBuy(b, { qty: e.qty - b.qty, considerationMicros: 0, feesMicros: 0 }) : b;
      const next = averageCostAfterSell(held, { qty: e.qty, proceedsMicros: e.amountMicros, feesMicros: e.feesMicros });
      out.set(e.asset, { qty: next.qty, costMicros: next.costMicros });
    }
  }
  return out;
}
