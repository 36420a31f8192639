// Issue 13: a client statement (docs/reports.md, "Rendering and the event loop"). One investor with
// 500 trades over twelve months (ten market orders a week for fifty weeks, then the clock to a year after the first,
// through the HTTP API of the built daemon), then the twelve-month statement with every section, twice:
// - cold: the daemon's first statement (the render worker starts and creates its Typst compiler);
// - warm: the same statement again (the worker and its compiler are warm). Goal: <= 1 s.
// Each is timed from POST /admin/sandbox/clock-advance {minutes: 2} to its answer, which comes once
// the report is ready (the document gathered, rendered in the worker, sealed and stored): the time a
// client waits for a statement on a frozen clock. Also: the daemon's peak memory (VmHWM of the process,
// worker included), the daemon's CPU time for the warm statement (what the wall time would be on a free
// core: on a shared machine the wall time mostly measures waiting for one) and the slowest GET /healthz
// answered while the warm statement rendered.
import { readFileSync } from 'node:fs';
import { call } from '../client.js';
import type { DaemonHandle } from '../context.js';
import { bench } from '../registry.js';
import { applicant, BALANCED } from '../../helpers/onboarding.js';

const TRADES = Number(process.env.BENCH_STATEMENT_TRADES ?? 500);
const WEEKS = 50;
const EGP = 1_000_000;

/** Peak resident memory of a process (Linux /proc), MiB; null elsewhere. */
function peakRssMb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** CPU time the process has used (user + system, every thread: the worker's included), ms; null off Linux. */
function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in clock ticks (100 Hz)
  } catch {
    return null;
  }
}

async function investorWithTrades(d: DaemonHandle): Promise<{ investorId: string; start: string }> {
  const app = await call(d, 'POST', '/v1/kyc/applications', applicant());
  await call(d, 'POST', `/v1/kyc/applications/${app.application_id}/submit`);
  const investorId = (await call(d, 'GET', `/v1/kyc/applications/${app.application_id}`)).investor_id as string;
  await call(d, 'PUT', `/v1/investors/${investorId}/suitability`, { questionnaire: BALANCED, risk_acknowledged: true });
  await call(d, 'POST', '/v1/transfers', {
    investor_id: investorId,
    direction: 'deposit',
    amount_micros: 70_000 * EGP,
  });
  const opened = await call(d, 'POST', '/admin/sandbox/clock-advance', { until: 'next_open' }, true);
  const perWeek = Math.ceil(TRADES / WEEKS);
  for (let week = 0, placed = 0; placed < TRADES; week++) {
    if (week > 0) {
      await call(d, 'POST', '/admin/sandbox/clock-advance', { days: 6 }, true);
      await call(d, 'POST', '/admin/sandbox/clock-advance', { until: 'next_open' }, true);
    }
    await call(d, 'POST', '/admin/sandbox/clock-advance', { minutes: 5 }, true);
    const n = Math.min(perWeek, TRADES - placed);
    await Promise.all(
      Array.from({ length: n }, () =>
        call(d, 'POST', '/v1/orders', {
          investor_id: investorId,
          symbol: 'VLMRA',
          side: 'buy',
          type: 'market',
          qty: 1,
        }),
      ),
    );
    placed += n;
  }
  return { investorId, start: String(opened.timestamp).slice(0, 10) };
}

/** Creates the statement and advances two minutes: the advance answers once the report is stored. */
async function timedStatement(d: DaemonHandle, body: Record<string, unknown>, probe: boolean) {
  const created = await call(d, 'POST', '/v1/reports', body);
  const cpu0 = cpuMs(d.pid);
  const t0 = performance.now();
  let done = false;
  const advancing = call(d, 'POST', '/admin/sandbox/clock-advance', { minutes: 2 }, true, 120_000).finally(
    () => (done = true),
  );
  let slowestHealthz = 0;
  while (probe && !done) {
    const h0 = performance.now();
    await call(d, 'GET', '/healthz');
    slowestHealthz = Math.max(slowestHealthz, performance.now() - h0);
    await new Promise((r) => setTimeout(r, 20));
  }
  await advancing;
  const ms = performance.now() - t0;
  const cpu1 = cpuMs(d.pid);
  const report = await call(d, 'GET', `/v1/reports/${created.report_id}`);
  if (report.state !== 'ready') throw new Error(`the statement is ${report.state} (${report.reason_code})`);
  return {
    ms,
    cpu: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
    bytes: report.bytes as number,
    slowestHealthz,
  };
}

bench(
  `statements: a 12-month client statement with ${TRADES} trades`,
  async (ctx) => {
    const d = await ctx.startDaemon();
    try {
      const { investorId, start } = await investorWithTrades(d);
      const end = `${Number(start.slice(0, 4)) + 1}${start.slice(4)}`;
      await call(d, 'POST', '/admin/sandbox/clock-advance', { until: `${end}T12:00:00+02:00` }, true);
      const body = { investor_id: investorId, type: 'client_statement', period_start: start, period_end: end };
      const rssBefore = peakRssMb(d.pid);
      const cold = await timedStatement(d, body, false);
      const warm = await timedStatement(d, body, true);
      const rssAfter = peakRssMb(d.pid);
      const goal = { op: '<=', value: 1000 } as const;
      return [
        {
          metric: 'cold: first statement (worker starts, compiler created), advance to ready',
          value: Math.round(cold.ms),
          unit: 'ms',
          note: `${(cold.bytes / 1024).toFixed(0)} KiB PDF, ${start}..${end}`,
        },
        { metric: 'warm: the same statement again, advance to ready', value: Math.round(warm.ms), unit: 'ms', goal },
        {
          metric: 'warm: daemon CPU time (all threads) for it',
          value: warm.cpu,
          unit: 'ms',
          note: 'the wall time above on a machine with a free core',
        },
        {
          metric: 'slowest GET /healthz while the warm statement rendered',
          value: Math.round(warm.slowestHealthz),
          unit: 'ms',
        },
        {
          metric: 'daemon peak RSS (VmHWM, worker included)',
          value: rssAfter,
          unit: 'MiB',
          note: rssBefore === null ? undefined : `${rssBefore} MiB before the first statement`,
        },
      ];
    } finally {
      await d.stop();
    }
  },
  { timeoutMs: 900_000 },
);
