// The live screens' data source over the daemon's HTTP API (signed where the route needs it, through
// the CLI's one client). A refusal becomes an ApiFailure carrying the error registry's hint.
import { api, refusalOf, type ApiResponse } from '../client/http.js';
import type { Profile } from '../context.js';
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

export function apiSource(profile: Profile): LiveSource {
  const get = async <T>(path: string): Promise<T> => body(await api<T>(profile, 'GET', path, { timeoutMs: 10_000 }));
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
    orders: async (investorId, limit) => (await get<OrderList>(`/v1/orders?investor_id=${encodeURIComponent(investorId)}&limit=${limit}`)).orders,
    balances: (investorId) => get<Balances>(`/v1/investors/${encodeURIComponent(investorId)}/balances`),
    funds: async () => (await get<FundList>('/v1/funds')).funds,
    advance: async (step) => body(await api<ClockAdvanceResponse>(profile, 'POST', '/admin/sandbox/clock-advance', { body: step })),
    placeOrder: async (request) => body(await api<Order>(profile, 'POST', '/v1/orders', { body: request })),
    cancelOrder: async (orderId) => body(await api<Order>(profile, 'DELETE', `/v1/orders/${encodeURIComponent(orderId)}`)),
  };
}
