// fee-schedule:update through the API: proposed by security, approved by the approver, it changes the
// fees of fills booked after the approval; a contract note of a fill booked before never changes, and
// the dealer desk's reference shows the schedule in force.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { EGP, order, trader } from '../helpers/trading.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const propose = (params: Record<string, unknown>) =>
  t.req('POST', '/admin/actions', {
    as: 'security',
    body: { action: 'fee-schedule:update', params, reason: 'new broker tariff' },
  });
const approve = (id: string) => t.req('POST', `/admin/actions/${id}/approve`, { as: 'approver', body: {} });
const setQuote = async (symbol: string, price: number) => {
  expect((await t.req('POST', '/admin/sandbox/quote', { body: { symbol, price_micros: price } })).status).toBe(200);
};
const note = async (orderId: string) => (await t.req('GET', `/v1/orders/${orderId}/contract-note`)).body;
const lineOf = (lines: Array<{ line: string }>, name: string) => lines.find((l) => l.line === name);

describe('fee-schedule:update', () => {
  it('an approved schedule charges the next fill at the new rates and leaves the earlier contract note as it was', async () => {
    const inv = await trader(t, 100_000);
    await advance(t, { until: '2026-11-22T10:05:00+02:00' });
    await setQuote('COMI', 85_000_000);
    const first = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 100 });
    expect(first.body.status).toBe('filled');
    const before = await note(first.body.order_id);
    expect(before.fees.commission_micros).toBe(8_500_000);

    // commission 20 bp (min 7 EGP), stamp duty 5 bp; the other lines keep their rates
    const p = await propose({
      commission_rate_bps_x10: 200,
      commission_min_micros: 7 * EGP,
      stamp_duty_rate_bps_x10: 50,
    });
    expect(p.status).toBe(201);
    const a = await approve(p.body.action_id);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ state: 'approved', result: { fee_schedule_version: 1 } });

    const second = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 100 });
    expect(second.body.status).toBe('filled');
    const after = await note(second.body.order_id);
    // gross 8,500: commission 17.00, EGX/MCDR 0.85, IPF/FRA 0.425, stamp duty 4.25
    expect(after.fees).toEqual({
      commission_micros: 17_000_000,
      egx_micros: 850_000,
      mcdr_micros: 850_000,
      ipf_micros: 425_000,
      fra_micros: 425_000,
      total_micros: 19_550_000,
    });
    expect(after.withholding.stamp_duty_micros).toBe(4_250_000);
    expect(await note(first.body.order_id)).toEqual(before);

    const small = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 2 });
    expect((await note(small.body.order_id)).fees.commission_micros).toBe(7 * EGP);
    expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
  });

  it('GET /broker/v1/reference/fees shows the schedule in force, before and after the approval', async () => {
    const ref = async () => (await t.req('GET', '/broker/v1/reference/fees', { as: 'dealer' })).body.lines;
    expect(lineOf(await ref(), 'egx')).toMatchObject({ rate_bps_x10: 10, max_micros: 5_000_000_000 });
    const p = await propose({ egx_rate_bps_x10: 15, egx_cap_micros: 4_000 * EGP });
    expect(lineOf(await ref(), 'egx')).toMatchObject({ rate_bps_x10: 10 });
    await approve(p.body.action_id);
    expect(lineOf(await ref(), 'egx')).toMatchObject({ rate_bps_x10: 15, rate: '0.00015', max_micros: 4_000 * EGP });
    expect(lineOf(await ref(), 'commission')).toMatchObject({ rate_bps_x10: 100, min_micros: 5 * EGP });
  });

  it('a rejected or still-open proposal changes no fee', async () => {
    const p = await propose({ commission_rate_bps_x10: 500 });
    await t.req('POST', `/admin/actions/${p.body.action_id}/reject`, { as: 'approver', body: { reason: 'too high' } });
    await propose({ commission_rate_bps_x10: 400 });
    const lines = (await t.req('GET', '/broker/v1/reference/fees', { as: 'dealer' })).body.lines;
    expect(lineOf(lines, 'commission')).toMatchObject({ rate_bps_x10: 100 });
    expect(t.deps.db.prepare('SELECT COUNT(*) AS n FROM fee_schedules').get()).toEqual({ n: 0 });
  });

  it.each([
    ['commission_rate_bps_x10', { commission_rate_bps_x10: -1 }],
    ['commission_rate_bps_x10', { commission_rate_bps_x10: 12.5 }],
    ['commission_min_micros', { commission_min_micros: '5000000' }],
    ['egx_rate_bps_x10', { egx_rate_bps_x10: 10_001 }],
    ['egx_cap_micros', { egx_cap_micros: 0 }],
    ['mcdr_rate_bps_x10', { mcdr_rate_bps_x10: null }],
    ['ipf_rate_bps_x10', { ipf_rate_bps_x10: -5 }],
    ['fra_rate_bps_x10', { fra_rate_bps_x10: 1e9 }],
    ['stamp_duty_rate_bps_x10', { stamp_duty_rate_bps_x10: 'x' }],
    ['surprise', { surprise: 1 }],
    ['(root)', {}],
  ])('a bad %s is 422 INVALID_ACTION_PARAMS naming it, and nothing is stored', async (field, params) => {
    const r = await propose(params);
    expect([r.status, r.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
    expect(r.body.error.message).toContain(field);
    expect((await t.req('GET', '/admin/actions')).body.actions).toEqual([]);
  });
});
