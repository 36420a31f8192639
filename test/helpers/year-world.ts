// Issue 29, item 5: the world a long simulated span runs over. Built in-process (the real app on a real
// SQLite file): 200 investors inserted as KYC approval writes them, each funded by a deposit from the rail
// and given shares of five equities by the depository (one transaction), then through the API: one money
// market fund subscription each (its NAV accrues daily), one market buy each (a T+2 settlement), 1,000
// resting gtc limits over the whole equity catalog (buys below the price, sells above it on the held
// symbols), and a quarterly dividend on each held symbol for the next year (a record and a pay event,
// each over every holder). The bench (suites/year.ts) and the advance's tests share it.
import type { TestApp } from './app.js';
import { seedInvestor } from './investors.js';

export const WORLD_START = '2026-11-22T10:05:00+02:00';
export const HELD = ['COMI', 'SWDY', 'ETEL', 'ABUK', 'EAST'];
const EGP = 1_000_000;

export interface WorldSize {
  investors: number;
  resting: number;
}

export const FULL_WORLD: WorldSize = { investors: 200, resting: 1000 };

function must(res: { status: number; text: string }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
}

function seedInvestors(t: TestApp, n: number): string[] {
  const tenantId = t.creds.tenant.tenant_id;
  const ids: string[] = [];
  t.deps.db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const id = seedInvestor(t);
      t.deps.db.prepare('UPDATE investors SET suitability_recorded = 1, risk_acknowledged = 1 WHERE id = ?').run(id);
      const legs = [
        { debit: { system: 'rail' as const, asset: 'cash:EGP' }, asset: 'cash:EGP', amount: 2_000_000 * EGP },
        ...HELD.map((s) => ({ debit: { system: 'clearing' as const, asset: s }, asset: s, amount: 1_000 })),
      ];
      for (const leg of legs) {
        const r = t.deps.ledger.transfer({
          tenantId,
          debit: leg.debit,
          credit: { investorId: id, asset: leg.asset, bucket: 'settled' },
          amount: leg.amount,
          kind: leg.asset === 'cash:EGP' ? 'deposit' : 'transfer_in',
          ref: `year-${id}`,
        });
        if (!r.ok) throw new Error(`seeding the ledger failed: ${r.code}`);
      }
      ids.push(id);
    }
  })();
  return ids;
}

interface Quote {
  price: number;
  lower: number;
  upper: number;
  tick: number;
}

async function quotes(t: TestApp): Promise<Map<string, Quote>> {
  const catalog = (await t.req('GET', '/v1/instruments')).body.instruments as Array<{
    symbol: string;
    security_type: string;
  }>;
  const out = new Map<string, Quote>();
  for (const i of catalog.filter((c) => c.security_type === 'equity')) {
    const q = (await t.req('GET', `/v1/instruments/${i.symbol}/quote`)).body;
    out.set(i.symbol, {
      price: q.price_micros,
      lower: q.band.lower_micros,
      upper: q.band.upper_micros,
      tick: q.tick_micros,
    });
  }
  return out;
}

/** The k-th resting order: 0.5 % to 15 % away from the price, on the grid, inside the band. */
function restingOrder(k: number, investor: string, equities: string[], qs: Map<string, Quote>) {
  const sell = k % 5 === 4;
  const symbol = sell ? HELD[Math.floor(k / 5) % HELD.length] : equities[k % equities.length];
  const q = qs.get(symbol)!;
  const offsetBps = 50 + ((k * 7919) % 1450);
  const away = Math.floor((q.price * offsetBps) / 10_000 / q.tick) * q.tick;
  const limit = sell
    ? Math.min(q.upper, Math.max(q.price + away, q.price + q.tick))
    : Math.max(q.lower, Math.min(q.price - away, q.price - q.tick));
  return {
    investor_id: investor,
    symbol,
    side: sell ? 'sell' : 'buy',
    type: 'limit',
    qty: 1 + (k % 3),
    limit_price_micros: limit,
    time_in_force: 'gtc',
  };
}

/** A quarterly dividend on every held symbol for the year after the start (ex dates on Cairo days). */
async function declareDividends(t: TestApp): Promise<void> {
  const quarters = [
    ['2027-01-14', '2027-01-21'],
    ['2027-04-15', '2027-04-22'],
    ['2027-07-15', '2027-07-22'],
    ['2027-10-14', '2027-10-21'],
  ];
  for (const [i, symbol] of HELD.entries())
    for (const [ex, pay] of quarters) {
      const body = { symbol, amount_per_share_micros: 250_000 + i * 50_000, ex_date: ex, pay_date: pay };
      must(await t.req('POST', '/admin/sandbox/declare-dividend', { body }), 201, 'dividend');
    }
}

/** Builds the world on a fresh app started at WORLD_START; returns the investors. */
export async function buildYearWorld(t: TestApp, size: WorldSize = FULL_WORLD): Promise<string[]> {
  const investors = seedInvestors(t, size.investors);
  for (const investor_id of investors) {
    const fund = { investor_id, fund_code: 'BMYBY', side: 'subscribe', amount_micros: 20_000 * EGP };
    must(await t.req('POST', '/v1/fund-orders', { body: fund }), 201, 'fund subscription');
    const buy = {
      investor_id,
      symbol: HELD[investors.indexOf(investor_id) % HELD.length],
      side: 'buy',
      type: 'market',
      qty: 10,
    };
    must(await t.req('POST', '/v1/orders', { body: buy }), 201, 'market buy');
  }
  const qs = await quotes(t);
  const equities = [...qs.keys()];
  for (let k = 0; k < size.resting; k++) {
    const body = restingOrder(k, investors[k % investors.length], equities, qs);
    const res = await t.req('POST', '/v1/orders', { body });
    must(res, 201, 'resting order');
  }
  await declareDividends(t);
  return investors;
}

/** What an advance did, counted from the database: rows the bench reports beside the instants. */
export function worldCounts(t: TestApp) {
  const n = (sql: string) => (t.deps.db.prepare(sql).get() as { n: number }).n;
  return {
    eventsDone: n('SELECT COUNT(*) AS n FROM events WHERE done = 1'),
    fills: n('SELECT COUNT(*) AS n FROM fills'),
    openOrders: n("SELECT COUNT(*) AS n FROM orders WHERE state NOT IN ('filled', 'cancelled', 'expired', 'rejected')"),
    entitlements: n('SELECT COUNT(*) AS n FROM dividend_entitlements'),
    ledgerEntries: n('SELECT COUNT(*) AS n FROM ledger_entries'),
  };
}
