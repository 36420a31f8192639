import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { cash, EGP, position, trader } from '../helpers/trading.js';
import { seedInvestor } from '../helpers/investors.js';
import { navAfterDays, subscriptionAtNav } from '../../daemon/funds/nav.js';

// The sandbox starts Sunday 2026-11-22 09:00 Cairo, before the 12:00 cut-off: the NAV in force is the
// fixture NAV (the sweep of Saturday 21 November).
let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const UBRKH_NAV = 341_275_413;
const BMYBY_NAV = 10_000_000;
const at = (iso: string) => advance(t, { until: iso });
const subscribe = (
  investor_id: string,
  fund_code: string,
  amount_micros: unknown,
  opts: { idempotencyKey?: string } = {},
) => t.req('POST', '/v1/fund-orders', { body: { investor_id, fund_code, side: 'subscribe', amount_micros }, ...opts });
const redeem = (investor_id: string, fund_code: string, units_micros: unknown) =>
  t.req('POST', '/v1/fund-orders', { body: { investor_id, fund_code, side: 'redeem', units_micros } });
const count = (table: string) => (t.deps.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const idsUsed = () => (t.deps.db.prepare('SELECT SUM(next) AS n FROM id_seq').get() as { n: number }).n;
const expectInvariants = () => expect(t.deps.ledger.checkInvariants()).toEqual({ ok: true, violations: [] });
const activities = async (inv: string) => (await t.req('GET', `/v1/investors/${inv}/activities`)).body.activities;

describe('GET /v1/funds: the fund row with every field of the spec, at the current NAV', () => {
  it('lists nav_micros, indicative_yield_bps, cutoff_local, settlement_days, min_subscription_micros, shariah_compliant, logo_url, alphabetical', async () => {
    const res = await t.req('GET', '/v1/funds');
    expect(res.status).toBe(200);
    expect(res.body.ordering).toBe('alphabetical');
    expect(res.body.funds.map((f: any) => f.fund_code)).toEqual(['BMYBY', 'NILLQ', 'NILSK', 'UBRKH']);
    for (const f of res.body.funds) {
      for (const field of [
        'nav_micros',
        'indicative_yield_bps',
        'cutoff_local',
        'settlement_days',
        'min_subscription_micros',
        'shariah_compliant',
        'logo_url',
      ]) {
        expect(f, `${f.fund_code}.${field}`).toHaveProperty(field);
      }
      expect(f.cutoff_local).toBe('12:00');
      expect(f.settlement_days).toBe(0);
      expect(f.nav_date).toBe('2026-11-21');
    }
    expect(res.body.funds.find((f: any) => f.fund_code === 'UBRKH')).toMatchObject({
      nav_micros: UBRKH_NAV,
      shariah_compliant: true,
      indicative_yield_bps: 2300,
    });
    const shariah = await t.req('GET', '/v1/funds?shariah=true');
    expect(shariah.body.funds.map((f: any) => f.fund_code)).toEqual(['NILSK', 'UBRKH']);
    expect((await t.req('GET', '/v1/funds?shariah=maybe')).body.error.code).toBe('VALIDATION_FAILED');
  });

  it('the daily NAV sweep runs at the 12:00 cut-off every calendar day, weekends included, and compounds', async () => {
    const navOf = async (code: string) =>
      (await t.req('GET', '/v1/funds')).body.funds.find((f: any) => f.fund_code === code);
    await at('2026-11-22T11:59:59+02:00');
    expect(await navOf('BMYBY')).toMatchObject({ nav_micros: BMYBY_NAV, nav_date: '2026-11-21' });
    await at('2026-11-22T12:00:00+02:00');
    // 10.000000 x 24.50% / 365 = 6,712.33 micros: rounded half up
    expect(await navOf('BMYBY')).toMatchObject({ nav_micros: 10_006_712, nav_date: '2026-11-22' });
    // Friday 27 and Saturday 28 November are swept too: 6 more sweeps by Saturday noon
    await at('2026-11-28T12:00:00+02:00');
    expect(await navOf('BMYBY')).toMatchObject({
      nav_micros: navAfterDays(BMYBY_NAV, 2450, 7),
      nav_date: '2026-11-28',
    });
  });
});

describe('POST /v1/fund-orders: subscriptions and redemptions execute immediately at the current NAV with no approval wait', () => {
  it('a subscription of EGP 10,000 into UBRKH buys 29,301,847 unit-micros, is charged 9,999,999,937 micros and settles at once', async () => {
    const inv = await trader(t, 20_000);
    const res = await subscribe(inv, 'UBRKH', 10_000 * EGP);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      fund_order_id: expect.stringMatching(/^fo_/),
      investor_id: inv,
      fund_code: 'UBRKH',
      side: 'subscribe',
      amount_micros: 10_000 * EGP,
      units_micros: null,
      state: 'settled',
      nav_micros: UBRKH_NAV,
      nav_date: '2026-11-21',
      result_units_micros: 29_301_847,
      result_amount_micros: 9_999_999_937,
      reason_code: null,
      first_accrual_date: '2026-11-22',
      created_at: '2026-11-22T09:00:00+02:00',
      processed_at: '2026-11-22T09:00:00+02:00',
      settled_at: '2026-11-22T09:00:00+02:00',
    });
    // the remainder (63 micros, less than one unit-micro's value) stays cash
    expect(cash(t, inv)).toEqual({ settled: 20_000 * EGP - 9_999_999_937, reserved: 0, unsettled: 0 });
    expect(position(t, inv, 'fund:UBRKH')).toEqual({ settled: 29_301_847, reserved: 0, unsettled: 0 });
    expect((await t.req('GET', `/v1/fund-orders/${res.body.fund_order_id}`)).body).toEqual(res.body);
    const entries = t.deps.ledger.entries(t.creds.tenant.tenant_id, res.body.fund_order_id);
    expect(entries.map((e) => [e.debit_owner, e.credit_owner, e.asset, e.amount, e.kind])).toEqual([
      [inv, 'system:fund', 'cash:EGP', 9_999_999_937, 'subscription'],
      ['system:fund', inv, 'fund:UBRKH', 29_301_847, 'subscription'],
    ]);
    const [sub] = await activities(inv);
    expect(sub).toMatchObject({
      activity_type: 'SUB',
      net_amount_micros: -9_999_999_937,
      ref_type: 'fund_order',
      ref_id: res.body.fund_order_id,
      symbol: 'UBRKH',
      price_micros: UBRKH_NAV,
    });
    expectInvariants();
  });

  it("a redemption pays the units' value rounded down and moves the units back to the fund", async () => {
    const inv = await trader(t, 20_000);
    await subscribe(inv, 'UBRKH', 10_000 * EGP);
    const res = await redeem(inv, 'UBRKH', 29_301_847);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      side: 'redeem',
      amount_micros: null,
      units_micros: 29_301_847,
      state: 'settled',
      nav_micros: UBRKH_NAV,
      result_units_micros: 29_301_847,
      result_amount_micros: 9_999_999_936,
      first_accrual_date: null,
    });
    // a round trip never creates money: one micro less than was charged
    expect(cash(t, inv).settled).toBe(20_000 * EGP - 1);
    expect(position(t, inv, 'fund:UBRKH')).toEqual({ settled: 0, reserved: 0, unsettled: 0 });
    const [red] = await activities(inv);
    expect(red).toMatchObject({
      activity_type: 'RED',
      net_amount_micros: 9_999_999_936,
      ref_type: 'fund_order',
      symbol: 'UBRKH',
    });
    expectInvariants();
  });

  it('accrual eligibility follows the daily NAV sweep: units executed before the cut-off earn that day, after it from the next day', async () => {
    const early = await trader(t, 20_000);
    const late = await trader(t, 20_000);
    const amount = 10_000 * EGP;
    await at('2026-11-22T11:00:00+02:00');
    const a = (await subscribe(early, 'BMYBY', amount)).body;
    expect(a).toMatchObject({ nav_micros: BMYBY_NAV, nav_date: '2026-11-21', first_accrual_date: '2026-11-22' });
    await at('2026-11-22T12:30:00+02:00');
    const sundayNav = navAfterDays(BMYBY_NAV, 2450, 1);
    const b = (await subscribe(late, 'BMYBY', amount)).body;
    expect(b).toMatchObject({ nav_micros: sundayNav, nav_date: '2026-11-22', first_accrual_date: '2026-11-23' });
    // Monday 11:00, before Monday's sweep: both redeem at Sunday's NAV
    await at('2026-11-23T11:00:00+02:00');
    const ra = (await redeem(early, 'BMYBY', a.result_units_micros)).body;
    const rb = (await redeem(late, 'BMYBY', b.result_units_micros)).body;
    expect(ra.nav_micros).toBe(sundayNav);
    expect(rb.nav_micros).toBe(sundayNav);
    // one day of 24.50% / 365 on EGP 10,000 (to the rounding of units and NAV) ...
    expect(ra.result_amount_micros - a.result_amount_micros).toBe(
      Number((BigInt(a.result_units_micros) * BigInt(sundayNav)) / 1_000_000n) - a.result_amount_micros,
    );
    expect(ra.result_amount_micros - a.result_amount_micros).toBeGreaterThan(6_700_000);
    // ... and nothing for the units bought after the cut-off (at most the rounding, never a gain)
    expect(rb.result_amount_micros - b.result_amount_micros).toBeLessThanOrEqual(0);
    expectInvariants();
  });

  it('POST /admin/sandbox/nav sets the NAV after the current sweep from now on; later sweeps accrue from it', async () => {
    const set = await t.req('POST', '/admin/sandbox/nav', { body: { fund_code: 'NILSK', nav_micros: 2_000_000 } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ fund_code: 'NILSK', nav_micros: 2_000_000, nav_date: '2026-11-21' });
    const inv = await trader(t, 1_000);
    const sub = (await subscribe(inv, 'NILSK', 500 * EGP)).body;
    expect(sub).toMatchObject({
      nav_micros: 2_000_000,
      result_units_micros: subscriptionAtNav(500 * EGP, 2_000_000).unitsMicros,
    });
    await at('2026-11-22T12:00:00+02:00');
    const nilsk = (await t.req('GET', '/v1/funds')).body.funds.find((f: any) => f.fund_code === 'NILSK');
    expect(nilsk).toMatchObject({ nav_micros: navAfterDays(2_000_000, 2200, 1), nav_date: '2026-11-22' });
    expect(
      (await t.req('POST', '/admin/sandbox/nav', { body: { fund_code: 'NOPE', nav_micros: 1 } })).body.error.code,
    ).toBe('UNKNOWN_FUND');
    expect(
      (await t.req('POST', '/admin/sandbox/nav', { body: { fund_code: 'NILSK', nav_micros: 0 } })).body.error.code,
    ).toBe('VALIDATION_FAILED');
    expect(
      (await t.req('POST', '/admin/sandbox/nav', { body: { fund_code: 'NILSK', nav_micros: 2_000_000 }, as: 'tenant' }))
        .status,
    ).toBe(401);
  });

  it('a restricted investor may redeem but not subscribe; later subscriptions have no minimum', async () => {
    const inv = await trader(t, 20_000);
    expect((await subscribe(inv, 'BMYBY', 10_000 * EGP)).status).toBe(201);
    // a top-up below the minimum first subscription is accepted
    expect((await subscribe(inv, 'BMYBY', 100 * EGP)).status).toBe(201);
    t.deps.db.prepare("UPDATE investors SET status = 'restricted' WHERE id = ?").run(inv);
    expect((await subscribe(inv, 'BMYBY', 100 * EGP)).body.error.code).toBe('INVESTOR_RESTRICTED');
    expect((await redeem(inv, 'BMYBY', 1_000_000)).status).toBe(201);
  });

  it("replaying the Idempotency-Key returns the first answer and books nothing again; another tenant's fund order is 404", async () => {
    const inv = await trader(t, 20_000);
    const first = await subscribe(inv, 'NILLQ', 1_000 * EGP, { idempotencyKey: 'fo-1' });
    const again = await subscribe(inv, 'NILLQ', 1_000 * EGP, { idempotencyKey: 'fo-1' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(count('fund_orders')).toBe(1);
    expect((await subscribe(inv, 'NILLQ', 2_000 * EGP, { idempotencyKey: 'fo-1' })).body.error.code).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    const unsigned = await t.req('POST', '/v1/fund-orders', {
      body: { investor_id: inv, fund_code: 'NILLQ', side: 'subscribe', amount_micros: EGP },
      sign: false,
    });
    expect(unsigned.body.error.code).toBe('SIGNATURE_INVALID');
    const other = (await t.req('POST', '/admin/tenants', { body: { name: 'other-app' } })).body;
    const foreign = await t.req('GET', `/v1/fund-orders/${first.body.fund_order_id}`, { tenant: other });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await t.req('GET', '/v1/fund-orders/fo_unknown')).body.error.code).toBe('NOT_FOUND');
  });
});

describe('Fund order bad input: a 4xx with a stable code and nothing changed', () => {
  it('unknown fund, amounts below the minimum or not integers, more units than held, the shariah election, insufficient cash', async () => {
    const inv = await trader(t, 6_000);
    const shariah = await trader(t, 100_000);
    t.deps.db.prepare('UPDATE investors SET shariah_only = 1 WHERE id = ?').run(shariah);
    const closed = seedInvestor(t, { status: 'closed' });
    const holder = await trader(t, 20_000);
    expect((await subscribe(holder, 'NILSK', 500 * EGP)).status).toBe(201);
    const ok = { investor_id: inv, fund_code: 'BMYBY', side: 'subscribe', amount_micros: 10_000 * EGP };
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ['unknown fund', { ...ok, fund_code: 'NOPE' }, 404, 'UNKNOWN_FUND'],
      ['unknown investor', { ...ok, investor_id: 'inv_unknown' }, 404, 'NOT_FOUND'],
      ['closed investor', { ...ok, investor_id: closed }, 422, 'INVESTOR_CLOSED'],
      [
        'below the minimum first subscription',
        { ...ok, amount_micros: 10_000 * EGP - 1 },
        422,
        'BELOW_MINIMUM_SUBSCRIPTION',
      ],
      ['amount not an integer', { ...ok, amount_micros: 1.5 }, 422, 'VALIDATION_FAILED'],
      ['amount a string', { ...ok, amount_micros: '10000000000' }, 422, 'VALIDATION_FAILED'],
      ['amount zero', { ...ok, amount_micros: 0 }, 422, 'VALIDATION_FAILED'],
      ['amount negative', { ...ok, amount_micros: -5 }, 422, 'VALIDATION_FAILED'],
      ['amount 2^53', { ...ok, amount_micros: 2 ** 53 }, 422, 'AMOUNT_TOO_LARGE'],
      ['amount 1e20', { ...ok, amount_micros: 1e20 }, 422, 'AMOUNT_TOO_LARGE'],
      ['units on a subscription', { ...ok, units_micros: 5 }, 422, 'VALIDATION_FAILED'],
      ['amount on a redemption', { ...ok, side: 'redeem' }, 422, 'VALIDATION_FAILED'],
      ['unknown side', { ...ok, side: 'switch' }, 422, 'VALIDATION_FAILED'],
      ['unknown field', { ...ok, note: 'x' }, 422, 'VALIDATION_FAILED'],
      ['missing fund_code', { investor_id: inv, side: 'subscribe', amount_micros: 1 }, 422, 'VALIDATION_FAILED'],
      ['insufficient settled cash', ok, 422, 'INSUFFICIENT_SETTLED_CASH'],
      ['shariah election', { ...ok, investor_id: shariah }, 422, 'SHARIAH_RESTRICTED'],
      [
        'more units than held',
        { investor_id: holder, fund_code: 'NILSK', side: 'redeem', units_micros: 500_000_001 },
        422,
        'INSUFFICIENT_SETTLED_SECURITIES',
      ],
      [
        'units not held at all',
        { investor_id: inv, fund_code: 'UBRKH', side: 'redeem', units_micros: 1 },
        422,
        'INSUFFICIENT_SETTLED_SECURITIES',
      ],
      [
        'units not an integer',
        { investor_id: holder, fund_code: 'NILSK', side: 'redeem', units_micros: 0.5 },
        422,
        'VALIDATION_FAILED',
      ],
      [
        'a first UBRKH subscription at its minimum',
        { investor_id: holder, fund_code: 'UBRKH', side: 'subscribe', amount_micros: 5_000 * EGP },
        201,
        '',
      ],
      [
        'units 2^53',
        { investor_id: holder, fund_code: 'NILSK', side: 'redeem', units_micros: 2 ** 53 },
        422,
        'AMOUNT_TOO_LARGE',
      ],
    ];
    for (const [what, body, status, code] of cases) {
      const before = {
        orders: count('fund_orders'),
        entries: count('ledger_entries'),
        activities: count('activities'),
        ids: idsUsed(),
      };
      const res = await t.req('POST', '/v1/fund-orders', { body });
      expect({ what, status: res.status, code: res.body.error?.code ?? '' }).toEqual({ what, status, code });
      if (status !== 201)
        expect(
          {
            orders: count('fund_orders'),
            entries: count('ledger_entries'),
            activities: count('activities'),
            ids: idsUsed(),
          },
          what,
        ).toEqual(before);
      expectInvariants();
    }
    // a top-up that buys less than one unit-micro: UBRKH units cost 341.275413 micros each
    const tiny = await subscribe(holder, 'UBRKH', 341);
    expect(tiny.body.error.code).toBe('FUND_ORDER_TOO_SMALL');
    // redeeming one unit-micro of NILSK (NAV 1.000000) pays exactly one micro
    expect((await redeem(holder, 'NILSK', 1)).body.result_amount_micros).toBe(1);
    const unsatisfied = await t.req('POST', '/admin/sandbox/nav', {
      body: { fund_code: 'NILSK', nav_micros: 999_999 },
    });
    expect(unsatisfied.status).toBe(200);
    expect((await redeem(holder, 'NILSK', 1)).body.error.code).toBe('FUND_ORDER_TOO_SMALL');
    expect(cash(t, inv)).toEqual({ settled: 6_000 * EGP, reserved: 0, unsettled: 0 });
  });

  it('an application id not yet approved is INVESTOR_NOT_APPROVED', async () => {
    const created = await t.req('POST', '/v1/kyc/applications', {
      body: {
        full_name: 'Mona Hassan',
        national_id: '29001010112345',
        date_of_birth: '1990-01-01',
        email: 'm@example.com',
        phone: '01012345678',
        address: '12 Tahrir Street, Cairo',
      },
    });
    const res = await subscribe(created.body.application_id, 'BMYBY', 10_000 * EGP);
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 422, code: 'INVESTOR_NOT_APPROVED' });
  });
});
