// T+2 settlement: what a fill leaves unsettled (a buy's shares, a sell's positive net proceeds) becomes
// settled at the open of its settlement date, two business days later on the exchange calendar
// (docs/trading.md "Money"). A settlement is a stored row and a stored scheduler event, so it survives
// restarts and runs in order with everything else due at that instant.
import type { Deps } from '../deps.js';
import { CASH_EGP } from '../ledger/assets.js';
import type { Calendar } from '../market/calendar.js';
import type { OrderRow, TradingRepo } from './repository.js';

export const SETTLE_EVENT = 'trade.settle';

export type SettlementDeps = Pick<Deps, 'scheduler' | 'ledger' | 'nowIso'>;

/** Stores a fill's settlement and schedules it at the open of its settlement date. */
export function scheduleSettlement(
  env: Pick<Deps, 'ids' | 'scheduler'> & { cal: Calendar; repo: Pick<TradingRepo, 'insertSettlement'> },
  r: OrderRow,
  fill: { id: string; qty: number; netMicros: number; settlementDate: string },
): void {
  const asset = r.side === 'buy' ? r.symbol : CASH_EGP;
  const amount = r.side === 'buy' ? fill.qty : fill.netMicros;
  if (amount <= 0) return;
  const id = env.ids.next('stl');
  const due = env.cal.session(fill.settlementDate)!.openMs;
  env.repo.insertSettlement({
    id,
    tenant_id: r.tenant_id,
    investor_id: r.investor_id,
    order_id: r.id,
    fill_id: fill.id,
    asset,
    amount,
    settlement_date: fill.settlementDate,
    due_ms: due,
  });
  env.scheduler.schedule(SETTLE_EVENT, due, { settlement_id: id });
}

/** Moves a settlement's amount from unsettled to settled, once; the ledger refusing it is a bug. */
function settle(
  deps: SettlementDeps,
  repo: Pick<TradingRepo, 'settlement' | 'markSettled'>,
  settlementId: string,
): void {
  const s = repo.settlement(settlementId);
  if (!s || s.state === 'settled') return;
  const moved = deps.ledger.transfer({
    tenantId: s.tenant_id,
    debit: { investorId: s.investor_id, asset: s.asset, bucket: 'unsettled' },
    credit: { investorId: s.investor_id, asset: s.asset, bucket: 'settled' },
    amount: s.amount,
    kind: 'settlement',
    ref: s.order_id,
  });
  if (!moved.ok) throw new Error(`trading: settlement refused by the ledger: ${moved.code} ${moved.message ?? ''}`);
  repo.markSettled(s.id, deps.nowIso());
}

export function registerSettlement(deps: SettlementDeps, repo: Pick<TradingRepo, 'settlement' | 'markSettled'>): void {
  deps.scheduler.on(SETTLE_EVENT, (payload: { settlement_id: string }) => settle(deps, repo, payload.settlement_id));
}
