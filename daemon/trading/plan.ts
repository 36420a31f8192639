// From the matcher's events to money and progress, before anything is written: the fills a step's
// events mean (value, fee lines, stamp duty, net, the cash each takes from the order) and the order's
// columns after the step. Pure: booking.ts writes what this plans.
import { feesOnly, fillFees, notional, type FeeLines, type FeeSchedule } from '../contract/fees.js';
import type { Calendar } from '../market/calendar.js';
import { applyEvent, isTerminal, type MatchOrder, type OrderEvent, type Step } from './matcher.js';
import type { OrderProgress, OrderRow } from './repository.js';

export interface PlannedFill {
  qty: number;
  priceMicros: number;
  value: number;
  lines: FeeLines;
  feeTotal: number;
  stamp: number;
  /** buy: value + fees + stamp duty paid; sell: value - fees - stamp duty received (may be < 0). */
  net: number;
  /** Cash the fill takes from the order (a buy's net; a sell's fee shortfall). */
  need: number;
}

/** A step resolved: the fills the order's cash pays, its columns after, and whether it is final. */
export interface ResolvedStep {
  fills: PlannedFill[];
  p: OrderProgress;
  terminal: boolean;
}

export function toMatch(r: OrderRow): MatchOrder {
  return {
    symbol: r.symbol,
    side: r.side,
    type: r.type,
    tif: r.time_in_force,
    qty: r.qty,
    limitPriceMicros: r.limit_price_micros,
    routing: r.routing,
    state: r.state,
    filledQty: r.filled_qty,
    transmitted: r.transmitted === 1,
    eligibleFromMs: r.eligible_from_ms,
    cancelDueMs: r.cancel_due_ms,
    reasonCode: r.reason_code,
  };
}

export function progressOf(r: OrderRow): OrderProgress {
  return {
    state: r.state,
    filled_qty: r.filled_qty,
    filled_value_micros: r.filled_value_micros,
    fees_micros: r.fees_micros,
    withholding_micros: r.withholding_micros,
    reason_code: r.reason_code,
    transmitted: r.transmitted,
    eligible_from_ms: r.eligible_from_ms,
    cancel_due_ms: r.cancel_due_ms,
    evaluated_ms: r.evaluated_ms,
    submitted_at: r.submitted_at,
    filled_at: r.filled_at,
    canceled_at: r.canceled_at,
    expired_at: r.expired_at,
    updated_at: r.updated_at,
  };
}

/** One execution's money, computed before anything is written; null when it would overflow. */
export function planFill(
  r: Pick<OrderRow, 'side'>,
  p: Pick<OrderProgress, 'filled_value_micros'>,
  qty: number,
  priceMicros: number,
  fees: FeeSchedule,
): PlannedFill | null {
  const value = notional(qty, priceMicros);
  if (value === null || !Number.isSafeInteger(p.filled_value_micros + value)) return null;
  const lines = fillFees(p.filled_value_micros, value, fees);
  const feeTotal = feesOnly(lines);
  const stamp = lines.stamp_duty_micros;
  const net = r.side === 'buy' ? value + feeTotal + stamp : value - feeTotal - stamp;
  return { qty, priceMicros, value, lines, feeTotal, stamp, net, need: r.side === 'buy' ? net : Math.max(0, -net) };
}

/**
 * Resolves a step before anything is written: the fills the order's cash can pay (a fill it cannot
 * pay rejects the rest of the order with INSUFFICIENT_BUYING_POWER) and the order's progress after.
 */
export function resolveStep(
  r: OrderRow,
  step: Step,
  cashLeftMicros: number,
  fees: FeeSchedule,
  cal: Pick<Calendar, 'toIso'>,
): ResolvedStep {
  const iso = cal.toIso(step.atMs);
  const p = progressOf(r);
  const fills: PlannedFill[] = [];
  let left = cashLeftMicros;
  let mo = toMatch(r);
  for (const e of step.events) {
    let ev: OrderEvent = e;
    if (e.type === 'filled' || e.type === 'partially_filled') {
      const f = planFill(r, p, e.qty, e.priceMicros, fees);
      if (f === null || f.need > left) ev = { type: 'rejected', reasonCode: 'INSUFFICIENT_BUYING_POWER' };
      else {
        fills.push(f);
        left -= f.need;
        addFill(p, f);
      }
    }
    mo = applyEvent(mo, ev, step.atMs);
    if (ev.type === 'transmitted') p.submitted_at = iso;
    if (isTerminal(mo)) break;
  }
  if (mo.filledQty !== p.filled_qty)
    throw new Error(`trading: ${r.id} matcher filled ${mo.filledQty}, planned ${p.filled_qty}`);
  finish(p, mo, Math.max(r.evaluated_ms, step.atMs), iso);
  return { fills, p, terminal: isTerminal(mo) };
}

function addFill(p: OrderProgress, f: PlannedFill): void {
  p.filled_qty += f.qty;
  p.filled_value_micros += f.value;
  p.fees_micros += f.feeTotal;
  p.withholding_micros += f.stamp;
}

/** The matcher's order after the step, written back into the row's columns. */
function finish(p: OrderProgress, mo: MatchOrder, evaluatedMs: number, iso: string): void {
  p.state = mo.state;
  p.transmitted = mo.transmitted ? 1 : 0;
  p.eligible_from_ms = mo.eligibleFromMs;
  p.cancel_due_ms = mo.cancelDueMs;
  p.reason_code = mo.reasonCode;
  p.evaluated_ms = evaluatedMs;
  p.updated_at = iso;
  if (mo.state === 'filled') p.filled_at = iso;
  if (mo.state === 'cancelled') p.canceled_at = iso;
  if (mo.state === 'expired') p.expired_at = iso;
}
