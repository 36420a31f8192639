// What a person reads in a client statement (docs/reports.md, "The document"), checked on the real PDF's
// text layer with poppler's pdftotext: an investor with a deposit, a withdrawal, buys and a sell (so
// fees), a fund subscription and a dividend; the English statement's first page, holdings, trades,
// fee lines, disclosures and page numbers; the Arabic statement's instrument names in logical order,
// its ISINs intact and its disclosures; the same requests on two fresh apps giving the same bytes; and
// a statement of 500 trades whose table repeats its header on the pages after the first.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { onboardInvestor } from '../helpers/onboarding.js';
import { creditCash, EGP, order, trader } from '../helpers/trading.js';
import { imagePages, makePng, pdfOf, pdfPages, pdfText, readyReport, squash, today } from '../helpers/reports.js';
import { formatMoney, formatNav, formatPrice, formatUnits } from '../../daemon/contract/money.js';
import { DISCLOSURES, licenceLine } from '../../daemon/contract/disclosures.js';

interface World {
  t: TestApp;
  inv: string;
  dividendId: string;
}

/** Bidi controls pdftotext adds around right-to-left runs, and the direction marks of free text. */
const unmarked = (s: string) => s.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
/**
 * Letters and digits only, in the order they come: pdftotext rebuilds right-to-left lines from glyph
 * positions, so it may put a space inside a word where Amiri kerns a ligature, or a comma before the
 * space rather than after; the letters themselves must still come back in logical (typed) order.
 */
const letters = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const expectFilled = (res: { body: any; text: string }) => expect(res.body.status, res.text).toBe('filled');
const expectOk = (res: { status: number; text: string }, status = 201) => expect(res.status, res.text).toBe(status);

/** The investor of these tests, built through the real routes on the sandbox clock (Sunday 22 November 2026, 09:00). */
async function buildWorld(): Promise<World> {
  const t = await makeApp();
  const { investorId: inv } = await onboardInvestor(t, { fullName: 'Youssef Tarek Nabil' });
  const deposit = await t.req('POST', '/v1/transfers', {
    body: { investor_id: inv, direction: 'deposit', amount_micros: 60_000 * EGP },
  });
  expectOk(deposit);
  await advance(t, { until: 'next_open' });
  for (const [symbol, qty] of [
    ['COMI', 100],
    ['ETEL', 200],
    ['HRHO', 50],
  ] as const) {
    expectFilled(await order(t, { investor_id: inv, symbol, side: 'buy', type: 'market', qty }));
  }
  expectOk(
    await t.req('POST', '/v1/fund-orders', {
      body: { investor_id: inv, fund_code: 'UBRKH', side: 'subscribe', amount_micros: 10_000 * EGP },
    }),
  );
  const declared = await t.req('POST', '/admin/sandbox/declare-dividend', {
    body: { symbol: 'COMI', amount_per_share_micros: 1_500_000, ex_date: '2026-11-24', pay_date: '2026-11-26' },
  });
  expectOk(declared);
  await advance(t, { until: '2026-11-24T10:05:00+02:00' });
  expectFilled(await order(t, { investor_id: inv, symbol: 'ETEL', side: 'sell', type: 'market', qty: 80 }));
  expectFilled(await order(t, { investor_id: inv, symbol: 'TMGH', side: 'buy', type: 'market', qty: 150 }));
  expectOk(
    await t.req('POST', '/v1/transfers', {
      body: { investor_id: inv, direction: 'withdrawal', amount_micros: 5_000 * EGP },
    }),
  );
  // after Thursday's close: the figures as of today are the close, as the portfolio answers them later
  await advance(t, { until: '2026-11-26T15:00:00+02:00' });
  return { t, inv, dividendId: declared.body.dividend_id };
}

let w: World;
let en: { pdf: Buffer; text: string };
let ar: { pdf: Buffer; text: string; raw: string };
const period = () => ({ period_start: '2026-11-01', period_end: today(w.t) });

beforeAll(async () => {
  w = await buildWorld();
  const report = await readyReport(w.t, { investor_id: w.inv, ...period(), locale: 'en' });
  const pdf = await pdfOf(w.t, report.report_id);
  en = { pdf, text: pdfText(pdf) };
  const arReport = await readyReport(w.t, { investor_id: w.inv, ...period(), locale: 'ar' });
  const arPdf = await pdfOf(w.t, arReport.report_id);
  const raw = pdfText(arPdf, { layout: false });
  ar = { pdf: arPdf, raw, text: unmarked(raw) };
}, 120_000);
afterAll(() => w.t.close());

describe("First page: the investor's name, id and account number; the broker of record with its FRA licence number; the period", () => {
  it('the English statement names Youssef Tarek Nabil, his account number and id, the broker and its licence, and the period', async () => {
    const investor = w.t.deps.db.prepare('SELECT account_number FROM investors WHERE id = ?').get(w.inv) as {
      account_number: string;
    };
    expect(investor.account_number).toMatch(/^[A-Z]+-\d+$/);
    const broker = w.t.deps.db
      .prepare('SELECT name, fra_license_no FROM brokers WHERE id = ?')
      .get(w.t.creds.broker_id) as { name: string; fra_license_no: string };
    expect(en.text).toMatch(/Investor\s+Youssef Tarek Nabil/);
    expect(en.text).toMatch(new RegExp(`Account\\s+${investor.account_number}`));
    expect(en.text).toMatch(new RegExp(`Broker of record\\s+${broker.name.replace(/[()]/g, '\\$&')}`));
    expect(en.text).toMatch(new RegExp(`FRA licence\\s+${broker.fra_license_no}`));
    expect(en.text).toMatch(new RegExp(`Period\\s+2026-11-01 to ${today(w.t)}`));
  });
});

describe("Every page: the tenant's display name in the header; without branding, the tenant's name", () => {
  it('a sandbox that never set its branding heads every page with its tenant\'s name in words, never "default"', async () => {
    const branding = (await w.t.req('GET', '/v1/branding')).body;
    expect(branding.display_name).toBe('Sandbox Fintech');
    const pages = en.text.split('\f').filter((p) => p.trim() !== '');
    for (const p of pages) expect(p.split('\n')[0]).toMatch(/^\s*Sandbox Fintech\s+Client statement\s*$/);
    expect(en.text).not.toMatch(/\bdefault\b/);
  });
});

describe('Holdings: every position as of period_end with quantity, price and value, money with thousands separators from integer micros', () => {
  it('each position of GET /v1/investors/{id}/portfolio appears with its symbol, quantity and value as formatMoney prints it', async () => {
    const portfolio = (await w.t.req('GET', `/v1/investors/${w.inv}/portfolio`)).body;
    const held = portfolio.positions.filter((p: any) => p.symbol !== 'EGP');
    expect(held.map((p: any) => p.symbol)).toEqual(['COMI', 'ETEL', 'HRHO', 'TMGH', 'UBRKH']);
    for (const p of held) {
      const line = en.text.split('\n').find((l) => l.trimStart().startsWith(`${p.symbol} `));
      expect(line, p.symbol).toBeDefined();
      expect(line).toContain(` ${formatMoney(p.value_micros)} `);
      const qty = p.kind === 'fund' ? formatUnits(p.qty) : String(p.qty);
      const price = p.kind === 'fund' ? formatNav(p.price_micros) : formatPrice(p.price_micros);
      expect(line).toMatch(new RegExp(`\\s${qty}\\s+${price}\\s`));
    }
    expect(en.text).toContain(formatMoney(portfolio.total_value_micros));
    expect(formatMoney(portfolio.total_value_micros)).toMatch(/^\d{1,3}(,\d{3})+\.\d\d$/);
  });
});

describe("A fund's price in Holdings is its NAV as the funds state it, six decimals, as svc shows it", () => {
  it('UBRKH is priced at its NAV with six decimals, never rounded to the cent, in English and Arabic', async () => {
    const portfolio = (await w.t.req('GET', `/v1/investors/${w.inv}/portfolio`)).body;
    const fund = portfolio.positions.find((p: any) => p.symbol === 'UBRKH');
    expect(formatNav(fund.price_micros)).toMatch(/^\d+\.\d{6}$/);
    const line = en.text.split('\n').find((l) => l.trimStart().startsWith('UBRKH '));
    expect(line).toMatch(new RegExp(`\\s${formatUnits(fund.qty)}\\s+${formatNav(fund.price_micros)}\\s`));
    expect(ar.text).toContain(formatNav(fund.price_micros));
  });
});

describe('Trades: every fill in the period with its price, gross, each fee line and its settlement date', () => {
  it('each fill is a row: trade date, symbol, side, quantity, price, value, fees and commissions, taxes, net and settlement date; each adds up to the total shown', () => {
    const fills = w.t.deps.db.prepare('SELECT * FROM fills WHERE investor_id = ? ORDER BY seq').all(w.inv) as any[];
    expect(fills.map((f) => `${f.side} ${f.symbol}`)).toEqual([
      'buy COMI',
      'buy ETEL',
      'buy HRHO',
      'sell ETEL',
      'buy TMGH',
    ]);
    let totalFees = 0;
    let totalTaxes = 0;
    for (const f of fills) {
      const fees = f.commission_micros + f.egx_micros + f.mcdr_micros + f.ipf_micros + f.fra_micros;
      totalFees += fees;
      totalTaxes += f.stamp_duty_micros;
      const cells = [
        f.trade_date,
        f.symbol,
        f.side === 'buy' ? 'Buy' : 'Sell',
        f.qty,
        formatPrice(f.price_micros),
        formatMoney(f.value_micros),
        formatMoney(fees),
        formatMoney(f.stamp_duty_micros),
        formatMoney(f.net_micros),
        f.settlement_date,
      ];
      expect(en.text).toMatch(new RegExp(cells.map(String).join('\\s+')));
    }
    expect(squash(en.text)).toContain(
      `Totals on these trades: Fees and commissions ${formatMoney(totalFees)} Taxes ${formatMoney(totalTaxes)}`,
    );
  });

  it('the same money has the same name everywhere: the Trades columns and their totals say "Fees and commissions" and "Taxes" like the Summary, and with only trades in the period they match it', () => {
    const flat = squash(en.text);
    const trades = flat.slice(flat.indexOf('Trades Trade date'));
    expect(trades).toMatch(
      /^Trades Trade date Symbol Side Quantity Price Value Fees and commissions Taxes Net Settles /,
    );
    expect(flat).not.toMatch(/Total fees/);
    const summaryFees = /Fees and commissions ([\d,.]+) Taxes ([\d,.]+)/.exec(flat.slice(flat.indexOf('Summary')))!;
    const totals = /Totals on these trades: Fees and commissions ([\d,.]+) Taxes ([\d,.]+)/.exec(trades)!;
    // no fee or tax outside the trades but the dividend's withholding: the fees agree to the cent
    expect(totals[1]).toBe(summaryFees[1]);
  });

  it("the summary's fees and commissions are every fill's charges, a sell's included (taken out of its proceeds); its taxes the stamp duty and the dividend's withholding", async () => {
    const fills = w.t.deps.db.prepare('SELECT * FROM fills WHERE investor_id = ? ORDER BY seq').all(w.inv) as any[];
    const fees = fills.reduce(
      (a, f) => a + f.commission_micros + f.egx_micros + f.mcdr_micros + f.ipf_micros + f.fra_micros,
      0,
    );
    const stamp = fills.reduce((a, f) => a + f.stamp_duty_micros, 0);
    const dividend = (await w.t.req('GET', `/admin/sandbox/dividends/${w.dividendId}`)).body.entitlements.find(
      (e: any) => e.investor_id === w.inv,
    );
    expect(en.text).toMatch(new RegExp(`Fees and commissions\\s+${formatMoney(fees)}\\n`));
    expect(en.text).toMatch(new RegExp(`Taxes\\s+${formatMoney(stamp + dividend.tax_micros)}\\n`));
    expect(fills.some((f) => f.side === 'sell' && f.commission_micros > 0)).toBe(true);
  });
});

describe('Summary: opening and closing value, deposits, withdrawals, dividends and fees booked in the period', () => {
  it('deposits 60,000.00, withdrawals 5,000.00, the dividend gross (its withholding is a tax), an opening value of 0.00 and the closing value of the portfolio', async () => {
    expect(en.text).toMatch(/Opening value\s+0\.00\n/);
    expect(en.text).toMatch(/Deposits\s+60,000\.00\n/);
    expect(en.text).toMatch(/Withdrawals\s+5,000\.00\n/);
    const dividend = (await w.t.req('GET', `/admin/sandbox/dividends/${w.dividendId}`)).body;
    const mine = dividend.entitlements.find((e: any) => e.investor_id === w.inv);
    expect(mine.gross_micros).toBeGreaterThan(0);
    expect(en.text).toMatch(new RegExp(`Dividends\\s+${formatMoney(mine.gross_micros)}\\n`));
    const portfolio = (await w.t.req('GET', `/v1/investors/${w.inv}/portfolio`)).body;
    expect(en.text).toMatch(new RegExp(`Closing value\\s+${formatMoney(portfolio.total_value_micros)}\\n`));
  });
});

describe('Disclosures: always last, the canonical texts; "page X of Y" in the footer', () => {
  it('the English disclosures follow every section, word for word, and each page says Page X of N', () => {
    const flat = squash(en.text);
    const broker = w.t.deps.db
      .prepare('SELECT name, name_ar, fra_license_no FROM brokers WHERE id = ?')
      .get(w.t.creds.broker_id) as any;
    for (const text of [DISCLOSURES.investment_risk.en, licenceLine('en', broker), DISCLOSURES.sandbox.en]) {
      expect(flat).toContain(text);
      expect(flat.indexOf(text)).toBeGreaterThan(flat.indexOf('Trades Trade date'));
    }
    const n = pdfPages(en.pdf);
    for (let i = 1; i <= n; i++) expect(en.text).toContain(`Page ${i} of ${n}`);
  });
});

describe('locale ar: Arabic instrument names from name_ar in logical order, numbers, ISINs and symbols in reading order, the Arabic disclosures', () => {
  it("the text layer holds each held instrument's name_ar as typed and its ISIN intact", async () => {
    const list: any[] = (await w.t.req('GET', '/v1/instruments')).body.instruments;
    for (const symbol of ['COMI', 'ETEL', 'HRHO', 'TMGH']) {
      const inst = list.find((i) => i.symbol === symbol);
      expect(inst, symbol).toBeDefined();
      expect(letters(ar.text)).toContain(letters(inst.name_ar));
      expect(letters(ar.text)).not.toContain(letters([...inst.name_ar].reverse().join('')));
      expect(ar.text).toContain(inst.isin);
      expect(ar.text).toMatch(new RegExp(`(^|\\s)${symbol}(\\s|$)`, 'm'));
    }
    expect(letters(ar.text)).toContain(letters('كشف حساب العميل'));
    expect(ar.text).toContain('Youssef Tarek Nabil');
  });

  it('the Arabic disclosures are in the text word for word, and the footer says صفحة X من N', () => {
    const flat = letters(ar.text);
    const broker = w.t.deps.db
      .prepare('SELECT name, name_ar, fra_license_no FROM brokers WHERE id = ?')
      .get(w.t.creds.broker_id) as any;
    for (const text of [DISCLOSURES.investment_risk.ar, licenceLine('ar', broker), DISCLOSURES.sandbox.ar])
      expect(flat).toContain(letters(text));
    const n = pdfPages(ar.pdf);
    expect(ar.text).toMatch(new RegExp(`صفحة\\s*1\\s*من\\s*${n}`));
  });
});

describe('The same seed and the same requests give the same PDF bytes, so the same sha256', () => {
  it('two fresh apps given the same requests answer statements with the same sha256, in English and Arabic', async () => {
    const a = await buildWorld();
    const b = await buildWorld();
    try {
      expect(b.inv).toBe(a.inv);
      for (const locale of ['en', 'ar']) {
        const body = { investor_id: a.inv, period_start: '2026-11-01', period_end: '2026-11-26', locale };
        const [ra, rb] = [await readyReport(a.t, body), await readyReport(b.t, body)];
        expect(rb.sha256).toBe(ra.sha256);
        expect(rb.bytes).toBe(ra.bytes);
        expect(sha256(await pdfOf(b.t, rb.report_id))).toBe(ra.sha256);
      }
    } finally {
      await a.t.close();
      await b.t.close();
    }
  });
});

describe("A statement of 500 trades still renders, and a table that breaks across pages repeats its header; the tenant's name, logo and footer are on every page", () => {
  it('500 fills: the report is ready, every fill is a row, the trades header is on every page the table reaches, and every page carries the brand and page X of N', async () => {
    const t = await makeApp();
    try {
      expect(
        (
          await t.req('PUT', '/v1/branding', {
            body: { display_name: 'Karnak Securities', footer_text: 'Karnak Securities, Luxor. Member of the EGX.' },
          })
        ).status,
      ).toBe(200);
      const logo = makePng(120, 48, (x) => (x < 60 ? [200, 16, 46] : [31, 58, 95]));
      expect((await t.req('PUT', '/v1/branding/logo', { raw: logo, contentType: 'image/png' })).status).toBe(200);
      const inv = await trader(t, 0);
      creditCash(t, inv, 200_000 * EGP);
      await advance(t, { until: 'next_open' });
      const started = Date.now();
      for (let i = 0; i < 500; i++) {
        const res = await order(t, {
          investor_id: inv,
          symbol: i % 2 ? 'ETEL' : 'COMI',
          side: 'buy',
          type: 'market',
          qty: 1 + (i % 7),
        });
        expect(res.body.status).toBe('filled');
      }
      expect(Date.now() - started).toBeLessThan(60_000);
      const report = await readyReport(t, {
        investor_id: inv,
        period_start: '2026-11-01',
        period_end: today(t),
        sections: ['trades'],
      });
      const pdf = await pdfOf(t, report.report_id);
      const pages = pdfText(pdf)
        .split('\f')
        .filter((p) => p.trim() !== '');
      expect(pages.length).toBeGreaterThan(5);
      const header =
        /Trade date\s+Symbol\s+Side\s+Quantity\s+Price\s+Value\s+Fees and commissions\s+Taxes\s+Net\s+Settles/;
      const withRows = pages.filter((p) => /\d{4}-\d\d-\d\d\s+(COMI|ETEL)\s+Buy/.test(p));
      expect(withRows.length).toBeGreaterThan(5);
      for (const p of withRows) expect(p).toMatch(header);
      const rows = pages.join('\n').match(/^\s*\d{4}-\d\d-\d\d\s+(COMI|ETEL)\s+Buy\s/gm) ?? [];
      expect(rows).toHaveLength(500);
      // the tenant's name and footer on every page, its logo drawn on every page
      pages.forEach((p, i) => {
        expect(p).toContain('Karnak Securities');
        expect(p).toContain('Karnak Securities, Luxor. Member of the EGX.');
        expect(p).toContain(`Page ${i + 1} of ${pages.length}`);
      });
      expect(imagePages(pdf)).toEqual(pages.map((_, i) => i + 1));
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe('All data reaches the template as one JSON input, never spliced into markup, so a name with # or ] prints as written', () => {
  it('a tenant name and footer full of Typst markup characters print literally in the header and footer', async () => {
    const footer = '#set page(fill: red) ] [*not bold*] _x_ $y$ @ref <tag> // not a comment \\';
    const res = await w.t.req('PUT', '/v1/branding', {
      body: { display_name: 'Brokers #1 [Cairo] *', footer_text: footer },
    });
    expect(res.status, res.text).toBe(200);
    const report = await readyReport(w.t, { investor_id: w.inv, ...period(), sections: ['summary'] });
    const text = pdfText(await pdfOf(w.t, report.report_id));
    expect(text).toContain('Brokers #1 [Cairo] *');
    expect(squash(text)).toContain(squash(footer));
  });
});
