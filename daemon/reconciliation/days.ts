// Statement dates: a business day of the exchange calendar up to today (the sandbox clock, Cairo), and
// the instant its statements stand at (the end of that day in the exchange's zone).
import { DateTime } from 'luxon';
import { refuse, ok, type Outcome } from '../contract/outcome.js';
import { checkDate as checkCalendarDate } from '../contract/dates.js';
import type { ReconCtx } from './context.js';

export function today(ctx: Pick<ReconCtx, 'market' | 'clock'>): string {
  return ctx.market.calendar.localDate(ctx.clock.now());
}

/** A business day up to today, or RECONCILIATION_DATE_INVALID (INVALID_DATE, DATE_OUT_OF_RANGE: the shared validator).
 * */
export function checkDate(ctx: Pick<ReconCtx, 'market' | 'clock'>, date: string): Outcome<string> {
  const real = checkCalendarDate('date', date);
  if (!real.ok) return real;
  const now = today(ctx);
  if (date > now) return refuse('RECONCILIATION_DATE_INVALID', `${date} is after today (${now} on the sandbox clock).`);
  if (!ctx.market.calendar.isTradingDay(date))
    return refuse('RECONCILIATION_DATE_INVALID', `${date} is not an EGX business day (a weekend or a holiday).`);
  return ok(date);
}

/** The end of `date` (midnight after it) in the exchange's zone. */
export function cutoffMs(ctx: Pick<ReconCtx, 'market'>, date: string): number {
  return DateTime.fromISO(`${date}T00:00`, { zone: ctx.market.calendar.zone }).plus({ days: 1 }).toMillis();
}
