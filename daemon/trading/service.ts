// Trading: equity orders on the exchange, from the request that places one to the settlement of its
// last fill (docs/trading.md). This file wires the folder; each job has its own module:
//
//   validate.ts, rules.ts   the order validator, first failing rule in documented precedence
//   requests.ts             place, cancel, get, list, the contract note, the auto-fill switch
//   matcher.ts              the pure matcher: an order and the tape in, the events of each instant out
//   plan.ts                 those events as fills and fees and the order's progress, nothing written
//   booking.ts              what a step writes: postings, fill rows, activities, hold release
//   order-source.ts         the scheduler source that wakes resting orders
//   settlement.ts           T+2: unsettled to settled at the open of the settlement date
//   desk.ts, validate-desk.ts  the dealer desk and its checks (auto-fill off)
//   order-view.ts           orders and contract notes as the API answers them
//
// Guarantees:
//  1. A refused order books nothing: validation precedes every write, and a refusal rolls the
//     request back (business refusals are Outcome values; a thrown error is a bug).
//  2. An order never spends more than it reserved: a buy holds qty x (limit, or the band ceiling) +
//     the fee ceiling of settled cash, a sell its settled shares (and any worst-case fee shortfall in
//     cash); a fill the reservation cannot pay rejects the rest with INSUFFICIENT_BUYING_POWER.
//  3. Each fill posts its value, fees and stamp duty at once and credits the investor's unsettled
//     shares or proceeds, which settle T+2; whatever a finished order did not use is released.
//  4. Every amount is integer micros; the fee lines of an order's fills sum to its order-level fees.
//  5. The same seed and requests give the same orders, fills and ids (the matcher is a pure function
//     of the order and the tape; the order source runs due orders in the order they were placed).
import type { Deps } from '../deps.js';
import { createFeeScheduleReader } from './fee-schedule.js';
import { applyStep, deskBooking, TAPE, type BookingEnv } from './booking.js';
import type { DeskTrading } from './desk.js';
import type { OrderBody } from './validate.js';
import { startOrderSource } from './order-source.js';
import { createTradingRepo } from './repository.js';
import { cancel, get, list, note, place, type Requests } from './requests.js';
import { registerSettlement } from './settlement.js';
import { createMarketView } from './view.js';
import { cachedRead } from '../store/table-watch.js';

export type TradingDeps = Pick<
  Deps,
  'db' | 'ids' | 'clock' | 'nowIso' | 'ledger' | 'investors' | 'market' | 'scheduler' | 'onReset'
>;

export function createTradingService(deps: TradingDeps) {
  const { db, market } = deps;
  const repo = createTradingRepo(db);
  const view = createMarketView(market);
  const autoFillQ = db.prepare<[], { auto_fill: number }>('SELECT auto_fill FROM sandbox_state WHERE id = 1');
  const setAutoFillQ = db.prepare('UPDATE sandbox_state SET auto_fill = ? WHERE id = 1');
  // Read by every order; cached until anything writes the column (daemon/store/table-watch.ts).
  const autoFillCache = cachedRead(db, 'sandbox_state', () => autoFillQ.get()!.auto_fill === 1, ['auto_fill']);
  deps.onReset.push(() => autoFillCache.forget());
  const autoFill = (): boolean => autoFillCache.get();

  const feesInForce = createFeeScheduleReader(db, deps.onReset);
  const booking: BookingEnv = {
    ledger: deps.ledger,
    ids: deps.ids,
    scheduler: deps.scheduler,
    cal: market.calendar,
    repo,
    get fees() {
      return feesInForce();
    },
    touched: (orderId) => source.touch(orderId),
  };
  const source = startOrderSource(deps, repo, view, (r, step) => applyStep(booking, r, step, TAPE));
  registerSettlement(deps, repo);
  const q: Requests = { ...pick(deps), repo, view, booking, routing: () => (autoFill() ? 'auto' : 'desk') };

  return {
    place: (tenantId: string, body: OrderBody) => place(q, tenantId, body),
    cancel: (tenantId: string, orderId: string) => cancel(q, tenantId, orderId),
    get: (tenantId: string, orderId: string) => get(q, tenantId, orderId),
    list: (tenantId: string, f: { investor_id?: string; status?: 'open' | 'closed'; limit: number }) =>
      list(q, tenantId, f),
    contractNote: (tenantId: string, orderId: string) => note(q, tenantId, orderId),
    autoFill,
    setAutoFill(enabled: boolean): { auto_fill: boolean } {
      setAutoFillQ.run(enabled ? 1 : 0);
      return { auto_fill: enabled };
    },
    /** What the dealer desk takes from trading (desk.ts). */
    desk: { booking: deskBooking(booking), repo, autoFill } satisfies DeskTrading,
  };
}

function pick(deps: TradingDeps): Pick<Deps, 'ids' | 'clock' | 'ledger' | 'investors' | 'market' | 'nowIso'> {
  return {
    ids: deps.ids,
    clock: deps.clock,
    ledger: deps.ledger,
    investors: deps.investors,
    market: deps.market,
    nowIso: deps.nowIso,
  };
}

export type TradingService = ReturnType<typeof createTradingService>;
