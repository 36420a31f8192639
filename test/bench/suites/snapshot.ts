// Issue 6: snapshots and replay of a sandbox holding ~1,000 orders (docs/snapshots.md).
// - Wall time of `svc sandbox export FILE` and of `svc sandbox import FILE` into a fresh home (the
//   import includes its checks, the swap and starting the imported daemon until it is healthy).
// - Wall time of `svc sandbox replay JOURNAL` of the same history into an isolated sandbox (start,
//   every entry re-run and compared, stop). Informational: no goal is set for either.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../client.js';
import { SVC_BIN } from '../context.js';
import { runCommand, tempDir, tempHome } from '../proc.js';
import { bench } from '../registry.js';
import { applicant, BALANCED } from '../../helpers/onboarding.js';

const ORDERS = Number(process.env.BENCH_SNAPSHOT_ORDERS ?? 1000);
const EGP = 1_000_000;

async function svc(args: string[], cwd: string, timeoutMs = 300_000) {
  const r = await runCommand(process.execPath, [SVC_BIN, ...args], {
    cwd,
    timeoutMs,
    env: { ...process.env, CI: '1', NO_COLOR: '1' },
  });
  if (r.code !== 0) throw new Error(`svc ${args.join(' ')} failed (${r.code}): ${r.stderr.slice(-400)}`);
  return r;
}

bench(
  `snapshot: export + import, and replay, of a sandbox with ${ORDERS} orders`,
  async (ctx) => {
    const d = await ctx.startDaemon();
    const work = tempDir('snapshot');
    try {
      const app = await call(d, 'POST', '/v1/kyc/applications', applicant());
      await call(d, 'POST', `/v1/kyc/applications/${app.application_id}/submit`);
      const investorId = (await call(d, 'GET', `/v1/kyc/applications/${app.application_id}`)).investor_id as string;
      await call(d, 'PUT', `/v1/investors/${investorId}/suitability`, {
        questionnaire: BALANCED,
        risk_acknowledged: true,
      });
      await call(d, 'POST', '/v1/transfers', {
        investor_id: investorId,
        direction: 'deposit',
        amount_micros: 70_000 * EGP,
      });
      await call(d, 'POST', '/admin/sandbox/clock-advance', { until: 'next_open' }, true);
      await call(d, 'POST', '/admin/sandbox/clock-advance', { minutes: 5 }, true);
      // Market orders that fill (1 share of a low-priced equity), ten in flight at a time.
      for (let k = 0; k < ORDERS; k += 10) {
        await Promise.all(
          Array.from({ length: Math.min(10, ORDERS - k) }, () =>
            call(d, 'POST', '/v1/orders', {
              investor_id: investorId,
              symbol: 'VLMRA',
              side: 'buy',
              type: 'market',
              qty: 1,
            }),
          ),
        );
      }
      await call(d, 'POST', '/admin/sandbox/clock-advance', { days: 3 }, true);

      const file = join(work, 'bench.svcsnap');
      const exp = await svc(['--home', d.home, 'sandbox', 'export', file, '--json'], ctx.root);
      const entries = JSON.parse(exp.stdout).manifest.journal_entries as number;
      const bytes = statSync(file).size;
      const target = tempHome('snapshot-import');
      const imp = await svc(['--home', target, 'sandbox', 'import', file, '--port', '0', '--json'], ctx.root);
      await svc(['--home', target, 'sandbox', 'stop'], ctx.root);

      const journal = join(work, 'bench.ndjson');
      await svc(['--home', d.home, 'sandbox', 'journal', journal], ctx.root);
      const rep = await svc(['sandbox', 'replay', journal, '--json'], ctx.root, 600_000);
      const replay = JSON.parse(rep.stdout) as { entries: number; matched: number };
      if (replay.matched !== replay.entries)
        throw new Error(`the replay differs: ${replay.matched} of ${replay.entries} entries matched`);
      return [
        {
          metric: 'svc sandbox export',
          value: exp.ms,
          unit: 'ms',
          note: `${(bytes / 1024 / 1024).toFixed(1)} MB snapshot, ${entries} journal entries`,
        },
        { metric: 'svc sandbox import (checks, swap, daemon healthy)', value: imp.ms, unit: 'ms' },
        { metric: 'export + import', value: (exp.ms + imp.ms) / 1000, unit: 's' },
        {
          metric: 'svc sandbox replay (isolated)',
          value: rep.ms / 1000,
          unit: 's',
          note: `${replay.entries} entries, every status as recorded`,
        },
      ];
    } finally {
      await d.stop();
    }
  },
  { timeoutMs: 900_000 },
);
