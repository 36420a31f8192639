// Cash dividends declared through the sandbox (docs/portfolio.md "Dividends").
//
// Record rule: the holders entitled are those holding the shares at the START of the ex-date
// (00:00 Africa/Cairo), counting settled, reserved and unsettled shares alike. A buy executed before
// the ex-date is entitled even while it is unsettled (it settles by the record date T+2 later), and a
// sell executed before the ex-date is not; shares bought on or after the ex-date trade without the
// dividend. This is the ex-date convention of a T+2 market stated on trade dates, so no separate record
// date is kept. Entitlements are fixed at that instant (a stored event, or at once when the ex-date is
// today) from the ledger's history, and paid at the start of the pay date (another stored event):
// the gross from the `corporate_actions` system account into settled cash, then the withholding
// (fixtures/fees.json dividend_withholding_bps, half up to the micro) to the `tax` account, with DIV
// and TAX activities. An amount that cannot be booked exactly fails that entitlement (AMOUNT_TOO_LARGE).
import { DateTime } from 'luxon';
import type { Deps } from '../deps.js';
import { AppError } from '../http/errors.js';
import { CASH_EGP } from '../ledger/assets.js';
import { createLedgerHistory } from '../ledger/history.js';
import { epochDay } from '../market/calendar.js';
import { readFixture } from '../fixtures.js';
import { formatEgp } from '../contract/money.js';
import { createDividendRepo, type DividendRow, type EntitlementRow } from './repo.js';

export const DIVIDEND_RECORD_EVENT = 'dividend.record';
export const DIVIDEND_PAY_EVENT = 'dividend.pay';

export type DividendDeps = Pick<Deps, 'db' | 'ids' | 'clock' | 'nowIso' | 'ledger' | 'market' | 'scheduler'>;

export interface DeclareBody {
  symbol: string;
  amount_per_share_micros: number;
  ex_date: string;
  pay_date: string;
}

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

function entitlementView(e: EntitlementRow) {
  return {
    tenant_id: e.tenant_id,
    investor_id: e.investor_id,
    shares: e.shares,
    gross_micros: e.gross_micros,
    tax_micros: e.tax_micros,
    net_micros: e.net_micros,
    state: e.state,
    reason_code: e.reason_code,
    paid_at: e.paid_at,
  };
}

function isRealDate(date: string): boolean {
  try {
    epochDay(date);
    return true;
  } catch {
    return false;
  }
}

export function createDividendService(deps: DividendDeps) {
  const { db, ids, clock, ledger, market, scheduler } = deps;
  const cal = market.calendar;
  const repo = createDividendRepo(db);
  const history = createLedgerHistory(db);
  const withholdingBps = readFixture<{ dividend_withholding_bps: number }>('fees.json').dividend_withholding_bps;

  function startOf(date: string): number {
    return DateTime.fromISO(`${date}T00:00:00`, { zone: cal.zone }).toMillis();
  }

  function view(d: DividendRow) {
    const ents = repo.entitlements(d.id);
    const sum = (k: 'gross_micros' | 'tax_micros' | 'net_micros') => ents.reduce((a, e) => a + (e.state === 'failed' ? 0 : e[k] ?? 0), 0);
    return {
      dividend_id: d.id,
      symbol: d.symbol,
      amount_per_share_micros: d.amount_per_share_micros,
      ex_date: d.ex_date,
      pay_date: d.pay_date,
      record_at: cal.toIso(d.record_ms),
      pay_at: cal.toIso(d.pay_ms),
      withholding_bps: d.withholding_bps,
      state: d.state,
      declared_at: d.declared_at,
      recorded_at: d.recorded_at,
      paid_at: d.paid_at,
      holders: ents.length,
      gross_micros: sum('gross_micros'),
      tax_micros: sum('tax_micros'),
      net_micros: sum('net_micros'),
      entitlements: ents.map(entitlementView),
    };
  }

  /** Fixes who is paid: the holders at the record instant, from the ledger's history. */
  function record(d: DividendRow): void {
    for (const h of history.holdersBefore(d.symbol, d.record_ms)) {
      const gross = BigInt(h.qty) * BigInt(d.amount_per_share_micros);
      const base = { dividend_id: d.id, tenant_id: h.tenantId, investor_id: h.investorId, shares: h.qty };
      if (gross > MAX) {
        repo.insertEntitlement({ ...base, gross_micros: null, tax_micros: null, net_micros: null, state: 'failed', reason_code: 'AMOUNT_TOO_LARGE' });
        continue;
      }
      const tax = (2n * gross * BigInt(d.withholding_bps) + 10_000n) / 20_000n;
      repo.insertEntitlement({ ...base, gross_micros: Number(gross), tax_micros: Number(tax), net_micros: Number(gross - tax), state: 'pending', reason_code: null });
    }
    repo.recorded(d.id, deps.nowIso());
  }

  function pay(d: DividendRow): void {
    const at = deps.nowIso();
    const what = `${d.symbol} dividend of ${formatEgp(d.amount_per_share_micros)} EGP per share`;
    for (const e of repo.entitlements(d.id)) {
      if (e.state !== 'pending') continue;
      const gross = e.gross_micros!;
      const cash = { investorId: e.investor_id, asset: CASH_EGP, bucket: 'settled' as const };
      const posted = ledger.transfer({ tenantId: e.tenant_id, debit: { system: 'corporate_actions', asset: CASH_EGP }, credit: cash, amount: gross, kind: 'dividend', ref: d.id });
      if (!posted.ok) {
        repo.entitlementFailed(e.seq, posted.code);
        continue;
      }
      const ref = { type: 'dividend' as const, id: d.id };
      ledger.recordActivity({
        tenantId: e.tenant_id, investorId: e.investor_id, type: 'DIV', netAmountMicros: gross,
        description: `${what} on ${e.shares} shares`, ref, symbol: d.symbol, qty: e.shares, priceMicros: d.amount_per_share_micros,
      });
      if (e.tax_micros! > 0) {
        const taxed = ledger.transfer({ tenantId: e.tenant_id, debit: cash, credit: { system: 'tax', asset: CASH_EGP }, amount: e.tax_micros!, kind: 'tax', ref: d.id });
        if (!taxed.ok) throw new Error(`dividends: withholding of ${d.id} refused: ${taxed.code}`);
        ledger.recordActivity({
          tenantId: e.tenant_id, investorId: e.investor_id, type: 'TAX', netAmountMicros: -e.tax_micros!,
          description: `Withholding tax (${d.withholding_bps / 100}%) on the ${d.symbol} dividend`, ref, symbol: d.symbol,
        });
      }
      repo.entitlementPaid(e.seq, at);
    }
    repo.paid(d.id, at);
  }

  scheduler.on(DIVIDEND_RECORD_EVENT, (payload: { dividend_id: string }) => {
    const d = repo.byId(payload.dividend_id);
    if (d && d.state === 'declared') record(d);
  });
  scheduler.on(DIVIDEND_PAY_EVENT, (payload: { dividend_id: string }) => {
    const d = repo.byId(payload.dividend_id);
    if (d && d.state === 'recorded') pay(d);
  });

  return {
    declare(body: DeclareBody) {
      const inst = market.catalog.get(body.symbol);
      if (!inst) throw new AppError('UNKNOWN_SYMBOL', `No instrument ${body.symbol}.`);
      if (inst.security_type !== 'equity') throw new AppError('VALIDATION_FAILED', `${inst.symbol} is a ${inst.security_type}: dividends are declared on equities only.`);
      for (const [field, date] of [['ex_date', body.ex_date], ['pay_date', body.pay_date]] as const) {
        if (!isRealDate(date)) throw new AppError('INVALID_DATE', `${field}: ${date} is not a calendar date (YYYY-MM-DD).`);
      }
      const now = clock.now();
      const today = cal.localDate(now);
      if (body.ex_date < today) throw new AppError('DATE_IN_PAST', `ex_date ${body.ex_date} is before the sandbox date ${today}.`);
      if (body.pay_date < body.ex_date) throw new AppError('INVALID_RANGE', `pay_date ${body.pay_date} is before ex_date ${body.ex_date}.`);
      const id = ids.next('div');
      const recordMs = startOf(body.ex_date);
      const payMs = startOf(body.pay_date);
      repo.insert({
        id, symbol: inst.symbol, amount_per_share_micros: body.amount_per_share_micros, ex_date: body.ex_date, pay_date: body.pay_date,
        withholding_bps: withholdingBps, record_ms: recordMs, pay_ms: payMs, declared_at: deps.nowIso(),
      });
      // An ex-date (or pay date) that has already begun today is processed at once, as of its instant.
      if (recordMs <= now) record(repo.byId(id)!);
      else scheduler.schedule(DIVIDEND_RECORD_EVENT, recordMs, { dividend_id: id });
      if (payMs <= now) pay(repo.byId(id)!);
      else scheduler.schedule(DIVIDEND_PAY_EVENT, payMs, { dividend_id: id });
      return view(repo.byId(id)!);
    },

    get(id: string) {
      const d = repo.byId(id);
      if (!d) throw new AppError('NOT_FOUND', `No dividend ${id}.`);
      return view(d);
    },
  };
}

export type DividendService = ReturnType<typeof createDividendService>;
