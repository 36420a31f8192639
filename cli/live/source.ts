// What the live screens (svc dashboard, svc market watch) read and do, as an interface: the real
// implementation talks to the daemon (api-source.ts); screen tests hand the components a fake one.
// Nothing here imports Ink or React.

export interface Clock {
  timestamp: string;
  is_open: boolean;
  next_open: string;
  next_close: string;
  /** frozen or running; unknown without the admin key. */
  mode?: 'frozen' | 'running';
  speed?: number;
}

export interface Quote {
  symbol: string;
  price_micros: number;
  prev_close_micros: number;
  change_pct: number;
  as_of: string;
  session_open: boolean;
  ref_price_micros: number;
  band: { lower_micros: number; upper_micros: number; pct: number };
  tick_micros: number;
  halted: boolean;
  day: { open_micros: number; high_micros: number; low_micros: number; volume: number } | null;
}

export interface Instrument {
  symbol: string;
  name: string;
  security_type: string;
  tradable?: boolean;
}

export interface Account {
  id: string;
  account_number: string;
  status: string;
  name: string;
}

export interface Order {
  order_id: string;
  client_order_id: string | null;
  investor_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  time_in_force: string;
  qty: number;
  limit_price_micros: number | null;
  state: string;
  status: string;
  filled_qty: number;
  avg_price_micros: number | null;
  reason_code: string | null;
  created_at: string;
  updated_at: string;
  submitted_at: string | null;
  filled_at: string | null;
  canceled_at: string | null;
  expired_at: string | null;
}

export interface BalanceLine {
  asset: string;
  settled: number;
  reserved: number;
  unsettled: number;
  symbol?: string;
  fund_code?: string;
}

export interface Balances {
  investor_id: string;
  as_of: string;
  /** micros */
  cash: BalanceLine[];
  /** whole shares */
  securities: BalanceLine[];
  /** unit-micros (1 unit = 1,000,000) */
  funds: BalanceLine[];
}

/** A money-market fund at its current NAV, as GET /v1/funds lists it. */
export interface Fund {
  fund_code: string;
  name: string;
  /** per whole unit, EGP micros */
  nav_micros: number;
  nav_date: string;
}

export interface OrderRequest {
  investor_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  qty: number;
  limit_price_micros?: number;
  time_in_force: 'day' | 'gtc' | 'ioc' | 'fok';
}

/** One clock advance, as POST /admin/sandbox/clock-advance takes it. */
export type AdvanceStep = { minutes: number } | { hours: number } | { days: number } | { until: 'next_open' | 'next_close' };

export interface AdvanceResult extends Clock {
  instants_processed: number;
}

export interface LiveSource {
  clock(): Promise<Clock>;
  quotes(symbols: string[]): Promise<Quote[]>;
  /** Orderable equities, alphabetical. */
  instruments(): Promise<Instrument[]>;
  accounts(): Promise<Account[]>;
  /** The investor's orders, newest first. */
  orders(investorId: string, limit: number): Promise<Order[]>;
  balances(investorId: string): Promise<Balances>;
  /** The money-market funds at their current NAV. */
  funds(): Promise<Fund[]>;
  advance(step: AdvanceStep): Promise<AdvanceResult>;
  placeOrder(request: OrderRequest): Promise<Order>;
  cancelOrder(orderId: string): Promise<Order>;
}

/** An API refusal as the screens show it: the registry's code, the message, the request id, a hint. */
export class ApiFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly hint: string | undefined,
    readonly status: number,
  ) {
    super(message);
  }
}

export const OPEN_STATUSES = new Set(['pending_new', 'accepted', 'new', 'partially_filled', 'pending_cancel']);

export function isOpen(o: Order): boolean {
  return OPEN_STATUSES.has(o.status);
}

/** The advances the screens offer, in menu order. */
export const ADVANCE_CHOICES: Array<{ label: string; step: AdvanceStep }> = [
  { label: '+1 minute', step: { minutes: 1 } },
  { label: '+5 minutes', step: { minutes: 5 } },
  { label: '+15 minutes', step: { minutes: 15 } },
  { label: '+1 hour', step: { hours: 1 } },
  { label: '+1 day', step: { days: 1 } },
  { label: 'next open', step: { until: 'next_open' } },
  { label: 'next close', step: { until: 'next_close' } },
];
