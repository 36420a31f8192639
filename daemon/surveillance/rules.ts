// The surveillance rules, as pure functions over one session's facts (docs/surveillance.md). No
// database, no clock: the same facts and thresholds give the same findings, in the same order, which
// is what makes the alerts of a session close reproducible for a seed and the tests exact at each
// threshold.
import type { Thresholds } from './thresholds.js';

const MINUTE_MS = 60_000;

export interface FillFact {
  id: string;
  order_id: string;
  tenant_id: string;
  investor_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  qty: number;
  at_ms: number;
}

export interface CancelFact {
  order_id: string;
  tenant_id: string;
  investor_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  created_ms: number;
  canceled_ms: number;
}

export type Rule = 'wash_trade' | 'layering' | 'concentration';

export interface Finding {
  rule: Rule;
  tenant_id: string;
  investor_id: string;
  symbol: string;
  start_ms: number;
  end_ms: number;
  order_ids: string[];
  fill_ids: string[];
  detail: Record<string, number | string>;
}

const keyOf = (x: { tenant_id: string; investor_id: string; symbol: string }) =>
  `${x.tenant_id}\u0000${x.investor_id}\u0000${x.symbol}`;

/** Groups by (tenant, investor, symbol), the groups in key order and each group's items in input order. */
function groupBy<T extends { tenant_id: string; investor_id: string; symbol: string }>(items: readonly T[]): T[][] {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = keyOf(it);
    const g = m.get(k);
    if (g) g.push(it);
    else m.set(k, [it]);
  }
  return [...m.keys()].sort().map((k) => m.get(k)!);
}

const uniq = (xs: string[]) => [...new Set(xs)];

/**
 * Wash trade: one investor has a buy fill and a sell fill of one symbol at most `wash_window_minutes`
 * apart (exactly the window counts). The evidence is every fill that has such a partner.
 */
export function washTrades(fills: readonly FillFact[], t: Thresholds): Finding[] {
  const windowMs = t.wash_window_minutes * MINUTE_MS;
  const out: Finding[] = [];
  for (const g of groupBy(fills)) {
    const sorted = [...g].sort((a, b) => a.at_ms - b.at_ms || (a.id < b.id ? -1 : 1));
    const hit = new Set<FillFact>();
    let minGap = Infinity;
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length && sorted[j].at_ms - sorted[i].at_ms <= windowMs; j++) {
        if (sorted[j].side === sorted[i].side) continue;
        hit.add(sorted[i]).add(sorted[j]);
        minGap = Math.min(minGap, sorted[j].at_ms - sorted[i].at_ms);
      }
    }
    if (hit.size === 0) continue;
    const ev = sorted.filter((f) => hit.has(f));
    out.push({
      rule: 'wash_trade',
      tenant_id: g[0].tenant_id,
      investor_id: g[0].investor_id,
      symbol: g[0].symbol,
      start_ms: ev[0].at_ms,
      end_ms: ev[ev.length - 1].at_ms,
      order_ids: uniq(ev.map((f) => f.order_id)),
      fill_ids: ev.map((f) => f.id),
      detail: {
        buy_fills: ev.filter((f) => f.side === 'buy').length,
        sell_fills: ev.filter((f) => f.side === 'sell').length,
        min_gap_seconds: Math.floor(minGap / 1000),
        window_minutes: t.wash_window_minutes,
      },
    });
  }
  return out;
}

/**
 * Layering-like cancels: at least `layering_min_cancels` orders of one side of one symbol, each
 * cancelled at most `layering_cancel_within_minutes` after it was placed, by one investor in a
 * session. Both sides reaching the count make one alert with the evidence of both.
 */
export function layering(cancels: readonly CancelFact[], t: Thresholds): Finding[] {
  const withinMs = t.layering_cancel_within_minutes * MINUTE_MS;
  const out: Finding[] = [];
  for (const g of groupBy(cancels)) {
    const quick = g.filter((c) => c.canceled_ms - c.created_ms <= withinMs);
    const sides = (['buy', 'sell'] as const).filter(
      (s) => quick.filter((c) => c.side === s).length >= t.layering_min_cancels,
    );
    if (sides.length === 0) continue;
    const ev = quick
      .filter((c) => sides.includes(c.side))
      .sort((a, b) => a.created_ms - b.created_ms || (a.order_id < b.order_id ? -1 : 1));
    out.push({
      rule: 'layering',
      tenant_id: g[0].tenant_id,
      investor_id: g[0].investor_id,
      symbol: g[0].symbol,
      start_ms: ev[0].created_ms,
      end_ms: Math.max(...ev.map((c) => c.canceled_ms)),
      order_ids: ev.map((c) => c.order_id),
      fill_ids: [],
      detail: {
        side: sides.length === 2 ? 'both' : sides[0],
        cancels: ev.length,
        min_cancels: t.layering_min_cancels,
        within_minutes: t.layering_cancel_within_minutes,
      },
    });
  }
  return out;
}

/**
 * Concentration: one investor's filled quantity (buys and sells) is MORE than
 * `concentration_share_bps` of the symbol's session volume (exactly the share does not count).
 * `sessionVolume(symbol)` is the volume the rule divides by (the service adds the sandbox's own
 * fills to the tape's volume).
 */
export function concentration(
  fills: readonly FillFact[],
  sessionVolume: (symbol: string) => number,
  t: Thresholds,
): Finding[] {
  const out: Finding[] = [];
  for (const g of groupBy(fills)) {
    const volume = sessionVolume(g[0].symbol);
    const qty = g.reduce((s, f) => s + f.qty, 0);
    if (volume <= 0 || qty * 10_000 <= t.concentration_share_bps * volume) continue;
    const ev = [...g].sort((a, b) => a.at_ms - b.at_ms || (a.id < b.id ? -1 : 1));
    out.push({
      rule: 'concentration',
      tenant_id: g[0].tenant_id,
      investor_id: g[0].investor_id,
      symbol: g[0].symbol,
      start_ms: ev[0].at_ms,
      end_ms: ev[ev.length - 1].at_ms,
      order_ids: uniq(ev.map((f) => f.order_id)),
      fill_ids: ev.map((f) => f.id),
      detail: {
        investor_qty: qty,
        session_volume: volume,
        share_bps: Math.floor((qty * 10_000) / volume),
        threshold_bps: t.concentration_share_bps,
      },
    });
  }
  return out;
}
