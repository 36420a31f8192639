// The dealer desk's reference data (GET /broker/v1/reference/{kind}, docs/desk.md), each read from the
// code that applies it, so the desk sees exactly what the daemon enforces: the instrument catalog
// (market listings), the session calendar (the exchange calendar), the fee schedule the order path
// charges (fixtures/fees.json through trading/fees.ts, rules in contract/fees.ts), the tick grid
// (contract/tick.ts) with the price band, and the exchange holidays behind the calendar.
import { DateTime } from 'luxon';
import type { z } from 'zod';
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { TICK_HIGH_MICROS, TICK_LEVEL_MICROS, TICK_LOW_MICROS, MIN_PRICE_MICROS } from '../contract/tick.js';
import { DEFAULT_BAND_BPS } from '../market/ticks.js';
import { calendarRange } from '../market/calendar-view.js';
import { exchangeHolidays } from '../market/holidays.js';
import { listInstruments } from '../market/listings.js';
import { loadFeeSchedule, type FeeSchedule } from './fees.js';
import type { ReferenceFeesSchema } from '../contract/schemas/desk-reports.js';

type FeeLineName = z.input<typeof ReferenceFeesSchema>['lines'][number]['line'];

export type ReferenceDeps = Pick<Deps, 'market' | 'clock'>;

/** Tenths of a basis point as an exact decimal fraction: 15 -> "0.00015". */
function fraction(rateBpsX10: number): string {
  const s = String(rateBpsX10).padStart(6, '0');
  const text = `${s.slice(0, -5)}.${s.slice(-5)}`.replace(/0+$/, '').replace(/\.$/, '');
  return text.replace(/^0+(?=\d)/, '');
}

function line(
  name: FeeLineName,
  kind: 'fee' | 'withholding',
  rateBpsX10: number,
  minMicros: number | null,
  maxMicros: number | null,
  description: string,
) {
  return {
    line: name,
    kind,
    rate_bps_x10: rateBpsX10,
    rate: fraction(rateBpsX10),
    min_micros: minMicros,
    max_micros: maxMicros,
    description,
  };
}

export function feesReference(s: FeeSchedule = loadFeeSchedule()) {
  return {
    basis: 'order' as const,
    note:
      'Each line is charged per order and side on the executed value and rounded half up to the micro; an order ' +
      'filled in several executions pays, on each fill, the increase of the order-level figure.',
    lines: [
      line('commission', 'fee', s.commission.rateBpsX10, s.commission.minMicros, null, 'broker commission'),
      line('egx', 'fee', s.egx.rateBpsX10, null, s.egx.capMicros, 'exchange fee'),
      line('mcdr', 'fee', s.mcdr.rateBpsX10, null, null, 'central depository fee'),
      line('ipf', 'fee', s.ipf.rateBpsX10, null, null, 'investor protection fund'),
      line('fra', 'fee', s.fra.rateBpsX10, null, null, 'regulator fee'),
      line('stamp_duty', 'withholding', s.stampDuty.rateBpsX10, null, null, 'stamp duty, withheld as a tax'),
    ],
  };
}

export function ticksReference() {
  return {
    ticks: [
      { from_micros: MIN_PRICE_MICROS, below_micros: TICK_LEVEL_MICROS, tick_micros: TICK_LOW_MICROS },
      { from_micros: TICK_LEVEL_MICROS, below_micros: null, tick_micros: TICK_HIGH_MICROS },
    ],
    band_bps: DEFAULT_BAND_BPS,
    note: 'A limit price must be a multiple of the tick for its level and inside the band around the reference price.',
  };
}

export function holidaysReference(year: string | undefined) {
  return { holidays: exchangeHolidays().filter((h) => year === undefined || h.date.startsWith(`${year}-`)) };
}

type CalendarRows = ReturnType<ReferenceDeps['market']['calendar']['rows']>;

/**
 * Trading days of `year`, or of start..end (as GET /v1/calendar: start defaults to today, end to
 * start + 30 days); nothing given: the current year on the sandbox clock.
 */
export function calendarReference(
  deps: ReferenceDeps,
  q: { start?: string; end?: string; year?: string },
): Outcome<{ zone: string; start_date: string; end_date: string; calendar: CalendarRows }> {
  const ranged = q.start !== undefined || q.end !== undefined;
  if (q.year !== undefined && ranged) return refuse('INVALID_RANGE', 'Send year, or start and end, not both.');
  const today = deps.market.calendar.localDate(deps.clock.now());
  const year = q.year ?? (ranged ? undefined : today.slice(0, 4));
  const start = year ? `${year}-01-01` : (q.start ?? today);
  const end = year
    ? `${year}-12-31`
    : (q.end ?? DateTime.fromISO(start, { zone: 'UTC' }).plus({ days: 30 }).toISODate() ?? start);
  const range = calendarRange(deps, start, end);
  if (!range.ok) return range;
  return ok({ zone: deps.market.calendar.zone, start_date: start, end_date: end, calendar: range.value.calendar });
}

export function instrumentsReference(deps: ReferenceDeps, baseUrl: string) {
  return listInstruments(deps, undefined, baseUrl);
}
