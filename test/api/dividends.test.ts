import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { cash, creditShares, EGP, order, trader } from '../helpers/trading.js';

// Sunday 2026-11-22 09:00 Cairo. The ex-date is Tuesday 24 November, the pay date Thursday 26.
let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const tenant = () => t.creds.tenant.tenant_id;
const at = (iso: string) => advance(t, { until: iso });
const declare = (body: Record<string, unknown>) => t.req('POST', '/admin/sandbox/declare-dividend', { body });
const dividend = async (id: string) => (await t.req('GET', `/admin/sandbox/dividends/${id}`)).body;
const count = (table: string) => (t.deps.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const expectInvariants = () => expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
const marketBuy = async (investor_id: string, symbol: string, qty: number) => {
  const res = await order(t, { investor_id, symbol, side: 'buy', type: 'market', qty });
  expect(res.body.status, res.text).toBe('filled');
  return res.body;
};
const setQuote = async (symbol: string, price: number) =>
  expect((await t.req('POST', '/admin/sandbox/quote', { body: { symbol, price_micros: price } })).status).toBe(200);

describe('Dividends: holders at the start of the ex-date are paid on the pay date, net of 10% withholding', () => {
  it('an unsettled buy before the ex-date is entitled, a sale before it is not, a buy on the ex-date is not; ledger postings and DIV + TAX activities', async () => {
    const buyer = await trader(t, 50_000);
    const holder = await trader(t, 0);
    const seller = await trader(t, 0);
    const late = await trader(t, 50_000);
    creditShares(t, holder, 'COMI', 1);
    creditShares(t, seller, 'COMI', 40);
    // 1.500005 EGP a share: the holder's 10% of 1,500,005 micros is 150,000.5, rounded half up
    const declared = await declare({
      symbol: 'COMI',
      amount_per_share_micros: 1_500_005,
      ex_date: '2026-11-24',
      pay_date: '2026-11-26',
    });
    expect(declared.status).toBe(201);
    expect(declared.body).toMatchObject({
      dividend_id: expect.stringMatching(/^div_/),
      symbol: 'COMI',
      state: 'declared',
      withholding_bps: 1000,
      record_at: '2026-11-24T00:00:00+02:00',
      pay_at: '2026-11-26T00:00:00+02:00',
      holders: 0,
      entitlements: [],
    });
    const id = declared.body.dividend_id;

    await at('2026-11-22T10:05:00+02:00');
    await setQuote('COMI', 85_000_000);
    await marketBuy(buyer, 'COMI', 100); // settles Tuesday 10:00, after the record instant
    await at('2026-11-23T10:05:00+02:00');
    const sold = await order(t, { investor_id: seller, symbol: 'COMI', side: 'sell', type: 'market', qty: 40 });
    expect(sold.body.status).toBe('filled');

    await at('2026-11-23T23:59:59+02:00');
    expect((await dividend(id)).state).toBe('declared');
    await at('2026-11-24T00:00:00+02:00');
    const recorded = await dividend(id);
    expect(recorded.state).toBe('recorded');
    expect(
      recorded.entitlements
        .map((e: any) => [e.investor_id, e.shares, e.gross_micros, e.tax_micros, e.net_micros, e.state])
        .sort(),
    ).toEqual(
      [
        [buyer, 100, 150_000_500, 15_000_050, 135_000_450, 'pending'],
        [holder, 1, 1_500_005, 150_001, 1_350_004, 'pending'],
      ].sort(),
    );
    await at('2026-11-24T10:05:00+02:00');
    await marketBuy(late, 'COMI', 10);

    const buyerCash = cash(t, buyer).settled;
    await at('2026-11-25T23:59:00+02:00');
    expect(cash(t, buyer).settled).toBe(buyerCash);
    await at('2026-11-26T00:00:00+02:00');
    const paid = await dividend(id);
    expect(paid).toMatchObject({
      state: 'paid',
      paid_at: '2026-11-26T00:00:00+02:00',
      holders: 2,
      gross_micros: 151_500_505,
      tax_micros: 15_150_051,
      net_micros: 136_350_454,
    });
    expect(paid.entitlements.every((e: any) => e.state === 'paid')).toBe(true);
    expect(cash(t, buyer).settled).toBe(buyerCash + 135_000_450);
    expect(cash(t, holder).settled).toBe(1_350_004);
    expect(
      t.deps.ledger
        .entries(tenant(), id)
        .filter((e) => e.debit_owner === buyer || e.credit_owner === buyer)
        .map((e) => [e.debit_owner, e.credit_owner, e.amount, e.kind]),
    ).toEqual([
      ['system:corporate_actions', buyer, 150_000_500, 'dividend'],
      [buyer, 'system:tax', 15_000_050, 'tax'],
    ]);
    const feed = (await t.req('GET', `/v1/investors/${buyer}/activities?limit=2`)).body.activities;
    expect(feed.map((a: any) => [a.activity_type, a.net_amount_micros, a.ref_type, a.ref_id, a.symbol, a.at])).toEqual([
      ['TAX', -15_000_050, 'dividend', id, 'COMI', '2026-11-26T00:00:00+02:00'],
      ['DIV', 150_000_500, 'dividend', id, 'COMI', '2026-11-26T00:00:00+02:00'],
    ]);
    expect(feed[1]).toMatchObject({ qty: 100, price_micros: 1_500_005 });
    for (const nobody of [seller, late]) {
      const types = (await t.req('GET', `/v1/investors/${nobody}/activities`)).body.activities.map(
        (a: any) => a.activity_type,
      );
      expect(types).not.toContain('DIV');
    }
    expectInvariants();
  });

  it('an ex-date of today is recorded at once as of the start of the day: a buy earlier today is not entitled', async () => {
    const early = await trader(t, 0);
    const today = await trader(t, 50_000);
    creditShares(t, early, 'SWDY', 10);
    await at('2026-11-23T10:05:00+02:00');
    await marketBuy(today, 'SWDY', 10);
    const res = await declare({
      symbol: 'SWDY',
      amount_per_share_micros: 2 * EGP,
      ex_date: '2026-11-23',
      pay_date: '2026-11-23',
    });
    expect(res.status).toBe(201);
    // the pay date has begun too: paid in the same request
    expect(res.body).toMatchObject({
      state: 'paid',
      holders: 1,
      gross_micros: 20 * EGP,
      tax_micros: 2 * EGP,
      net_micros: 18 * EGP,
    });
    expect(res.body.entitlements).toEqual([expect.objectContaining({ investor_id: early, shares: 10, state: 'paid' })]);
    expect(cash(t, early).settled).toBe(18 * EGP);
    expectInvariants();
  });

  it('a holding whose gross would pass 2^53 - 1 micros fails with AMOUNT_TOO_LARGE and moves nothing', async () => {
    const whale = await trader(t, 0);
    const small = await trader(t, 0);
    creditShares(t, whale, 'ETEL', 2 ** 40);
    creditShares(t, small, 'ETEL', 3);
    const res = await declare({
      symbol: 'ETEL',
      amount_per_share_micros: 2 ** 20,
      ex_date: '2026-11-23',
      pay_date: '2026-11-23',
    });
    await at('2026-11-23T00:00:00+02:00');
    const d = await dividend(res.body.dividend_id);
    expect(d.state).toBe('paid');
    const byInvestor = Object.fromEntries(d.entitlements.map((e: any) => [e.investor_id, e]));
    expect(byInvestor[whale]).toMatchObject({ state: 'failed', reason_code: 'AMOUNT_TOO_LARGE', gross_micros: null });
    expect(byInvestor[small]).toMatchObject({ state: 'paid', gross_micros: 3 * 2 ** 20 });
    expect(cash(t, whale).settled).toBe(0);
    expectInvariants();
  });
});

describe('declare-dividend bad input: a 4xx with a stable code and nothing changed', () => {
  it('unknown symbol, a bond, dates not real, an ex-date in the past, a pay date before the ex-date, amounts not positive integers', async () => {
    const ok = { symbol: 'COMI', amount_per_share_micros: EGP, ex_date: '2026-11-24', pay_date: '2026-11-26' };
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ['unknown symbol', { ...ok, symbol: 'NOPE' }, 404, 'UNKNOWN_SYMBOL'],
      ['a bond', { ...ok, symbol: 'EGTB28NOV' }, 422, 'VALIDATION_FAILED'],
      ['ex_date not a date', { ...ok, ex_date: 'tomorrow' }, 422, 'INVALID_DATE'],
      ['ex_date not a calendar date', { ...ok, ex_date: '2026-02-30' }, 422, 'INVALID_DATE'],
      ['pay_date not a calendar date', { ...ok, pay_date: '2026-13-01' }, 422, 'INVALID_DATE'],
      ['ex_date in the past', { ...ok, ex_date: '2026-11-21' }, 422, 'DATE_IN_PAST'],
      ['pay_date before ex_date', { ...ok, pay_date: '2026-11-23' }, 422, 'INVALID_RANGE'],
      ['amount zero', { ...ok, amount_per_share_micros: 0 }, 422, 'VALIDATION_FAILED'],
      ['amount fractional', { ...ok, amount_per_share_micros: 0.5 }, 422, 'VALIDATION_FAILED'],
      ['amount 2^53', { ...ok, amount_per_share_micros: 2 ** 53 }, 422, 'AMOUNT_TOO_LARGE'],
      [
        'missing pay_date',
        { symbol: 'COMI', amount_per_share_micros: EGP, ex_date: '2026-11-24' },
        422,
        'VALIDATION_FAILED',
      ],
      ['unknown field', { ...ok, record_date: '2026-11-26' }, 422, 'VALIDATION_FAILED'],
    ];
    for (const [what, body, status, code] of cases) {
      const before = [count('dividends'), count('events'), count('ledger_entries')];
      const res = await declare(body);
      expect({ what, status: res.status, code: res.body.error?.code }).toEqual({ what, status, code });
      expect([count('dividends'), count('events'), count('ledger_entries')], what).toEqual(before);
    }
    const tenantCall = await t.req('POST', '/admin/sandbox/declare-dividend', { body: ok, as: 'tenant' });
    expect(tenantCall.status).toBe(401);
    expect((await t.req('GET', '/admin/sandbox/dividends/div_unknown')).body.error.code).toBe('NOT_FOUND');
  });
});
