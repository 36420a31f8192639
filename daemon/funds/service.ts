// Money-market funds: the fund list at the current NAV, fund orders executed at once at that NAV, and
// the sandbox NAV control (docs/portfolio.md "Funds").
//
// A fund order goes received -> validated -> processed -> settled inside its own request: the
// spec's "execute immediately at the current NAV with no approval wait", and settlement_days 0. A
// refusal is decided before anything is booked and answered as a 4xx (validate.ts), as for orders.
// Money (ledger): a subscription moves the charged cash from settled cash to the `fund` system
// account and credits the units to settled units from it; a redemption moves the units back and
// credits the amount to settled cash. Each books an activity (SUB / RED) in the same transaction.
import type { Deps } from '../deps.js';
import { AppError, type Outcome } from '../http/errors.js';
import { CASH_EGP, fundAsset } from '../ledger/assets.js';
import { loadFunds, type Fund } from './catalog.js';
import { createNavBook, type NavAt } from './nav-book.js';
import { firstAccrualDate } from './nav.js';
import { createFundRepo, type FundOrderRow } from './repo.js';
import { validateFundOrder, type FundOrderBody } from './validate.js';
import { formatMicros } from '../contract/money.js';

export type FundsDeps = Pick<Deps, 'db' | 'ids' | 'clock' | 'nowIso' | 'ledger' | 'investors' | 'market' | 'onReset'>;

export function fundView(f: Fund, nav: NavAt) {
  return {
    fund_code: f.fund_code,
    name: f.name,
    name_ar: f.name_ar,
    manager: f.manager,
    currency: 'EGP' as const,
    nav_micros: nav.navMicros,
    nav_date: nav.sweepDate,
    indicative_yield_bps: f.indicative_yield_bps,
    management_fee_bps: f.management_fee_bps,
    cutoff_local: f.cutoff_local,
    settlement_days: f.settlement_days,
    min_subscription_micros: f.min_subscription_micros,
    shariah_compliant: f.shariah_compliant,
    logo_url: f.logo_url,
    accrual: f.accrual,
  };
}

export function createFundService(deps: FundsDeps) {
  const { db, ids, clock, ledger } = deps;
  const cal = deps.market.calendar;
  const funds = loadFunds();
  const navBook = createNavBook(deps, funds);
  const repo = createFundRepo(db);

  function requireFund(code: string): Fund {
    const f = funds.get(code);
    if (!f) throw new AppError('UNKNOWN_FUND', `No fund ${code}.`);
    return f;
  }

  function orderView(r: FundOrderRow) {
    const fund = funds.get(r.fund_code)!;
    const iso = cal.toIso(r.created_ms);
    return {
      fund_order_id: r.id,
      investor_id: r.investor_id,
      fund_code: r.fund_code,
      side: r.side,
      amount_micros: r.amount_micros,
      units_micros: r.units_micros,
      state: r.state,
      nav_micros: r.nav_micros,
      nav_date: r.nav_date,
      result_units_micros: r.result_units_micros,
      result_amount_micros: r.result_amount_micros,
      reason_code: r.reason_code,
      first_accrual_date: r.side === 'subscribe' && r.state === 'settled' ? firstAccrualDate(iso.slice(0, 10), iso.slice(11, 19), fund.cutoff_local) : null,
      created_at: r.created_at,
      processed_at: r.processed_at,
      settled_at: r.settled_at,
      updated_at: r.updated_at,
    };
  }

  function must<T>(o: Outcome<T>): T {
    if (!o.ok) throw new AppError(o.code, o.message);
    return o.value;
  }

  return {
    funds,
    navBook,
    repo,

    list(filter: { shariah?: boolean }) {
      const now = clock.now();
      const rows = funds.all.filter((f) => filter.shariah === undefined || f.shariah_compliant === filter.shariah);
      return { funds: rows.map((f) => fundView(f, navBook.navAt(f, now))), ordering: 'alphabetical' as const, as_of: deps.nowIso() };
    },

    place(tenantId: string, body: FundOrderBody) {
      const now = clock.now();
      const v = validateFundOrder(body, {
        fund: (code) => funds.get(code),
        investor(investorId) {
          try {
            return { ok: true, value: deps.investors.requireForMoney(tenantId, investorId) };
          } catch (err) {
            if (err instanceof AppError) return { ok: false, code: err.code, message: err.message };
            throw err;
          }
        },
        navMicros: (fund) => navBook.navAt(fund, now).navMicros,
        settledCashMicros: (investorId) => ledger.balance(tenantId, { investorId, asset: CASH_EGP, bucket: 'settled' }),
        unitsHeld(investorId, fund) {
          const p = ledger.position(tenantId, investorId, fundAsset(fund.fund_code));
          return p.settled + p.reserved + p.unsettled;
        },
        settledUnits: (investorId, fund) => ledger.balance(tenantId, { investorId, asset: fundAsset(fund.fund_code), bucket: 'settled' }),
      });
      if (!v.ok) return v;
      const o = v.value;
      const iso = cal.toIso(now);
      const id = ids.next('fo');
      const inv = o.investor.id;
      repo.insert({
        id, tenant_id: tenantId, investor_id: inv, fund_code: o.fund.fund_code, side: body.side,
        amount_micros: body.side === 'subscribe' ? body.amount_micros : null, units_micros: body.side === 'redeem' ? body.units_micros : null,
        created_ms: now, created_at: iso,
      });
      repo.validated(id, iso);
      const units = fundAsset(o.fund.fund_code);
      const t = { tenantId, ref: id };
      const description = `${body.side === 'subscribe' ? 'Subscribed' : 'Redeemed'} ${formatMicros(o.unitsMicros, 6)} units of ${o.fund.fund_code} at NAV ${formatMicros(o.navMicros, 6)} EGP`;
      if (body.side === 'subscribe') {
        must(ledger.transfer({ ...t, debit: { investorId: inv, asset: CASH_EGP, bucket: 'settled' }, credit: { system: 'fund', asset: CASH_EGP }, amount: o.amountMicros, kind: 'subscription' }));
        must(ledger.transfer({ ...t, debit: { system: 'fund', asset: units }, credit: { investorId: inv, asset: units, bucket: 'settled' }, amount: o.unitsMicros, kind: 'subscription' }));
      } else {
        must(ledger.transfer({ ...t, debit: { investorId: inv, asset: units, bucket: 'settled' }, credit: { system: 'fund', asset: units }, amount: o.unitsMicros, kind: 'redemption' }));
        must(ledger.transfer({ ...t, debit: { system: 'fund', asset: CASH_EGP }, credit: { investorId: inv, asset: CASH_EGP, bucket: 'settled' }, amount: o.amountMicros, kind: 'redemption' }));
      }
      ledger.recordActivity({
        tenantId, investorId: inv, type: body.side === 'subscribe' ? 'SUB' : 'RED',
        netAmountMicros: body.side === 'subscribe' ? -o.amountMicros : o.amountMicros, description,
        ref: { type: 'fund_order', id }, symbol: o.fund.fund_code, priceMicros: o.navMicros,
      });
      const navDate = navBook.sweepDateAt(o.fund, now);
      repo.processed(id, { nav_micros: o.navMicros, nav_date: navDate, result_units_micros: o.unitsMicros, result_amount_micros: o.amountMicros }, iso);
      repo.settled(id, iso);
      return { ok: true as const, value: orderView(repo.byId(id)!) };
    },

    get(tenantId: string, id: string) {
      const r = repo.find(tenantId, id);
      if (!r) throw new AppError('NOT_FOUND', `No fund order ${id}.`);
      return orderView(r);
    },

    /** Sandbox control: the NAV after the current sweep, from now on. */
    setNav(code: string, navMicros: number) {
      const fund = requireFund(code);
      return fundView(fund, navBook.override(fund, clock.now(), navMicros));
    },
  };
}

export type FundService = ReturnType<typeof createFundService>;
