// The rules of POST /v1/reports beyond the wire schema (docs/reports.md, "Creating a report"), in the
// order they are checked: the investor (this tenant's, else 404), the dates (real calendar dates), the
// period (start <= end <= today on the sandbox clock), the locale (en or ar).
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { isRealDate } from '../contract/kyc.js';
import { REPORT_LOCALES, REPORT_SECTIONS, type ReportLocale, type ReportSection } from '../contract/schemas/reports.js';

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

function calendarDate(field: string, value: string): Outcome<string> {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) return refuse('INVALID_DATE', `${field}: ${JSON.stringify(value)} is not a calendar date (YYYY-MM-DD).`);
  return ok(value);
}

export function checkReport(body: ReportRequest, today: string): Outcome<CheckedReport> {
  const start = calendarDate('period_start', body.period_start);
  if (!start.ok) return start;
  const end = calendarDate('period_end', body.period_end);
  if (!end.ok) return end;
  if (start.value > end.value) return refuse('INVALID_PERIOD', `period_start ${start.value} is after period_end ${end.value}.`);
  if (end.value > today) return refuse('INVALID_PERIOD', `period_end ${end.value} is after today (${today} on the sandbox clock).`);
  if (!(REPORT_LOCALES as readonly string[]).includes(body.locale)) {
    return refuse('UNSUPPORTED_LOCALE', `locale ${JSON.stringify(body.locale)}: statements are written in ${REPORT_LOCALES.join(' or ')}.`);
  }
  // The sections render in one order whatever order they were listed in.
  const chosen = new Set(body.sections ?? REPORT_SECTIONS);
  return ok({ period: { start: start.value, end: end.value }, sections: REPORT_SECTIONS.filter((s) => chosen.has(s)), locale: body.locale as ReportLocale });
}
