// An order and its contract note as the API answers them (docs/trading.md "Contract note"), from the
// stored rows. (view.ts is something else: the matcher's view of the market.)
import { feesOnly, sumFeeLines, type FeeLines } from '../contract/fees.js';
import { STATUS_OF } from './matcher.js';
import type { FillRow, OrderRow } from './repository.js';

/** value / qty rounded half up to the micro. */
export function averagePrice(valueMicros: number, qty: number): number | null {
  if (qty === 0) return null;
  return Number((2n * BigInt(valueMicros) + BigInt(qty)) / (2n * BigInt(qty)));
}

export function orderView(r: OrderRow) {
  return {
    order_id: r.id,
    client_order_id: r.client_order_id,
    investor_id: r.investor_id,
    market_id: r.market_id,
    symbol: r.symbol,
    asset_class: r.asset_class,
    side: r.side,
    type: r.type,
    order_class: r.order_class,
    time_in_force: r.time_in_force,
    qty: r.qty,
    limit_price_micros: r.limit_price_micros,
    state: r.state,
    status: STATUS_OF[r.state],
    filled_qty: r.filled_qty,
    avg_price_micros: averagePrice(r.filled_value_micros, r.filled_qty),
    reason_code: r.reason_code,
    created_at: r.created_at,
    updated_at: r.updated_at,
    submitted_at: r.submitted_at,
    filled_at: r.filled_at,
    canceled_at: r.canceled_at,
    expired_at: r.expired_at,
  };
}

export type OrderView = ReturnType<typeof orderView>;

/** The fee lines of a note (stamp duty is withholding, apart) with their total. */
function feeBreakdown(l: FeeLines) {
  return {
    commission_micros: l.commission_micros,
    egx_micros: l.egx_micros,
    mcdr_micros: l.mcdr_micros,
    ipf_micros: l.ipf_micros,
    fra_micros: l.fra_micros,
    total_micros: feesOnly(l),
  };
}

function fillView(f: FillRow) {
  return {
    fill_id: f.id,
    executed_at: f.at,
    trade_date: f.trade_date,
    settlement_date: f.settlement_date,
    venue: f.venue,
    qty: f.qty,
    price_micros: f.price_micros,
    gross_micros: f.value_micros,
    fees: feeBreakdown(f),
    withholding: { stamp_duty_micros: f.stamp_duty_micros },
    net_micros: f.net_micros,
  };
}

/** The contract note of an order with at least one fill (docs/trading.md lists the fields). */
export function contractNote(r: OrderRow, fills: FillRow[], accountNumber: string, issuedAt: string) {
  const lines = sumFeeLines(fills);
  const gross = fills.reduce((a, f) => a + f.value_micros, 0);
  return {
    order_id: r.id,
    client_order_id: r.client_order_id,
    investor_id: r.investor_id,
    account_number: accountNumber,
    market_id: r.market_id,
    symbol: r.symbol,
    side: r.side,
    type: r.type,
    time_in_force: r.time_in_force,
    limit_price_micros: r.limit_price_micros,
    order_qty: r.qty,
    state: r.state,
    status: STATUS_OF[r.state],
    currency: 'EGP' as const,
    trade_date: fills[0].trade_date,
    settlement_date: fills[fills.length - 1].settlement_date,
    filled_qty: r.filled_qty,
    avg_price_micros: averagePrice(gross, r.filled_qty),
    fills: fills.map(fillView),
    gross_consideration_micros: gross,
    fees: feeBreakdown(lines),
    withholding: { stamp_duty_micros: lines.stamp_duty_micros, total_micros: lines.stamp_duty_micros },
    net_consideration_micros: fills.reduce((a, f) => a + f.net_micros, 0),
    net_direction: r.side === 'buy' ? ('debit' as const) : ('credit' as const),
    issued_at: issuedAt,
  };
}
