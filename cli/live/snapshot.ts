// One refresh of the dashboard: the clock, the quote board, and the selected investor's account (its
// status and suitability gate the order form), orders and balances, read together. The quote board shows the chosen
// symbols, then any the investor holds or has open orders in; the fund NAVs are read only while the investor holds fund
// units.
import {
  isOpen,
  type Account,
  type Balances,
  type Clock,
  type Fund,
  type LiveSource,
  type Order,
  type Quote,
} from './source.js';

/** The board when no --symbols are given: large, liquid names of the catalog. */
export const DEFAULT_BOARD = ['COMI', 'TMGH', 'FWRY', 'EAST', 'HRHO', 'ETEL', 'SWDY', 'ABUK', 'EFIH', 'ORAS'];

/** Orders read per refresh: the open ones and the most recent closed ones. */
export const ORDERS_PER_REFRESH = 50;

export interface Snapshot {
  clock: Clock;
  quotes: Quote[];
  /** null when no investor is selected. */
  account: Account | null;
  /** null when no investor is selected. */
  orders: Order[] | null;
  balances: Balances | null;
  /** The funds at their current NAV; empty (not read) while the investor holds no fund units. */
  funds: Fund[];
}

/** Board symbols: the chosen ones first, then the investor's positions and open orders, no repeats. */
export function boardSymbols(chosen: string[], orders: Order[] | null, balances: Balances | null): string[] {
  const held = (balances?.securities ?? [])
    .filter((s) => s.settled + s.unsettled + s.reserved > 0)
    .map((s) => s.symbol ?? s.asset);
  const working = (orders ?? []).filter(isOpen).map((o) => o.symbol);
  return [...new Set([...chosen, ...held, ...working])];
}

export async function loadSnapshot(
  source: LiveSource,
  opts: { investorId: string | null; symbols: string[] },
): Promise<Snapshot> {
  const [clock, account, orders, balances] = await Promise.all([
    source.clock(),
    opts.investorId ? source.account(opts.investorId) : null,
    opts.investorId ? source.orders(opts.investorId, ORDERS_PER_REFRESH) : null,
    opts.investorId ? source.balances(opts.investorId) : null,
  ]);
  const [quotes, funds] = await Promise.all([
    source.quotes(boardSymbols(opts.symbols, orders, balances)),
    balances?.funds.length ? source.funds() : [],
  ]);
  return { clock, quotes, account, orders, balances, funds };
}
