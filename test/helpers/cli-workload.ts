// A mixed workload through the real `svc` binary (snapshot and replay tests): onboarding with ID
// images, a referral cleared by the dealer, suitability, a deposit, clock advances, a market buy (qty 13:
// two executions), a resting limit canceled, a refused sell, a provisioned tenant, and a quote override.
// Returns what the reads of the final state need.
import { expect } from 'vitest';
import type { CliSandbox } from './cli.js';
import { nationalId } from './onboarding.js';

export interface Workload {
  investorId: string;
  referredInvestorId: string;
  applicationId: string;
  filledOrderId: string;
  canceledOrderId: string;
}

async function ok(sbx: CliSandbox, args: string[], env?: Record<string, string>) {
  const r = await sbx.svc([...args, '--json'], env);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.json;
}

export async function mixedWorkload(sbx: CliSandbox): Promise<Workload> {
  const apply = async (name: string, suffix?: string) => {
    const { nationalId: id, dateOfBirth } = nationalId(suffix);
    return ok(sbx, [
      'kyc',
      'apply',
      '--full-name',
      name,
      '--national-id',
      id,
      '--dob',
      dateOfBirth,
      '--email',
      'w@example.com',
      '--phone',
      '01012345678',
      '--address',
      '12 Tahrir Street, Cairo',
      '--sample-documents',
    ]);
  };
  const kyc = await apply('Salma Workload');
  const investorId = kyc.investor_id as string;
  const referred = await apply('Karim Referred', '9999');
  await ok(sbx, ['desk', 'kyc', 'clear', referred.application_id]);
  const referredInvestorId = (await ok(sbx, ['kyc', 'status', referred.application_id])).investor_id as string;
  await ok(sbx, [
    'investor',
    'suitability',
    investorId,
    '--experience',
    'moderate',
    '--horizon',
    '3_5y',
    '--risk',
    'medium',
    '--income',
    '300k_1m',
    '--net-worth',
    '1m_5m',
    '--objectives',
    'growth',
    '--ack-risk',
  ]);
  await ok(sbx, ['transfer', 'deposit', '60000', '--investor', investorId]);
  await ok(sbx, ['clock', 'advance', '--minutes', '5']);
  await ok(sbx, ['clock', 'advance', '--until', 'next_open']);
  const filled = await ok(sbx, ['order', 'buy', 'COMI', '13', '--investor', investorId]);
  await ok(sbx, ['clock', 'advance', '--minutes', '2']);
  const quote = (await ok(sbx, ['market', 'quotes', 'TMGH'])).quotes[0];
  const lowEgp = (quote.band.lower_micros / 1_000_000).toFixed(2);
  const resting = await ok(sbx, [
    'order',
    'buy',
    'TMGH',
    '5',
    '--limit',
    lowEgp,
    '--tif',
    'gtc',
    '--investor',
    investorId,
  ]);
  const refused = await sbx.svc(['order', 'sell', 'FWRY', '1000', '--investor', investorId, '--json']);
  expect(refused.code).toBe(1);
  await ok(sbx, ['order', 'cancel', resting.order_id]);
  await ok(sbx, ['api', 'POST', '/admin/tenants', '-d', '{"name":"second-tenant"}']);
  await ok(sbx, [
    'api',
    'POST',
    '/admin/sandbox/quote',
    '-d',
    JSON.stringify({
      symbol: 'COMI',
      price_micros:
        quote.symbol === 'COMI'
          ? quote.price_micros
          : (await ok(sbx, ['market', 'quotes', 'COMI'])).quotes[0].price_micros,
    }),
  ]);
  await ok(sbx, ['clock', 'advance', '--days', '3']);
  return {
    investorId,
    referredInvestorId,
    applicationId: kyc.application_id,
    filledOrderId: filled.order_id,
    canceledOrderId: resting.order_id,
  };
}

/** Reads of the final state that must agree byte for byte between two sandboxes (no secrets in them). */
export function finalReads(w: Workload): string[] {
  return [
    `/v1/investors/${w.investorId}`,
    `/v1/investors/${w.investorId}/balances`,
    `/v1/investors/${w.investorId}/activities`,
    `/v1/investors/${w.referredInvestorId}`,
    `/v1/kyc/applications/${w.applicationId}`,
    `/v1/orders?investor_id=${w.investorId}`,
    `/v1/orders/${w.filledOrderId}`,
    `/v1/orders/${w.filledOrderId}/contract-note`,
    `/v1/orders/${w.canceledOrderId}`,
    '/v1/transfers',
    '/v1/accounts',
    '/v1/clock',
    '/v1/markets/XCAI/instruments/COMI/quote',
    '/broker/v1/blotter',
    '/broker/v1/kyc?state=all',
    '/admin/sandbox/state',
    '/admin/audit?limit=200',
    '/admin/audit/verify',
  ];
}

/** GET with the credentials of the path's realm (faster than one `svc api` per read). */
export async function readAs(
  creds: { base_url: string; api_key: string; dealer_key: string; admin_key: string },
  url: string,
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = url.startsWith('/admin')
    ? { 'x-admin-key': creds.admin_key }
    : url.startsWith('/broker')
      ? { 'x-console-key': creds.dealer_key }
      : { authorization: `Bearer ${creds.api_key}` };
  const res = await fetch(creds.base_url + url, { headers });
  return { status: res.status, text: await res.text() };
}
