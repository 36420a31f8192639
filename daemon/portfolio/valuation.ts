// What holdings are worth at an instant, and the investor's daily value series (docs/portfolio.md).
// Equities at the tape price at that instant (a past day's close, or now), fund units at the NAV in
// force then (floored to the micro: what a redemption would pay), cash at par. The series replays the
// ledger's history: holdings at a point are the investor's postings with system accounts up to it.
import { assetKind } from '../ledger/assets.js';
import type { Movement } from '../ledger/history.js';
import type { Market } from '../market/service.js';
import type { FundCatalog } from '../funds/catalog.js';
import type { NavBook } from '../funds/nav-book.js';
import type { ValuePoint } from './analytics.js';

const UNIT = 1_000_000n;
const MAX = BigInt(Number.MAX_SAFE_INTEGER);

export interface SeriesPoint {
  date: string;
  /** The valuation instant: the session's close, or now for today's session still open. */
  atMs: number;
}

function safe(what: string, v: bigint): number {
  if (v > MAX || v < -MAX) throw new RangeError(`${what} overflows a safe integer: ${v}`);
  return Number(v);
}

export function createValuer(market: Market, funds: FundCatalog, navBook: NavBook) {
  /** Price of one unit of an asset at an instant: a share's tape price, a fund's NAV per whole unit, 1 EGP for cash. */
  function priceAt(asset: string, atMs: number): number {
    const kind = assetKind(asset);
    if (kind === 'cash') return 1_000_000;
    if (kind === 'fund') return navBook.navAt(funds.get(asset.slice('fund:'.length))!, atMs).navMicros;
    return market.tape.priceAt(asset, atMs);
  }

  /** Value in micros of qty of an asset at an instant: shares x price; units and cash x price / 1,000,000, floored. */
  function valueAt(asset: string, qty: number, atMs: number): bigint {
    const kind = assetKind(asset);
    if (kind === 'cash') return BigInt(qty);
    const v = BigInt(qty) * BigInt(priceAt(asset, atMs));
    // Floor toward minus infinity for a negative quantity (an outflow's value), like the positive case's.
    return kind === 'security' ? v : v >= 0n ? v / UNIT : -((-v + UNIT - 1n) / UNIT);
  }

  function totalOf(holdings: ReadonlyMap<string, number>, atMs: number): number {
    let total = 0n;
    for (const [asset, qty] of holdings) if (qty !== 0) total += valueAt(asset, qty, atMs);
    return safe('portfolio value', total);
  }

  /**
   * The closing value of each point and the external flows since the previous point: deposits and
   * withdrawals (the payment rail) and journals through the adjustments account (at that point's
   * price). Everything else (trades, fees, taxes, dividends, fund orders) happens inside the portfolio.
   */
  function series(movements: readonly Movement[], points: readonly SeriesPoint[]): ValuePoint[] {
    const sorted = [...movements].sort((a, b) => a.atMs - b.atMs || a.id - b.id);
    const holdings = new Map<string, number>();
    const out: ValuePoint[] = [];
    let k = 0;
    for (const p of points) {
      let flow = 0n;
      for (; k < sorted.length && sorted[k].atMs <= p.atMs; k++) {
        const m = sorted[k];
        holdings.set(m.asset, (holdings.get(m.asset) ?? 0) + m.delta);
        if (m.counterparty === 'system:rail' || m.counterparty === 'system:adjustments')
          flow += valueAt(m.asset, m.delta, p.atMs);
      }
      out.push({ date: p.date, valueMicros: totalOf(holdings, p.atMs), netFlowMicros: safe('net flow', flow) });
    }
    return out;
  }

  return {
    priceAt,
    valueOf: (asset: string, qty: number, atMs: number) => safe('value', valueAt(asset, qty, atMs)),
    totalOf,
    series,
  };
}

export type Valuer = ReturnType<typeof createValuer>;
