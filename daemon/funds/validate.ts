// Fund order validation: a chain of early returns in documented precedence (docs/portfolio.md
// "Fund orders"). The first failing rule names the code; after the last one the order executes. Every
// refusal is answered before anything is booked, like an equity order's (docs/trading.md).
//
//  1 UNKNOWN_FUND (404)
//  2 the investor: NOT_FOUND (404), INVESTOR_NOT_APPROVED, INVESTOR_CLOSED
//  3 INVESTOR_RESTRICTED (subscriptions: a restricted account may redeem, not open positions)
//  4 SHARIAH_RESTRICTED (subscriptions to a fund that is not shariah-compliant, shariah-only investor)
//  5 BELOW_MINIMUM_SUBSCRIPTION (a first subscription below min_subscription_micros)
//  6 AMOUNT_TOO_LARGE (the units bought, or the amount paid, would pass 2^53 - 1)
//  7 FUND_ORDER_TOO_SMALL (a subscription that buys no unit-micro, a redemption that pays no micro)
//  8 INSUFFICIENT_SETTLED_CASH (subscriptions: the amount asked exceeds settled cash)
//  9 INSUFFICIENT_SETTLED_SECURITIES (redemptions: more units than the settled units held)
//
// The body's shape (strict; side subscribe with amount_micros, or redeem with units_micros, positive
// integers up to 2^53 - 1) is checked by the route schema before this chain.
import { egpHeld, egpNeeded, formatMicros } from '../contract/money.js';
import { refuse, type Outcome } from '../contract/outcome.js';
import type { InvestorRow } from '../investors/repo.js';
import type { Fund } from './catalog.js';
import { amountForUnits, subscriptionAtNav, UNIT_MICROS } from './nav.js';

export type FundOrderBody =
  | { investor_id: string; fund_code: string; side: 'subscribe'; amount_micros: number }
  | { investor_id: string; fund_code: string; side: 'redeem'; units_micros: number };

export interface FundValidationEnv {
  fund(code: string): Fund | null;
  investor(investorId: string): Outcome<InvestorRow>;
  navMicros(fund: Fund): number;
  settledCashMicros(investorId: string): number;
  /** Units of the fund in any bucket (a subscription is a first one when this is 0). */
  unitsHeld(investorId: string, fund: Fund): number;
  settledUnits(investorId: string, fund: Fund): number;
}

export interface ValidFundOrder {
  fund: Fund;
  investor: InvestorRow;
  navMicros: number;
  /** Unit-micros bought (subscription) or redeemed (redemption). */
  unitsMicros: number;
  /** Cash charged (subscription, the units' value rounded up) or paid (redemption, rounded down). */
  amountMicros: number;
}

export function validateFundOrder(body: FundOrderBody, env: FundValidationEnv): Outcome<ValidFundOrder> {
  const fund = env.fund(body.fund_code);
  if (!fund) return refuse('UNKNOWN_FUND', `No fund ${body.fund_code}.`);
  const inv = env.investor(body.investor_id);
  if (!inv.ok) return inv;
  const investor = inv.value;
  const navMicros = env.navMicros(fund);

  if (body.side === 'subscribe') {
    if (investor.status === 'restricted') return refuse('INVESTOR_RESTRICTED');
    if (investor.shariah_only === 1 && !fund.shariah_compliant)
      return refuse('SHARIAH_RESTRICTED', `${fund.fund_code} is not shariah-compliant.`);
    const amount = body.amount_micros;
    if (env.unitsHeld(investor.id, fund) === 0 && amount < fund.min_subscription_micros) {
      return refuse(
        'BELOW_MINIMUM_SUBSCRIPTION',
        `The first subscription to ${fund.fund_code} is at least ${egpNeeded(fund.min_subscription_micros)}.`,
      );
    }
    if ((BigInt(amount) * BigInt(UNIT_MICROS)) / BigInt(navMicros) > BigInt(Number.MAX_SAFE_INTEGER)) {
      return refuse(
        'AMOUNT_TOO_LARGE',
        `${amount} micros buys more unit-micros than can be represented exactly at NAV ${navMicros}.`,
      );
    }
    const fill = subscriptionAtNav(amount, navMicros);
    if (fill.unitsMicros === 0)
      return refuse(
        'FUND_ORDER_TOO_SMALL',
        `${amount} micros buys no unit-micro at NAV ${formatMicros(navMicros, 6)} EGP.`,
      );
    const cash = env.settledCashMicros(investor.id);
    if (amount > cash)
      return refuse(
        'INSUFFICIENT_SETTLED_CASH',
        `The subscription needs ${egpNeeded(amount)} of settled cash; ${egpHeld(cash)} is available.`,
      );
    return {
      ok: true,
      value: { fund, investor, navMicros, unitsMicros: fill.unitsMicros, amountMicros: fill.amountMicros },
    };
  }

  const units = body.units_micros;
  if ((BigInt(units) * BigInt(navMicros)) / BigInt(UNIT_MICROS) > BigInt(Number.MAX_SAFE_INTEGER)) {
    return refuse(
      'AMOUNT_TOO_LARGE',
      `${units} unit-micros are worth more micros than can be represented exactly at NAV ${navMicros}.`,
    );
  }
  const paid = amountForUnits(units, navMicros);
  if (paid === 0)
    return refuse(
      'FUND_ORDER_TOO_SMALL',
      `${units} unit-micros pay less than one micro at NAV ${formatMicros(navMicros, 6)} EGP.`,
    );
  const held = env.settledUnits(investor.id, fund);
  if (units > held)
    return refuse(
      'INSUFFICIENT_SETTLED_SECURITIES',
      `The redemption needs ${units} settled unit-micros of ${fund.fund_code}; ${held} are held.`,
    );
  return { ok: true, value: { fund, investor, navMicros, unitsMicros: units, amountMicros: paid } };
}
