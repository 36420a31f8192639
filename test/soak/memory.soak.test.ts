// Memory under sustained load (issue 7, item 5), for `npm run soak` (SVC_SOAK=1): a real daemon serves
// the mixed workload of test/bench/suites/mixed.ts (reads, signed orders, cancels, transfers, fund
// orders, one clock advance a second) at a fixed rate for 10 minutes, and its resident set
// (/proc/<pid>/status VmRSS) is sampled every 10 s. After a one-minute warm-up (V8 heap sizing, SQLite
// page cache, JIT) the RSS must stay flat: the end within TOLERANCE of the warm-up sample, and the
// least-squares slope of the post-warm-up samples under SLOPE_MIB_PER_MIN.
//
// SVC_SOAK_MEMORY_MINUTES (default 10), SVC_SOAK_MEMORY_RATE (requests/s, default 200).
import { describe, expect, it } from 'vitest';
import { removeHome, rssKiB, startDaemon, stopDaemon, tempHome } from '../helpers/crash-daemon.js';
import { prepareMixed, runMixed } from '../bench/suites/mixed.js';

const MINUTES = Number(process.env.SVC_SOAK_MEMORY_MINUTES ?? 10);
const RATE = Number(process.env.SVC_SOAK_MEMORY_RATE ?? 200);
const WARMUP_S = 60;
/** The end may exceed the warm-up sample by at most this fraction. */
const TOLERANCE = 0.2;
const SLOPE_MIB_PER_MIN = 2;

describe.runIf(process.env.SVC_SOAK === '1')('memory soak', () => {
  it(
    `${MINUTES} minutes of the mixed workload at ${RATE} req/s: the daemon's RSS stays flat after warm-up`,
    async () => {
      const home = tempHome('memory');
      const d = await startDaemon(home);
      try {
        const target = { baseUrl: d.baseUrl, creds: d.creds, pid: d.pid };
        const w = await prepareMixed(target);
        const samples: Array<{ s: number; kib: number }> = [];
        const sample = (s: number) => {
          const kib = rssKiB(d.pid);
          if (kib !== null) samples.push({ s, kib });
        };
        sample(0);
        const stats = await runMixed(target, w, {
          rate: RATE,
          seconds: MINUTES * 60,
          seed: 7,
          onSecond: (s) => s % 10 === 0 && sample(s),
        });
        sample(MINUTES * 60);
        const mib = (k: number) => k / 1024;
        const start = samples[0];
        const warm = samples.find((x) => x.s >= WARMUP_S)!;
        const end = samples[samples.length - 1];
        const after = samples.filter((x) => x.s >= WARMUP_S);
        const mx = after.reduce((a, x) => a + x.s, 0) / after.length;
        const my = after.reduce((a, x) => a + mib(x.kib), 0) / after.length;
        const slope =
          (60 * after.reduce((a, x) => a + (x.s - mx) * (mib(x.kib) - my), 0)) /
          after.reduce((a, x) => a + (x.s - mx) ** 2, 0);
        const peak = Math.max(...after.map((x) => x.kib));
        console.log(
          `memory soak: ${MINUTES} min at ${RATE} req/s: ${stats.answered} answered (` +
            `${stats.throughput.toFixed(0)} req/s), ${stats.errors} errors, ${stats.refusals} business refusals, ` +
            `${stats.dropped} dropped; p50 ${stats.p50.toFixed(2)} ms, p99 ${stats.p99.toFixed(1)} ms, max ` +
            `${stats.max.toFixed(0)} ms; server CPU ${stats.serverCpuPct?.toFixed(0)} %`,
        );
        console.log(
          `memory soak: RSS ${mib(start.kib).toFixed(1)} MiB after setup, ${mib(warm.kib).toFixed(1)} MiB ` +
            `after ${WARMUP_S} s, ${mib(end.kib).toFixed(1)} MiB at the end ` +
            `(peak ${mib(peak).toFixed(1)} MiB; slope after warm-up ${slope.toFixed(2)} MiB/min); samples MiB: ` +
            `${samples.map((x) => mib(x.kib).toFixed(0)).join(' ')}`,
        );
        console.log(`memory soak: ${JSON.stringify(stats.byKind)}`);
        if (stats.errorSamples.length) console.log(`memory soak: errors: ${stats.errorSamples.join('; ')}`);
        expect(stats.errors).toBe(0);
        expect(stats.answered).toBeGreaterThan(0.95 * RATE * MINUTES * 60);
        expect(end.kib).toBeLessThanOrEqual(warm.kib * (1 + TOLERANCE));
        expect(slope).toBeLessThan(SLOPE_MIB_PER_MIN);
      } finally {
        await stopDaemon(d);
        removeHome(home);
      }
    },
    (MINUTES * 60 + 300) * 1000,
  );
});
