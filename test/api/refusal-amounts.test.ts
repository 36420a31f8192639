// A refusal that names money says it as people read it (two decimals, rounded so the sentence stays
// true) and exactly (the micros): a buy whose reservation is 8,521.675 EGP and a withdrawal, each
// short of settled cash. The *_micros fields of the API are untouched (integers).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { EGP, creditCash, order, trader } from '../helpers/trading.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

describe('money in refusal messages', () => {
  it('an order short of settled cash: the need rounded up, what is available rounded down, each with its micros', async () => {
    const inv = await trader(t, 0);
    creditCash(t, inv, 8_521_670_000); // half a piastre short of 8,521.675
    // 100 COMI at 85.00: 8,500 + fees 11.05 + stamp duty 10.625 = 8,521.675 EGP reserved (docs/trading.md)
    const res = await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 100,
      limit_price_micros: 85 * EGP,
      time_in_force: 'gtc',
      client_order_id: 'short',
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.code).toBe('INSUFFICIENT_SETTLED_CASH');
    expect(res.body.error.message).toBe(
      'The order needs 8,521.68 EGP (8521675000 micros) of settled cash; 8,521.67 EGP (8521670000 micros) is ' +
        'available.',
    );
  });

  it('a withdrawal short of settled cash says both amounts the same way', async () => {
    const inv = await trader(t, 0);
    creditCash(t, inv, 100_004_999);
    const res = await t.req('POST', '/v1/transfers', {
      body: { investor_id: inv, direction: 'withdrawal', amount_micros: 100_005_001 },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.message).toBe(
      'Settled cash is 100.00 EGP (100004999 micros); the withdrawal needs 100.01 EGP (100005001 micros).',
    );
  });
});
