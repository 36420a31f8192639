// Issue 2: read throughput of the daemon as a ratio of a bare fastify hello-world on the same machine.
// Goal: reads >= 50 % of the baseline.
import { comparisonFigures, httpFigures } from '../figures.js';
import { bench } from '../registry.js';

export const READ_GOAL_PCT = 50;

bench('baseline: fastify hello-world GET /', async (ctx) => {
  const { stats } = await ctx.baseline();
  return httpFigures(stats);
});

function readBench(path: string): void {
  bench(`daemon GET ${path}`, async (ctx) => {
    const d = await ctx.daemon();
    // One probe first: a wrong key or path fails loudly here rather than as 5 s of 401s.
    const probe = await fetch(d.baseUrl + path, { headers: d.bearer, signal: AbortSignal.timeout(5000) });
    const text = await probe.text();
    if (probe.status !== 200) throw new Error(`GET ${path} answered ${probe.status}: ${text.slice(0, 200)}`);
    const c = await ctx.compare({ url: d.baseUrl + path, headers: d.bearer, serverPid: d.pid });
    return comparisonFigures(c, READ_GOAL_PCT);
  });
}

readBench('/v1/clock');
readBench('/v1/markets/XCAI/instruments/COMI/quote');
