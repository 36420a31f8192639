// Declaring a dividend (docs/portfolio.md "Dividends"): validated in the documented order, then stored
// with its two instants; a step whose instant has already begun today runs at once, as of that instant.
import { DateTime } from 'luxon';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { Instrument } from '../market/catalog.js';
import { checkDate } from '../contract/dates.js';
import { DIVIDEND_PAY_EVENT, DIVIDEND_RECORD_EVENT, type DividendCtx } from './context.js';
import { payDividend, recordDividend } from './entitlements.js';
import { dividendView, type Dividend } from './views.js';

export interface DeclareBody {
  symbol: string;
  amount_per_share_micros: number;
  ex_date: string;
  pay_date: string;
}

/** UNKNOWN_SYMBOL, an equity, real dates in the sandbox's window (contract/dates.ts), an ex-date not before today, a
 * pay date not before the ex-date. */
function validate(ctx: DividendCtx, body: DeclareBody, today: string): Outcome<Instrument> {
  const inst = ctx.market.catalog.get(body.symbol);
  if (!inst) return refuse('UNKNOWN_SYMBOL', `No instrument ${body.symbol}.`);
  if (inst.security_type !== 'equity')
    return refuse(
      'VALIDATION_FAILED',
      `${inst.symbol} is a ${inst.security_type}: dividends are declared on equities only.`,
    );
  for (const [field, date] of [
    ['ex_date', body.ex_date],
    ['pay_date', body.pay_date],
  ] as const) {
    const checked = checkDate(field, date);
    if (!checked.ok) return checked;
  }
  if (body.ex_date < today)
    return refuse('DATE_IN_PAST', `ex_date ${body.ex_date} is before the sandbox date ${today}.`);
  if (body.pay_date < body.ex_date)
    return refuse('INVALID_RANGE', `pay_date ${body.pay_date} is before ex_date ${body.ex_date}.`);
  return ok(inst);
}

/** 00:00 Africa/Cairo of a date. */
function startOf(ctx: DividendCtx, date: string): number {
  return DateTime.fromISO(`${date}T00:00:00`, { zone: ctx.market.calendar.zone }).toMillis();
}

export function declareDividend(ctx: DividendCtx, body: DeclareBody): Outcome<Dividend> {
  const now = ctx.clock.now();
  const valid = validate(ctx, body, ctx.market.calendar.localDate(now));
  if (!valid.ok) return valid;
  const id = ctx.ids.next('div');
  const recordMs = startOf(ctx, body.ex_date);
  const payMs = startOf(ctx, body.pay_date);
  ctx.repo.insert({
    id,
    symbol: valid.value.symbol,
    amount_per_share_micros: body.amount_per_share_micros,
    ex_date: body.ex_date,
    pay_date: body.pay_date,
    withholding_bps: ctx.withholdingBps,
    record_ms: recordMs,
    pay_ms: payMs,
    declared_at: ctx.nowIso(),
  });
  if (recordMs <= now) recordDividend(ctx, ctx.repo.byId(id)!);
  else ctx.scheduler.schedule(DIVIDEND_RECORD_EVENT, recordMs, { dividend_id: id });
  if (payMs <= now) payDividend(ctx, ctx.repo.byId(id)!);
  else ctx.scheduler.schedule(DIVIDEND_PAY_EVENT, payMs, { dividend_id: id });
  return ok(dividendView(ctx, ctx.repo.byId(id)!));
}

export function getDividend(ctx: DividendCtx, id: string): Outcome<Dividend> {
  const d = ctx.repo.byId(id);
  return d ? ok(dividendView(ctx, d)) : refuse('NOT_FOUND', `No dividend ${id}.`);
}
