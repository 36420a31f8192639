// Trading: placing, cancelling and reading orders; applying the matcher's events (fills, fees, taxes,
// activities, T+2 settlements, reservation releases); the scheduler source that wakes resting orders.
//
// Money (DESIGN.md "Orders"): a buy holds qty x (limit, or the band ceiling) + the fee ceiling of
// settled cash; each fill posts its value to clearing and its fees and stamp duty to the fee and tax
// accounts out of that hold at once, and credits the shares to `unsettled` until the settlement date.
// A sell holds settled shares; each fill posts them to clearing and credits the net proceeds to
// unsettled cash until the settlement date. Whatever a finished order did not use is released.
//
// The scheduler source keeps, per open order, the matcher's next step (cached in memory, recomputed
// when the order, its symbol's tape or halt changes). An order with nothing to do within a horizon
// wakes at the horizon's end to look further, so no single look scans more than ~32 days; horizons
// are aligned so all idle orders share the same few wake-ups.
import type { Deps } from '../deps.js';
import { formatEgp } from '../contract/money.js';
import { AppError, type Outcome } from '../http/errors.js';
import { CASH_EGP } from '../ledger/assets.js';
import { ASSET_CLASS, MARKET_ID } from '../market/catalog.js';
import { fillFees, feesOnly, loadFeeSchedule, type FeeLines } from './fees.js';
import type { AccountRef } from '../ledger/ledger.js';
import {
  applyEvent, isTerminal, nextMinute, nextStep, requestCancel, STATUS_OF, submit,
  type MatchOrder, type OrderEvent, type Step,
} from './matcher.js';
import { createTradingRepo, type FillRow, type OrderProgress, type OrderRow } from './repository.js';
import { notional, validateOrder, type OrderBody, type ValidationEnv } from './validate.js';
import { createMarketView } from './view.js';

export const SETTLE_EVENT = 'trade.settle';
const DAY_MS = 86_400_000;
const HORIZON_MS = 16 * DAY_MS;

export type TradingDeps = Pick<Deps, 'db' | 'ids' | 'clock' | 'nowIso' | 'ledger' | 'investors' | 'market' | 'scheduler' | 'onReset'>;

/** Where a fill's money comes from (see heldFunding and directFunding). */
interface Funding {
  cash(amount: number, credit: AccountRef, kind: string): void;
  shares(qty: number, credit: AccountRef): void;
}

interface PlannedFill {
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

export interface Execution {
  venue: 'tape' | 'desk';
  executedBy: string | null;
}

const TAPE: Execution = { venue: 'tape', executedBy: null };

export function toMatch(r: OrderRow): MatchOrder {
  return {
    symbol: r.symbol, side: r.side, type: r.type, tif: r.time_in_force, qty: r.qty, limitPriceMicros: r.limit_price_micros,
    routing: r.routing, state: r.state, filledQty: r.filled_qty, transmitted: r.transmitted === 1,
    eligibleFromMs: r.eligible_from_ms, cancelDueMs: r.cancel_due_ms, reasonCode: r.reason_code,
  };
}

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

function progressOf(r: OrderRow): OrderProgress {
  return {
    state: r.state, filled_qty: r.filled_qty, filled_value_micros: r.filled_value_micros, fees_micros: r.fees_micros,
    withholding_micros: r.withholding_micros, reason_code: r.reason_code, transmitted: r.transmitted,
    eligible_from_ms: r.eligible_from_ms, cancel_due_ms: r.cancel_due_ms, evaluated_ms: r.evaluated_ms,
    submitted_at: r.submitted_at, filled_at: r.filled_at, canceled_at: r.canceled_at, expired_at: r.expired_at, updated_at: r.updated_at,
  };
}

export function createTradingService(deps: TradingDeps) {
  const { db, ids, clock, ledger, market, scheduler } = deps;
  const cal = market.calendar;
  const repo = createTradingRepo(db);
  const fees = loadFeeSchedule();
  const view = createMarketView(market);
  const autoFill = db.prepare<[], { auto_fill: number }>('SELECT auto_fill FROM sandbox_state WHERE id = 1');
  const setAutoFillQ = db.prepare('UPDATE sandbox_state SET auto_fill = ? WHERE id = 1');

  // ---- booking ---------------------------------------------------------------------------

  function must<T>(o: Outcome<T>, what: string): T {
    if (!o.ok) throw new Error(`trading: ${what} refused by the ledger: ${o.code} ${o.message ?? ''}`);
    return o.value;
  }

  function holdRemaining(holdId: string | null): number {
    if (!holdId) return 0;
    const h = ledger.getHold(holdId);
    return h && h.state === 'pending' ? h.remaining : 0;
  }

  /** Cash a fill needs from the order's cash (a buy's cost; a sell's fee shortfall); null when it overflows. */
  function cashNeeded(r: OrderRow, p: OrderProgress, qty: number, priceMicros: number): number | null {
    return planFill(r, p, qty, priceMicros)?.need ?? null;
  }

  /** One execution's money, computed before anything is written; null when it would overflow. */
  function planFill(r: Pick<OrderRow, 'side'>, p: Pick<OrderProgress, 'filled_value_micros'>, qty: number, priceMicros: number): PlannedFill | null {
    const value = notional(qty, priceMicros);
    if (value === null || !Number.isSafeInteger(p.filled_value_micros + value)) return null;
    const lines = fillFees(p.filled_value_micros, value, fees);
    const feeTotal = feesOnly(lines);
    const stamp = lines.stamp_duty_micros;
    const net = r.side === 'buy' ? value + feeTotal + stamp : value - feeTotal - stamp;
    return { qty, priceMicros, value, lines, feeTotal, stamp, net, need: r.side === 'buy' ? net : Math.max(0, -net) };
  }

  /** Pays out of the order's holds (an order that rests keeps its reservation as holds). */
  function heldFunding(r: OrderRow): Funding {
    return {
      cash: (amount, credit, kind) => must(ledger.postHold(r.cash_hold_id!, amount, credit, kind, r.id), kind),
      shares: (qty, credit) => must(ledger.postHold(r.shares_hold_id!, qty, credit, 'trade', r.id), 'shares out'),
    };
  }

  /**
   * Pays straight out of settled balances: for an order that completes in the request that places it
   * (a market order or marketable limit filled in full, an ioc or fok). Nothing is reserved across
   * time, so no hold is written; the fills were planned against the validated reservation.
   */
  function directFunding(r: OrderRow): Funding {
    const from = (asset: string) => ({ investorId: r.investor_id, asset, bucket: 'settled' as const });
    return {
      cash: (amount, credit, kind) => must(ledger.transfer({ tenantId: r.tenant_id, debit: from(CASH_EGP), credit, amount, kind, ref: r.id }), kind),
      shares: (qty, credit) => must(ledger.transfer({ tenantId: r.tenant_id, debit: from(r.symbol), credit, amount: qty, kind: 'trade', ref: r.id }), 'shares out'),
    };
  }

  /** Books one planned execution: postings, fill row, activities, settlement. */
  function bookFill(r: OrderRow, f: PlannedFill, atMs: number, exec: Execution, pay: Funding): void {
    const { qty, priceMicros, value, lines, feeTotal, stamp, net } = f;
    const t = { tenantId: r.tenant_id, ref: r.id };
    const inv = r.investor_id;
    const clearingCash = { system: 'clearing', asset: CASH_EGP } as const;
    if (r.side === 'buy') {
      pay.cash(value, clearingCash, 'trade');
      if (feeTotal > 0) pay.cash(feeTotal, { system: 'fees', asset: CASH_EGP }, 'fee');
      if (stamp > 0) pay.cash(stamp, { system: 'tax', asset: CASH_EGP }, 'tax');
      must(ledger.transfer({ ...t, debit: { system: 'clearing', asset: r.symbol }, credit: { investorId: inv, asset: r.symbol, bucket: 'unsettled' }, amount: qty, kind: 'trade' }), 'shares in');
    } else {
      pay.shares(qty, { system: 'clearing', asset: r.symbol });
      if (net > 0) must(ledger.transfer({ ...t, debit: clearingCash, credit: { investorId: inv, asset: CASH_EGP, bucket: 'unsettled' }, amount: net, kind: 'trade' }), 'proceeds');
      if (net < 0) pay.cash(-net, clearingCash, 'fee');
      if (feeTotal > 0) must(ledger.transfer({ ...t, debit: clearingCash, credit: { system: 'fees', asset: CASH_EGP }, amount: feeTotal, kind: 'fee' }), 'fees');
      if (stamp > 0) must(ledger.transfer({ ...t, debit: clearingCash, credit: { system: 'tax', asset: CASH_EGP }, amount: stamp, kind: 'tax' }), 'stamp duty');
    }
    const tradeDate = cal.localDate(atMs);
    const settlementDate = cal.settlementDate(tradeDate);
    const fillId = ids.next('fil');
    repo.insertFill({
      id: fillId, tenant_id: r.tenant_id, investor_id: inv, order_id: r.id, symbol: r.symbol, side: r.side, qty,
      price_micros: priceMicros, value_micros: value, ...lines, net_micros: net, venue: exec.venue, executed_by: exec.executedBy,
      trade_date: tradeDate, settlement_date: settlementDate, at_ms: atMs, at: cal.toIso(atMs),
    });
    const order = { type: 'order' as const, id: r.id };
    const verb = r.side === 'buy' ? 'Bought' : 'Sold';
    ledger.recordActivity({
      tenantId: r.tenant_id, investorId: inv, type: 'FILL', netAmountMicros: r.side === 'buy' ? -value : value,
      description: `${verb} ${qty} ${r.symbol} at ${formatEgp(priceMicros)} EGP`, ref: order, symbol: r.symbol, side: r.side, qty, priceMicros,
    });
    if (feeTotal > 0) {
      ledger.recordActivity({ tenantId: r.tenant_id, investorId: inv, type: 'FEE', netAmountMicros: -feeTotal, description: `Commission and exchange fees (EGX, MCDR, IPF, FRA) on ${r.symbol} ${r.side}`, ref: order, symbol: r.symbol });
    }
    if (stamp > 0) {
      ledger.recordActivity({ tenantId: r.tenant_id, investorId: inv, type: 'TAX', netAmountMicros: -stamp, description: `Stamp duty withheld on ${r.symbol} ${r.side}`, ref: order, symbol: r.symbol });
    }
    const settleAsset = r.side === 'buy' ? r.symbol : CASH_EGP;
    const settleAmount = r.side === 'buy' ? qty : net;
    if (settleAmount > 0) {
      const id = ids.next('stl');
      const due = cal.session(settlementDate)!.openMs;
      repo.insertSettlement({ id, tenant_id: r.tenant_id, investor_id: inv, order_id: r.id, fill_id: fillId, asset: settleAsset, amount: settleAmount, settlement_date: settlementDate, due_ms: due });
      scheduler.schedule(SETTLE_EVENT, due, { settlement_id: id });
    }
  }

  function release(r: OrderRow): void {
    for (const holdId of [r.cash_hold_id, r.shares_hold_id]) {
      if (holdId && ledger.getHold(holdId)?.state === 'pending') ledger.voidHold(holdId);
    }
  }

  /**
   * Resolves a step before anything is written: the fills the order's cash can pay (a fill it cannot
   * pay rejects the rest of the order with INSUFFICIENT_BUYING_POWER) and the order's progress after.
   */
  function resolve(r: OrderRow, step: Step, cashLeft: number): { fills: PlannedFill[]; p: OrderProgress; terminal: boolean } {
    const at = step.atMs;
    const iso = cal.toIso(at);
    const p = progressOf(r);
    const fills: PlannedFill[] = [];
    let left = cashLeft;
    let mo = toMatch(r);
    for (const e of step.events) {
      let ev: OrderEvent = e;
      if (e.type === 'filled' || e.type === 'partially_filled') {
        const f = planFill(r, p, e.qty, e.priceMicros);
        if (f === null || f.need > left) ev = { type: 'rejected', reasonCode: 'INSUFFICIENT_BUYING_POWER' };
        else {
          fills.push(f);
          left -= f.need;
          p.filled_qty += f.qty;
          p.filled_value_micros += f.value;
          p.fees_micros += f.feeTotal;
          p.withholding_micros += f.stamp;
        }
      }
      mo = applyEvent(mo, ev, at);
      if (ev.type === 'transmitted') p.submitted_at = iso;
      if (isTerminal(mo)) break;
    }
    if (mo.filledQty !== p.filled_qty) throw new Error(`trading: ${r.id} matcher filled ${mo.filledQty}, planned ${p.filled_qty}`);
    p.state = mo.state;
    p.transmitted = mo.transmitted ? 1 : 0;
    p.eligible_from_ms = mo.eligibleFromMs;
    p.cancel_due_ms = mo.cancelDueMs;
    p.reason_code = mo.reasonCode;
    p.evaluated_ms = Math.max(r.evaluated_ms, at);
    p.updated_at = iso;
    if (mo.state === 'filled') p.filled_at = iso;
    if (mo.state === 'cancelled') p.canceled_at = iso;
    if (mo.state === 'expired') p.expired_at = iso;
    return { fills, p, terminal: isTerminal(mo) };
  }

  /** Applies a step's events to a stored order whose reservation is held; returns the order after. */
  function apply(r: OrderRow, step: Step, exec: Execution): OrderRow {
    const { fills, p, terminal } = resolve(r, step, holdRemaining(r.cash_hold_id));
    const pay = heldFunding(r);
    for (const f of fills) bookFill(r, f, step.atMs, exec, pay);
    repo.progress(r.id, p);
    if (terminal) release(r);
    touch(r.id);
    return { ...r, ...p };
  }

  // ---- the scheduler source ----------------------------------------------------------------

  interface Due {
    seq: number;
    order: MatchOrder;
    evaluatedMs: number;
    dueMs: number;
    step: Step | null;
  }
  const dues = new Map<string, Due>();
  /** Orders whose row changed: reread, then recompute. */
  const dirty = new Set<string>();
  /** Orders whose row did not change but whose next step must be looked for again (horizon, tape change). */
  const stale = new Set<string>();
  let loaded = false;

  function touch(orderId: string): void {
    dirty.add(orderId);
    scheduler.changed();
  }

  function horizonEnd(fromMs: number): number {
    return (Math.floor(fromMs / HORIZON_MS) + 2) * HORIZON_MS;
  }

  function lookAhead(d: Omit<Due, 'dueMs' | 'step'>, afterMs: number): Due {
    const from = Math.max(d.evaluatedMs, afterMs);
    const until = horizonEnd(from);
    const step = nextStep(d.order, from, until, view);
    return { ...d, dueMs: step ? step.atMs : until, step };
  }

  function refresh(afterMs: number): void {
    if (!loaded) {
      for (const id of repo.openOrderIds()) dirty.add(id);
      loaded = true;
    }
    for (const id of dirty) {
      stale.delete(id);
      const r = repo.byId(id);
      if (!r || isTerminal(r)) dues.delete(id);
      else dues.set(id, lookAhead({ seq: r.seq, order: toMatch(r), evaluatedMs: r.evaluated_ms }, afterMs));
    }
    dirty.clear();
    for (const id of stale) {
      const d = dues.get(id);
      if (d) dues.set(id, lookAhead(d, afterMs));
    }
    stale.clear();
  }

  scheduler.addSource({
    name: 'orders',
    nextDue(afterMs) {
      refresh(afterMs);
      let best: number | null = null;
      for (const d of dues.values()) if (d.dueMs > afterMs && (best === null || d.dueMs < best)) best = d.dueMs;
      return best;
    },
    run(atMs) {
      const due = [...dues.entries()].filter(([, d]) => d.dueMs === atMs).sort((a, b) => a[1].seq - b[1].seq);
      for (const [id, d] of due) {
        if (!d.step) {
          stale.add(id);
          continue;
        }
        dirty.add(id);
        const r = repo.byId(id);
        if (r && !isTerminal(r)) apply(r, d.step, TAPE);
      }
    },
  });

  scheduler.on(SETTLE_EVENT, (payload: { settlement_id: string }) => {
    const s = repo.settlement(payload.settlement_id);
    if (!s || s.state === 'settled') return;
    must(
      ledger.transfer({
        tenantId: s.tenant_id, debit: { investorId: s.investor_id, asset: s.asset, bucket: 'unsettled' },
        credit: { investorId: s.investor_id, asset: s.asset, bucket: 'settled' }, amount: s.amount, kind: 'settlement', ref: s.order_id,
      }),
      'settlement',
    );
    repo.markSettled(s.id, deps.nowIso());
  });

  market.onChange((symbol) => {
    for (const [id, d] of dues) if (d.order.symbol === symbol) stale.add(id);
    scheduler.changed();
  });

  deps.onReset.push(() => {
    dues.clear();
    dirty.clear();
    stale.clear();
    loaded = false;
  });

  // ---- requests ---------------------------------------------------------------------------

  function requireOrder(tenantId: string, orderId: string): OrderRow {
    const r = repo.find(tenantId, orderId);
    if (!r) throw new AppError('NOT_FOUND', `No order ${orderId}.`);
    return r;
  }

  function validationEnv(tenantId: string): ValidationEnv {
    return {
      instrument: (symbol) => market.catalog.get(symbol),
      band: (symbol) => market.referenceAt(symbol, clock.now()).band,
      investor(investorId) {
        try {
          return { ok: true, value: deps.investors.requireForMoney(tenantId, investorId) };
        } catch (err) {
          if (err instanceof AppError) return { ok: false, code: err.code, message: err.message };
          throw err;
        }
      },
      isHalted: (symbol) => market.isHalted(symbol),
      isOpen: () => cal.isOpen(clock.now()),
      settledCashMicros: (investorId) => ledger.balance(tenantId, { investorId, asset: CASH_EGP, bucket: 'settled' }),
      settledShares: (investorId, symbol) => ledger.balance(tenantId, { investorId, asset: symbol, bucket: 'settled' }),
      clientOrderIdExists: (coid) => repo.clientOrderIdExists(tenantId, coid),
      fees,
    };
  }

  return {
    place(tenantId: string, body: OrderBody): Outcome<OrderView> {
      const v = validateOrder(body, validationEnv(tenantId));
      if (!v.ok) return v;
      const o = v.value;
      const now = clock.now();
      const iso = cal.toIso(now);
      const id = ids.next('ord');
      const row: OrderRow = {
        seq: 0, id, tenant_id: tenantId, investor_id: o.investor.id, client_order_id: o.clientOrderId, market_id: MARKET_ID,
        symbol: o.instrument.symbol, asset_class: ASSET_CLASS, side: o.side, type: o.type, order_class: 'simple',
        time_in_force: o.tif, qty: o.qty, limit_price_micros: o.limitPriceMicros, state: 'received', filled_qty: 0,
        filled_value_micros: 0, fees_micros: 0, withholding_micros: 0, reason_code: null,
        routing: autoFill.get()!.auto_fill === 1 ? 'auto' : 'desk', transmitted: 0, eligible_from_ms: now, cancel_due_ms: null,
        evaluated_ms: now, cash_hold_id: null, shares_hold_id: null, reserved_cash_micros: o.reservation.cashMicros,
        created_ms: now, created_at: iso, submitted_at: null, filled_at: null, canceled_at: null, expired_at: null, updated_at: iso,
      };
      const step = submit(toMatch(row), now, view);
      const planned = resolve(row, step, o.reservation.cashMicros);
      if (planned.terminal) {
        // Done in this request (filled, or an ioc/fok's remainder cancelled): stored in its final
        // state and paid from settled balances, with no hold to open and release.
        const done: OrderRow = { ...row, ...planned.p };
        const { seq: _seq, ...insert } = done;
        repo.insert(insert);
        const pay = directFunding(done);
        for (const f of planned.fills) bookFill(done, f, now, TAPE, pay);
        return { ok: true, value: orderView(done) };
      }
      const hold = (asset: string, amount: number) => ledger.hold({ tenantId, investorId: o.investor.id, asset, amount, ref: id });
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
      const { seq: _seq, ...insert } = row;
      repo.insert(insert);
      return { ok: true, value: orderView(apply({ ...row, seq: repo.lastSeq() }, step, TAPE)) };
    },

    /** Requests cancellation: pending_cancel now, cancelled at the next minute unless a fill completes it first. */
    cancel(tenantId: string, orderId: string): Outcome<OrderView> {
      const r = requireOrder(tenantId, orderId);
      if (isTerminal(r)) return { ok: false, code: 'ORDER_NOT_CANCELLABLE', message: `Order ${r.id} is ${r.state}.` };
      if (r.state !== 'cancel_requested') {
        const now = clock.now();
        const mo = requestCancel(toMatch(r), nextMinute(now));
        const p = { ...progressOf(r), state: mo.state, cancel_due_ms: mo.cancelDueMs, updated_at: cal.toIso(now) };
        repo.progress(r.id, p);
        touch(r.id);
        return { ok: true, value: orderView({ ...r, ...p }) };
      }
      return { ok: true, value: orderView(r) };
    },

    get(tenantId: string, orderId: string): OrderView {
      return orderView(requireOrder(tenantId, orderId));
    },

    list(tenantId: string, f: { investor_id?: string; status?: 'open' | 'closed'; limit: number }) {
      if (f.investor_id !== undefined) deps.investors.require(tenantId, f.investor_id);
      return { orders: repo.list(tenantId, { investorId: f.investor_id, status: f.status, limit: f.limit }).map(orderView) };
    },

    contractNote(tenantId: string, orderId: string) {
      const r = requireOrder(tenantId, orderId);
      const fills = repo.fills(r.id);
      if (fills.length === 0) throw new AppError('NO_EXECUTIONS', `Order ${r.id} has no executions yet.`);
      return contractNote(r, fills, deps.investors.require(tenantId, r.investor_id).account_number, deps.nowIso());
    },

    autoFill(): boolean {
      return autoFill.get()!.auto_fill === 1;
    },
    setAutoFill(enabled: boolean): { auto_fill: boolean } {
      setAutoFillQ.run(enabled ? 1 : 0);
      return { auto_fill: enabled };
    },

    // for the dealer desk
    repo,
    view,
    fees,
    apply,
    cashNeeded,
    holdRemaining,
    progressOf,
  };
}

export type TradingService = ReturnType<typeof createTradingService>;

function sumLines(fills: FillRow[]) {
  const s = (k: keyof FillRow) => fills.reduce((a, f) => a + (f[k] as number), 0);
  const commission = s('commission_micros');
  const egx = s('egx_micros');
  const mcdr = s('mcdr_micros');
  const ipf = s('ipf_micros');
  const fra = s('fra_micros');
  return {
    gross: s('value_micros'),
    fees: { commission_micros: commission, egx_micros: egx, mcdr_micros: mcdr, ipf_micros: ipf, fra_micros: fra, total_micros: commission + egx + mcdr + ipf + fra },
    withholding: { stamp_duty_micros: s('stamp_duty_micros'), total_micros: s('stamp_duty_micros') },
    net: s('net_micros'),
  };
}

/** The contract note of an order with at least one fill (docs/trading.md lists the fields). */
export function contractNote(r: OrderRow, fills: FillRow[], accountNumber: string, issuedAt: string) {
  const t = sumLines(fills);
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
    currency: 'EGP',
    trade_date: fills[0].trade_date,
    settlement_date: fills[fills.length - 1].settlement_date,
    filled_qty: r.filled_qty,
    avg_price_micros: averagePrice(t.gross, r.filled_qty),
    fills: fills.map((f) => ({
      fill_id: f.id,
      executed_at: f.at,
      trade_date: f.trade_date,
      settlement_date: f.settlement_date,
      venue: f.venue,
      qty: f.qty,
      price_micros: f.price_micros,
      gross_micros: f.value_micros,
      fees: {
        commission_micros: f.commission_micros, egx_micros: f.egx_micros, mcdr_micros: f.mcdr_micros, ipf_micros: f.ipf_micros, fra_micros: f.fra_micros,
        total_micros: f.commission_micros + f.egx_micros + f.mcdr_micros + f.ipf_micros + f.fra_micros,
      },
      withholding: { stamp_duty_micros: f.stamp_duty_micros },
      net_micros: f.net_micros,
    })),
    gross_consideration_micros: t.gross,
    fees: t.fees,
    withholding: t.withholding,
    net_consideration_micros: t.net,
    net_direction: r.side === 'buy' ? 'debit' : 'credit',
    issued_at: issuedAt,
  };
}
