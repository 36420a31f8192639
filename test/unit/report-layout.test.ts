// How a statement's pages fall (docs/reports.md, "The document"): the disclosures are one block that
// is never split across pages, so the last page never holds only a line or two of them. Rendered with
// the real template and Typst (render.ts) from documents of 36 to 45 trades: with this template a
// trades table of 39 to 43 rows used to leave the disclosures' heading on one page and a few of
// their lines alone on the next.
import { describe, expect, it } from 'vitest';
import { statementDocument } from '../../daemon/reports/document.js';
import { renderStatement } from '../../daemon/reports/render.js';
import { DISCLOSURES, licenceLine } from '../../daemon/contract/disclosures.js';
import { pdfText, squash } from '../helpers/reports.js';
import type { StatementFigures, StatementFill } from '../../daemon/portfolio/statement.js';

const broker = {
  name: 'Nile Securities Brokerage (Sandbox)',
  name_ar: 'النيل لتداول الأوراق المالية (بيئة تجريبية)',
  fra_license_no: '417/2009',
};

function fill(i: number): StatementFill {
  return {
    fill_id: `fil_${i}`,
    order_id: `ord_${i}`,
    at: '2026-11-23T10:00:00+02:00',
    trade_date: '2026-11-23',
    symbol: 'COMI',
    side: 'buy',
    qty: 10,
    price_micros: 85_100_000,
    value_micros: 851_000_000,
    commission_micros: 1_000_000,
    egx_micros: 10,
    mcdr_micros: 10,
    ipf_micros: 10,
    fra_micros: 10,
    stamp_duty_micros: 500_000,
    net_micros: 852_500_040,
    settlement_date: '2026-11-25',
  };
}

function pagesOf(locale: 'en' | 'ar', trades: number): string[] {
  const figures: StatementFigures = {
    as_of_ms: 0,
    summary: {
      opening_value_micros: 0,
      closing_value_micros: 0,
      cash_micros: 0,
      deposits_micros: 0,
      withdrawals_micros: 0,
      dividends_micros: 0,
      fees_micros: 0,
      taxes_micros: 0,
    },
    performance: { twr_pct: null, series: [] },
    holdings: [],
    trades: Array.from({ length: trades }, (_, i) => fill(i)),
  };
  const document = statementDocument({
    locale,
    sections: ['trades'],
    period: { start: '2026-11-01', end: '2026-11-26' },
    generatedAt: '2026-11-26T15:00:00+02:00',
    investor: { id: 'inv_1', full_name: 'Youssef Tarek Nabil', account_number: 'NS-1' },
    broker,
    branding: {
      display_name: 'Nile Wealth',
      primary_color: '#1F3A5F',
      accent_color: '#C8102E',
      font: 'Noto Sans',
      footer_text: '',
      logo: null,
    },
    figures,
  });
  const pdf = renderStatement({ document, atMs: Date.UTC(2026, 10, 26, 13), logo: null });
  return pdfText(pdf, { layout: false })
    .split('\f')
    .filter((p) => p.trim() !== '')
    .map(squash);
}

describe('The disclosures are kept together: the last page never holds only a line or two of them', () => {
  for (const locale of ['en', 'ar'] as const) {
    it(`${locale}: from 36 to 45 trades, the page with the disclosures' heading holds every disclosure, and it is the last page`, () => {
      const heading = locale === 'en' ? 'Disclosures' : 'إفصاحات';
      const texts = [DISCLOSURES.investment_risk[locale], licenceLine(locale, broker), DISCLOSURES.sandbox[locale]];
      // pdftotext rebuilds right-to-left lines from glyph positions (spaces and punctuation may move):
      // compare letters and digits in their order
      const letters = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '');
      for (let n = 36; n <= 45; n++) {
        const pages = pagesOf(locale, n);
        const at = pages.findIndex((p) => p.includes(heading));
        expect(at, `${n} trades`).toBe(pages.length - 1);
        for (const t of texts) expect(letters(pages[at]), `${n} trades`).toContain(letters(t));
      }
    }, 120_000);
  }
});
