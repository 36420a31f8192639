// The dealer desk for orders (/broker/v1, X-Console-Key): the queue of orders routed to the desk
// while auto-fill is off, their execution (at a price inside the band, never worse than the limit)
// or rejection (with a dealer reason of the reject-code registry), the blotter of executions, the
// broker's exposure, and a deterministic simulated order book around the tape.
import type { Deps } from '../deps.js';
import { AppError } from '../http/errors.js';
import type { Operator } from '../http/route.js';
import { isOnTick, tickSize } from '../market/ticks.js';
import { hash32 } from '../sim/prng.js';
import { deskExecute, deskReject, isMarketable, isTerminal } from './matcher.js';
import { dealerReasons } from './reject-codes.js';
import type { DeskOrderRow } from './repository.js';
import { orderView, toMatch, type TradingService } from './service.js';

export type DeskDeps = Pick<Deps, 'db' | 'clock' | 'market' | 'nowIso'>;

function deskView(r: DeskOrderRow, tradingView: ReturnType<typeof orderView>) {
  return { ...tradingView, tenant_id: r.tenant_id, account_number: r.account_number, investor_name: r.full_name, routing: r.routing };
}

export function createOrderDesk(deps: DeskDeps, trading: TradingService) {
  const { clock, market } = deps;
  const cal = market.calendar;
  const seedQ = deps.db.prepare<[], { seed: number }>('SELECT seed FROM sandbox_state WHERE id = 1');

  function requireDeskOrder(op: Operator, id: string): DeskOrderRow {
    const r = trading.repo.deskById(op.brokerId, id);
    if (!r) throw new AppError('NOT_FOUND', `No order ${id}.`);
    if (r.routing !== 'desk' || isTerminal(r)) throw new AppError('ORDER_NOT_IN_QUEUE', `Order ${id} is ${r.state}${r.routing === 'auto' ? ' and was routed to the exchange' : ''}.`);
    return r;
  }

  function reread(op: Operator, id: string) {
    const r = trading.repo.deskById(op.brokerId, id)!;
    return deskView(r, orderView(r));
  }

  return {
    queue(op: Operator, limit: number) {
      const now = clock.now();
      return {
        auto_fill: trading.autoFill(),
        orders: trading.repo.deskQueue(op.brokerId, limit).map((r) => {
          const ref = market.referenceAt(r.symbol, now);
          return {
            ...deskView(r, orderView(r)),
            market: { price_micros: market.tape.priceAt(r.symbol, now), band: { lower_micros: ref.band.lowerMicros, upper_micros: ref.band.upperMicros }, session_open: cal.isOpen(now) },
          };
        }),
      };
    },

    execute(op: Operator, id: string, body: { price_micros?: number; qty?: number }) {
      const r = requireDeskOrder(op, id);
      const now = clock.now();
      if (!cal.isOpen(now)) throw new AppError('MARKET_CLOSED', 'The desk executes during the session (Sunday-Thursday 10:00-14:30 Africa/Cairo).');
      if (market.isHalted(r.symbol)) throw new AppError('INSTRUMENT_HALTED', `Trading in ${r.symbol} is halted.`);
      const price = body.price_micros ?? market.tape.priceAt(r.symbol, now);
      if (!isOnTick(price)) throw new AppError('TICK_VIOLATION', `${price} is not a multiple of the tick ${tickSize(price)} micros.`);
      const band = market.referenceAt(r.symbol, now).band;
      if (price < band.lowerMicros || price > band.upperMicros) throw new AppError('PRICE_BAND_EXCEEDED', `The band is ${band.lowerMicros}-${band.upperMicros} micros.`);
      const mo = toMatch(r);
      if (!isMarketable(mo, price)) throw new AppError('PRICE_WORSE_THAN_LIMIT', `The order's limit is ${r.limit_price_micros} micros (${r.side}).`);
      const remaining = r.qty - r.filled_qty;
      const qty = body.qty ?? remaining;
      if (qty > remaining) throw new AppError('INVALID_QTY', `${remaining} shares remain to execute.`);
      if (r.time_in_force === 'fok' && qty !== remaining) throw new AppError('INVALID_QTY', `A fok order executes whole: ${remaining} shares.`);
      const need = trading.cashNeeded(r, trading.progressOf(r), qty, price);
      if (need === null || need > trading.holdRemaining(r.cash_hold_id)) {
        throw new AppError('INSUFFICIENT_BUYING_POWER', `The order's reservation does not cover ${qty} at ${price} micros with charges.`);
      }
      trading.apply(r, deskExecute(mo, qty, price, now), { venue: 'desk', executedBy: op.name });
      return reread(op, id);
    },

    reject(op: Operator, id: string, reasonCode: string) {
      const reasons = dealerReasons();
      if (!reasons.includes(reasonCode)) throw new AppError('INVALID_REJECT_REASON', `reason_code must be one of ${reasons.join(', ')}.`);
      const r = requireDeskOrder(op, id);
      trading.apply(r, deskReject(toMatch(r), reasonCode, clock.now()), { venue: 'desk', executedBy: op.name });
      return reread(op, id);
    },

    blotter(op: Operator, f: { date?: string; limit: number }) {
      const date = f.date ?? cal.localDate(clock.now());
      return {
        date,
        executions: trading.repo.blotter(op.brokerId, date, f.limit).map((x) => ({
          fill_id: x.id, order_id: x.order_id, tenant_id: x.tenant_id, investor_id: x.investor_id, account_number: x.account_number,
          symbol: x.symbol, side: x.side, qty: x.qty, price_micros: x.price_micros, gross_micros: x.value_micros,
          net_micros: x.net_micros, venue: x.venue, executed_by: x.executed_by, executed_at: x.at, settlement_date: x.settlement_date,
        })),
      };
    },

    exposure(op: Operator) {
      const now = clock.now();
      const date = cal.localDate(now);
      const e = trading.repo.exposure(op.brokerId, date);
      return {
        as_of: deps.nowIso(),
        trade_date: date,
        open_orders: e.open.map((o) => ({ side: o.side, orders: o.orders, qty: o.qty, filled_qty: o.filled_qty, reserved_cash_micros: o.reserved_cash })),
        unsettled: e.unsettled.map((u) => ({ settlement_date: u.settlement_date, side: u.side, fills: u.fills, gross_micros: u.value, net_micros: u.net })),
        traded_today: e.symbols.map((s) => ({
          symbol: s.symbol, bought_qty: s.bought_qty, sold_qty: s.sold_qty, net_qty: s.bought_qty - s.sold_qty,
          bought_value_micros: s.bought_value, sold_value_micros: s.sold_value,
        })),
      };
    },

    /**
     * A simulated depth: asks from the tape price up, bids from one tick below down, one tick apart
     * and inside the band; sizes are a hash of (seed, symbol, minute, side, level), so the same minute
     * always shows the same book.
     */
    book(marketId: string, symbol: string, levels: number) {
      if (marketId !== 'XCAI') throw new AppError('UNKNOWN_MARKET', `No market ${marketId}.`);
      const inst = market.instrument(symbol);
      const now = clock.now();
      const seed = seedQ.get()!.seed;
      const minute = Math.floor(now / 60_000);
      const price = market.tape.priceAt(inst.symbol, now);
      const band = market.referenceAt(inst.symbol, now).band;
      const side = (dir: 1 | -1) => {
        const out: Array<{ price_micros: number; qty: number; orders: number }> = [];
        let p = dir === 1 ? price : price - tickSize(price - 1);
        for (let k = 0; k < levels && p >= band.lowerMicros && p <= band.upperMicros && p > 0; k++) {
          const h = hash32(seed, inst.symbol, minute, dir, k);
          out.push({ price_micros: p, qty: 100 * (1 + (h % 50)), orders: 1 + ((h >>> 8) % 12) });
          p = dir === 1 ? p + tickSize(p) : p - tickSize(p - 1);
        }
        return out;
      };
      return {
        market_id: inst.market_id,
        symbol: inst.symbol,
        as_of: deps.nowIso(),
        session_open: cal.isOpen(now),
        halted: market.isHalted(inst.symbol),
        last_price_micros: price,
        band: { lower_micros: band.lowerMicros, upper_micros: band.upperMicros },
        bids: side(-1),
        asks: side(1),
        note: 'Simulated depth, deterministic per seed, symbol and minute; fills come from the tape, not from this book.',
      };
    },
  };
}
