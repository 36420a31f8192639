// Issue 29, item 5: a long simulated span. One POST /admin/sandbox/clock-advance of 365 days over the
// world of year-world.ts (200 investors holding shares and fund units, 1,000 resting gtc limits, 20
// dividends, settlements), through the whole request path of the real app in-process. Reported with
// what the advance did: instants run, stored events handled, fills, dividend entitlements. Goal: <= 1 s.
import { makeApp } from '../../helpers/app.js';
import { bench } from '../registry.js';
import { buildYearWorld, FULL_WORLD, WORLD_START, worldCounts } from '../../helpers/year-world.js';

export const LONG_SPAN_GOAL_MS = 1000;

bench(
  'advance one simulated year: 200 investors, 1,000 resting gtc, dividends, settlements, funds',
  async (ctx) => {
    const t = await makeApp({ start: WORLD_START });
    try {
      const t0 = Date.now();
      await buildYearWorld(t, FULL_WORLD);
      const before = worldCounts(t);
      ctx.log(`  built in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${before.openOrders} resting orders`);
      const s = process.hrtime.bigint();
      const cpu0 = process.cpuUsage();
      const res = await t.req('POST', '/admin/sandbox/clock-advance', { body: { days: 365 } });
      const ms = Number(process.hrtime.bigint() - s) / 1e6;
      const cpu = process.cpuUsage(cpu0);
      if (res.status !== 200) throw new Error(`advance: ${res.status} ${res.text.slice(0, 300)}`);
      const after = worldCounts(t);
      const events = after.eventsDone - before.eventsDone;
      const fills = after.fills - before.fills;
      const entitlements = after.entitlements - before.entitlements;
      return [
        {
          metric: 'POST clock-advance {days: 365}',
          value: ms,
          unit: 'ms',
          goal: { op: '<=', value: LONG_SPAN_GOAL_MS },
          note:
            `${res.body.instants_processed} instants, ${events} stored events, ${fills} fills, ` +
            `${entitlements} entitlements; ${before.openOrders} resting before, ${after.openOrders} after`,
          details: { instants: res.body.instants_processed, events, fills, entitlements, before, after },
        },
        {
          // the advance runs in this process: its CPU time, steadier than wall time on a shared machine
          metric: 'CPU time of the advance (user + system)',
          value: (cpu.user + cpu.system) / 1000,
          unit: 'ms',
        },
      ];
    } finally {
      await t.close();
    }
  },
  { timeoutMs: 600_000 },
);
