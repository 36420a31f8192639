// Trading test helpers: an onboarded investor with settled cash (credited straight through the ledger,
// so the clock does not move), shares credited as settled, order placement and balance reads.
import { CASH_EGP } from '../../daemon/ledger/assets.js';
import type { Res, TestApp } from './app.js';
import { onboardInvestor, type OnboardOptions } from './onboarding.js';

export const EGP = 1_000_000;

let refCounter = 0;

/** Credits settled cash (from the rail system account), as a completed deposit would. */
export function creditCash(t: TestApp, investorId: string, micros: number, tenantId = t.creds.tenant.tenant_id): void {
  const r = t.deps.db.transaction(() =>
    t.deps.ledger.transfer({
      tenantId,
      debit: { system: 'rail', asset: CASH_EGP },
      credit: { investorId, asset: CASH_EGP, bucket: 'settled' },
      amount: micros,
      kind: 'deposit',
      ref: `test-credit-${++refCounter}`,
    }),
  )();
  if (!r.ok) throw new Error(`credit failed: ${r.code}`);
}

/** Credits settled shares (a security journal from the adjustments account). */
export function creditShares(
  t: TestApp,
  investorId: string,
  symbol: string,
  qty: number,
  tenantId = t.creds.tenant.tenant_id,
): void {
  const r = t.deps.db.transaction(() =>
    t.deps.ledger.transfer({
      tenantId,
      debit: { system: 'adjustments', asset: symbol },
      credit: { investorId, asset: symbol, bucket: 'settled' },
      amount: qty,
      kind: 'journal',
      ref: `test-shares-${++refCounter}`,
    }),
  )();
  if (!r.ok) throw new Error(`share credit failed: ${r.code}`);
}

/** An approved, suitable investor with `cashEgp` EGP of settled cash. */
export async function trader(t: TestApp, cashEgp = 100_000, opts: OnboardOptions = {}): Promise<string> {
  const { investorId } = await onboardInvestor(t, opts);
  if (cashEgp > 0)
    creditCash(t, investorId, cashEgp * EGP, opts.tenant ? tenantIdOf(t, opts.tenant.api_key) : undefined);
  return investorId;
}

function tenantIdOf(t: TestApp, apiKey: string): string {
  const id = t.deps.keys.tenantForKey(apiKey);
  if (!id) throw new Error('unknown api key');
  return id;
}

export function order(
  t: TestApp,
  body: Record<string, unknown>,
  opts: { idempotencyKey?: string; tenant?: { api_key: string; signing_secret: string } } = {},
): Promise<Res> {
  return t.req('POST', '/v1/orders', { body, ...opts });
}

export interface Position {
  settled: number;
  reserved: number;
  unsettled: number;
}

export function position(t: TestApp, investorId: string, asset: string, tenantId = t.creds.tenant.tenant_id): Position {
  const p = t.deps.ledger.position(tenantId, investorId, asset);
  return { settled: p.settled, reserved: p.reserved, unsettled: p.unsettled };
}

export function cash(t: TestApp, investorId: string): Position {
  return position(t, investorId, CASH_EGP);
}

/** The tape price now (the quote route's price_micros). */
export function priceNow(t: TestApp, symbol: string): number {
  return t.deps.market.tape.priceAt(symbol, t.deps.clock.now());
}
