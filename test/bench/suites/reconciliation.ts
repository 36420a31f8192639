// Issue 16: one reconciliation run over 1,000 investors and 20,000 fills (docs/reconciliation.md).
// The sandbox is built in-process (the real app on a real SQLite file): investors inserted as KYC
// approval writes them, each funded by a deposit posting from the rail and given shares delivered by
// the depository, then 20,000 market orders through the API (each one fill), and the clock advanced
// past T+2 so every fill has settled. Measured: POST /admin/reconciliation/runs of the settlement day
// through the whole request path (both sides computed from the ledger, statements with an injected
// break, the comparison, the break written), the median of 5 runs. Goal: <= 1 s.
import { makeApp } from '../../helpers/app.js';
import { seedInvestor } from '../../helpers/investors.js';
import { bench } from '../registry.js';

const INVESTORS = Number(process.env.BENCH_RECON_INVESTORS ?? 1000);
const FILLS = Number(process.env.BENCH_RECON_FILLS ?? 20_000);
const SYMBOLS = ['COMI', 'SWDY', 'ETEL', 'ABUK', 'EAST'];
const EGP = 1_000_000;

type App = Awaited<ReturnType<typeof makeApp>>;

function must(res: { status: number; text: string }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
}

function seedInvestors(t: App): string[] {
  const tenantId = t.creds.tenant.tenant_id;
  const ids: string[] = [];
  t.deps.db.transaction(() => {
    for (let i = 0; i < INVESTORS; i++) {
      const id = seedInvestor(t);
      t.deps.db.prepare('UPDATE investors SET suitability_recorded = 1, risk_acknowledged = 1 WHERE id = ?').run(id);
      const cash = t.deps.ledger.transfer({
        tenantId,
        debit: { system: 'rail', asset: 'cash:EGP' },
        credit: { investorId: id, asset: 'cash:EGP', bucket: 'settled' },
        amount: 500_000 * EGP,
        kind: 'deposit',
        ref: `bench-${id}`,
      });
      const shares = t.deps.ledger.transfer({
        tenantId,
        debit: { system: 'clearing', asset: 'COMI' },
        credit: { investorId: id, asset: 'COMI', bucket: 'settled' },
        amount: 1_000,
        kind: 'transfer_in',
        ref: `bench-${id}`,
      });
      if (!cash.ok || !shares.ok) throw new Error('seeding the ledger failed');
      ids.push(id);
    }
  })();
  return ids;
}

/** FILLS market orders, 50 in flight at a time (one group-commit batch each), buys and some sells. */
async function trade(t: App, investors: string[]): Promise<void> {
  for (let k = 0; k < FILLS; k += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, FILLS - k) }, (_, j) => {
        const n = k + j;
        const sell = n % 5 === 4;
        const body = {
          investor_id: investors[n % investors.length],
          symbol: sell ? 'COMI' : SYMBOLS[(n + Math.floor(n / investors.length)) % SYMBOLS.length],
          side: sell ? 'sell' : 'buy',
          type: 'market',
          qty: 1 + (n % 3),
        };
        return t.req('POST', '/v1/orders', { body }).then((res) => {
          must(res, 201, 'order');
          if (res.body.status !== 'filled') throw new Error(`order not filled: ${res.text.slice(0, 200)}`);
        });
      }),
    );
  }
}

bench(
  `reconciliation: one run over ${INVESTORS} investors and ${FILLS} fills`,
  async (ctx) => {
    const t = await makeApp({ start: '2026-11-22T10:05:00+02:00' });
    try {
      const t0 = Date.now();
      const investors = seedInvestors(t);
      await trade(t, investors);
      must(
        await t.req('POST', '/admin/sandbox/clock-advance', { body: { until: '2026-11-24T12:00:00+02:00' } }),
        200,
        'advance',
      );
      const fills = (t.deps.db.prepare('SELECT COUNT(*) AS n FROM fills').get() as { n: number }).n;
      const postings = (t.deps.db.prepare('SELECT COUNT(*) AS n FROM ledger_entries').get() as { n: number }).n;
      ctx.log(`  built in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${fills} fills, ${postings} postings`);
      must(
        await t.req('POST', '/admin/sandbox/inject-break', {
          body: { kind: 'position', investor_id: investors[7], symbol: 'SWDY', amount: 3 },
        }),
        201,
        'inject',
      );

      const times: number[] = [];
      let last: any;
      for (let i = 0; i < 5; i++) {
        const s = process.hrtime.bigint();
        const res = await t.req('POST', '/admin/reconciliation/runs', { body: { date: '2026-11-24' } });
        times.push(Number(process.hrtime.bigint() - s) / 1e6);
        must(res, 201, 'run');
        last = res.body;
      }
      if (last.breaks_found !== 1)
        throw new Error(`expected the one injected break, the run found ${last.breaks_found}`);
      times.sort((a, b) => a - b);
      return [
        {
          metric: 'POST /admin/reconciliation/runs (median of 5)',
          value: times[2],
          unit: 'ms',
          goal: { op: '<=', value: 1000 },
          note:
            `${last.investors} investors, ${fills} fills, ${postings} postings, ${last.custodian_lines}` +
            ` custodian + ${last.bank_lines} bank lines`,
          details: { samples_ms: times },
        },
      ];
    } finally {
      await t.close();
    }
  },
  { timeoutMs: 900_000 },
);
