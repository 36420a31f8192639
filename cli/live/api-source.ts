// The live screens' data source over the daemon's HTTP API (signed where the route needs it, through
// the CLI's one client). A refusal becomes an ApiFailure carrying the error registry's hint.
import { api, type ApiResponse } from '../client/http.js';
import type { Profile } from '../context.js';
import { errorHint } from '../output.js';
import { ApiFailure, type Account, type AdvanceResult, type Balances, type Clock, type Fund, type Instrument, type LiveSource, type Order, type Quote } from './source.js';

function body<T>(res: ApiResponse<T>): T {
  if (res.status >= 200 && res.status < 300) return res.body;
  const err = (res.body as any)?.error;
  const code = String(err?.code ?? `HTTP_${res.status}`);
  throw new ApiFailure(code, String(err?.message ?? res.raw), (res.body as any)?.request_id, errorHint(code), res.status);
}

export function apiSource(profile: Profile): LiveSource {
  const get = async <T>(path: string): Promise<T> => body<T>(await api<T>(profile, 'GET', path, { timeoutMs: 10_000 }));
  return {
    // The sandbox state adds the clock's mode and speed; without an admin key that may read it, the
    // tenant clock alone.
    async clock() {
      if (profile.admin_key) {
        try {
          return (await get<{ clock: Clock }>('/admin/sandbox/state')).clock;
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
    orders: async (investorId, limit) => (await get<{ orders: Order[] }>(`/v1/orders?investor_id=${encodeURIComponent(investorId)}&limit=${limit}`)).orders,
    balances: (investorId) => get<Balances>(`/v1/investors/${encodeURIComponent(investorId)}/balances`),
    funds: async () => (await get<{ funds: Fund[] }>('/v1/funds')).funds,
    advance: async (step) => body<AdvanceResult>(await api(profile, 'POST', '/admin/sandbox/clock-advance', { body: step })),
    placeOrder: async (request) => body<Order>(await api(profile, 'POST', '/v1/orders', { body: request })),
    cancelOrder: async (orderId) => body<Order>(await api(profile, 'DELETE', `/v1/orders/${encodeURIComponent(orderId)}`)),
  };
}
