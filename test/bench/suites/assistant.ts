// Issue 14: the assistant's registry-grounded routes answer as fast as a plain read. A daemon of its
// own started with --ai registry; GET /v1/ai/glossary/t-plus-2 measured right after GET /v1/clock on
// the same daemon (the baseline of the comparison). Goal: its p50 latency within 2x of the clock's.
import { httpFigures } from '../figures.js';
import { bench } from '../registry.js';

export const LATENCY_GOAL_X = 2;

bench('assistant: GET /v1/ai/glossary/t-plus-2 vs GET /v1/clock (--ai registry)', async (ctx) => {
  const d = await ctx.startDaemon({ args: ['--ai', 'registry'] });
  try {
    const clock = { url: `${d.baseUrl}/v1/clock`, headers: d.bearer, serverPid: d.pid };
    const glossary = { url: `${d.baseUrl}/v1/ai/glossary/t-plus-2`, headers: d.bearer, serverPid: d.pid };
    for (const t of [clock, glossary]) {
      // One probe first: a wrong key or path fails loudly here rather than as seconds of 4xx.
      const probe = await fetch(t.url, { headers: t.headers, signal: AbortSignal.timeout(5000) });
      const body = await probe.text();
      if (probe.status !== 200 || (t === glossary && JSON.parse(body).outcome !== 'answered'))
        throw new Error(`GET ${t.url} answered ${probe.status}: ${body.slice(0, 200)}`);
    }
    const c = await ctx.compare(glossary, clock);
    const ratio = c.base.p50 > 0 ? c.stats.p50 / c.base.p50 : null;
    const rps = Math.round(c.stats.rps).toLocaleString('en-US');
    const baseRps = Math.round(c.base.rps).toLocaleString('en-US');
    const p50 = `p50 ${c.stats.p50.toFixed(2)} ms vs ${c.base.p50.toFixed(2)} ms`;
    const note = `${p50} for GET /v1/clock (${rps} vs ${baseRps} req/s)`;
    return [
      ...httpFigures(c.stats),
      {
        metric: 'latency p50 vs GET /v1/clock',
        value: ratio,
        unit: 'x',
        goal: { op: '<=', value: LATENCY_GOAL_X },
        note,
        details: { clock_p50: c.base.p50, clock_p99: c.base.p99, clock_rps: c.base.rps },
      },
      { metric: 'throughput vs GET /v1/clock', value: (100 * c.stats.rps) / c.base.rps, unit: '%' },
    ];
  } finally {
    await d.stop();
  }
});
