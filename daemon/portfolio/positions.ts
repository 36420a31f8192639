// An investor's positions now: holdings replayed from the ledger's history, each valued (valuation.ts)
// with its average-cost basis (cost-basis.ts), listed equities, then funds, then cash.
import { assetKind, CASH_EGP, fundAsset } from '../ledger/assets.js';
import type { Movement } from '../ledger/history.js';
import { positionView, type PositionKind } from './analytics.js';
import { costBases, otherHoldingEvents, type CostEvent } from './cost-basis.js';
import type { PortfolioCtx } from './context.js';

/** The sector of fund positions in the exposures. */
export const FUND_SECTOR = 'Money market funds';
const KIND_ORDER: Record<PositionKind, number> = { equity: 0, fund: 1, cash: 2 };

/** Every event that changed a holding's cost basis: fills, settled fund orders, other movements. */
function costEvents(
  ctx: PortfolioCtx,
  tenantId: string,
  investorId: string,
  movements: readonly Movement[],
): CostEvent[] {
  const events: CostEvent[] = otherHoldingEvents(movements);
  for (const f of ctx.repo.fillsOf(tenantId, investorId)) {
    events.push({
      atMs: f.at_ms,
      seq: f.seq,
      asset: f.symbol,
      side: f.side === 'buy' ? 'in' : 'out',
      qty: f.qty,
      amountMicros: f.value_micros,
      feesMicros: f.charges_micros,
    });
  }
  for (const o of ctx.funds.repo.settledOf(tenantId, investorId)) {
    events.push({
      atMs: o.created_ms,
      seq: o.seq,
      asset: fundAsset(o.fund_code),
      side: o.side === 'subscribe' ? 'in' : 'out',
      qty: o.result_units_micros!,
      amountMicros: o.result_amount_micros!,
      feesMicros: 0,
    });
  }
  return events;
}

interface RowInput {
  asset: string;
  qty: number;
  /** The basis from the events; its quantity equals the ledger's (both replay the same history). */
  basisMicros: number;
  totalMicros: number;
  nowMs: number;
}

function positionRow(ctx: PortfolioCtx, r: RowInput) {
  const { asset, qty } = r;
  const kind: PositionKind = assetKind(asset) === 'cash' ? 'cash' : assetKind(asset) === 'fund' ? 'fund' : 'equity';
  const symbol = kind === 'cash' ? 'EGP' : kind === 'fund' ? asset.slice('fund:'.length) : asset;
  const priceMicros = ctx.valuer.priceAt(asset, r.nowMs);
  const costMicros = kind === 'cash' ? qty : r.basisMicros;
  const v = positionView({ kind, qty, costMicros, priceMicros, totalValueMicros: r.totalMicros });
  const instrument = kind === 'equity' ? ctx.market.catalog.get(symbol) : null;
  const name =
    kind === 'cash'
      ? 'Egyptian pound'
      : kind === 'fund'
        ? ctx.funds.funds.get(symbol)!.name
        : (instrument?.name ?? symbol);
  const sector = kind === 'cash' ? null : kind === 'fund' ? FUND_SECTOR : (instrument?.sector ?? 'Other');
  return {
    asset,
    symbol,
    name,
    kind,
    sector,
    qty,
    price_micros: priceMicros,
    value_micros: v.value_micros,
    cost_micros: costMicros,
    unrealized_micros: v.unrealized_micros,
    unrealized_pct: v.unrealized_pct,
    weight_pct: v.weight_pct,
  };
}

export type PositionRow = ReturnType<typeof positionRow>;

/** Positions at nowMs (cash always present), the total value and the cash. */
export function positions(ctx: PortfolioCtx, tenantId: string, investorId: string, nowMs: number) {
  const movements = ctx.history.movements(tenantId, investorId);
  const bases = costBases(costEvents(ctx, tenantId, investorId, movements));
  const held = new Map<string, number>();
  for (const m of movements) held.set(m.asset, (held.get(m.asset) ?? 0) + m.delta);
  const cash = held.get(CASH_EGP) ?? 0;
  held.set(CASH_EGP, cash);
  const total = ctx.valuer.totalOf(held, nowMs);
  const rows = [...held.entries()]
    .filter(([asset, qty]) => qty > 0 || asset === CASH_EGP)
    .map(([asset, qty]) =>
      positionRow(ctx, { asset, qty, basisMicros: bases.get(asset)?.costMicros ?? 0, totalMicros: total, nowMs }),
    )
    .sort(
      (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0),
    );
  return { total, cash, rows, movements };
}
