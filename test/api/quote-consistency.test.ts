// A quote never contradicts itself: at every moment of the day (before the open, in the session, after
// the close, overnight, on the weekend, after a quote override between sessions) change_pct is the move
// from prev_close_micros, prev_close_micros is the reference price the band is built on, and both
// quotes of a symbol (the live tape quote and the detailed one) agree. docs/api.md "Market".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';

const SYMBOLS = ['COMI', 'FWRY', 'ETEL', 'PHDC', 'AMOC'];

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

const fraction = (n: number, d: number) => Math.round((n * 1_000_000) / d) / 1_000_000;

async function checkQuotes(when: string): Promise<void> {
  for (const s of SYMBOLS) {
    const detail = (await t.req('GET', `/v1/instruments/${s}/quote`)).body;
    const live = (await t.req('GET', `/v1/markets/XCAI/instruments/${s}/quote`)).body;
    const at = `${s} ${when}`;
    expect(detail.prev_close_micros, `${at}: prev_close is the reference shown`).toBe(detail.ref_price_micros);
    expect(detail.change_pct, `${at}: change is measured against the reference shown`).toBe(
      fraction(detail.price_micros - detail.ref_price_micros, detail.ref_price_micros),
    );
    if (detail.price_micros === detail.ref_price_micros)
      expect(detail.change_pct, `${at}: price == reference means no change`).toBe(0);
    expect(detail.band.lower_micros, `${at}: the band is around the reference`).toBeLessThanOrEqual(
      detail.ref_price_micros,
    );
    expect(detail.band.upper_micros, `${at}: the band is around the reference`).toBeGreaterThanOrEqual(
      detail.ref_price_micros,
    );
    expect(
      { price: live.price_micros, prev: live.prev_close_micros, change: live.change_pct },
      `${at}: both quotes agree`,
    ).toEqual({
      price: detail.price_micros,
      prev: detail.prev_close_micros,
      change: detail.change_pct,
    });
  }
}

describe('A quote after the close does not contradict itself', () => {
  it('before the open, in the session, after the close, overnight and over the weekend, change is the move from the reference shown', async () => {
    await checkQuotes('before the open');
    await advance(t, { until: 'next_open' });
    await advance(t, { minutes: 90 });
    await checkQuotes('in the session');
    await advance(t, { until: 'next_close' });
    await checkQuotes('at the close');
    await advance(t, { minutes: 30 });
    await checkQuotes('after the close');
    await advance(t, { hours: 10 });
    await checkQuotes('overnight');
    await advance(t, { days: 4 });
    await checkQuotes('days later');
  });

  it('after the close the price is the close, the reference is that close (the band new orders are checked against), and the change is 0', async () => {
    await advance(t, { until: 'next_open' });
    await advance(t, { until: 'next_close' });
    await advance(t, { minutes: 5 });
    const detail = (await t.req('GET', '/v1/instruments/COMI/quote')).body;
    expect(detail.session_open).toBe(false);
    expect(detail.price_micros).toBe(detail.ref_price_micros);
    expect(detail.change_pct).toBe(0);
    // the band shown is the one an order placed now is checked against
    const listed = (await t.req('GET', '/v1/instruments/COMI')).body;
    expect(listed.ref_price_micros).toBe(detail.ref_price_micros);
  });

  it('a quote override between sessions moves the price away from the reference, and the change says by how much', async () => {
    const before = (await t.req('GET', '/v1/instruments/FWRY/quote')).body;
    expect(before.session_open).toBe(false);
    const target = before.ref_price_micros + 10 * before.tick_micros;
    const set = await t.req('POST', '/admin/sandbox/quote', { body: { symbol: 'FWRY', price_micros: target } });
    expect(set.status).toBe(200);
    const after = (await t.req('GET', '/v1/instruments/FWRY/quote')).body;
    expect(after.price_micros).toBe(target);
    expect(after.change_pct).toBeGreaterThan(0);
    await checkQuotes('after an override between sessions');
  });
});
