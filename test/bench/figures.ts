// Shared ways of turning measurements into figures, so every HTTP suite reports the same columns.
import type { Comparison } from './context.js';
import type { LoadStats } from './load.js';
import type { Figure, Goal } from './registry.js';

/** Requests/s, p50/p99 latency and (when measurable) server CPU per request of one measured run. */
export function httpFigures(stats: LoadStats): Figure[] {
  const details = { ...stats };
  const figures: Figure[] = [
    { metric: 'throughput', value: stats.rps, unit: 'req/s', details },
    { metric: 'latency p50', value: stats.p50, unit: 'ms' },
    { metric: 'latency p99', value: stats.p99, unit: 'ms' },
  ];
  if (stats.serverCpuUsPerReq !== null) {
    figures.push({
      metric: 'server CPU per request',
      value: stats.serverCpuUsPerReq,
      unit: 'µs',
      note:
        `${stats.serverSysUsPerReq?.toFixed(1)} µs of it in the kernel; server ${stats.serverCpuPct?.toFixed(0)}` +
        ` % of a core, client ${stats.clientCpuPct.toFixed(0)} %`,
    });
  }
  return figures;
}

/**
 * Server CPU per request of the baseline over that of the route, as %: what the throughput ratio would
 * be if both were purely CPU-bound. Informational; steadier than req/s when the machine is shared.
 */
export function cpuRatioFigure(stats: LoadStats, baseline: LoadStats): Figure | null {
  if (stats.serverCpuUsPerReq === null || baseline.serverCpuUsPerReq === null || stats.serverCpuUsPerReq === 0)
    return null;
  return {
    metric: 'CPU per request vs baseline',
    value: (100 * baseline.serverCpuUsPerReq) / stats.serverCpuUsPerReq,
    unit: '%',
    note: 'baseline CPU/req ÷ route CPU/req',
  };
}

/** Throughput as a percentage of the baseline run just before it, judged against goalPct when given. */
export function ratioFigure(c: Comparison, goalPct?: number): Figure {
  const goal: Goal | undefined = goalPct === undefined ? undefined : { op: '>=', value: goalPct };
  const rounds =
    c.rounds.length > 1
      ? `, median of ${c.rounds.length} rounds (${c.rounds.map((r) => r.ratioPct.toFixed(0)).join(', ')} %)`
      : '';
  return {
    metric: 'throughput vs baseline',
    value: c.ratioPct,
    unit: '%',
    goal,
    note: `baseline ${Math.round(c.base.rps).toLocaleString('en-US')} req/s measured just before${rounds}`,
    details: {
      rps: c.stats.rps,
      baseline_rps: c.base.rps,
      rounds: c.rounds.map((r) => ({ rps: r.stats.rps, baseline_rps: r.base.rps, ratio_pct: r.ratioPct })),
    },
  };
}

/** The figures of a compared route: throughput, latency, CPU per request, both ratios. */
export function comparisonFigures(c: Comparison, goalPct?: number): Figure[] {
  const cpu = cpuRatioFigure(c.stats, c.base);
  return [...httpFigures(c.stats), ...(cpu ? [cpu] : []), ratioFigure(c, goalPct)];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
