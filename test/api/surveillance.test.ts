// Surveillance through the API (docs/surveillance.md): the rules run at each session close (on the
// sandbox clock) and on demand, each alert names its rule, investor, symbol, window, orders and fills;
// alerts move open -> escalated -> closed (with a note); thresholds come from the fixtures and can be
// overridden; an ordinary trading day raises nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { creditShares, order, trader } from '../helpers/trading.js';
import { band } from '../../daemon/market/ticks.js';

let t: TestApp;
afterEach(async () => t?.close());

const at = (iso: string) => advance(t, { until: iso });
const alerts = async (query = '') => (await t.req('GET', `/admin/surveillance/alerts${query}`)).body.alerts as any[];
const lowLimit = (symbol: string) => band(t.deps.market.tape.referencePriceAt(symbol, t.deps.clock.now())).lowerMicros;

/** An investor who buys 10 COMI at 10:05 and sells 10 at 10:10 on Sunday 22 Nov 2026. */
async function washDay(app: TestApp): Promise<{ inv: string; buy: string; sell: string }> {
  t = app;
  const inv = await trader(t, 100_000);
  creditShares(t, inv, 'COMI', 100);
  await at('2026-11-22T10:05:00+02:00');
  const buy = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
  expect(buy.body.status).toBe('filled');
  await at('2026-11-22T10:10:00+02:00');
  const sell = await order(t, { investor_id: inv, symbol: 'COMI', side: 'sell', type: 'market', qty: 10 });
  expect(sell.body.status).toBe('filled');
  return { inv, buy: buy.body.order_id, sell: sell.body.order_id };
}

const fillsOf = (orderId: string) =>
  t.deps.db
    .prepare<[string], { id: string }>('SELECT id FROM fills WHERE order_id = ? ORDER BY seq')
    .all(orderId)
    .map((r) => r.id);

describe('a wash pattern is found at the session close', () => {
  it('buying and selling COMI 5 minutes apart raises one wash_trade alert at 14:30 with its orders, fills and window', async () => {
    const { inv, buy, sell } = await washDay(await makeApp());
    expect(await alerts()).toEqual([]);
    await at('2026-11-22T14:30:00+02:00');
    const [a, ...rest] = await alerts();
    expect(rest).toEqual([]);
    expect(a).toMatchObject({
      rule: 'wash_trade',
      investor_id: inv,
      tenant_id: t.creds.tenant.tenant_id,
      symbol: 'COMI',
      session_date: '2026-11-22',
      state: 'open',
      note: null,
      order_ids: [buy, sell],
      fill_ids: [...fillsOf(buy), ...fillsOf(sell)],
      window_start: '2026-11-22T10:05:00+02:00',
      window_end: '2026-11-22T10:10:00+02:00',
      created_at: '2026-11-22T14:30:00+02:00',
    });
    expect(a.alert_id).toMatch(/^alr_/);
    expect((await t.req('GET', `/admin/surveillance/alerts/${a.alert_id}`)).body).toEqual(a);
    const audit = (await t.req('GET', '/admin/audit?limit=200')).body.entries as any[];
    expect(audit.find((e) => e.action === 'surveillance.alerts_raised')).toMatchObject({
      actor: 'system',
      subject: a.run_id,
    });
  });

  it('the same seed and the same requests give the same alerts, ids and all', async () => {
    await washDay(await makeApp({ seed: 7 }));
    await at('2026-11-23T15:00:00+02:00');
    const first = await alerts();
    await t.close();
    await washDay(await makeApp({ seed: 7 }));
    await at('2026-11-23T15:00:00+02:00');
    expect(first).toHaveLength(1);
    expect(await alerts()).toEqual(first);
  });

  it('a run on demand finds it before the close; running again, or the close, raises nothing twice', async () => {
    const { inv } = await washDay(await makeApp());
    const run = await t.req('POST', '/admin/surveillance/runs', { body: {} });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({
      trigger: 'on_demand',
      session_date: '2026-11-22',
      alerts_raised: 1,
      thresholds: { wash_window_minutes: 10 },
    });
    expect(run.body.alerts[0]).toMatchObject({ rule: 'wash_trade', investor_id: inv, run_id: run.body.run_id });
    const again = await t.req('POST', '/admin/surveillance/runs', { body: { date: '2026-11-22' } });
    expect(again.body).toMatchObject({ alerts_raised: 0, alerts: [] });
    await at('2026-11-22T14:31:00+02:00');
    expect(await alerts()).toHaveLength(1);
  });
});

describe('an ordinary trading day raises no alert', () => {
  it('buys in several symbols, a sale an hour after the buy, a limit order cancelled once: nothing at the close', async () => {
    t = await makeApp();
    const a = await trader(t, 200_000);
    const b = await trader(t, 200_000);
    creditShares(t, b, 'ETEL', 200);
    await at('2026-11-22T10:01:00+02:00');
    for (const [inv, symbol, qty] of [
      [a, 'COMI', 50],
      [a, 'ETEL', 20],
      [b, 'HRHO', 30],
      [b, 'COMI', 5],
    ] as const) {
      expect((await order(t, { investor_id: inv, symbol, side: 'buy', type: 'market', qty })).body.status).toBe(
        'filled',
      );
    }
    const rest = await order(t, {
      investor_id: a,
      symbol: 'TMGH',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: lowLimit('TMGH'),
    });
    expect((await t.req('DELETE', `/v1/orders/${rest.body.order_id}`)).status).toBe(202);
    await at('2026-11-22T11:30:00+02:00');
    expect(
      (await order(t, { investor_id: b, symbol: 'ETEL', side: 'sell', type: 'market', qty: 100 })).body.status,
    ).toBe('filled');
    await at('2026-11-22T14:30:00+02:00');
    expect(await alerts()).toEqual([]);
    expect((await t.req('POST', '/admin/surveillance/runs', { body: { date: '2026-11-22' } })).body).toMatchObject({
      alerts_raised: 0,
    });
  });
});

describe('layering-like cancels and concentration through real orders', () => {
  it('5 resting buys cancelled within a minute of placement raise one layering alert naming the 5 orders', async () => {
    t = await makeApp();
    const inv = await trader(t, 200_000);
    await at('2026-11-22T10:05:00+02:00');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const o = await order(t, {
        investor_id: inv,
        symbol: 'COMI',
        side: 'buy',
        type: 'limit',
        qty: 10,
        limit_price_micros: lowLimit('COMI'),
      });
      ids.push(o.body.order_id);
      expect((await t.req('DELETE', `/v1/orders/${o.body.order_id}`)).status).toBe(202);
    }
    await advance(t, { minutes: 1 });
    const run = await t.req('POST', '/admin/surveillance/runs', { body: {} });
    expect(run.body.alerts).toHaveLength(1);
    expect(run.body.alerts[0]).toMatchObject({
      rule: 'layering',
      investor_id: inv,
      symbol: 'COMI',
      order_ids: ids,
      fill_ids: [],
      detail: { side: 'buy', cancels: 5 },
    });
  });

  it('with the concentration threshold overridden to 0 bps any fill raises it; null puts the fixture default back', async () => {
    t = await makeApp();
    const inv = await trader(t, 100_000);
    await at('2026-11-22T10:05:00+02:00');
    const buy = await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    const put = await t.req('PUT', '/admin/surveillance/thresholds', { body: { concentration_share_bps: 0 } });
    expect(put.body).toMatchObject({
      thresholds: { concentration_share_bps: 0 },
      defaults: { concentration_share_bps: 2500 },
      overridden: ['concentration_share_bps'],
    });
    const run = await t.req('POST', '/admin/surveillance/runs', { body: {} });
    expect(run.body.thresholds.concentration_share_bps).toBe(0);
    expect(run.body.alerts).toHaveLength(1);
    expect(run.body.alerts[0]).toMatchObject({
      rule: 'concentration',
      order_ids: [buy.body.order_id],
      detail: { investor_qty: 10, threshold_bps: 0 },
    });
    expect(run.body.alerts[0].detail.session_volume).toBeGreaterThan(10);
    const back = await t.req('PUT', '/admin/surveillance/thresholds', { body: { concentration_share_bps: null } });
    expect(back.body).toMatchObject({ thresholds: { concentration_share_bps: 2500 }, overridden: [] });
    expect((await t.req('GET', '/admin/surveillance/thresholds')).body.thresholds).toEqual(back.body.thresholds);
  });

  it('an override holds for the session close too, and a sandbox reset forgets it', async () => {
    t = await makeApp();
    const inv = await trader(t, 100_000);
    await t.req('PUT', '/admin/surveillance/thresholds', { body: { wash_window_minutes: 1 } });
    creditShares(t, inv, 'COMI', 100);
    await at('2026-11-22T10:05:00+02:00');
    await order(t, { investor_id: inv, symbol: 'COMI', side: 'buy', type: 'market', qty: 10 });
    await at('2026-11-22T10:07:00+02:00');
    await order(t, { investor_id: inv, symbol: 'COMI', side: 'sell', type: 'market', qty: 10 });
    await at('2026-11-22T14:30:00+02:00');
    expect(await alerts('?rule=wash_trade')).toEqual([]);
    expect((await t.req('POST', '/admin/sandbox/reset', { body: {} })).status).toBe(200);
    expect((await t.req('GET', '/admin/surveillance/thresholds')).body).toMatchObject({
      thresholds: { wash_window_minutes: 10 },
      overridden: [],
      updated_at: null,
    });
  });
});

describe('an alert moves open -> escalated -> closed; closing needs a note', () => {
  it('every refusal changes nothing, and every change is audited', async () => {
    await washDay(await makeApp());
    const [a] = (await t.req('POST', '/admin/surveillance/runs', { body: {} })).body.alerts;
    const path = `/admin/surveillance/alerts/${a.alert_id}`;
    for (const body of [{}, { note: '' }, { note: '   ' }]) {
      const r = await t.req('POST', `${path}/close`, { body });
      expect([r.status, r.body.error.code]).toEqual([422, 'ALERT_NOTE_REQUIRED']);
    }
    expect((await t.req('GET', path)).body).toMatchObject({ state: 'open', note: null, closed_at: null });
    const esc = await t.req('POST', `${path}/escalate`, { body: { note: 'same investor, same symbol, 5 minutes' } });
    expect(esc.body).toMatchObject({
      state: 'escalated',
      escalated_at: '2026-11-22T10:10:00+02:00',
      note: 'same investor, same symbol, 5 minutes',
    });
    const twice = await t.req('POST', `${path}/escalate`, { body: {} });
    expect([twice.status, twice.body.error.code]).toEqual([409, 'ALERT_STATE_CONFLICT']);
    const closed = await t.req('POST', `${path}/close`, { body: { note: 'client rebalanced; no intent to mislead' } });
    expect(closed.body).toMatchObject({
      state: 'closed',
      note: 'client rebalanced; no intent to mislead',
      closed_at: '2026-11-22T10:10:00+02:00',
    });
    for (const op of ['close', 'escalate']) {
      const r = await t.req('POST', `${path}/${op}`, { body: { note: 'again' } });
      expect([r.status, r.body.error.code]).toEqual([409, 'ALERT_STATE_CONFLICT']);
    }
    expect((await t.req('GET', path)).body).toEqual(closed.body);
    const actions = ((await t.req('GET', '/admin/audit?limit=200')).body.entries as any[])
      .filter((e) => e.subject === a.alert_id)
      .map((e) => e.action);
    expect(actions.sort()).toEqual(['surveillance.alert_closed', 'surveillance.alert_escalated']);
  });

  it('an unknown alert is 404 NOT_FOUND for read, escalate and close', async () => {
    t = await makeApp();
    expect((await t.req('GET', '/admin/surveillance/alerts/alr_nope')).status).toBe(404);
    expect((await t.req('POST', '/admin/surveillance/alerts/alr_nope/escalate', { body: {} })).body.error.code).toBe(
      'NOT_FOUND',
    );
    expect(
      (await t.req('POST', '/admin/surveillance/alerts/alr_nope/close', { body: { note: 'x' } })).body.error.code,
    ).toBe('NOT_FOUND');
  });
});

describe('GET /admin/surveillance/alerts filters', () => {
  it('by state, rule, investor, symbol, tenant and session date', async () => {
    const { inv } = await washDay(await makeApp());
    await t.req('PUT', '/admin/surveillance/thresholds', { body: { concentration_share_bps: 0 } });
    const run = (await t.req('POST', '/admin/surveillance/runs', { body: {} })).body;
    expect(run.alerts.map((a: any) => a.rule)).toEqual(['wash_trade', 'concentration']);
    await t.req('POST', `/admin/surveillance/alerts/${run.alerts[1].alert_id}/close`, {
      body: { note: 'threshold test' },
    });
    expect((await alerts('?state=open')).map((a) => a.rule)).toEqual(['wash_trade']);
    expect((await alerts('?state=closed')).map((a) => a.rule)).toEqual(['concentration']);
    expect((await alerts('?rule=concentration')).map((a) => a.state)).toEqual(['closed']);
    expect(
      await alerts(`?investor_id=${inv}&symbol=COMI&session_date=2026-11-22&tenant_id=${t.creds.tenant.tenant_id}`),
    ).toHaveLength(2);
    expect(await alerts('?investor_id=inv_other')).toEqual([]);
    expect(await alerts('?symbol=ETEL')).toEqual([]);
    expect(await alerts('?session_date=2026-11-23')).toEqual([]);
    expect(await alerts('?limit=1')).toHaveLength(1);
    const bad = await t.req('GET', '/admin/surveillance/alerts?state=pending');
    expect([bad.status, bad.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
  });
});

describe('POST /admin/surveillance/runs refuses a date that is not a past or current trading day', () => {
  it('future, weekend, holiday and impossible dates: 422 SURVEILLANCE_DATE_INVALID, no run stored', async () => {
    t = await makeApp({ start: '2026-11-24T12:00:00+02:00' });
    const runs = () => t.deps.db.prepare('SELECT COUNT(*) FROM surveillance_runs').pluck().get();
    const before = runs();
    for (const date of ['2026-11-25', '2026-11-21', '2026-10-08', '2026-02-30']) {
      const r = await t.req('POST', '/admin/surveillance/runs', { body: { date } });
      expect([r.status, r.body.error.code], date).toEqual([422, 'SURVEILLANCE_DATE_INVALID']);
    }
    expect((await t.req('POST', '/admin/surveillance/runs', { body: { date: '22-11-2026' } })).body.error.code).toBe(
      'VALIDATION_FAILED',
    );
    expect(runs()).toBe(before);
    expect((await t.req('POST', '/admin/surveillance/runs', { body: { date: '2026-11-23' } })).body).toMatchObject({
      session_date: '2026-11-23',
      alerts_raised: 0,
    });
  });

  it('thresholds out of range are 422 VALIDATION_FAILED and change nothing', async () => {
    t = await makeApp();
    for (const body of [
      { wash_window_minutes: 0 },
      { concentration_share_bps: 10_000 },
      { layering_min_cancels: 1.5 },
      { nope: 1 },
    ]) {
      expect((await t.req('PUT', '/admin/surveillance/thresholds', { body })).body.error.code).toBe(
        'VALIDATION_FAILED',
      );
    }
    expect((await t.req('GET', '/admin/surveillance/thresholds')).body).toMatchObject({
      overridden: [],
      updated_at: null,
    });
  });
});
