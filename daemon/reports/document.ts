// A statement's figures as the document a person reads: every number formatted for people (EGP with
// thousands separators from integer micros, never a float), every label in the report's language, and
// the chart's points in page units. The template (template.ts) only lays this out: data reaches it as
// JSON, never spliced into markup.
import { formatMoney, formatNav, formatPrice, formatUnits } from '../contract/money.js';
import { DISCLOSURES, licenceLine } from '../contract/disclosures.js';
import type { ReportLocale, ReportSection } from '../contract/schemas/reports.js';
import type { StatementFigures } from '../portfolio/statement.js';
import { labelsFor, type Labels } from './labels.js';

export interface ReportBranding {
  display_name: string;
  primary_color: string;
  accent_color: string;
  font: string;
  footer_text: string;
  logo: { bytes: Buffer; contentType: 'image/png' | 'image/jpeg' } | null;
}

export interface StatementInput {
  locale: ReportLocale;
  sections: readonly ReportSection[];
  period: { start: string; end: string };
  generatedAt: string;
  investor: { id: string; full_name: string; account_number: string };
  broker: { name: string; name_ar: string; fra_license_no: string };
  branding: ReportBranding;
  figures: StatementFigures;
}

const CHART = { width: 460, height: 110 };

const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const STRONG_LETTER = /[\p{L}]/u;

/**
 * Free text (a name, the footer) as it reads in the other direction's document: an English footer in an
 * Arabic statement keeps its final full stop at its end, an Arabic name in an English statement its
 * parentheses. The text is wrapped in marks of its own direction, chosen by its first strong letter
 * (the Unicode rule for a paragraph's direction); text already in the document's direction is unchanged.
 */
export function inReadingOrder(text: string, locale: ReportLocale): string {
  const first = STRONG_LETTER.exec(text)?.[0];
  if (first === undefined) return text;
  const rtl = RTL_LETTER.test(first);
  if (rtl === (locale === 'ar')) return text;
  const mark = rtl ? '\u200F' : '\u200E';
  return `${mark}${text}${mark}`;
}

/** The value series as a polyline inside the chart box (y grows downwards), and its range's labels. */
function chart(series: StatementFigures['performance']['series']) {
  if (series.length < 2) return null;
  const values = series.map((p) => p.value_micros);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const points = series.map((p, i) => [
    Math.round((i / (series.length - 1)) * CHART.width * 100) / 100,
    Math.round((CHART.height - ((p.value_micros - min) / span) * CHART.height) * 100) / 100,
  ]);
  return {
    ...CHART,
    points,
    min: formatMoney(min),
    max: formatMoney(max),
    from: series[0].date,
    to: series[series.length - 1].date,
  };
}

function percent(ratio: number | null, l: Labels): string {
  if (ratio === null) return l.not_available;
  const basisPoints = Math.round(ratio * 10_000);
  const sign = basisPoints < 0 ? '-' : '';
  const abs = Math.abs(basisPoints);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}%`;
}

function summary(f: StatementFigures, l: Labels) {
  const s = f.summary;
  return [
    [l.opening_value, formatMoney(s.opening_value_micros)],
    [l.deposits, formatMoney(s.deposits_micros)],
    [l.withdrawals, formatMoney(s.withdrawals_micros)],
    [l.dividends, formatMoney(s.dividends_micros)],
    [l.fees, formatMoney(s.fees_micros)],
    [l.taxes, formatMoney(s.taxes_micros)],
    [l.cash, formatMoney(s.cash_micros)],
    [l.closing_value, formatMoney(s.closing_value_micros)],
  ];
}

/** A fund's units and NAV with all six decimals, as the funds state them and svc prints them; a share's price at its
 * tick. */
function holdings(f: StatementFigures, locale: ReportLocale) {
  return f.holdings.map((h) => [
    h.symbol,
    locale === 'ar' ? h.name_ar : h.name,
    h.isin ?? '',
    h.kind === 'fund' ? formatUnits(h.qty) : String(h.qty),
    h.kind === 'fund' ? formatNav(h.price_micros) : formatPrice(h.price_micros),
    formatMoney(h.value_micros),
    formatMoney(h.cost_micros),
    formatMoney(h.unrealized_micros),
  ]);
}

/**
 * Each fill's charges split as the Summary splits them, under the same labels: fees and commissions
 * (brokerage, EGX, MCDR, IPF, FRA) and taxes (stamp duty); the totals line sums each column.
 */
function trades(f: StatementFigures, l: Labels) {
  let totalFees = 0;
  let totalTaxes = 0;
  const rows = f.trades.map((t) => {
    const fees = t.commission_micros + t.egx_micros + t.mcdr_micros + t.ipf_micros + t.fra_micros;
    totalFees += fees;
    totalTaxes += t.stamp_duty_micros;
    return [
      t.trade_date,
      t.symbol,
      t.side === 'buy' ? l.buy : l.sell,
      String(t.qty),
      formatPrice(t.price_micros),
      formatMoney(t.value_micros),
      formatMoney(fees),
      formatMoney(t.stamp_duty_micros),
      formatMoney(t.net_micros),
      t.settlement_date,
    ];
  });
  return { rows, total_fees: formatMoney(totalFees), total_taxes: formatMoney(totalTaxes) };
}

function section(kind: ReportSection, input: StatementInput, l: Labels) {
  const f = input.figures;
  switch (kind) {
    case 'summary':
      return { kind, rows: summary(f, l) };
    case 'performance':
      return { kind, twr: percent(f.performance.twr_pct, l), chart: chart(f.performance.series) };
    case 'holdings':
      return { kind, rows: holdings(f, input.locale) };
    case 'trades':
      return { kind, ...trades(f, l) };
  }
}

export function statementDocument(input: StatementInput) {
  const l = labelsFor(input.locale);
  const b = input.branding;
  return {
    locale: input.locale,
    labels: l,
    brand: {
      name: inReadingOrder(b.display_name, input.locale),
      primary: b.primary_color,
      accent: b.accent_color,
      font: b.font,
      footer: inReadingOrder(b.footer_text, input.locale),
      logo: b.logo !== null,
    },
    header: {
      investor: inReadingOrder(input.investor.full_name, input.locale),
      investor_id: input.investor.id,
      account: input.investor.account_number,
      broker: input.locale === 'ar' ? input.broker.name_ar : input.broker.name,
      licence: input.broker.fra_license_no,
      period_start: input.period.start,
      period_end: input.period.end,
      generated: input.generatedAt,
    },
    sections: input.sections.map((s) => section(s, input, l)),
    disclosures: [
      DISCLOSURES.investment_risk[input.locale],
      licenceLine(input.locale, input.broker),
      DISCLOSURES.sandbox[input.locale],
    ],
  };
}

export type StatementDocument = ReturnType<typeof statementDocument>;
