// The dealer desk for orders (/broker/v1, X-Console-Key): the queue of orders routed to the desk
// while auto-fill is off, their execution (at a price inside the band, never worse than the limit)
// or rejection (with a dealer reason of the reject-code registry), the blotter of executions, the
// broker's exposure, and a deterministic simulated order book around the tape. The desk takes from
// trading only what DeskTrading names; its checks are validate-desk.ts, in documented precedence.
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { checkDate } from '../contract/dates.js';
import { MARKET_ID } from '../market/catalog.js';
import { tickSize, type PriceBand } from '../market/ticks.js';
import { hash32 } from '../sim/prng.js';
import type { DeskBooking } from './booking.js';
import { deskExecute, deskReject } from './matcher.js';
import { executionView } from './execution-view.js';
import { orderView, type OrderView } from './order-view.js';
import { toMatch } from './plan.js';
import { dealerReasons } from './reject-codes.js';
import type { DeskOrderRow, TradingRepo } from './repository.js';
import { validateDeskExecution, validateDeskRejection, type DeskExecutionEnv } from './validate-desk.js';

export type DeskDeps = Pick<Deps, 'db' | 'clock' | 'market' | 'nowIso'>;

/** What the desk needs of trading: booking, the desk's reads of the order tables, the auto-fill switch. */
export interface DeskTrading {
  booking: DeskBooking;
  repo: Pick<TradingRepo, 'deskById' | 'deskQueue' | 'blotter' | 'exposure'>;
  autoFill(): boolean;
}

/** The dealer acting: their broker scopes what they see (null: every broker); their name signs executions. */
export interface Dealer {
  brokerId: string | null;
  name: string;
}

/** What the desk's functions share, built once by createOrderDesk. */
interface Desk extends Pick<DeskDeps, 'clock' | 'market' | 'nowIso'> {
  trading: DeskTrading;
  seed(): number;
}

function deskView(r: DeskOrderRow, tradingView: OrderView) {
  return {
    ...tradingView,
    tenant_id: r.tenant_id,
    account_number: r.account_number,
    investor_name: r.full_name,
    routing: r.routing,
  };
}

export type DeskOrderView = ReturnType<typeof deskView>;

function reread(d: Desk, op: Dealer, id: string): DeskOrderView {
  const r = d.trading.repo.deskById(op.brokerId, id)!;
  return deskView(r, orderView(r));
}

function queue(d: Desk, op: Dealer, limit: number) {
  const now = d.clock.now();
  return {
    auto_fill: d.trading.autoFill(),
    orders: d.trading.repo.deskQueue(op.brokerId, limit).map((r) => {
      const ref = d.market.referenceAt(r.symbol, now);
      return {
        ...deskView(r, orderView(r)),
        market: {
          price_micros: d.market.tape.priceAt(r.symbol, now),
          band: { lower_micros: ref.band.lowerMicros, upper_micros: ref.band.upperMicros },
          session_open: d.market.calendar.isOpen(now),
        },
      };
    }),
  };
}

/** The market and the order's cash as the execution checks read them, all at one instant. */
function executionEnv(d: Desk, nowMs: number): DeskExecutionEnv {
  return {
    isOpen: () => d.market.calendar.isOpen(nowMs),
    isHalted: (symbol) => d.market.isHalted(symbol),
    tapePriceMicros: (symbol) => d.market.tape.priceAt(symbol, nowMs),
    band: (symbol) => d.market.referenceAt(symbol, nowMs).band,
    cashLeftMicros: (r) => d.trading.booking.cashLeftMicros(r),
    cashNeededMicros: (r, qty, priceMicros) => d.trading.booking.cashNeededMicros(r, qty, priceMicros),
  };
}

function execute(
  d: Desk,
  op: Dealer,
  id: string,
  body: { price_micros?: number; qty?: number },
): Outcome<DeskOrderView> {
  const found = d.trading.repo.deskById(op.brokerId, id);
  const now = d.clock.now();
  const v = validateDeskExecution(id, found, body, executionEnv(d, now));
  if (!v.ok) return v;
  const { order, qty, priceMicros } = v.value;
  d.trading.booking.apply(order, deskExecute(toMatch(order), qty, priceMicros, now), {
    venue: 'desk',
    executedBy: op.name,
  });
  return ok(reread(d, op, id));
}

function reject(d: Desk, op: Dealer, id: string, reasonCode: string): Outcome<DeskOrderView> {
  const v = validateDeskRejection(id, () => d.trading.repo.deskById(op.brokerId, id), reasonCode, dealerReasons());
  if (!v.ok) return v;
  d.trading.booking.apply(v.value, deskReject(toMatch(v.value), reasonCode, d.clock.now()), {
    venue: 'desk',
    executedBy: op.name,
  });
  return ok(reread(d, op, id));
}

/** The trade date's executions; the date through the one date validator (contract/dates.ts). */
function blotter(d: Desk, op: Dealer, f: { date?: string; limit: number }) {
  const date = checkDate('date', f.date ?? d.market.calendar.localDate(d.clock.now()));
  if (!date.ok) return date;
  return ok({
    date: date.value,
    executions: d.trading.repo.blotter(op.brokerId, date.value, f.limit).map(executionView),
  });
}

function exposure(d: Desk, op: Dealer) {
  const date = d.market.calendar.localDate(d.clock.now());
  const e = d.trading.repo.exposure(op.brokerId, date);
  return {
    as_of: d.nowIso(),
    trade_date: date,
    open_orders: e.open.map((o) => ({
      side: o.side,
      orders: o.orders,
      qty: o.qty,
      filled_qty: o.filled_qty,
      reserved_cash_micros: o.reserved_cash,
    })),
    unsettled: e.unsettled.map((u) => ({
      settlement_date: u.settlement_date,
      side: u.side,
      fills: u.fills,
      gross_micros: u.value,
      net_micros: u.net,
    })),
    traded_today: e.symbols.map((s) => ({
      symbol: s.symbol,
      bought_qty: s.bought_qty,
      sold_qty: s.sold_qty,
      net_qty: s.bought_qty - s.sold_qty,
      bought_value_micros: s.bought_value,
      sold_value_micros: s.sold_value,
    })),
  };
}

interface BookLevel {
  price_micros: number;
  qty: number;
  orders: number;
}

/** One side of the simulated book: asks (dir 1) from the tape price up, bids (dir -1) from one tick below. */
function bookSide(
  at: { seed: number; symbol: string; minute: number; priceMicros: number; band: PriceBand },
  levels: number,
  dir: 1 | -1,
): BookLevel[] {
  const { band } = at;
  const out: BookLevel[] = [];
  let p = dir === 1 ? at.priceMicros : at.priceMicros - tickSize(at.priceMicros - 1);
  for (let k = 0; k < levels && p >= band.lowerMicros && p <= band.upperMicros && p > 0; k++) {
    const h = hash32(at.seed, at.symbol, at.minute, dir, k);
    out.push({ price_micros: p, qty: 100 * (1 + (h % 50)), orders: 1 + ((h >>> 8) % 12) });
    p = dir === 1 ? p + tickSize(p) : p - tickSize(p - 1);
  }
  return out;
}

/**
 * A simulated depth: asks from the tape price up, bids from one tick below down, one tick apart
 * and inside the band; sizes are a hash of (seed, symbol, minute, side, level), so the same minute
 * always shows the same book.
 */
function book(d: Desk, marketId: string, symbol: string, levels: number) {
  if (marketId !== MARKET_ID) return refuse('UNKNOWN_MARKET', `No market ${marketId}.`);
  const inst = d.market.catalog.get(symbol);
  if (!inst) return refuse('UNKNOWN_SYMBOL', `No instrument ${symbol}.`);
  const now = d.clock.now();
  const price = d.market.tape.priceAt(inst.symbol, now);
  const band = d.market.referenceAt(inst.symbol, now).band;
  const at = { seed: d.seed(), symbol: inst.symbol, minute: Math.floor(now / 60_000), priceMicros: price, band };
  return ok({
    market_id: inst.market_id,
    symbol: inst.symbol,
    as_of: d.nowIso(),
    session_open: d.market.calendar.isOpen(now),
    halted: d.market.isHalted(inst.symbol),
    last_price_micros: price,
    band: { lower_micros: band.lowerMicros, upper_micros: band.upperMicros },
    bids: bookSide(at, levels, -1),
    asks: bookSide(at, levels, 1),
    note: 'Simulated depth, deterministic per seed, symbol and minute; fills come from the tape, not from this book.',
  });
}

export function createOrderDesk(deps: DeskDeps, trading: DeskTrading) {
  const seedQ = deps.db.prepare<[], { seed: number }>('SELECT seed FROM sandbox_state WHERE id = 1');
  const d: Desk = {
    clock: deps.clock,
    market: deps.market,
    nowIso: deps.nowIso,
    trading,
    seed: () => seedQ.get()!.seed,
  };
  return {
    queue: (op: Dealer, limit: number) => queue(d, op, limit),
    execute: (op: Dealer, id: string, body: { price_micros?: number; qty?: number }) => execute(d, op, id, body),
    reject: (op: Dealer, id: string, reasonCode: string) => reject(d, op, id, reasonCode),
    blotter: (op: Dealer, f: { date?: string; limit: number }) => blotter(d, op, f),
    exposure: (op: Dealer) => exposure(d, op),
    book: (marketId: string, symbol: string, levels: number) => book(d, marketId, symbol, levels),
  };
}

export type OrderDesk = ReturnType<typeof createOrderDesk>;
