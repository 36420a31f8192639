// A whole trading life in requests only (no direct database writes), for the determinism test: two
// investors onboarded, funded through the rails, orders of every kind (a market fill, a resting limit
// filled by the tape, the two-leg qty-13 order, a cancel), T+2 settlement, a fund subscription and
// redemption, a dividend declared and paid, and every read a client makes of the result.
import type { TestApp } from '../helpers/app.js';

const SUITABILITY = {
  questionnaire: {
    investment_experience: 'moderate',
    horizon: '3_5y',
    risk_tolerance: 'medium',
    annual_income_band: '300k_1m',
    net_worth_band: '1m_5m',
    objectives: ['income'],
  },
  risk_acknowledged: true,
};

/** One request; throws unless the answer has the expected status (a workload of 404s proves nothing). */
type Call = (method: string, url: string, body?: unknown, expectStatus?: number) => Promise<Record<string, unknown>>;

async function onboard(call: Call, name: string, nationalId: string, birthDate: string): Promise<string> {
  const app = await call('POST', '/v1/kyc/applications', {
    full_name: name,
    national_id: nationalId,
    date_of_birth: birthDate,
    email: 'someone@example.com',
    phone: '01012345678',
    address: '3 Abbas El Akkad, Nasr City, Cairo',
  });
  await call('POST', `/v1/kyc/applications/${String(app.application_id)}/submit`);
  const approved = await call('GET', `/v1/kyc/applications/${String(app.application_id)}`);
  const investorId = String(approved.investor_id);
  await call('PUT', `/v1/investors/${investorId}/suitability`, SUITABILITY);
  await call(
    'POST',
    '/v1/transfers',
    { investor_id: investorId, direction: 'deposit', amount_micros: 60_000_000_000 },
    201,
  );
  return investorId;
}

async function trade(call: Call, karim: string, laila: string): Promise<string[]> {
  const buy = await call(
    'POST',
    '/v1/orders',
    { investor_id: karim, symbol: 'COMI', side: 'buy', type: 'market', qty: 100 },
    201,
  );
  const resting = await call(
    'POST',
    '/v1/orders',
    {
      investor_id: laila,
      symbol: 'TMGH',
      side: 'buy',
      type: 'limit',
      qty: 40,
      limit_price_micros: 75_200_000,
      time_in_force: 'gtc',
    },
    201,
  );
  const partial = await call(
    'POST',
    '/v1/orders',
    { investor_id: laila, symbol: 'FWRY', side: 'buy', type: 'market', qty: 13 },
    201,
  );
  const doomed = await call(
    'POST',
    '/v1/orders',
    { investor_id: karim, symbol: 'COMI', side: 'buy', type: 'limit', qty: 5, limit_price_micros: 76_000_000 },
    201,
  );
  await call('DELETE', `/v1/orders/${String(doomed.order_id)}`, undefined, 202);
  await call(
    'POST',
    '/v1/orders',
    { investor_id: karim, symbol: 'COMI', side: 'sell', type: 'market', qty: 1_000 },
    422,
  );
  return [buy, resting, partial, doomed].map((o) => String(o.order_id));
}

async function funds(call: Call, investorId: string): Promise<void> {
  const sub = await call(
    'POST',
    '/v1/fund-orders',
    { investor_id: investorId, fund_code: 'UBRKH', side: 'subscribe', amount_micros: 10_000_000_000 },
    201,
  );
  await call('POST', '/admin/sandbox/clock-advance', { days: 1 });
  await call('GET', `/v1/fund-orders/${String(sub.fund_order_id)}`);
  await call(
    'POST',
    '/v1/fund-orders',
    { investor_id: investorId, fund_code: 'UBRKH', side: 'redeem', units_micros: 1_000_000 },
    201,
  );
}

async function reads(call: Call, investors: string[], orderIds: string[]): Promise<void> {
  const [canceled, ...traded] = [...orderIds].reverse();
  for (const id of traded) {
    await call('GET', `/v1/orders/${id}`);
    await call('GET', `/v1/orders/${id}/contract-note`);
  }
  await call('GET', `/v1/orders/${canceled}/contract-note`, undefined, 422);
  for (const id of investors) {
    for (const part of [
      '',
      '/balances',
      '/activities',
      '/portfolio',
      '/portfolio/exposures',
      '/portfolio/performance?days=10',
      '/portfolio/risk?days=10',
    ]) {
      await call('GET', `/v1/investors/${id}${part}`);
    }
    await call('GET', `/v1/transfers?investor_id=${id}`);
    await call('GET', `/v1/orders?investor_id=${id}`);
  }
  await call('GET', '/v1/accounts');
  await call('GET', '/broker/v1/blotter');
  await call('GET', '/broker/v1/exposure');
  await call('GET', '/admin/audit');
}

/** Runs the workload; every answer (status, replay header, body) in order. */
export async function tradingLife(t: TestApp): Promise<string[]> {
  const out: string[] = [];
  const call: Call = async (method, url, body, expectStatus = method === 'GET' ? 200 : undefined) => {
    const idempotencyKey = method === 'GET' || url.startsWith('/admin') ? undefined : `life-${out.length}`;
    const res = await t.req(method, url, { body, idempotencyKey });
    if (expectStatus !== undefined && res.status !== expectStatus)
      throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
    out.push(`${method} ${url} -> ${res.status} ${String(res.headers['idempotent-replayed'] ?? '')} ${res.text}`);
    return (res.body && typeof res.body === 'object' ? res.body : {}) as Record<string, unknown>;
  };
  const karim = await onboard(call, 'Karim Saleh', '28704040112345', '1987-04-04');
  const laila = await onboard(call, 'Laila Fahmy', '29306060112345', '1993-06-06');
  await call('POST', '/admin/sandbox/clock-advance', { until: 'next_open' });
  await call('POST', '/admin/sandbox/quote', { symbol: 'COMI', price_micros: 85_000_000 });
  const dividend = await call('POST', '/admin/sandbox/declare-dividend', {
    symbol: 'COMI',
    amount_per_share_micros: 1_500_000,
    ex_date: '2026-11-23',
    pay_date: '2026-11-25',
  });
  const orderIds = await trade(call, karim, laila);
  await call('POST', '/admin/sandbox/clock-advance', { minutes: 90 });
  await funds(call, laila);
  await call('POST', '/admin/sandbox/clock-advance', { days: 4 });
  await call('GET', `/admin/sandbox/dividends/${String(dividend.dividend_id)}`);
  await reads(call, [karim, laila], orderIds);
  return out;
}
