// Long simulated spans (issue 29, item 5; docs/architecture.md, "Long advances"): the clock advance runs
// alone, as a transaction of its own after the open batch commits, so other requests see it whole or not
// at all; a failure outside its events takes all of it back; and a year over many investors comes out
// the same for the same seed, with every dividend paid and every fill settled.
import { afterEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';
import { creditCash, EGP, order, trader } from '../helpers/trading.js';
import { buildYearWorld, WORLD_START } from '../helpers/year-world.js';

let apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps) await a.close();
  apps = [];
});

async function app(opts: Parameters<typeof makeApp>[0] = {}): Promise<TestApp> {
  const t = await makeApp(opts);
  apps.push(t);
  return t;
}

function settlements(t: TestApp): Array<{ state: string }> {
  return t.deps.db.prepare('SELECT state FROM settlements').all() as Array<{ state: string }>;
}

describe('A clock advance runs alone', () => {
  it('an advance sent amid orders runs after the batch it met commits, and settles the orders before it', async () => {
    const t = await app({ start: '2026-11-22T10:30:00+02:00' });
    const investor = await trader(t, 50_000);
    const buy = () => order(t, { investor_id: investor, symbol: 'COMI', side: 'buy', type: 'market', qty: 1 });
    const before = Array.from({ length: 10 }, buy);
    const advanced = t.req('POST', '/admin/sandbox/clock-advance', { body: { days: 3 } });
    const clock = t.req('GET', '/v1/clock');
    const after = Array.from({ length: 10 }, buy);
    const placed = await Promise.all([...before, ...after]);
    expect(placed.map((p) => p.status)).toEqual(Array(20).fill(201));
    expect((await advanced).status).toBe(200);
    expect((await advanced).body.timestamp).toBe('2026-11-25T10:30:00+02:00');
    // a reader sees the clock before the advance or after it, never an instant in between
    expect(['2026-11-22T10:30:00+02:00', '2026-11-25T10:30:00+02:00']).toContain((await clock).body.timestamp);
    // the ten orders sent before the advance committed first and settled on the way (T+2)
    const settled = settlements(t).filter((s) => s.state === 'settled').length;
    expect(settled).toBeGreaterThanOrEqual(10);
  });

  it('an advance failing outside its events is taken back whole (500): clock, events, orders as before', async () => {
    const t = await app({ start: '2026-11-22T10:30:00+02:00' });
    const investor = await trader(t, 50_000);
    let broken = false;
    t.deps.scheduler.addSource({
      name: 'test.broken',
      nextDue: (after) => {
        if (broken && after >= Date.parse('2026-11-24T12:00:00+02:00')) throw new Error('test: a scheduler bug');
        return null;
      },
      run: () => {},
    });
    expect(
      (await order(t, { investor_id: investor, symbol: 'COMI', side: 'buy', type: 'market', qty: 3 })).status,
    ).toBe(201);
    broken = true;
    const [failed, second] = await Promise.all([
      t.req('POST', '/admin/sandbox/clock-advance', { body: { days: 3 } }),
      order(t, { investor_id: investor, symbol: 'SWDY', side: 'buy', type: 'market', qty: 2 }),
    ]);
    expect(failed.status).toBe(500);
    expect(second.status).toBe(201);
    expect((await t.req('GET', '/v1/clock')).body.timestamp).toBe('2026-11-22T10:30:00+02:00');
    // the settlement due on the 24th, passed before the failure, was rolled back with the rest
    expect(settlements(t).map((s) => s.state)).toEqual(['pending', 'pending']);
    broken = false;
    await advance(t, { days: 3 });
    expect(settlements(t).map((s) => s.state)).toEqual(['settled', 'settled']);
  });

  it('a refusal of the advance writes nothing and is answered 422 like any other', async () => {
    const t = await app();
    creditCash(t, await trader(t, 0), EGP);
    const res = await t.req('POST', '/admin/sandbox/clock-advance', { body: { until: '2020-01-01T00:00:00Z' } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('CLOCK_NOT_ADVANCEABLE');
  });
});

/** What a year left behind, in the order it was made: fills, every investor's balances, entitlements. */
function yearState(t: TestApp) {
  const all = (sql: string) => t.deps.db.prepare(sql).all();
  return {
    fills: all('SELECT * FROM fills ORDER BY seq'),
    balances: all('SELECT tenant_id, owner, asset, bucket, balance FROM ledger_accounts ORDER BY id'),
    entitlements: all(
      'SELECT dividend_id, investor_id, shares, net_micros, state FROM dividend_entitlements ORDER BY seq',
    ),
    settlements: all('SELECT state, COUNT(*) AS n FROM settlements GROUP BY state ORDER BY state'),
  };
}

describe('A simulated year in one advance', () => {
  it('a year of 20 investors, 100 resting gtc, 20 dividends: all paid, all settled, same seed same year', async () => {
    const years = [];
    for (let run = 0; run < 2; run++) {
      const t = await app({ start: WORLD_START, seed: 7 });
      await buildYearWorld(t, { investors: 20, resting: 100 });
      const res = await advance(t, { days: 365 });
      years.push({ answer: res.body, ...yearState(t) });
    }
    const [a, b] = years;
    expect(a.answer.timestamp).toBe('2027-11-22T10:05:00+02:00');
    expect(a.entitlements).toHaveLength(20 * 20);
    expect(a.entitlements.every((e) => (e as { state: string }).state === 'paid')).toBe(true);
    expect(a.settlements).toEqual([{ state: 'settled', n: a.fills.length }]);
    expect(a.fills.length).toBeGreaterThan(20);
    expect(b).toEqual(a);
  });
});
