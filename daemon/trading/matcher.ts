// The matching simulation, pure: given an order and a view of the market (calendar, tape, halts), it
// answers the closed set of lifecycle events of the order and the state they lead to. It never reads
// a clock or a database; trading books the events (plan.ts, booking.ts: money, rows, activities).
//
// Rules (docs/trading.md "Fills (the matching simulation)", spec "Fill behaviour"):
// - Outside the session an auto-routed order is queued (accepted) and transmits at the next open.
// - Market orders fill at the tape price of the first tick they can fill at (now, in session).
// - A limit fills at the tape price when the tape reaches it, never worse than the limit: now if
//   marketable, else at the first minute tick that reaches it (gtc across sessions).
// - day orders expire at the close of their session; gtc never self-expire.
// - ioc fills what it can now and cancels the rest; fok fills the whole quantity now or cancels. Both
//   never rest. Against one tape price the whole quantity is marketable or none of it, so ioc and fok
//   differ only for the sandbox quantity 13: ioc fills 7 and cancels 6, fok fills 13 at once.
// - Sandbox: qty 13 fills in two executions, 7 then 6, at least one simulated minute apart: the second
//   at the first minute tick from a minute after the first on that still reaches the limit (market:
//   that tick while the session is open).
// - A cancel takes effect at its due instant (the next minute); a fill due at or before it wins.
// - Desk-routed orders (auto-fill off) wait for the dealer; at the close unexecuted day orders expire
//   and ioc/fok are canceled.
export type Side = 'buy' | 'sell';
export type OrderType = 'market' | 'limit';
export type TimeInForce = 'day' | 'gtc' | 'ioc' | 'fok';
export type Routing = 'auto' | 'desk';

import { ORDER_STATES, type OrderState } from '../contract/orders.js';

export { ORDER_STATES, type OrderState };

export const TERMINAL_STATES: ReadonlySet<OrderState> = new Set(['filled', 'cancelled', 'rejected', 'expired']);

/** The spec's state -> status table. */
export const STATUS_OF = {
  received: 'pending_new',
  transmitted: 'pending_new',
  validated: 'accepted',
  acked: 'new',
  partially_filled: 'partially_filled',
  filled: 'filled',
  cancel_requested: 'pending_cancel',
  cancelled: 'canceled',
  rejected: 'rejected',
  expired: 'expired',
} as const satisfies Record<OrderState, string>;

export const MINUTE_MS = 60_000;
export const SANDBOX_SPLIT_QTY = 13;
export const SANDBOX_FIRST_LEG_QTY = 7;

/** Reason codes the matcher sets (fixtures/reject-codes.json explains each). */
export const REASON = {
  canceledByClient: 'CANCELED_BY_CLIENT',
  iocRemainder: 'IOC_REMAINDER_CANCELED',
  fokNotFilled: 'FOK_NOT_FILLED',
  deskNotExecuted: 'DESK_NOT_EXECUTED',
} as const;

export interface MatchOrder {
  symbol: string;
  side: Side;
  type: OrderType;
  tif: TimeInForce;
  qty: number;
  limitPriceMicros: number | null;
  routing: Routing;
  state: OrderState;
  filledQty: number;
  /** Sent to the (simulated) exchange: false while queued for the open or waiting at the desk. */
  transmitted: boolean;
  /** Fills happen at ticks at or after this instant (the qty-13 second leg waits a minute). */
  eligibleFromMs: number;
  /** When a requested cancel takes effect; null when none is pending. */
  cancelDueMs: number | null;
  reasonCode: string | null;
}

export type OrderEvent =
  | { type: 'accepted' }
  | { type: 'transmitted' }
  | { type: 'acked' }
  | { type: 'partially_filled' | 'filled'; qty: number; priceMicros: number }
  | { type: 'expired' }
  | { type: 'canceled'; reasonCode: string }
  | { type: 'rejected'; reasonCode: string };

export interface Step {
  atMs: number;
  events: OrderEvent[];
  order: MatchOrder;
}

export interface TickAt {
  atMs: number;
  priceMicros: number;
}

/** What the matcher needs of the market. */
export interface MarketView {
  isOpen(ms: number): boolean;
  /** The first session open strictly after ms. */
  nextOpen(ms: number): number;
  /** The close of the session containing ms, or of the next one. */
  closeOf(ms: number): number;
  priceAt(symbol: string, ms: number): number;
  /** First minute tick in [fromMs, toMs) at or through the limit (any tick when limit is null). */
  firstTick(symbol: string, side: Side, limitMicros: number | null, fromMs: number, toMs: number): TickAt | null;
  halted(symbol: string): boolean;
}

/** The minute tick after the minute containing ms. */
export function nextMinute(ms: number): number {
  return Math.floor(ms / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
}

export function isTerminal(o: Pick<MatchOrder, 'state'>): boolean {
  return TERMINAL_STATES.has(o.state);
}

export function isMarketable(o: Pick<MatchOrder, 'side' | 'limitPriceMicros'>, priceMicros: number): boolean {
  if (o.limitPriceMicros === null) return true;
  return o.side === 'buy' ? priceMicros <= o.limitPriceMicros : priceMicros >= o.limitPriceMicros;
}

/** Shares the next execution fills: the qty-13 first leg is 7 (an all-or-none fok is never split). */
export function nextFillQty(o: MatchOrder): number {
  if (o.qty === SANDBOX_SPLIT_QTY && o.filledQty === 0 && o.tif !== 'fok') return SANDBOX_FIRST_LEG_QTY;
  return o.qty - o.filledQty;
}

/** The reducer: the order after one event at atMs. */
export function applyEvent(o: MatchOrder, e: OrderEvent, atMs: number): MatchOrder {
  switch (e.type) {
    case 'accepted':
      return { ...o, state: 'validated' };
    case 'transmitted':
      return { ...o, transmitted: true, state: o.cancelDueMs !== null ? 'cancel_requested' : 'transmitted' };
    case 'acked':
      return { ...o, state: o.cancelDueMs !== null ? 'cancel_requested' : 'acked' };
    case 'partially_filled':
    case 'filled': {
      const filledQty = o.filledQty + e.qty;
      if (filledQty > o.qty || e.qty <= 0) throw new Error(`fill of ${e.qty} overfills ${o.filledQty}/${o.qty}`);
      const done = filledQty === o.qty;
      return {
        ...o,
        filledQty,
        transmitted: true,
        state: done ? 'filled' : o.cancelDueMs !== null ? 'cancel_requested' : 'partially_filled',
        cancelDueMs: done ? null : o.cancelDueMs,
        // the qty-13 second leg: at least one simulated minute after the first (a fill at 10:14:55
        // next fills at the 10:16 tick; one at 10:15:00 at the 10:16 tick too)
        eligibleFromMs: done ? o.eligibleFromMs : atMs + MINUTE_MS,
      };
    }
    case 'expired':
      return { ...o, state: 'expired', cancelDueMs: null };
    case 'canceled':
      return { ...o, state: 'cancelled', cancelDueMs: null, reasonCode: e.reasonCode };
    case 'rejected':
      return { ...o, state: 'rejected', cancelDueMs: null, reasonCode: e.reasonCode };
  }
}

function fillEvent(o: MatchOrder, priceMicros: number): OrderEvent {
  const qty = nextFillQty(o);
  return { type: o.filledQty + qty === o.qty ? 'filled' : 'partially_filled', qty, priceMicros };
}

/** Runs events through the reducer, collecting them into a step. */
class StepBuilder {
  readonly events: OrderEvent[] = [];
  constructor(
    public order: MatchOrder,
    readonly atMs: number,
  ) {}
  push(e: OrderEvent): void {
    this.events.push(e);
    this.order = applyEvent(this.order, e, this.atMs);
  }
  done(): Step {
    return { atMs: this.atMs, events: this.events, order: this.order };
  }
}

/**
 * A new order at nowMs (already validated: ioc/fok only arrive in session). Desk-routed orders wait
 * in state received; auto-routed ones queue outside the session or transmit and execute what is
 * marketable now.
 */
export function submit(order: MatchOrder, nowMs: number, view: MarketView): Step {
  const b = new StepBuilder({ ...order, eligibleFromMs: nowMs }, nowMs);
  if (order.routing === 'desk') return b.done();
  if (!view.isOpen(nowMs)) {
    b.push({ type: 'accepted' });
    return b.done();
  }
  b.push({ type: 'transmitted' });
  b.push({ type: 'acked' });
  const price = view.priceAt(order.symbol, nowMs);
  const marketable = !view.halted(order.symbol) && isMarketable(order, price);
  if (marketable) b.push(fillEvent(b.order, price));
  if (order.tif === 'ioc' && !isTerminal(b.order)) b.push({ type: 'canceled', reasonCode: REASON.iocRemainder });
  if (order.tif === 'fok' && !isTerminal(b.order)) b.push({ type: 'canceled', reasonCode: REASON.fokNotFilled });
  return b.done();
}

/** A dealer's execution of a desk-routed order (the service checks price, quantity and session). */
export function deskExecute(order: MatchOrder, qty: number, priceMicros: number, atMs: number): Step {
  const b = new StepBuilder(order, atMs);
  if (!order.transmitted) {
    b.push({ type: 'transmitted' });
    b.push({ type: 'acked' });
  }
  b.push({ type: order.filledQty + qty === order.qty ? 'filled' : 'partially_filled', qty, priceMicros });
  if ((order.tif === 'ioc' || order.tif === 'fok') && !isTerminal(b.order))
    b.push({ type: 'canceled', reasonCode: REASON.iocRemainder });
  return b.done();
}

/** A dealer's rejection of a desk-routed order. */
export function deskReject(order: MatchOrder, reasonCode: string, atMs: number): Step {
  const b = new StepBuilder(order, atMs);
  b.push({ type: 'rejected', reasonCode });
  return b.done();
}

/** A cancellation request: effective at cancelDueMs unless a fill completes the order first. */
export function requestCancel(order: MatchOrder, cancelDueMs: number): MatchOrder {
  if (isTerminal(order)) throw new Error('a terminal order cannot be cancelled');
  return { ...order, state: 'cancel_requested', cancelDueMs };
}

/** The instant of the first tick at or after fromMs the order can fill at, before untilMs. */
function nextFill(o: MatchOrder, fromMs: number, untilMs: number, view: MarketView): TickAt | null {
  if (view.halted(o.symbol) || untilMs <= fromMs) return null;
  return view.firstTick(o.symbol, o.side, o.limitPriceMicros, Math.max(fromMs, o.eligibleFromMs), untilMs);
}

/**
 * The first instant in (afterMs, untilMs] at which the order has events, with those events, or null.
 * At one instant: transmit, then a fill, then a due cancel, then the close (a fill wins every race).
 */
export function nextStep(o: MatchOrder, afterMs: number, untilMs: number, view: MarketView): Step | null {
  if (isTerminal(o) || untilMs <= afterMs) return null;
  const from = afterMs + 1;
  let t = Infinity;
  let transmitAt = Infinity;
  let fill: TickAt | null = null;
  let closeAt = Infinity;
  if (o.routing === 'auto' && !o.transmitted) {
    transmitAt = view.nextOpen(afterMs);
    t = transmitAt;
  } else if (o.routing === 'auto') {
    // A day order works until the close of its session; gtc until filled or cancelled.
    if (o.tif === 'day') closeAt = view.closeOf(afterMs);
    fill = nextFill(o, from, Math.min(closeAt, untilMs + 1), view);
    if (fill) t = fill.atMs;
    t = Math.min(t, closeAt);
  } else if (o.tif !== 'gtc') {
    closeAt = view.closeOf(afterMs);
    t = closeAt;
  }
  if (o.cancelDueMs !== null) t = Math.min(t, Math.max(o.cancelDueMs, from));
  if (t > untilMs) return null;

  const b = new StepBuilder(o, t);
  if (t === transmitAt) {
    b.push({ type: 'transmitted' });
    b.push({ type: 'acked' });
    fill = nextFill(b.order, t, t + 1, view);
  }
  if (fill && fill.atMs === t) b.push(fillEvent(b.order, fill.priceMicros));
  if (!isTerminal(b.order) && b.order.cancelDueMs !== null && t >= b.order.cancelDueMs) {
    b.push({ type: 'canceled', reasonCode: REASON.canceledByClient });
  }
  if (!isTerminal(b.order) && t === closeAt) {
    b.push(o.tif === 'day' ? { type: 'expired' } : { type: 'canceled', reasonCode: REASON.deskNotExecuted });
  }
  return b.done();
}
