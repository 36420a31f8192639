// The live screens' data source over the daemon's HTTP API (signed where the route needs it, through
// the CLI's one client). A refusal becomes an ApiFailure carrying the error registry's hint. When the
// daemon stops answering and its home's locator names it at a new address (it was restarted on another
// port), the source follows it there: a read is retried at once, a write is not (it may have arrived).
import { api, DaemonUnreachable, refusalOf, type ApiResponse, type RequestOptions } from '../client/http.js';
import { followLocator, type Profile } from '../context.js';
import { errorHint } from '../output.js';
import type { Balances } from '../../daemon/contract/schemas/ledger.js';
import type { FundList } from '../../daemon/contract/schemas/funds.js';
import type { Instrument, Quote } from '../../daemon/contract/schemas/market.js';
import type { Account } from '../../daemon/contract/schemas/onboarding.js';
import type { Clock, ClockAdvanceResponse, SandboxState } from '../../daemon/contract/schemas/sandbox.js';
import type { Order, OrderList } from '../../daemon/contract/schemas/trading.js';
import { ApiFailure, type LiveSource } from './source.js';

function body<T>(res: ApiResponse<T>): T {
  if (res.status >= 200 && res.status < 300) return res.body;
  const refusal = refusalOf(res.body);
  const err = refusal?.error;
  const code = String(err?.code ?? `HTTP_${res.status}`);
  throw new ApiFailure(code, String(err?.message ?? res.raw), refusal?.request_id, errorHint(code), res.status);
}

/** `api` on `profile`, following the home's locator after a connection failure (profile is updated in place). */
async function send<T>(
  profile: Profile,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  try {
    return await api<T>(profile, method, path, opts);
  } catch (err) {
    if (!(err instanceof DaemonUnreachable) || !followLocator(profile) || method !== 'GET') throw err;
    return api<T>(profile, method, path, opts);
  }
}

export function apiSource(profile: Profile): LiveSource {
  const get = async <T>(path: string): Promise<T> => body(await send<T>(profile, 'GET', path, { timeoutMs: 10_000 }));
  return {
    // The sandbox state adds the clock's mode and speed; without an admin key that may read it, the
    // tenant clock alone.
    async clock() {
      if (profile.admin_key) {
        try {
          return (await get<SandboxState>('/admin/sandbox/state')).clock;
        } catch (err) {
          if (!(err instanceof ApiFailure && (err.status === 401 || err.status === 403))) throw err;
        }
      }
      return get<Clock>('/v1/clock');
    },
    quotes: (symbols) => Promise.all(symbols.map((s) => get<Quote>(`/v1/instruments/${encodeURIComponent(s)}/quote`))),
    async instruments() {
      const res = await get<{ instruments: Instrument[] }>('/v1/instruments?security_type=equity');
      return res.instruments.filter((i) => i.tradable !== false);
    },
    accounts: async () => (await get<{ accounts: Account[] }>('/v1/accounts')).accounts,
    account: (investorId) => get<Account>(`/v1/accounts/${encodeURIComponent(investorId)}`),
    orders: async (investorId, limit) =>
      (await get<OrderList>(`/v1/orders?investor_id=${encodeURIComponent(investorId)}&limit=${limit}`)).orders,
    balances: (investorId) => get<Balances>(`/v1/investors/${encodeURIComponent(investorId)}/balances`),
    funds: async () => (await get<FundList>('/v1/funds')).funds,
    advance: async (step) =>
      body(await send<ClockAdvanceResponse>(profile, 'POST', '/admin/sandbox/clock-advance', { body: step })),
    placeOrder: async (request) => body(await send<Order>(profile, 'POST', '/v1/orders', { body: request })),
    cancelOrder: async (orderId) =>
      body(await send<Order>(profile, 'DELETE', `/v1/orders/${encodeURIComponent(orderId)}`)),
  };
}
