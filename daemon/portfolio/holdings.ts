// GET .../portfolio and .../portfolio/exposures: what the investor holds now, and how concentrated it is
// (docs/portfolio.md "Positions" and "Exposures").
import { ok } from '../contract/outcome.js';
import { hhi, sectorExposures, topHoldingPct } from './analytics.js';
import type { PortfolioCtx } from './context.js';
import { positions, type PositionRow } from './positions.js';

export function portfolioReport(ctx: PortfolioCtx, tenantId: string, investorId: string) {
  const found = ctx.investors.lookup(tenantId, investorId);
  if (!found.ok) return found;
  const inv = found.value;
  const p = positions(ctx, tenantId, inv.id, ctx.clock.now());
  return ok({
    investor_id: inv.id,
    as_of: ctx.nowIso(),
    currency: 'EGP' as const,
    total_value_micros: p.total,
    cash_micros: p.cash,
    positions: p.rows.map(({ sector: _sector, ...row }) => row),
    ordering: 'kind_then_symbol' as const,
  });
}

function largest(held: PositionRow[]): PositionRow | null {
  return held.reduce<PositionRow | null>(
    (best, r) => (best === null || r.value_micros > best.value_micros ? r : best),
    null,
  );
}

export function exposuresReport(ctx: PortfolioCtx, tenantId: string, investorId: string) {
  const found = ctx.investors.lookup(tenantId, investorId);
  if (!found.ok) return found;
  const inv = found.value;
  const p = positions(ctx, tenantId, inv.id, ctx.clock.now());
  const held = p.rows.filter((r) => r.kind !== 'cash');
  const top = largest(held);
  return ok({
    investor_id: inv.id,
    as_of: ctx.nowIso(),
    total_value_micros: p.total,
    sectors: sectorExposures(
      held.map((r) => ({ sector: r.sector!, valueMicros: r.value_micros })),
      p.total,
    ),
    asset_classes: sectorExposures(
      p.rows.map((r) => ({ sector: r.kind, valueMicros: r.value_micros })),
      p.total,
    ).map(({ sector, ...rest }) => ({ kind: sector, ...rest })),
    hhi: hhi(held.map((r) => r.value_micros)),
    top_holding: top && {
      asset: top.asset,
      symbol: top.symbol,
      value_micros: top.value_micros,
      weight_pct: top.weight_pct,
    },
    top_holding_pct: topHoldingPct(
      held.map((r) => r.value_micros),
      p.total,
    ),
    ordering: 'alphabetical' as const,
  });
}
