import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { tradingLife } from './determinism-workload.js';

/** The same script of requests a client might make: reads, controls, errors. */
async function script(t: TestApp): Promise<string[]> {
  const out: string[] = [];
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await t.req(method, url, { body });
    out.push(`${res.status} ${res.headers['idempotent-replayed'] ?? ''} ${res.text}`);
  };
  await call('GET', '/v1/clock');
  await call('GET', '/v1/instruments');
  await call('GET', '/v1/nope');
  await call('POST', '/admin/sandbox/clock-advance', { until: 'next_open' });
  await call('POST', '/admin/sandbox/clock-advance', { minutes: 17 });
  for (const s of ['COMI', 'OIH', 'TMGH', 'EGSK28NOV']) await call('GET', `/v1/instruments/${s}/quote`);
  await call('POST', '/admin/sandbox/quote', { symbol: 'COMI', price_micros: 85_000_000 });
  await call('POST', '/admin/sandbox/clock-advance', { days: 3 });
  await call('GET', '/v1/markets/XCAI/instruments/COMI/ohlcv?days=30');
  await call('GET', '/v1/markets/XCAI/index/EGX30/ohlcv?days=10');
  await call('GET', '/v1/bonds');
  await call('GET', '/v1/news?symbol=COMI');
  await call('POST', '/admin/sandbox/clock-advance', { hours: -1 });
  await call('GET', '/admin/audit');
  return out;
}

describe('Determinism: same seed + same start time + same requests => byte-identical responses', () => {
  it('two sandboxes started from the same seed answer the same script identically', async () => {
    const a = await makeApp({ seed: 7 });
    const b = await makeApp({ seed: 7 });
    try {
      const ra = await script(a);
      const rb = await script(b);
      expect(ra).toHaveLength(rb.length);
      for (let i = 0; i < ra.length; i++) expect(rb[i], `response ${i}`).toBe(ra[i]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('two sandboxes from the same seed answer a whole trading life byte for byte: orders, fills, settlement, fund orders, a dividend', async () => {
    const a = await makeApp({ seed: 7 });
    const b = await makeApp({ seed: 7 });
    try {
      const ra = await tradingLife(a);
      const rb = await tradingLife(b);
      expect(ra.length).toBeGreaterThan(50);
      expect(rb.join('\n')).toBe(ra.join('\n'));
      // the life really traded: fills, a T+2 settlement, a fund order and the dividend's cash are in it
      const all = ra.join('\n');
      for (const needle of [
        '"status":"filled"',
        '"state":"partially_filled"',
        '"state":"cancel_requested"',
        '"activity_type":"DIV"',
        '"fund_code":"UBRKH","side":"redeem"',
      ]) {
        expect(all).toContain(needle);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a different seed gives a different tape', async () => {
    const a = await makeApp({ seed: 7 });
    const b = await makeApp({ seed: 8 });
    try {
      const qa = (await a.req('GET', '/v1/markets/XCAI/instruments/COMI/ohlcv?days=20')).body;
      const qb = (await b.req('GET', '/v1/markets/XCAI/instruments/COMI/ohlcv?days=20')).body;
      expect(qa).not.toEqual(qb);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('POST /admin/sandbox/reset {seed?, start?}', () => {
  it('after a reset to a seed and start, the sandbox answers like a fresh one started from them, and credentials stay valid', async () => {
    const used = await makeApp({ seed: 1, start: '2026-12-01T12:00:00+02:00' });
    const fresh = await makeApp({ seed: 9 });
    try {
      await script(used);
      const reset = await used.req('POST', '/admin/sandbox/reset', {
        body: { seed: 9, start: '2026-11-22T09:00:00+02:00' },
      });
      expect(reset.status).toBe(200);
      expect(reset.body).toMatchObject({ seed: 9, start: '2026-11-22T09:00:00+02:00' });
      const clockA = (await used.req('GET', '/v1/clock')).body;
      const clockB = (await fresh.req('GET', '/v1/clock')).body;
      expect(clockA).toEqual(clockB);
      const qa = (await used.req('GET', '/v1/markets/XCAI/instruments/COMI/ohlcv?days=30')).text;
      const qb = (await fresh.req('GET', '/v1/markets/XCAI/instruments/COMI/ohlcv?days=30')).text;
      expect(qa).toBe(qb);
      // the quote override recorded before the reset is gone
      await used.req('POST', '/admin/sandbox/clock-advance', { body: { days: 3 } });
      await fresh.req('POST', '/admin/sandbox/clock-advance', { body: { days: 3 } });
      expect((await used.req('GET', '/v1/instruments/COMI/quote')).body.price_micros).toBe(
        (await fresh.req('GET', '/v1/instruments/COMI/quote')).body.price_micros,
      );
    } finally {
      await used.close();
      await fresh.close();
    }
  });

  it('bad reset input is 422 and changes nothing', async () => {
    const t = await makeApp();
    try {
      for (const body of [{ seed: -1 }, { seed: 1.5 }, { start: 'yesterday' }, { clock: 'fast' }, { bogus: 1 }]) {
        const res = await t.req('POST', '/admin/sandbox/reset', { body });
        expect(res.status, JSON.stringify(body)).toBe(422);
      }
      expect((await t.req('GET', '/admin/sandbox/state')).body).toMatchObject({ seed: 42, generation: 1 });
    } finally {
      await t.close();
    }
  });
});
