// Issues 2 and 29: `svc sandbox start` — from spawning the CLI to its exit, which happens once the daemon
// listens and the CLI has printed the credentials banner — on a fresh home (the first start's bootstrap:
// template database, key minting) and as a restart of an existing home, each against a bare `node -e 1`
// measured in the same rounds on the same machine. Goals (issue 29): fresh <= 4 x node, restart <= 3 x. A
// restart whose daemon is spawned cold (after the CLI has decided, not first) is measured too, for reading.
import { once } from 'node:events';
import { join } from 'node:path';
import { spawnDaemon } from '../../../cli/daemon-process.js';
import { SVC_BIN } from '../context.js';
import { median } from '../figures.js';
import { alive, runCommand, sleep, tempHome, trackPid, untrackPid } from '../proc.js';
import { bench, type Figure } from '../registry.js';
import type { BenchContext } from '../context.js';

export const COLD_START_GOAL_S = 1.5;
export const FRESH_RATIO_GOAL = 4;
export const RESTART_RATIO_GOAL = 3;

async function stopSandbox(home: string, pid: number | undefined, root: string): Promise<void> {
  await runCommand(SVC_BIN, ['sandbox', 'stop', '--home', home, '--json'], { cwd: root, timeoutMs: 15_000 }).catch(
    () => undefined,
  );
  if (pid !== undefined) {
    const deadline = Date.now() + 5000;
    while (alive(pid) && Date.now() < deadline) await sleep(25);
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    untrackPid(pid);
  }
}

/** One `svc sandbox start --json` in `home`, stopped again afterwards; its wall time in seconds. */
async function timedStart(ctx: BenchContext, home: string, env: Record<string, string> = {}): Promise<number> {
  const r = await runCommand(SVC_BIN, ['sandbox', 'start', '--port', '0', '--home', home, '--json'], {
    cwd: ctx.root,
    timeoutMs: 30_000,
    env: { ...process.env, CI: '1', ...env },
  });
  let pid: number | undefined;
  try {
    pid = (JSON.parse(r.stdout) as { pid?: number }).pid;
  } catch {
    /* reported below */
  }
  if (pid !== undefined) trackPid(pid);
  await stopSandbox(home, pid, ctx.root);
  if (r.code !== 0 || pid === undefined) {
    const said = (r.stderr || r.stdout).trim().slice(0, 300);
    throw new Error(`svc sandbox start exited ${r.code ?? r.signal}: ${said} (log ${join(home, 'daemon.out')})`);
  }
  return r.ms / 1000;
}

interface Rounds {
  node: number[];
  fresh: number[];
  restart: number[];
  /** Restarts whose daemon is spawned once the CLI has decided, not first (SVC_DAEMON_WARM=off): for reading. */
  coldSpawn: number[];
}

/** Rounds of: a bare `node -e 1`, a start on a fresh home, a restart of that home, one more with a cold spawn. */
async function rounds(ctx: BenchContext): Promise<Rounds> {
  const out: Rounds = { node: [], fresh: [], restart: [], coldSpawn: [] };
  for (let i = 0; i < ctx.config.coldRuns; i++) {
    const bare = await runCommand(process.execPath, ['-e', '1'], { cwd: ctx.root, timeoutMs: 30_000 });
    out.node.push(bare.ms / 1000);
    const home = tempHome('cold');
    out.fresh.push(await timedStart(ctx, home));
    out.restart.push(await timedStart(ctx, home));
    out.coldSpawn.push(await timedStart(ctx, home, { SVC_DAEMON_WARM: 'off' }));
  }
  return out;
}

bench(
  'cold start: svc sandbox start',
  async (ctx) => {
    const { node, fresh, restart, coldSpawn } = await rounds(ctx);
    // For reading the figure: the daemon alone, spawned as svc spawns it (cli/daemon-process.ts: the startup
    // snapshot when there is one, the environment svc gives it), fresh home, until its ready line.
    const daemonOnly: number[] = [];
    for (let i = 0; i < ctx.config.coldRuns; i++) {
      const home = tempHome('alone');
      const t0 = performance.now();
      const d = await spawnDaemon({ home, port: 0, seed: 42, clock: 'frozen', detached: false });
      daemonOnly.push((performance.now() - t0) / 1000);
      d.child.kill('SIGTERM');
      await once(d.child, 'exit');
    }
    const n = median(node);
    const figures: Figure[] = [
      { metric: 'bare node -e 1, median', value: n * 1000, unit: 'ms', details: { samples_s: node } },
      {
        metric: `fresh home, median of ${fresh.length}`,
        value: median(fresh),
        unit: 's',
        goal: { op: '<=', value: COLD_START_GOAL_S },
        details: { samples_s: fresh },
      },
      { metric: 'restart, median', value: median(restart), unit: 's', details: { samples_s: restart } },
      { metric: 'fresh / node', value: median(fresh) / n, unit: 'x', goal: { op: '<=', value: FRESH_RATIO_GOAL } },
      {
        metric: 'restart / node',
        value: median(restart) / n,
        unit: 'x',
        goal: { op: '<=', value: RESTART_RATIO_GOAL },
      },
      {
        metric: 'restart, daemon spawned cold',
        value: median(coldSpawn),
        unit: 's',
        note: 'SVC_DAEMON_WARM=off: spawned once the CLI has decided',
        details: { samples_s: coldSpawn },
      },
      {
        metric: 'daemon alone, spawn to ready line',
        value: median(daemonOnly),
        unit: 's',
        note: `median of ${daemonOnly.length}, fresh home, no CLI`,
        details: { samples_s: daemonOnly },
      },
    ];
    return figures;
  },
  { timeoutMs: (ctx) => ctx.config.coldRuns * 4 * 50_000 },
);
