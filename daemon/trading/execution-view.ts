// A fill as the dealer desk shows it (the blotter's executions, the end of day's trades): the fill,
// its investor's account, gross and net, who executed it and when it settles. docs/desk.md.
import type { FillRow } from './repository.js';

export function executionView(x: FillRow & { account_number: string }) {
  return {
    fill_id: x.id,
    order_id: x.order_id,
    tenant_id: x.tenant_id,
    investor_id: x.investor_id,
    account_number: x.account_number,
    symbol: x.symbol,
    side: x.side,
    qty: x.qty,
    price_micros: x.price_micros,
    gross_micros: x.value_micros,
    net_micros: x.net_micros,
    venue: x.venue,
    executed_by: x.executed_by,
    executed_at: x.at,
    settlement_date: x.settlement_date,
  };
}
