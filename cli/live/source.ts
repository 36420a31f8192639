// What the live screens (svc dashboard, svc market watch) read and do, as an interface: the real
// implementation talks to the daemon (api-source.ts); screen tests hand the components a fake one.
// Nothing here imports Ink or React. The types are the daemon's response types (daemon/contract/
// schemas) narrowed to the fields the screens read, so a fake source needs no more than those.
import type { Balances } from '../../daemon/contract/schemas/ledger.js';
import type { Account as WireAccount } from '../../daemon/contract/schemas/onboarding.js';
import type { Fund as WireFund } from '../../daemon/contract/schemas/funds.js';
import type { Instrument as WireInstrument, Quote as WireQuote } from '../../daemon/contract/schemas/market.js';
import type { Clock as WireClock, ClockAdvanceResponse, ClockMode } from '../../daemon/contract/schemas/sandbox.js';
import type { Order as WireOrder } from '../../daemon/contract/schemas/trading.js';

export type { Balances };

/** GET /v1/clock; the sandbox state's clock (admin key) adds the mode and speed. */
export type Clock = WireClock & Partial<Pick<ClockMode, 'mode' | 'speed'>>;

/** GET /v1/instruments/{symbol}/quote, without the market id (always XCAI). */
export type Quote = Omit<WireQuote, 'market_id'>;

/** An equity of the catalog; `shariah_compliant` (when read) lets the form stop a shariah-only investor's buy as it is
 * typed. */
export type Instrument = Pick<WireInstrument, 'symbol' | 'name' | 'security_type'> &
  Partial<Pick<WireInstrument, 'shariah_compliant'>>;

/** An account with what gates its orders: its status, the suitability on file, the shariah-only election. */
export type Account = Pick<WireAccount, 'id' | 'account_number' | 'status' | 'name' | 'suitability' | 'shariah_only'>;

/** An order without the fields that never vary (market XCAI, equities, simple orders). */
export type Order = Omit<WireOrder, 'market_id' | 'asset_class' | 'order_class'>;

/** A share position of the balances (whole shares). */
export type SharePosition = Balances['securities'][number];

/** A fund holding of the balances (unit-micros). */
export type FundHolding = Balances['funds'][number];

/** A money-market fund at its current NAV, as GET /v1/funds lists it. */
export type Fund = Pick<WireFund, 'fund_code' | 'name' | 'nav_micros' | 'nav_date'>;

/** What POST /v1/orders is sent from the screens. */
export type OrderRequest = Pick<WireOrder, 'investor_id' | 'symbol' | 'side' | 'type' | 'qty' | 'time_in_force'> & {
  limit_price_micros?: number;
};

/** One clock advance, as POST /admin/sandbox/clock-advance takes it. */
export type AdvanceStep =
  | { minutes: number }
  | { hours: number }
  | { days: number }
  | { until: 'next_open' | 'next_close' };

export type AdvanceResult = Clock & Pick<ClockAdvanceResponse, 'instants_processed'>;

export interface LiveSource {
  clock(): Promise<Clock>;
  quotes(symbols: string[]): Promise<Quote[]>;
  /** Orderable equities, alphabetical. */
  instruments(): Promise<Instrument[]>;
  accounts(): Promise<Account[]>;
  /** One account, read fresh (its status and suitability gate the order form). */
  account(investorId: string): Promise<Account>;
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
