// HTTP load with autocannon, run inside the bench process (the servers are child processes): a
// warm-up run whose figures are discarded, then the measured run. Every figure the suites report
// comes from here, so the baseline and the daemon are always measured the same way.
//
// Latency percentiles are computed from every 2xx response time (autocannon's own histogram keeps
// whole milliseconds, which reads 0 ms for a sub-millisecond server). When the server's pid is given
// (Linux), its CPU time over the measured run is read from /proc, giving CPU per request — a figure
// much less sensitive to a noisy machine than requests/s.
import { readFileSync } from 'node:fs';
import autocannon, { type Options, type Result } from 'autocannon';
import { withTimeout } from './proc.js';

export interface LoadConfig {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  pipelining?: number;
}

export interface LoadTarget {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Per-request variation (e.g. fresh Idempotency-Key and signature per order); autocannon `requests`. */
  requests?: Options['requests'];
  /** The server process, to account its CPU time (optional). */
  serverPid?: number;
}

export interface LoadStats {
  url: string;
  /** Mean of the per-second request counts of the measured run. */
  rps: number;
  /** Latency percentiles and mean of the measured run's 2xx responses, milliseconds (fractional). */
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  seconds: number;
  connections: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Server CPU (user + system) per request, microseconds; null when not measurable. */
  serverCpuUsPerReq: number | null;
  /** Of which in the kernel (system time: socket and file writes), microseconds per request. */
  serverSysUsPerReq: number | null;
  /** Server CPU utilisation over the run, % of one core; null when not measurable. */
  serverCpuPct: number | null;
  /** The bench process's (the client's) CPU utilisation, % of one core. */
  clientCpuPct: number;
}

const CLK_TCK = 100; // Linux USER_HZ; /proc/<pid>/stat counts in these ticks.

/** utime and stime of a process, ms; null when /proc is not available. */
function procCpuMs(pid: number | undefined): { user: number; sys: number } | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of proc_pid_stat(5) (11 and 12 after "pid (comm) ").
    return { user: (Number(fields[11]) * 1000) / CLK_TCK, sys: (Number(fields[12]) * 1000) / CLK_TCK };
  } catch {
    return null;
  }
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

interface Run {
  result: Result;
  latencies: Float64Array;
  serverCpuMs: { user: number; sys: number } | null;
  clientCpuMs: number;
  wallMs: number;
}

async function once(target: LoadTarget, cfg: LoadConfig, seconds: number, record: boolean): Promise<Run> {
  let lat = new Float64Array(record ? 1 << 16 : 0);
  let n = 0;
  const cpu0 = procCpuMs(target.serverPid);
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  const run = autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    requests: target.requests,
    connections: cfg.connections,
    pipelining: cfg.pipelining ?? 1,
    duration: seconds,
    timeout: 10,
  });
  if (record) {
    run.on('response', (_client, status, _bytes, ms) => {
      if (status < 200 || status > 299) return;
      if (n === lat.length) {
        const grown = new Float64Array(lat.length * 2);
        grown.set(lat);
        lat = grown;
      }
      lat[n++] = ms;
    });
  }
  // Bounded: autocannon stops itself after `duration`; this guards against a wedged server.
  const result = await withTimeout(run, seconds * 1000 + 15_000, `autocannon ${target.url}`).catch((err) => {
    run.stop();
    throw err;
  });
  const wallMs = performance.now() - t0;
  const cpu1 = procCpuMs(target.serverPid);
  const client = process.cpuUsage(client0);
  return {
    result,
    latencies: lat.subarray(0, n).sort(),
    serverCpuMs: cpu0 !== null && cpu1 !== null ? { user: cpu1.user - cpu0.user, sys: cpu1.sys - cpu0.sys } : null,
    clientCpuMs: (client.user + client.system) / 1000,
    wallMs,
  };
}

/** Warm-up (discarded) then the measured run. Throws when the server answered anything but 2xx. */
export async function measure(target: LoadTarget, cfg: LoadConfig): Promise<LoadStats> {
  if (cfg.warmupSeconds > 0) await once(target, cfg, cfg.warmupSeconds, false);
  const { result: r, latencies, serverCpuMs, clientCpuMs, wallMs } = await once(target, cfg, cfg.seconds, true);
  const mean = latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : NaN;
  const stats: LoadStats = {
    url: target.url,
    rps: r.requests.average,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    mean,
    requests: r.requests.total,
    seconds: r.duration,
    connections: r.connections,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    serverCpuUsPerReq:
      serverCpuMs !== null && r.requests.total > 0
        ? ((serverCpuMs.user + serverCpuMs.sys) * 1000) / r.requests.total
        : null,
    serverSysUsPerReq:
      serverCpuMs !== null && r.requests.total > 0 ? (serverCpuMs.sys * 1000) / r.requests.total : null,
    serverCpuPct: serverCpuMs !== null ? (100 * (serverCpuMs.user + serverCpuMs.sys)) / wallMs : null,
    clientCpuPct: (100 * clientCpuMs) / wallMs,
  };
  if (stats.requests === 0) throw new Error(`no responses from ${target.url}`);
  if (stats.non2xx > 0 || stats.errors > 0) {
    throw new Error(
      `${target.url}: ${stats.non2xx} non-2xx responses and ${stats.errors} errors out of ${stats.requests}; ` +
        `the figure would not measure the route`,
    );
  }
  return stats;
}
