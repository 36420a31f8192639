// corp-action:process through the API: a declared cash dividend is paid at the approval, ahead of its
// pay date, to the holders its record rule fixes, once. A split: backoffice-corp-split.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { cash, creditShares, trader } from '../helpers/trading.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const propose = (params: Record<string, unknown>) =>
  t.req('POST', '/admin/actions', {
    as: 'security',
    body: { action: 'corp-action:process', params, reason: 'pay the COMI dividend early' },
  });
const approve = (id: string) => t.req('POST', `/admin/actions/${id}/approve`, { as: 'approver', body: {} });
const dividend = async (id: string) => (await t.req('GET', `/admin/sandbox/dividends/${id}`)).body;
const declare = async () => {
  const d = await t.req('POST', '/admin/sandbox/declare-dividend', {
    body: { symbol: 'COMI', amount_per_share_micros: 1_500_005, ex_date: '2026-11-24', pay_date: '2026-11-26' },
  });
  expect(d.status).toBe(201);
  return d.body.dividend_id as string;
};

describe('corp-action:process, kind dividend', () => {
  it('pays a recorded dividend at the approval, net of withholding, and the pay date pays nothing more', async () => {
    const holder = await trader(t, 0);
    creditShares(t, holder, 'COMI', 100);
    const id = await declare();
    await advance(t, { until: '2026-11-24T10:00:00+02:00' });
    expect((await dividend(id)).state).toBe('recorded');
    const p = await propose({ kind: 'dividend', dividend_id: id });
    const a = await approve(p.body.action_id);
    expect(a.status).toBe(200);
    // 100 x 1.500005 = 150.0005 EGP gross, 10% withheld half up: 15.00005 -> 15.000050
    expect(a.body.result).toMatchObject({
      kind: 'dividend',
      dividend_id: id,
      state: 'paid',
      holders_paid: 1,
      holders_failed: 0,
      net_paid_micros: 135_000_450,
    });
    expect(cash(t, holder).settled).toBe(135_000_450);
    expect(await dividend(id)).toMatchObject({ state: 'paid', paid_at: '2026-11-24T10:00:00+02:00' });
    const acts = (await t.req('GET', `/v1/investors/${holder}/activities`)).body.activities.map(
      (x: { activity_type: string; net_amount_micros: number }) => [x.activity_type, x.net_amount_micros],
    );
    expect(acts).toEqual([
      ['TAX', -15_000_050],
      ['DIV', 150_000_500],
    ]);
    await advance(t, { until: '2026-11-26T12:00:00+02:00' });
    expect(cash(t, holder).settled).toBe(135_000_450);
    expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
  });

  it('before the ex-date, for a paid dividend, or an unknown one: 422 ACTION_NOT_EXECUTABLE and nothing is paid', async () => {
    const holder = await trader(t, 0);
    creditShares(t, holder, 'COMI', 10);
    const id = await declare();
    const early = await approve((await propose({ kind: 'dividend', dividend_id: id })).body.action_id);
    expect([early.status, early.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    expect(early.body.error.message).toContain('has not begun');
    expect((await dividend(id)).state).toBe('declared');
    expect(cash(t, holder).settled).toBe(0);

    await advance(t, { until: '2026-11-26T12:00:00+02:00' });
    const paidAlready = await approve((await propose({ kind: 'dividend', dividend_id: id })).body.action_id);
    expect([paidAlready.status, paidAlready.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    const unknown = await approve((await propose({ kind: 'dividend', dividend_id: 'div_nope' })).body.action_id);
    expect([unknown.status, unknown.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    // the two refused after the pay date stay open (the early one has expired by then: 24 hours)
    expect((await t.req('GET', '/admin/actions?state=proposed')).body.actions).toHaveLength(2);
  });
});

describe('corp-action:process bad payloads', () => {
  it.each([
    ['kind', { dividend_id: 'div_x00' }],
    ['kind', { kind: 'merger', symbol: 'COMI' }],
    ['dividend_id', { kind: 'dividend' }],
    ['dividend_id', { kind: 'dividend', dividend_id: 'x; DROP' }],
    ['symbol', { kind: 'split', symbol: 'comi', ratio: 2 }],
    ['ratio', { kind: 'split', symbol: 'COMI', ratio: 1 }],
    ['ratio', { kind: 'split', symbol: 'COMI', ratio: 2.5 }],
    ['ratio', { kind: 'split', symbol: 'COMI' }],
    ['extra', { kind: 'dividend', dividend_id: 'div_x00', extra: 1 }],
  ])('a bad %s is 422 INVALID_ACTION_PARAMS naming it, and nothing is stored', async (field, params) => {
    const r = await propose(params);
    expect([r.status, r.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
    expect(r.body.error.message).toContain(field);
    expect((await t.req('GET', '/admin/actions')).body.actions).toEqual([]);
  });
});
