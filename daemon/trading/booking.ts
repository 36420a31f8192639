// Booking: what a step of the matcher writes. Each planned fill (plan.ts) becomes ledger postings, a
// fill row, its activities and its T+2 settlement; a finished order's unused holds are released.
//
// Where the money comes from (docs/trading.md "Money"): an order that rests pays out of its holds;
// an order that completes in the request that places it pays straight out of settled balances, since
// it reserved nothing across time. The ledger refusing a posting here is a bug: every fill was
// planned against the order's cash before anything was written.
import type { Deps } from '../deps.js';
import type { FeeSchedule } from '../contract/fees.js';
import { formatEgp } from '../contract/money.js';
import type { Outcome } from '../contract/outcome.js';
import { CASH_EGP } from '../ledger/assets.js';
import type { AccountRef, ActivityInput, Ledger, LedgerMove, PostingInput } from '../ledger/ledger.js';
import type { Calendar } from '../market/calendar.js';
import type { Step } from './matcher.js';
import { scheduleSettlement } from './settlement.js';
import { planFill, progressOf, resolveStep, type PlannedFill } from './plan.js';
import type { OrderRow, TradingRepo } from './repository.js';

/** Who executed a fill: the tape, or a dealer at the desk. */
export interface Execution {
  venue: 'tape' | 'desk';
  executedBy: string | null;
}

export const TAPE: Execution = { venue: 'tape', executedBy: null };

/** What booking writes with, built once by the service. */
export interface BookingEnv extends Pick<Deps, 'ledger' | 'ids' | 'scheduler'> {
  cal: Calendar;
  repo: Pick<TradingRepo, 'insertFill' | 'insertSettlement' | 'progress'>;
  fees: FeeSchedule;
  /** Tells the order source that an order's row changed (order-source.ts). */
  touched(orderId: string): void;
}

/** What the dealer desk needs of trading's booking (desk.ts), and nothing else of the service. */
export interface DeskBooking {
  /** What the order's cash hold has left (0 without a pending one). */
  cashLeftMicros(r: OrderRow): number;
  /** Cash one execution would take from the order's cash; null when it would overflow. */
  cashNeededMicros(r: OrderRow, qty: number, priceMicros: number): number | null;
  /** Applies a desk step (an execution or a rejection) to the held order; the order after. */
  apply(r: OrderRow, step: Step, exec: Execution): OrderRow;
}

/** Where a fill's money comes from, and how its postings are written (see heldFunding and directFunding). */
export interface Funding {
  cash(amountMicros: number, credit: AccountRef, kind: string): void;
  shares(qty: number, credit: AccountRef): void;
  /** A posting between accounts the order does not reserve (clearing, fees, tax, the investor's unsettled). */
  move(debit: AccountRef, credit: AccountRef, amount: number, kind: string): void;
  /** Writes what is still queued: the fill's postings are all written when it returns. */
  flush(): void;
}

function must<T>(o: Outcome<T>, what: string): T {
  if (!o.ok) throw new Error(`trading: ${what} refused by the ledger: ${o.code} ${o.message ?? ''}`);
  return o.value;
}

export function holdRemaining(ledger: Ledger, holdId: string | null): number {
  if (!holdId) return 0;
  const h = ledger.getHold(holdId);
  return h && h.state === 'pending' ? h.remaining : 0;
}

/**
 * Pays out of the order's holds (an order that rests keeps its reservation as holds). A fill's postings
 * are queued and written together, in order, by one statement and one update per hold (ledger.postAll).
 */
function heldFunding(ledger: Ledger, r: OrderRow): Funding {
  const queue: LedgerMove[] = [];
  return {
    cash: (amount, credit, kind) => queue.push({ holdId: r.cash_hold_id!, amount, credit, kind, ref: r.id }),
    shares: (qty, credit) => queue.push({ holdId: r.shares_hold_id!, amount: qty, credit, kind: 'trade', ref: r.id }),
    move: (debit, credit, amount, kind) =>
      queue.push({ tenantId: r.tenant_id, debit, credit, amount, kind, ref: r.id }),
    flush: () => void must(ledger.postAll(queue.splice(0)), "the fill's postings"),
  };
}

/**
 * Pays straight out of settled balances: for an order that completes in the request that places it
 * (a market order or marketable limit filled in full, an ioc or fok). Nothing is reserved across
 * time, so no hold is written; the fills were planned against the validated reservation. A fill's
 * postings are queued and written together, in order, by one statement (ledger.transferAll).
 */
export function directFunding(ledger: Ledger, r: OrderRow): Funding {
  const from = (asset: string) => ({ investorId: r.investor_id, asset, bucket: 'settled' as const });
  const queue: PostingInput[] = [];
  const move = (debit: AccountRef, credit: AccountRef, amount: number, kind: string) =>
    queue.push({ tenantId: r.tenant_id, debit, credit, amount, kind, ref: r.id });
  return {
    cash: (amount, credit, kind) => move(from(CASH_EGP), credit, amount, kind),
    shares: (qty, credit) => move(from(r.symbol), credit, qty, 'trade'),
    move,
    flush: () => void must(ledger.transferAll(queue.splice(0)), "the fill's postings"),
  };
}

/** A fill's postings: a buy pays value, fees and stamp duty; a sell delivers shares and is credited its net. */
function postFill(r: OrderRow, f: PlannedFill, pay: Funding): void {
  const { qty, value, feeTotal, stamp, net } = f;
  const clearingCash = { system: 'clearing', asset: CASH_EGP } as const;
  if (r.side === 'buy') {
    pay.cash(value, clearingCash, 'trade');
    if (feeTotal > 0) pay.cash(feeTotal, { system: 'fees', asset: CASH_EGP }, 'fee');
    if (stamp > 0) pay.cash(stamp, { system: 'tax', asset: CASH_EGP }, 'tax');
    pay.move(
      { system: 'clearing', asset: r.symbol },
      { investorId: r.investor_id, asset: r.symbol, bucket: 'unsettled' },
      qty,
      'trade',
    );
  } else {
    pay.shares(qty, { system: 'clearing', asset: r.symbol });
    if (net > 0)
      pay.move(clearingCash, { investorId: r.investor_id, asset: CASH_EGP, bucket: 'unsettled' }, net, 'trade');
    if (net < 0) pay.cash(-net, clearingCash, 'fee');
    if (feeTotal > 0) pay.move(clearingCash, { system: 'fees', asset: CASH_EGP }, feeTotal, 'fee');
    if (stamp > 0) pay.move(clearingCash, { system: 'tax', asset: CASH_EGP }, stamp, 'tax');
  }
  pay.flush();
}

/** The investor's activity feed for one fill: FILL, then FEE and TAX when charged (one statement). */
function recordActivities(ledger: Ledger, r: OrderRow, f: PlannedFill): void {
  const ref = { type: 'order' as const, id: r.id };
  const { tenant_id: tenantId, investor_id: investorId, symbol, side } = r;
  const buy = side === 'buy';
  const feed: ActivityInput[] = [
    {
      tenantId,
      investorId,
      ref,
      symbol,
      type: 'FILL',
      netAmountMicros: buy ? -f.value : f.value,
      description: `${buy ? 'Bought' : 'Sold'} ${f.qty} ${symbol} at ${formatEgp(f.priceMicros)} EGP`,
      side,
      qty: f.qty,
      priceMicros: f.priceMicros,
    },
  ];
  if (f.feeTotal > 0) {
    feed.push({
      tenantId,
      investorId,
      ref,
      symbol,
      type: 'FEE',
      netAmountMicros: -f.feeTotal,
      description: `Commission and exchange fees (EGX, MCDR, IPF, FRA) on ${symbol} ${side}`,
    });
  }
  if (f.stamp > 0) {
    feed.push({
      tenantId,
      investorId,
      ref,
      symbol,
      type: 'TAX',
      netAmountMicros: -f.stamp,
      description: `Stamp duty withheld on ${symbol} ${side}`,
    });
  }
  ledger.recordActivities(feed);
}

/** Books one planned execution: postings, fill row, activities, settlement. */
export function bookFill(
  env: BookingEnv,
  r: OrderRow,
  f: PlannedFill,
  atMs: number,
  exec: Execution,
  pay: Funding,
): void {
  postFill(r, f, pay);
  const tradeDate = env.cal.localDate(atMs);
  const settlementDate = env.cal.settlementDate(tradeDate);
  const fillId = env.ids.next('fil');
  env.repo.insertFill({
    id: fillId,
    tenant_id: r.tenant_id,
    investor_id: r.investor_id,
    order_id: r.id,
    symbol: r.symbol,
    side: r.side,
    qty: f.qty,
    price_micros: f.priceMicros,
    value_micros: f.value,
    ...f.lines,
    net_micros: f.net,
    venue: exec.venue,
    executed_by: exec.executedBy,
    trade_date: tradeDate,
    settlement_date: settlementDate,
    at_ms: atMs,
    at: env.cal.toIso(atMs),
  });
  recordActivities(env.ledger, r, f);
  scheduleSettlement(env, r, { id: fillId, qty: f.qty, netMicros: f.net, settlementDate });
}

/** Returns what a finished order's holds did not use to settled. */
export function release(ledger: Ledger, r: OrderRow): void {
  for (const holdId of [r.cash_hold_id, r.shares_hold_id]) {
    if (holdId && ledger.getHold(holdId)?.state === 'pending') ledger.voidHold(holdId);
  }
}

/** Applies a step's events to a stored order whose reservation is held; returns the order after. */
export function applyStep(env: BookingEnv, r: OrderRow, step: Step, exec: Execution): OrderRow {
  const { fills, p, terminal } = resolveStep(r, step, holdRemaining(env.ledger, r.cash_hold_id), env.fees, env.cal);
  const pay = heldFunding(env.ledger, r);
  for (const f of fills) bookFill(env, r, f, step.atMs, exec, pay);
  env.repo.progress(r.id, p);
  if (terminal) release(env.ledger, r);
  env.touched(r.id);
  return { ...r, ...p };
}

/** The desk's view of booking over one environment. */
export function deskBooking(env: BookingEnv): DeskBooking {
  return {
    cashLeftMicros: (r) => holdRemaining(env.ledger, r.cash_hold_id),
    cashNeededMicros: (r, qty, priceMicros) => planFill(r, progressOf(r), qty, priceMicros, env.fees)?.need ?? null,
    apply: (r, step, exec) => applyStep(env, r, step, exec),
  };
}
