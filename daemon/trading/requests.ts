// The tenant's order requests: place, cancel, get, list, the contract note, and the auto-fill switch.
// Every business refusal is an Outcome the route returns as it is (docs/trading.md "Validation
// precedence"); booking.ts writes what an accepted order's first step does.
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { CASH_EGP } from '../ledger/assets.js';
import { ASSET_CLASS, MARKET_ID } from '../market/catalog.js';
import { applyStep, bookFill, directFunding, TAPE, type BookingEnv } from './booking.js';
import { isTerminal, nextMinute, requestCancel, submit, type MarketView, type Routing, type Step } from './matcher.js';
import { contractNote, orderView, type OrderView } from './order-view.js';
import { progressOf, resolveStep, toMatch, type ResolvedStep } from './plan.js';
import type { OrderRow, TradingRepo } from './repository.js';
import { validateOrder, type OrderBody, type ValidationEnv, type ValidOrder } from './validate.js';

/** What the requests share, built once by the service. */
export interface Requests extends Pick<Deps, 'ids' | 'clock' | 'ledger' | 'investors' | 'market' | 'nowIso'> {
  repo: TradingRepo;
  view: MarketView;
  booking: BookingEnv;
  /** Where new orders go: the tape (auto-fill on) or the dealer desk. */
  routing(): Routing;
}

function validationEnv(q: Requests, tenantId: string): ValidationEnv {
  const { market, ledger } = q;
  return {
    instrument: (symbol) => market.catalog.get(symbol),
    band: (symbol) => market.referenceAt(symbol, q.clock.now()).band,
    investor: (investorId) => q.investors.lookupForMoney(tenantId, investorId),
    isHalted: (symbol) => market.isHalted(symbol),
    isOpen: () => market.calendar.isOpen(q.clock.now()),
    settledCashMicros: (investorId) => ledger.balance(tenantId, { investorId, asset: CASH_EGP, bucket: 'settled' }),
    settledShares: (investorId, symbol) => ledger.balance(tenantId, { investorId, asset: symbol, bucket: 'settled' }),
    clientOrderIdExists: (coid) => q.repo.clientOrderIdExists(tenantId, coid),
    fees: q.booking.fees,
  };
}

/** A validated order as a new row: received, nothing filled, no hold yet. */
function newRow(q: Requests, tenantId: string, o: ValidOrder, nowMs: number): OrderRow {
  const iso = q.market.calendar.toIso(nowMs);
  return {
    seq: 0,
    id: q.ids.next('ord'),
    tenant_id: tenantId,
    investor_id: o.investor.id,
    client_order_id: o.clientOrderId,
    market_id: MARKET_ID,
    symbol: o.instrument.symbol,
    asset_class: ASSET_CLASS,
    side: o.side,
    type: o.type,
    order_class: 'simple',
    time_in_force: o.tif,
    qty: o.qty,
    limit_price_micros: o.limitPriceMicros,
    state: 'received',
    filled_qty: 0,
    filled_value_micros: 0,
    fees_micros: 0,
    withholding_micros: 0,
    reason_code: null,
    routing: q.routing(),
    transmitted: 0,
    eligible_from_ms: nowMs,
    cancel_due_ms: null,
    evaluated_ms: nowMs,
    cash_hold_id: null,
    shares_hold_id: null,
    reserved_cash_micros: o.reservation.cashMicros,
    created_ms: nowMs,
    created_at: iso,
    submitted_at: null,
    filled_at: null,
    canceled_at: null,
    expired_at: null,
    updated_at: iso,
  };
}

/**
 * Done in this request (filled, or an ioc/fok's remainder cancelled): stored in its final state and
 * paid from settled balances, with no hold to open and release (docs/trading.md "Money").
 */
function placeDone(q: Requests, row: OrderRow, planned: ResolvedStep, nowMs: number): OrderView {
  const done: OrderRow = { ...row, ...planned.p };
  q.repo.insert(done);
  const pay = directFunding(q.ledger, done);
  for (const f of planned.fills) bookFill(q.booking, done, f, nowMs, TAPE, pay);
  return orderView(done);
}

/** Still open after this request: its reservation becomes holds, then its first step is booked from them. */
function placeHeld(q: Requests, row: OrderRow, o: ValidOrder, step: Step): Outcome<OrderView> {
  const hold = (asset: string, amount: number) =>
    q.ledger.hold({ tenantId: row.tenant_id, investorId: o.investor.id, asset, amount, ref: row.id });
  if (o.reservation.cashMicros > 0) {
    const h = hold(CASH_EGP, o.reservation.cashMicros);
    if (!h.ok) return h;
    row.cash_hold_id = h.value;
  }
  if (o.reservation.shares > 0) {
    const h = hold(o.instrument.symbol, o.reservation.shares);
    if (!h.ok) return h;
    row.shares_hold_id = h.value;
  }
  q.repo.insert(row);
  return ok(orderView(applyStep(q.booking, { ...row, seq: q.repo.lastSeq() }, step, TAPE)));
}

export function place(q: Requests, tenantId: string, body: OrderBody): Outcome<OrderView> {
  const v = validateOrder(body, validationEnv(q, tenantId));
  if (!v.ok) return v;
  const now = q.clock.now();
  const row = newRow(q, tenantId, v.value, now);
  const step = submit(toMatch(row), now, q.view);
  const planned = resolveStep(row, step, v.value.reservation.cashMicros, q.booking.fees, q.market.calendar);
  return planned.terminal ? ok(placeDone(q, row, planned, now)) : placeHeld(q, row, v.value, step);
}

function findOrder(q: Requests, tenantId: string, orderId: string): Outcome<OrderRow> {
  const r = q.repo.find(tenantId, orderId);
  return r ? ok(r) : refuse('NOT_FOUND', `No order ${orderId}.`);
}

/** Requests cancellation: pending_cancel now, cancelled at the next minute unless a fill completes it first. */
export function cancel(q: Requests, tenantId: string, orderId: string): Outcome<OrderView> {
  const found = findOrder(q, tenantId, orderId);
  if (!found.ok) return found;
  const r = found.value;
  if (isTerminal(r)) return refuse('ORDER_NOT_CANCELLABLE', `Order ${r.id} is ${r.state}.`);
  if (r.state === 'cancel_requested') return ok(orderView(r));
  const now = q.clock.now();
  const mo = requestCancel(toMatch(r), nextMinute(now));
  const p = {
    ...progressOf(r),
    state: mo.state,
    cancel_due_ms: mo.cancelDueMs,
    updated_at: q.market.calendar.toIso(now),
  };
  q.repo.progress(r.id, p);
  q.booking.touched(r.id);
  return ok(orderView({ ...r, ...p }));
}

export function get(q: Requests, tenantId: string, orderId: string): Outcome<OrderView> {
  const found = findOrder(q, tenantId, orderId);
  return found.ok ? ok(orderView(found.value)) : found;
}

export function list(
  q: Requests,
  tenantId: string,
  f: { investor_id?: string; status?: 'open' | 'closed'; limit: number },
): Outcome<{ orders: OrderView[] }> {
  if (f.investor_id !== undefined) {
    const inv = q.investors.lookup(tenantId, f.investor_id);
    if (!inv.ok) return inv;
  }
  return ok({
    orders: q.repo.list(tenantId, { investorId: f.investor_id, status: f.status, limit: f.limit }).map(orderView),
  });
}

export function note(q: Requests, tenantId: string, orderId: string): Outcome<ReturnType<typeof contractNote>> {
  const found = findOrder(q, tenantId, orderId);
  if (!found.ok) return found;
  const r = found.value;
  const fills = q.repo.fills(r.id);
  if (fills.length === 0) return refuse('NO_EXECUTIONS', `Order ${r.id} has no executions yet.`);
  // An order's investor is the tenant's (a foreign key): a missing one is a broken database, not a refusal.
  const investor = q.investors.find(tenantId, r.investor_id);
  if (!investor) throw new Error(`trading: order ${r.id} names no investor ${r.investor_id} of its tenant`);
  return ok(contractNote(r, fills, investor.account_number, q.nowIso()));
}
