// Where does a request's time go? Starts the daemon under `node --cpu-prof`, loads one route with
// autocannon (the same way the bench does), stops the daemon gracefully so V8 writes the profile, and
// prints the split by area (daemon source file, package, node internals, GC) and the top frames by
// self and inclusive time, bundle frames mapped back to daemon/*.ts.
//
//   npm run build && npx tsx test/bench/profile.ts [baseline] [floor] [orders] [/v1/clock] [more paths...]
//   (`baseline` profiles the bare fastify hello-world the same way, for comparison; `orders` the
//   daemon under signed market orders that fill, `floor` servers/floor.mjs under the same orders)
//   env: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (10), PROFILE_TOP (25), PROFILE_LEAVES (3: the
//   frames listed under each component), PROFILE_KEEP=1 keeps the .cpuprofile files (open them in
//   Chrome DevTools > Performance or speedscope).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyse, type FrameStat } from './cpuprofile.js';
import { BenchContext, configFromEnv } from './context.js';
import type { LoadTarget } from './load.js';
import { daemonForOrders, floorForOrders } from './order-load.js';
import { DAEMON_ORDER_COMPONENTS, FLOOR_ORDER_COMPONENTS } from './order-components.js';
import { cleanupSync, installCleanup, tempDir } from './proc.js';

const NAMED = new Set(['baseline', 'floor', 'orders']);
const paths = process.argv.slice(2).filter((a) => a.startsWith('/') || NAMED.has(a));
if (paths.length === 0) paths.push('/v1/clock', '/v1/markets/XCAI/instruments/COMI/quote');
const top = Number(process.env.PROFILE_TOP ?? 25);
const config = configFromEnv();
installCleanup(paths.length * ((config.load.seconds + config.load.warmupSeconds) * 1000 + 60_000));
const ctx = new BenchContext(config, (m) => process.stderr.write(`${m}\n`));

/** The server to profile and the load to put on it. */
async function server(
  path: string,
  nodeArgs: string[],
): Promise<{ target: LoadTarget; pid: number; stop(): Promise<void> }> {
  if (path === 'baseline')
    return ctx
      .startHello({ nodeArgs })
      .then((h) => ({ target: { url: h.url, serverPid: h.pid }, pid: h.pid, stop: h.stop }));
  if (path === 'floor') return floorForOrders(ctx, nodeArgs);
  if (path === 'orders') return daemonForOrders(ctx, 4, nodeArgs);
  const h = await ctx.startDaemon({ nodeArgs });
  return { target: { url: h.baseUrl + path, headers: h.bearer, serverPid: h.pid }, pid: h.pid, stop: h.stop };
}

const title = (path: string) =>
  path === 'baseline'
    ? 'baseline GET /'
    : path === 'floor'
      ? 'floor signed POST /v1/orders'
      : path === 'orders'
        ? 'daemon signed POST /v1/orders'
        : `GET ${path}`;

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));
const ms = (v: number) => v.toFixed(0).padStart(7);
const pct = (v: number, of: number) => `${((100 * v) / of).toFixed(1).padStart(5)} %`;

for (const path of paths) {
  const dir = process.env.PROFILE_KEEP ? join(ctx.root, 'bench-results', 'profiles') : tempDir('prof');
  const nodeArgs = ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '250'];
  const d = await server(path, nodeArgs);
  const target = d.target;
  // Warm-up outside the window, then the measured run inside it: the figures are per served request.
  if (config.load.warmupSeconds > 0)
    await ctx.measure(target, { seconds: config.load.warmupSeconds, warmupSeconds: 0 });
  const from = Number(process.hrtime.bigint() / 1000n);
  const stats = await ctx.measure(target, { warmupSeconds: 0 });
  const to = Number(process.hrtime.bigint() / 1000n);
  await d.stop();
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile') && f.includes(`.${d.pid}.`))
    .map((f) => join(dir, f))[0];
  if (!file) throw new Error(`no .cpuprofile for pid ${d.pid} in ${dir}`);
  const components = path === 'orders' ? DAEMON_ORDER_COMPONENTS : path === 'floor' ? FLOOR_ORDER_COMPONENTS : [];
  const s = analyse(file, ctx.root, [from, to], components);
  const us = (v: number) => `${((v * 1000) / stats.requests).toFixed(2).padStart(6)} µs/req`;
  const out: string[] = [];
  out.push(
    '',
    `== ${title(path)}: ${Math.round(stats.rps)} req/s, p50 ${stats.p50.toFixed(2)} ms, ` +
      `p99 ${stats.p99.toFixed(2)} ms, ${stats.requests} requests; ` +
      `server CPU ${stats.serverCpuUsPerReq?.toFixed(1)} µs/req`,
  );
  out.push(
    `   profile ${file}`,
    `   measured run only: ${s.busyMs.toFixed(0)} ms sampled busy of ${s.totalMs.toFixed(0)} ms = ` +
      `${us(s.busyMs).trim()} (wall-clock sampling: time the`,
    `   thread waits for a CPU inside a syscall counts as that syscall, e.g. writev; server CPU from /proc is ` +
      `the true cost)`,
  );
  out.push('', '-- self time by area');
  for (const a of s.areas.slice(0, 20))
    out.push(`  ${pad(a.area, 44)} ${ms(a.selfMs)} ms ${pct(a.selfMs, s.busyMs)} ${us(a.selfMs)}`);
  if (s.components.length > 0) {
    // Sampled time is wall-clock (see above); scaled to the server CPU per request from /proc, the
    // parts add up to the figure the bench reports.
    const scale = (stats.serverCpuUsPerReq ?? 0) / ((s.busyMs * 1000) / stats.requests);
    out.push('', '-- by component (µs per request: sampled, and scaled to the server CPU per request)');
    for (const c of s.components) {
      out.push(
        `  ${pad(c.name, 70)} ${us(c.ms)}  ${((c.ms * 1000 * scale) / stats.requests).toFixed(1).padStart(7)} µs`,
      );
      for (const l of c.leaves.slice(0, Number(process.env.PROFILE_LEAVES ?? 3)))
        out.push(`      ${pad(l.key, 80)} ${us(l.ms)}`);
    }
  }
  const show = (title: string, list: FrameStat[], val: (f: FrameStat) => number) => {
    out.push('', title);
    for (const f of list.slice(0, top))
      out.push(`  ${pad(f.key, 84)} ${ms(val(f))} ms ${pct(val(f), s.busyMs)} ${us(val(f))}  ${f.area}`);
  };
  const frames = s.frames.filter((f) => f.area !== '(program)' && f.area !== '(gc)' && f.area !== '(idle)');
  show(
    '-- top frames by self time',
    [...frames].sort((a, b) => b.selfMs - a.selfMs),
    (f) => f.selfMs,
  );
  // Inclusive time of our own code and of package entry points: what a request spends under each.
  const inclusive = frames.filter(
    (f) =>
      f.area.startsWith('daemon/') ||
      f.area.startsWith('test/bench/servers/') ||
      (!f.area.startsWith('node') && f.area !== '(native)' && f.area !== 'other'),
  );
  show(
    '-- daemon and package frames by inclusive time',
    [...inclusive].sort((a, b) => b.totalMs - a.totalMs),
    (f) => f.totalMs,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}
await ctx.close();
cleanupSync();
process.exit(0);
