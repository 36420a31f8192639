// A LiveSource in memory for screen tests: a clock, a tape of quotes that moves when the clock is
// advanced, fund NAVs, accounts, orders and balances; every action is recorded. No daemon, no HTTP.
// Also the screen tests' way to type keys without sleeping (press, inkSettled).
import { createRequire } from 'node:module';
import { vi } from 'vitest';
import {
  ApiFailure,
  type Account,
  type AdvanceStep,
  type Balances,
  type Clock,
  type Fund,
  type Instrument,
  type LiveSource,
  type Order,
  type OrderRequest,
  type Quote,
} from '../../cli/live/source.js';

const EGP = 1_000_000;

export function quote(symbol: string, priceMicros: number, over: Partial<Quote> = {}): Quote {
  return {
    symbol,
    price_micros: priceMicros,
    prev_close_micros: priceMicros,
    change_pct: 0,
    as_of: '2026-11-22T10:00:00+02:00',
    session_open: true,
    ref_price_micros: priceMicros,
    band: {
      lower_micros: Math.ceil((priceMicros * 0.8) / 10_000) * 10_000,
      upper_micros: Math.floor((priceMicros * 1.2) / 10_000) * 10_000,
      pct: 0.2,
    },
    tick_micros: 10_000,
    halted: false,
    day: { open_micros: priceMicros, high_micros: priceMicros, low_micros: priceMicros, volume: 0 },
    ...over,
  };
}

export function order(over: Partial<Order> & Pick<Order, 'order_id' | 'symbol'>): Order {
  return {
    client_order_id: null,
    investor_id: 'inv_aaaaaaaaaa',
    side: 'buy',
    type: 'limit',
    time_in_force: 'gtc',
    qty: 5,
    limit_price_micros: 60 * EGP,
    state: 'acked',
    status: 'new',
    filled_qty: 0,
    avg_price_micros: null,
    reason_code: null,
    created_at: '2026-11-22T10:00:00+02:00',
    updated_at: '2026-11-22T10:00:00+02:00',
    submitted_at: '2026-11-22T10:00:00+02:00',
    filled_at: null,
    canceled_at: null,
    expired_at: null,
    ...over,
  };
}

export interface FakeSource extends LiveSource {
  calls: Array<[string, unknown]>;
  state: {
    clock: Clock;
    prices: Record<string, number>;
    accounts: Account[];
    orders: Record<string, Order[]>;
    balances: Record<string, Balances>;
    funds: Fund[];
    /** The next call of this method fails with it. */
    failNext: Partial<Record<keyof LiveSource, ApiFailure>>;
  };
}

const MINUTE = 60_000;

function plus(iso: string, ms: number): string {
  // The fake clock stays in Cairo winter time (+02:00).
  const t = new Date(Date.parse(iso) + ms + 2 * 3_600_000).toISOString().slice(0, 19);
  return `${t}+02:00`;
}

export function fakeSource(): FakeSource {
  const inv = 'inv_aaaaaaaaaa';
  const other = 'inv_bbbbbbbbbb';
  const state: FakeSource['state'] = {
    clock: {
      timestamp: '2026-11-22T10:00:00+02:00',
      is_open: true,
      next_open: '2026-11-23T10:00:00+02:00',
      next_close: '2026-11-22T14:30:00+02:00',
      mode: 'frozen',
      speed: 1,
    },
    prices: { COMI: 85_630_000, TMGH: 70_570_000, FWRY: 10_970_000 },
    accounts: [
      {
        id: inv,
        account_number: 'NSB-00000001',
        status: 'active',
        name: 'Omar Farouk',
        shariah_only: false,
        suitability: { tier: 2, recorded: true, risk_acknowledged: true },
      },
      {
        id: other,
        account_number: 'NSB-00000002',
        status: 'active',
        name: 'Mona Hassan',
        shariah_only: false,
        suitability: { tier: 2, recorded: true, risk_acknowledged: true },
      },
    ],
    orders: {
      [inv]: [
        order({ order_id: 'ord_open000001', symbol: 'TMGH' }),
        order({
          order_id: 'ord_done000001',
          symbol: 'COMI',
          type: 'market',
          time_in_force: 'day',
          qty: 10,
          limit_price_micros: null,
          state: 'filled',
          status: 'filled',
          filled_qty: 10,
          avg_price_micros: 85_630_000,
          created_at: '2026-11-22T09:03:00+02:00',
        }),
      ],
      [other]: [],
    },
    balances: {
      [inv]: {
        investor_id: inv,
        as_of: '',
        cash: [{ asset: 'cash:EGP', settled: 48_831_907_735, reserved: 305_465_000, unsettled: 0 }],
        securities: [{ asset: 'COMI', symbol: 'COMI', settled: 0, reserved: 0, unsettled: 10 }],
        funds: [{ asset: 'fund:BMYBY', fund_code: 'BMYBY', settled: 1_234_567_891, reserved: 0, unsettled: 0 }],
      },
      [other]: {
        investor_id: other,
        as_of: '',
        cash: [{ asset: 'cash:EGP', settled: 1_000 * EGP, reserved: 0, unsettled: 0 }],
        securities: [],
        funds: [],
      },
    },
    funds: [
      {
        fund_code: 'BMYBY',
        name: 'Banque Misr Youm b Youm EGP Money Market Fund',
        nav_micros: 10_012_345,
        nav_date: '2026-11-21',
      },
      {
        fund_code: 'NILLQ',
        name: 'Nile Securities EGP Liquidity Fund (Sandbox)',
        nav_micros: 125_604_387,
        nav_date: '2026-11-21',
      },
    ],
    failNext: {},
  };
  const calls: Array<[string, unknown]> = [];
  const failing = (name: keyof LiveSource) => {
    const f = state.failNext[name];
    if (f) {
      delete state.failNext[name];
      throw f;
    }
  };
  const instruments: Instrument[] = [
    {
      symbol: 'COMI',
      name: 'Commercial International Bank (Egypt)',
      security_type: 'equity',
      shariah_compliant: false,
    },
    { symbol: 'FWRY', name: 'Fawry for Banking Technology', security_type: 'equity', shariah_compliant: true },
    { symbol: 'TMGH', name: 'Talaat Moustafa Group Holding', security_type: 'equity', shariah_compliant: true },
  ];
  let ids = 0;
  return {
    calls,
    state,
    async clock() {
      failing('clock');
      return { ...state.clock };
    },
    async quotes(symbols) {
      failing('quotes');
      calls.push(['quotes', symbols]);
      return symbols.map((s) => quote(s, state.prices[s] ?? 20 * EGP, { as_of: state.clock.timestamp }));
    },
    async instruments() {
      return instruments;
    },
    async accounts() {
      failing('accounts');
      return state.accounts;
    },
    async account(investorId) {
      failing('account');
      const a = state.accounts.find((x) => x.id === investorId);
      if (!a)
        throw new ApiFailure(
          'NOT_FOUND',
          `No account ${investorId}.`,
          'req_fake000003',
          'Check the id; ids are scoped to the tenant that created them.',
          404,
        );
      return { ...a };
    },
    async orders(investorId) {
      failing('orders');
      calls.push(['orders', investorId]);
      return state.orders[investorId] ?? [];
    },
    async balances(investorId) {
      failing('balances');
      return state.balances[investorId];
    },
    async funds() {
      failing('funds');
      calls.push(['funds', null]);
      return state.funds;
    },
    async advance(step: AdvanceStep) {
      failing('advance');
      calls.push(['advance', step]);
      const ms =
        'minutes' in step
          ? step.minutes * MINUTE
          : 'hours' in step
            ? step.hours * 60 * MINUTE
            : 'days' in step
              ? step.days * 1440 * MINUTE
              : 0;
      state.clock = { ...state.clock, timestamp: plus(state.clock.timestamp, ms) };
      // The tape moves with the clock: every price one tick up per advance.
      for (const s of Object.keys(state.prices)) state.prices[s] += 10_000;
      return { ...state.clock, instants_processed: 1 };
    },
    async placeOrder(request: OrderRequest) {
      failing('placeOrder');
      calls.push(['placeOrder', request]);
      const o = order({
        order_id: `ord_new${String(++ids).padStart(7, '0')}`,
        symbol: request.symbol,
        side: request.side,
        type: request.type,
        qty: request.qty,
        limit_price_micros: request.limit_price_micros ?? null,
        time_in_force: request.time_in_force,
        investor_id: request.investor_id,
        created_at: state.clock.timestamp,
      });
      state.orders[request.investor_id] = [o, ...(state.orders[request.investor_id] ?? [])];
      return o;
    },
    async cancelOrder(orderId) {
      failing('cancelOrder');
      calls.push(['cancelOrder', orderId]);
      for (const list of Object.values(state.orders)) {
        const i = list.findIndex((o) => o.order_id === orderId);
        if (i >= 0) {
          list[i] = { ...list[i], status: 'pending_cancel', state: 'cancel_requested' };
          return list[i];
        }
      }
      throw new ApiFailure(
        'NOT_FOUND',
        `No order ${orderId}.`,
        'req_fake000001',
        'Check the id; ids are scoped to the tenant that created them.',
        404,
      );
    },
  };
}

/** vi.waitFor options of the screen tests: a frame is looked at every 10 ms for up to 5 s. */
export const WAIT = { timeout: 5_000, interval: 10 };

interface SchedulerModule {
  unstable_scheduleCallback(priority: number, callback: () => void): unknown;
  unstable_NormalPriority: number;
}

// The Scheduler instance React's reconciler (inside Ink) queues its work on, resolved from the reconciler
// so it is the same module, not a second copy.
const requireFromTests = createRequire(import.meta.url);
const scheduler = createRequire(requireFromTests.resolve('react-reconciler'))('scheduler') as SchedulerModule;

/**
 * Resolves once Ink has taken what was typed and React has run the effects of what it drew; no timer.
 * Ink holds a lone Esc for one setImmediate turn before emitting it. React (Ink's legacy root) runs
 * passive effects, where useInput attaches the key handler of a screen just drawn, as a normal-priority
 * Scheduler task queued by the commit; within a priority the Scheduler is first in, first out, so a
 * normal-priority task queued now runs after it. (Idle priority would also wait for every later refresh,
 * and a screen polling every 20 ms keeps it waiting for hundreds of milliseconds.)
 */
export async function inkSettled(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await new Promise<void>((r) => scheduler.unstable_scheduleCallback(scheduler.unstable_NormalPriority, () => r()));
}

/** Types keys one at a time, each once the screen has taken the previous one and attached its handlers. */
export async function press(app: { stdin: { write(data: string): void } }, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    await inkSettled();
    app.stdin.write(k);
  }
  await inkSettled();
}

/**
 * Under vi.useFakeTimers: moves time on `ticks` steps of `stepMs`, each step once Ink and React have
 * finished what the previous one started, as a real event loop runs them long before a timer of a
 * few milliseconds.
 */
export async function runTicks(ticks: number, stepMs: number): Promise<void> {
  for (let i = 0; i < ticks; i++) {
    await inkSettled();
    await vi.advanceTimersByTimeAsync(stepMs);
  }
  await inkSettled();
}
