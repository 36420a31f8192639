// The rules of POST /v1/reports beyond the wire schema (docs/reports.md, "Creating a report"), in the
// order they are checked: the investor (this tenant's, else 404), the dates (real calendar dates in the
// sandbox's window, contract/dates.ts), the period (start <= end <= today on the sandbox clock, not
// before the month the account was opened, at most MAX_PERIOD_DAYS long), the locale (en or ar).
//
// The period rules are also the statement's guard (checkPeriod): a report row that breaks them (one
// written before these rules, or by hand) fails with the same code when it is generated, rather than
// running a computation over centuries on the scheduler that every tenant shares.
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { checkDate, daysBetween } from '../contract/dates.js';
import {
  MAX_PERIOD_DAYS,
  REPORT_LOCALES,
  REPORT_SECTIONS,
  type ReportLocale,
  type ReportSection,
} from '../contract/schemas/reports.js';

export interface ReportRequest {
  period_start: string;
  period_end: string;
  sections?: ReportSection[];
  locale: string;
}

export interface CheckedReport {
  period: { start: string; end: string };
  sections: ReportSection[];
  locale: ReportLocale;
}

/** What bounds a period: today on the sandbox clock and the day the investor's account was opened. */
export interface PeriodBounds {
  today: string;
  /** YYYY-MM-DD (Cairo) of the account's opening. */
  opened: string;
}

/** The first day of the month of a YYYY-MM-DD date. */
const monthStart = (date: string) => `${date.slice(0, 8)}01`;

export function checkPeriod(
  startRaw: string,
  endRaw: string,
  bounds: PeriodBounds,
): Outcome<{ start: string; end: string }> {
  const start = checkDate('period_start', startRaw);
  if (!start.ok) return start;
  const end = checkDate('period_end', endRaw);
  if (!end.ok) return end;
  if (start.value > end.value)
    return refuse('INVALID_PERIOD', `period_start ${start.value} is after period_end ${end.value}.`);
  if (end.value > bounds.today)
    return refuse('INVALID_PERIOD', `period_end ${end.value} is after today (${bounds.today} on the sandbox clock).`);
  const floor = monthStart(bounds.opened);
  if (start.value < floor) {
    return refuse(
      'PERIOD_BEFORE_ACCOUNT',
      `period_start ${start.value} is before ${floor}, the first day of the month the account was opened (` +
        `${bounds.opened}).`,
    );
  }
  const days = daysBetween(start.value, end.value);
  if (days > MAX_PERIOD_DAYS)
    return refuse(
      'PERIOD_TOO_LONG',
      `${start.value} to ${end.value} is ${days} days; a statement covers at most ${MAX_PERIOD_DAYS}.`,
    );
  return ok({ start: start.value, end: end.value });
}

export function checkReport(body: ReportRequest, bounds: PeriodBounds): Outcome<CheckedReport> {
  const period = checkPeriod(body.period_start, body.period_end, bounds);
  if (!period.ok) return period;
  if (!(REPORT_LOCALES as readonly string[]).includes(body.locale)) {
    return refuse(
      'UNSUPPORTED_LOCALE',
      `locale ${JSON.stringify(body.locale)}: statements are written in ${REPORT_LOCALES.join(' or ')}.`,
    );
  }
  // The sections render in one order whatever order they were listed in.
  const chosen = new Set(body.sections ?? REPORT_SECTIONS);
  return ok({
    period: period.value,
    sections: REPORT_SECTIONS.filter((s) => chosen.has(s)),
    locale: body.locale as ReportLocale,
  });
}
