// marketdata:replay through the API: the quote overrides recorded in a window are applied again at the
// approval instant, in their recorded order (each symbol ends at its last override of the window);
// an override that cannot be applied now refuses the whole replay and nothing moves.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { roundToTick } from '../../daemon/contract/tick.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const propose = (params: Record<string, unknown>) =>
  t.req('POST', '/admin/actions', {
    as: 'security',
    body: { action: 'marketdata:replay', params, reason: 'replay the morning moves' },
  });
const approve = (id: string) => t.req('POST', `/admin/actions/${id}/approve`, { as: 'approver', body: {} });
const at = (iso: string) => advance(t, { until: iso });
const setQuote = async (symbol: string, price: number) => {
  const r = await t.req('POST', '/admin/sandbox/quote', { body: { symbol, price_micros: price } });
  expect(r.status).toBe(200);
};
const price = async (symbol: string) =>
  (await t.req('GET', `/v1/instruments/${symbol}/quote`)).body.price_micros as number;
/** A legal price `pct` percent away from the tape's price now (on the tick grid). */
const near = async (symbol: string, pct: number) =>
  roundToTick(Math.round((await price(symbol)) * (1 + pct / 100)), 'nearest');
const overrides = () => (t.deps.db.prepare('SELECT COUNT(*) AS n FROM quote_overrides').get() as { n: number }).n;

describe('marketdata:replay', () => {
  it("re-applies the window's recorded overrides now: each symbol is back at its last override of the window", async () => {
    await at('2026-11-22T10:05:00+02:00');
    const comi1 = await near('COMI', 2);
    await setQuote('COMI', comi1);
    await at('2026-11-22T10:10:00+02:00');
    const etel = await near('ETEL', -3);
    await setQuote('ETEL', etel);
    const comi2 = await near('COMI', 1);
    await setQuote('COMI', comi2);
    await at('2026-11-22T11:00:00+02:00');
    await setQuote('COMI', await near('COMI', -5));
    await setQuote('ETEL', await near('ETEL', 4));
    expect([await price('COMI'), await price('ETEL')]).not.toEqual([comi2, etel]);

    const p = await propose({ from: '2026-11-22T10:00:00+02:00', to: '2026-11-22T10:30:00+02:00' });
    expect(p.status).toBe(201);
    const before = overrides();
    const a = await approve(p.body.action_id);
    expect(a.status).toBe(200);
    expect(a.body.result).toEqual({
      replayed: 3,
      applied_at: '2026-11-22T11:00:00+02:00',
      quotes: { COMI: comi2, ETEL: etel },
    });
    expect([await price('COMI'), await price('ETEL')]).toEqual([comi2, etel]);
    expect(overrides()).toBe(before + 3);
  });

  it('symbols limits the replay to those symbols', async () => {
    await at('2026-11-22T10:05:00+02:00');
    await setQuote('COMI', await near('COMI', 2));
    const etel = await near('ETEL', 2);
    await setQuote('ETEL', etel);
    await at('2026-11-22T11:00:00+02:00');
    const comiNow = await near('COMI', -4);
    await setQuote('COMI', comiNow);
    await setQuote('ETEL', await near('ETEL', -4));
    const p = await propose({ from: '2026-11-22T10:00:00+02:00', to: '2026-11-22T10:30:00+02:00', symbols: ['ETEL'] });
    expect((await approve(p.body.action_id)).body.result).toMatchObject({ replayed: 1, quotes: { ETEL: etel } });
    expect([await price('COMI'), await price('ETEL')]).toEqual([comiNow, etel]);
  });

  it('a window without recorded overrides is 422 ACTION_NOT_EXECUTABLE and the proposal stays open', async () => {
    const p = await propose({ from: '2026-11-21T10:00:00+02:00', to: '2026-11-21T11:00:00+02:00' });
    const a = await approve(p.body.action_id);
    expect([a.status, a.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    expect((await t.req('GET', '/admin/actions?state=proposed')).body.actions).toHaveLength(1);
  });

  it("an override outside today's band refuses the whole replay: no quote moves, nothing is recorded", async () => {
    await at('2026-11-22T10:05:00+02:00');
    await setQuote('ETEL', await near('ETEL', 3));
    await setQuote('COMI', await near('COMI', 19));
    // two sessions of 19% falls later, the recorded high is far outside the band
    await at('2026-11-23T10:05:00+02:00');
    await setQuote('COMI', await near('COMI', -19));
    await at('2026-11-24T10:05:00+02:00');
    await setQuote('COMI', await near('COMI', -19));
    await at('2026-11-25T10:05:00+02:00');
    const etelNow = await price('ETEL');
    const p = await propose({ from: '2026-11-22T10:00:00+02:00', to: '2026-11-22T10:30:00+02:00' });
    const before = overrides();
    const a = await approve(p.body.action_id);
    expect([a.status, a.body.error.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    expect(a.body.error.message).toContain("outside today's band");
    expect(overrides()).toBe(before);
    expect(await price('ETEL')).toBe(etelNow);
  });

  it.each([
    ['from', { to: '2026-11-22T11:00:00+02:00' }],
    ['from', { from: '2026-11-22 10:00', to: '2026-11-22T11:00:00+02:00' }],
    ['to', { from: '2026-11-22T10:00:00+02:00', to: 12 }],
    ['to', { from: '2026-11-22T11:00:00+02:00', to: '2026-11-22T10:00:00+02:00' }],
    ['symbols', { from: '2026-11-22T10:00:00+02:00', to: '2026-11-22T11:00:00+02:00', symbols: [] }],
    ['symbols', { from: '2026-11-22T10:00:00+02:00', to: '2026-11-22T11:00:00+02:00', symbols: ['comi'] }],
    ['extra', { from: '2026-11-22T10:00:00+02:00', to: '2026-11-22T11:00:00+02:00', extra: 1 }],
  ])('a bad %s is 422 INVALID_ACTION_PARAMS naming it', async (field, params) => {
    const r = await propose(params);
    expect([r.status, r.body.error.code]).toEqual([422, 'INVALID_ACTION_PARAMS']);
    expect(r.body.error.message).toContain(field);
  });
});
