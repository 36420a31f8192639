// Fund orders (docs/portfolio.md "POST /v1/fund-orders"): validated first (validate.ts, nothing booked
// on a refusal), then executed, booked and settled inside the request at the current NAV.
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { formatMicros } from '../contract/money.js';
import type { PostingInput } from '../ledger/ledger.js';
import { CASH_EGP, fundAsset } from '../ledger/assets.js';
import type { FundsCtx } from './context.js';
import { validateFundOrder, type FundOrderBody, type FundValidationEnv, type ValidFundOrder } from './validate.js';
import { orderView, type FundOrder } from './views.js';

/** What the validation chain reads, at `nowMs`, for one tenant. */
function validationEnv(ctx: FundsCtx, tenantId: string, nowMs: number): FundValidationEnv {
  const { ledger } = ctx;
  return {
    fund: (code) => ctx.funds.get(code),
    investor: (investorId) => ctx.investors.lookupForMoney(tenantId, investorId),
    navMicros: (fund) => ctx.navBook.navAt(fund, nowMs).navMicros,
    settledCashMicros: (investorId) => ledger.balance(tenantId, { investorId, asset: CASH_EGP, bucket: 'settled' }),
    unitsHeld(investorId, fund) {
      const p = ledger.position(tenantId, investorId, fundAsset(fund.fund_code));
      return p.settled + p.reserved + p.unsettled;
    },
    settledUnits: (investorId, fund) =>
      ledger.balance(tenantId, { investorId, asset: fundAsset(fund.fund_code), bucket: 'settled' }),
  };
}

/**
 * The two postings of an order (docs/portfolio.md, the ledger table): a subscription pays cash into the
 * `fund` account and takes units out of it; a redemption is the reverse.
 */
function postingsOf(tenantId: string, ref: string, side: FundOrderBody['side'], o: ValidFundOrder): PostingInput[] {
  const inv = o.investor.id;
  const units = fundAsset(o.fund.fund_code);
  const investorCash = { investorId: inv, asset: CASH_EGP, bucket: 'settled' as const };
  const investorUnits = { investorId: inv, asset: units, bucket: 'settled' as const };
  const fundCash = { system: 'fund' as const, asset: CASH_EGP };
  const fundUnits = { system: 'fund' as const, asset: units };
  const t = { tenantId, ref };
  if (side === 'subscribe') {
    return [
      { ...t, debit: investorCash, credit: fundCash, amount: o.amountMicros, kind: 'subscription' },
      { ...t, debit: fundUnits, credit: investorUnits, amount: o.unitsMicros, kind: 'subscription' },
    ];
  }
  return [
    { ...t, debit: investorUnits, credit: fundUnits, amount: o.unitsMicros, kind: 'redemption' },
    { ...t, debit: fundCash, credit: investorCash, amount: o.amountMicros, kind: 'redemption' },
  ];
}

/** Books the order's postings and its SUB / RED activity; a posting the ledger refuses refuses the order. */
function book(
  ctx: FundsCtx,
  tenantId: string,
  id: string,
  side: FundOrderBody['side'],
  o: ValidFundOrder,
): Outcome<void> {
  for (const p of postingsOf(tenantId, id, side, o)) {
    const posted = ctx.ledger.transfer(p);
    if (!posted.ok) return posted;
  }
  const subscribe = side === 'subscribe';
  ctx.ledger.recordActivity({
    tenantId,
    investorId: o.investor.id,
    type: subscribe ? 'SUB' : 'RED',
    netAmountMicros: subscribe ? -o.amountMicros : o.amountMicros,
    description:
      `${subscribe ? 'Subscribed' : 'Redeemed'} ${formatMicros(o.unitsMicros, 6)} units of ${o.fund.fund_code}` +
      ` at NAV ${formatMicros(o.navMicros, 6)} EGP`,
    ref: { type: 'fund_order', id },
    symbol: o.fund.fund_code,
    priceMicros: o.navMicros,
  });
  return ok(undefined);
}

/** received -> validated -> processed -> settled, all inside this request (settlement_days 0). */
export function placeFundOrder(ctx: FundsCtx, tenantId: string, body: FundOrderBody): Outcome<FundOrder> {
  const now = ctx.clock.now();
  const v = validateFundOrder(body, validationEnv(ctx, tenantId, now));
  if (!v.ok) return v;
  const o = v.value;
  const iso = ctx.market.calendar.toIso(now);
  const id = ctx.ids.next('fo');
  ctx.repo.insert({
    id,
    tenant_id: tenantId,
    investor_id: o.investor.id,
    fund_code: o.fund.fund_code,
    side: body.side,
    amount_micros: body.side === 'subscribe' ? body.amount_micros : null,
    units_micros: body.side === 'redeem' ? body.units_micros : null,
    created_ms: now,
    created_at: iso,
  });
  ctx.repo.validated(id, iso);
  const booked = book(ctx, tenantId, id, body.side, o);
  if (!booked.ok) return booked;
  const navDate = ctx.navBook.sweepDateAt(o.fund, now);
  ctx.repo.processed(
    id,
    {
      nav_micros: o.navMicros,
      nav_date: navDate,
      result_units_micros: o.unitsMicros,
      result_amount_micros: o.amountMicros,
    },
    iso,
  );
  ctx.repo.settled(id, iso);
  return ok(orderView(ctx.funds, ctx.repo.byId(id)!, iso));
}

export function getFundOrder(ctx: FundsCtx, tenantId: string, id: string): Outcome<FundOrder> {
  const r = ctx.repo.find(tenantId, id);
  return r
    ? ok(orderView(ctx.funds, r, ctx.market.calendar.toIso(r.created_ms)))
    : refuse('NOT_FOUND', `No fund order ${id}.`);
}
