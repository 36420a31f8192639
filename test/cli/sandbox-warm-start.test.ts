// `svc sandbox start` spawns its daemon before it has read its own command line (a warm start; cli/warm-daemon.ts,
// daemon/contract/warm-start.ts, docs/architecture.md "A start spawns the daemon first"). The daemon restores its
// heap while the CLI decides, then gets its flags on a pipe. It only saves time: a warm daemon answers as a cold
// one, a CLI that starts nothing leaves no process behind and no file in the home, and a warm daemon with no
// orders, bad ones or an output file it cannot open exits without starting. Through the real `bin/svc` and the
// real dist/daemon/main.js.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/cli.js';
import { EXIT_WARM_FAILED, WARM_FD_FLAG, type WarmOrders } from '../../daemon/contract/warm-start.js';

process.env.SVC_REGISTRY_DIR = mkdtempSync(join(tmpdir(), 'svc-registry-'));
const dirs: string[] = [process.env.SVC_REGISTRY_DIR];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** The start log line's `spawned` (warm or cold), of the last start of `home`. */
function spawnedAs(home: string): unknown {
  const lines = readFileSync(join(home, 'daemon.log'), 'utf8').split('\n');
  const listening = lines.filter((l) => l.includes('svc daemon listening')).map((l) => JSON.parse(l));
  return (listening.at(-1) as { spawned?: unknown } | undefined)?.spawned;
}

/** Pids of this user's processes whose environment carries `mark` (what a CLI run with it spawned). */
function processesMarked(mark: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes(mark)) pids.push(Number(pid));
    } catch {
      // gone, or another user's
    }
  }
  return pids;
}

/** Waits until no process carries `mark` (a warm daemon exits when its CLI's descriptor closes); those left. */
async function leftBehind(mark: string, boundMs = 15_000): Promise<number[]> {
  const until = Date.now() + boundMs;
  let pids = processesMarked(mark);
  while (pids.length > 0 && Date.now() < until) {
    await sleep(20);
    pids = processesMarked(mark);
  }
  return pids;
}

/** The state a start shows, without what differs between any two starts (ports, pids, keys, paths, times). */
function comparable(json: unknown): unknown {
  const text = JSON.stringify(json)
    .replace(/"(pid|port|sandbox_id|started_at|home)":("[^"]*"|\d+)/g, '"$1":"*"')
    .replace(/(127\.0\.0\.1|localhost):\d+/g, '$1:*')
    .replace(/"(\w+_key|\w+_step_up|signing_secret)":"[^"]*"/g, '"$1":"*"')
    .replace(/svc-warm-[A-Za-z0-9]+/g, 'HOME');
  return JSON.parse(text);
}

/** Starts a sandbox (seed 7) in a new home, reads the clock and the quotes, stops it; how it was spawned. */
async function startAndAsk(env: Record<string, string> = {}) {
  const home = tempDir('svc-warm-');
  const started = await runSvc(['sandbox', 'start', '--port', '0', '--seed', '7', '--json'], { home, env });
  expect(started.code, started.stderr).toBe(0);
  try {
    const clock = await runSvc(['clock', 'show', '--json'], { home });
    const quotes = await runSvc(['market', 'quotes', '--json'], { home });
    expect([clock.code, quotes.code]).toEqual([0, 0]);
    return { spawned: spawnedAs(home), banner: comparable(started.json), answers: [clock.json, quotes.json] };
  } finally {
    await runSvc(['sandbox', 'stop'], { home });
  }
}

/** dist/daemon/main.js spawned warm, as bin/svc spawns it (without the snapshot: the protocol is the same). */
function warmDaemon() {
  const child = spawn(process.execPath, [resolve('dist/daemon/main.js'), WARM_FD_FLAG, '3'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    env: { ...process.env, SVC_EXTRA_CA_CERTS: '' },
  });
  const pipe = child.stdio[3] as Socket;
  let said = '';
  pipe.setEncoding('utf8');
  pipe.on('data', (chunk: string) => {
    said += chunk;
  });
  pipe.on('error', () => undefined);
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, pipe, exited, said: () => said };
}

describe('svc sandbox start spawns its daemon first', () => {
  it('a start spawns its daemon warm, and that daemon answers exactly as one spawned cold', async () => {
    const warm = await startAndAsk();
    const cold = await startAndAsk({ SVC_DAEMON_WARM: 'off' });
    expect(warm.spawned).toBe('warm');
    expect(cold.spawned).toBe('cold');
    expect(warm.banner).toEqual(cold.banner);
    expect(warm.answers).toEqual(cold.answers);
  });

  it('a start that starts nothing (already running, a wrong flag, --help) leaves no daemon and no file behind', async () => {
    const home = tempDir('svc-warm-');
    const mark = `SVC_WARM_TEST_MARK=${Date.now()}${process.pid}`;
    const [key, value] = mark.split('=');
    const env = { [key]: value };
    expect((await runSvc(['sandbox', 'start', '--port', '0'], { home })).code).toBe(0);
    try {
      const again = await runSvc(['sandbox', 'start', '--port', '0'], { home, env });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('already running');
      expect(await leftBehind(mark)).toEqual([]);
    } finally {
      await runSvc(['sandbox', 'stop'], { home });
    }
    const fresh = join(tempDir('svc-warm-'), 'home');
    const wrong = await runSvc(['sandbox', 'start', '--clock', 'sideways'], { home: fresh, env });
    expect(wrong.code).toBe(2);
    const help = await runSvc(['sandbox', 'start', '--help'], { home: fresh, env });
    expect(help.code).toBe(0);
    expect(await leftBehind(mark)).toEqual([]);
    // nothing of a daemon's was made in the home: no database, no credentials, no output file, no locator
    const made = existsSync(fresh) ? readdirSync(fresh) : [];
    expect(made.filter((f) => /svc\.db|credentials|daemon|kek/.test(f))).toEqual([]);
  });

  it('a foreground start lets its warm daemon go: the daemon in the foreground is the only one', async () => {
    const home = tempDir('svc-warm-');
    const mark = `SVC_WARM_TEST_MARK=fg${Date.now()}${process.pid}`;
    const [key, value] = mark.split('=');
    const cli = spawn(
      process.execPath,
      [resolve('bin/svc'), '--home', home, 'sandbox', 'start', '--foreground', '--port', '0'],
      {
        env: { ...process.env, NO_COLOR: '1', CI: '1', [key]: value },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cli.stdout.setEncoding('utf8');
    let out = '';
    const running = new Promise<void>((done) =>
      cli.stdout.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('base_url')) done();
      }),
    );
    await running;
    try {
      const daemons = async () =>
        processesMarked(mark).filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('daemon/main.js');
          } catch {
            return false;
          }
        });
      const until = Date.now() + 15_000;
      let pids = await daemons();
      while (pids.length > 1 && Date.now() < until) {
        await sleep(20);
        pids = await daemons();
      }
      expect(pids).toHaveLength(1);
      expect(readFileSync(`/proc/${pids[0]}/cmdline`, 'latin1')).not.toContain(WARM_FD_FLAG);
      // the start's log line follows its banner (the daemon says it listens, then builds its routes)
      while (!existsSync(join(home, 'daemon.log')) || spawnedAs(home) === undefined) await sleep(20);
      expect(spawnedAs(home)).toBe('cold');
    } finally {
      const gone = new Promise((done) => cli.on('exit', done));
      cli.kill('SIGINT');
      await gone;
    }
  });
});

describe('a warm daemon', () => {
  it('whose orders never come (its CLI exited or was killed) exits 0, having opened nothing', async () => {
    const d = warmDaemon();
    d.pipe.end();
    d.pipe.destroy();
    expect(await d.exited).toBe(0);
  });

  it('with a wrong flag says why in the output file it was given, and exits 2 without listening', async () => {
    const home = tempDir('svc-warm-');
    const d = warmDaemon();
    const orders: WarmOrders = {
      argv: ['--home', home, '--port', '0', '--seed', 'seven', '--ready-fd', '3'],
      out: join(home, 'daemon.out'),
    };
    d.pipe.write(`${JSON.stringify(orders)}\n`);
    expect(await d.exited).toBe(2);
    expect(readFileSync(orders.out, 'utf8')).toContain('--seed seven must be an integer');
    expect(d.said()).toBe('');
    expect(existsSync(join(home, 'daemon.json'))).toBe(false);
  });

  it('whose output file cannot be opened exits 15 without touching the home (the CLI then spawns one cold)', async () => {
    const home = tempDir('svc-warm-');
    mkdirSync(join(home, 'daemon.out'));
    const d = warmDaemon();
    const orders: WarmOrders = {
      argv: ['--home', home, '--port', '0', '--ready-fd', '3'],
      out: join(home, 'daemon.out'),
    };
    d.pipe.write(`${JSON.stringify(orders)}\n`);
    expect(await d.exited).toBe(EXIT_WARM_FAILED);
    expect(readdirSync(home)).toEqual(['daemon.out']);
  });

  it('given its orders listens, says so on the same pipe, and writes what it prints to its output file', async () => {
    const home = tempDir('svc-warm-');
    const d = warmDaemon();
    const orders: WarmOrders = {
      argv: ['--home', home, '--port', '0', '--seed', '7', '--clock', 'frozen', '--ready-fd', '3'],
      out: join(home, 'daemon.out'),
    };
    d.pipe.write(`${JSON.stringify(orders)}\n`);
    const ready = await new Promise<{ pid: number; base_url: string }>((done) =>
      d.pipe.on('close', () => done(JSON.parse(d.said()))),
    );
    try {
      expect(ready.pid).toBe(d.child.pid);
      const health = await fetch(`${ready.base_url}/healthz`);
      expect(health.status).toBe(200);
      // answered: the app is built, and the start's log line written
      expect(spawnedAs(home)).toBe('warm');
      expect(existsSync(orders.out)).toBe(true);
    } finally {
      d.child.kill('SIGTERM');
      await d.exited;
    }
  });
});
