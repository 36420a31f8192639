// Issue 12, items 1 and 2, through the real `bin/svc`: a command acts on the sandbox it names, or on
// none; starting never leaves a broken home. Every home here is a fresh temporary directory, and the
// per-user registry of homes is this file's own (SVC_REGISTRY_DIR), so `svc sandbox list` sees only
// the homes made here.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSvc, SVC, type CliResult } from '../helpers/cli.js';
import { TmuxSession } from '../helpers/tmux.js';
import { resolveProfile } from '../../cli/context.js';
import { apiSource } from '../../cli/live/api-source.js';

process.env.SVC_REGISTRY_DIR = mkdtempSync(join(tmpdir(), 'svc-registry-'));
const made: string[] = [process.env.SVC_REGISTRY_DIR];
const listeners: Server[] = [];

afterAll(async () => {
  // The homes stop together: each stop waits for its own daemon to exit, none for another's.
  await Promise.all(
    made.map(async (home) => {
      if (existsSync(join(home, 'daemon.json'))) await runSvc(['--home', home, 'sandbox', 'stop']);
      rmSync(home, { recursive: true, force: true });
    }),
  );
  for (const l of listeners) l.close();
});

/** SIGKILL, then wait (up to 10 s) until the process is gone and its port free: a fixed pause was too short on a loaded
 * machine. Gone means reaped: svc's liveness check (kill -0) still sees an unreaped zombie, and the detached daemon's
 * reaper (init here) takes its time, so this looks often rather than long. */
async function killAndWait(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 500; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'svc-ident-'));
  made.push(home);
  return home;
}

/** `svc --home HOME ARGS`, with `env` added to this process's environment. */
function svcAt(home: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runSvc(['--home', home, ...args], { env });
}

async function started(
  home: string,
  extra: string[] = ['--port', '0'],
): Promise<{ port: number; pid: number; base_url: string }> {
  const r = await svcAt(home, ['sandbox', 'start', '--json', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return { port: Number(new URL(r.json.base_url).port), pid: r.json.pid, base_url: r.json.base_url };
}

async function clockOf(home: string): Promise<string> {
  const r = await svcAt(home, ['clock', 'show', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.json.timestamp;
}

/** The variables `eval "$(svc --home HOME sandbox env)"` would set. */
async function envOf(home: string): Promise<Record<string, string>> {
  const r = await svcAt(home, ['sandbox', 'env', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.json;
}

/** Holds a port on the loopback from this test process (not an svc sandbox). */
async function holdPort(port = 0): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ready());
  });
  listeners.push(server);
  return (server.address() as { port: number }).port;
}

/** Lets go of a port `holdPort` took: a connection there is now refused at once. */
async function releasePort(port: number): Promise<void> {
  const i = listeners.findIndex((l) => (l.address() as { port: number } | null)?.port === port);
  const [server] = listeners.splice(i, 1);
  await new Promise((closed) => server.close(closed));
}

const START_CLOCK = '2026-11-22T09:00:00+02:00';

describe('a command acts on the sandbox it names, or on none', () => {
  it("with the environment of home A and --home B, clock advance moves B's clock and never A's", async () => {
    const a = newHome();
    const b = newHome();
    await Promise.all([started(a), started(b)]);
    const envA = await envOf(a);
    expect(envA.SVC_HOME).toBe(a);
    expect(envA.SVC_SANDBOX_ID).toBe(readFileSync(join(a, 'sandbox-id'), 'utf8').trim());
    const moved = await runSvc(['--home', b, 'clock', 'advance', '--hours', '1', '--json'], { env: envA });
    expect(moved.code, moved.stderr).toBe(0);
    expect(await clockOf(b)).toBe('2026-11-22T10:00:00+02:00');
    expect(await clockOf(a)).toBe(START_CLOCK);
    // The environment alone still names A.
    const shown = await runSvc(['clock', 'show', '--json'], { env: envA });
    expect(shown.json.timestamp).toBe(START_CLOCK);
  });

  it("an environment that mixes two homes (A's home and keys, B's URL) is refused and changes nothing", async () => {
    const a = newHome();
    const b = newHome();
    const [, bAt] = await Promise.all([started(a), started(b)]);
    const mixed = { ...(await envOf(a)), SVC_BASE_URL: bAt.base_url };
    const r = await runSvc(['clock', 'advance', '--hours', '1'], { env: mixed });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`not the sandbox of home ${a}`);
    expect(r.stderr).toContain(`home ${b}`);
    expect(await clockOf(a)).toBe(START_CLOCK);
    expect(await clockOf(b)).toBe(START_CLOCK);
  });

  it("a home with a space and another sandbox's SVC_SANDBOX_ID: refused, and the suggested eval line, pasted into a shell, works", async () => {
    const a = mkdtempSync(join(tmpdir(), "svc ident it's-"));
    made.push(a);
    const b = newHome();
    await Promise.all([started(a), started(b)]);
    const mixed = { ...(await envOf(a)), SVC_SANDBOX_ID: (await envOf(b)).SVC_SANDBOX_ID };
    const r = await runSvc(['clock', 'show'], { env: mixed });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('the environment mixes two sandboxes');
    const line = /Run (eval "\$\(svc --home .+ sandbox env\)")/.exec(r.stderr)?.[1];
    expect(line, r.stderr).toBeDefined();
    const bin = join(process.cwd(), 'bin');
    const out = execFileSync('bash', ['-c', `${line!} && printf %s "$SVC_HOME"`], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    });
    expect(out).toBe(a);
  });
});

describe('a stopped home whose port another sandbox now holds is refused before any request or question', () => {
  it('stopped cleanly: exit 3 naming the home, no 401, and the other sandbox is untouched', async () => {
    const a = newHome();
    const b = newHome();
    const aAt = await started(a);
    expect((await svcAt(a, ['sandbox', 'stop'])).code).toBe(0);
    await started(b, ['--port', String(aAt.port)]);
    const r = await svcAt(a, ['clock', 'advance', '--hours', '1']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`The sandbox of home ${a} is not running`);
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stderr).not.toMatch(/\b401\b|UNAUTHENTICATED/);
    expect(await clockOf(b)).toBe(START_CLOCK);
  });

  it('killed (its locator left behind): exit 3 naming both homes, no 401, and the other sandbox is untouched', async () => {
    const a = newHome();
    const b = newHome();
    const aAt = await started(a);
    await killAndWait(aAt.pid);
    expect(existsSync(join(a, 'daemon.json'))).toBe(true);
    await started(b, ['--port', String(aAt.port)]);
    const r = await svcAt(a, ['clock', 'advance', '--hours', '1']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`is the sandbox of home ${b}`);
    expect(r.stderr).toContain(`not the sandbox of home ${a}`);
    expect(r.stderr).not.toMatch(/\b401\b|UNAUTHENTICATED/);
    expect(await clockOf(b)).toBe(START_CLOCK);
  });

  it('on a terminal, svc kyc apply says so before its first question', async () => {
    const a = newHome();
    const b = newHome();
    const aAt = await started(a);
    expect((await svcAt(a, ['sandbox', 'stop'])).code).toBe(0);
    await started(b, ['--port', String(aAt.port)]);
    const term = new TmuxSession(
      `env -u CI ${process.execPath} ${SVC} --home ${a} kyc apply; echo "EXIT=$?"; sleep 60`,
      { width: 160, height: 30 },
    );
    try {
      await term.waitFor('EXIT=3');
      const screen = term.screen();
      expect(screen).toContain(`The sandbox of home ${a} is not running`);
      expect(screen).not.toContain('Full name');
    } finally {
      term.kill();
    }
  });
});

describe('starting never leaves a broken home', () => {
  it('a busy port names the sandbox that holds it, suggests --port 0, prints no stack trace and writes nothing', async () => {
    const b = newHome();
    const bAt = await started(b);
    const c = newHome();
    const r = await svcAt(c, ['sandbox', 'start', '--port', String(bAt.port)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`port ${bAt.port} is in use by the svc sandbox of home ${b} (pid ${bAt.pid})`);
    // the suggestion starts the home asked for, not the default one
    expect(r.stderr).toContain(`Start on a free port with: svc --home ${c} sandbox start --port 0`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    for (const name of ['daemon.json', 'credentials.json', 'svc.db', 'profiles.json'])
      expect(existsSync(join(c, name)), name).toBe(false);
  });

  it('a busy port held by another program names it as another process, with its pid', async () => {
    const port = await holdPort();
    const r = await svcAt(newHome(), ['sandbox', 'start', '--port', String(port)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`port ${port} is in use by another process (pid ${process.pid}`);
    expect(r.stderr).toContain('--port 0');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a busy default port (none asked for) is replaced by a free one, and it says so', async () => {
    await holdPort(4710).catch(() => undefined); // taken by this test, or already by someone else
    const home = newHome();
    const r = await svcAt(home, ['sandbox', 'start', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('port 4710 is in use by');
    expect(r.stderr).toContain('starting on a free port instead');
    expect(new URL(r.json.base_url).port).not.toBe('4710');
  });

  it('a failed start leaves no locator, no credentials and no database', async () => {
    const home = newHome();
    const r = await svcAt(home, ['sandbox', 'start', '--port', '0', '--start', 'not-a-time']);
    // a value the daemon cannot take is a usage error: exit 2, as for a home it refuses to start
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--start not-a-time is not an RFC 3339 timestamp');
    for (const name of ['daemon.json', 'credentials.json', 'svc.db', 'kek.key', 'sandbox-id', 'profiles.json'])
      expect(existsSync(join(home, name)), name).toBe(false);
  });

  it('a daemon that cannot listen exits 98 in one line and removes what its first start created', async () => {
    const home = newHome();
    const port = await holdPort();
    let code = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, ['dist/daemon/main.js', '--home', home, '--port', String(port)], {
        stdio: 'pipe',
      });
    } catch (err) {
      code = (err as { status: number }).status;
      stderr = String((err as { stderr: Buffer }).stderr);
    }
    expect(code).toBe(98);
    expect(stderr.trim()).toBe(`svc daemon: port ${port} on 127.0.0.1 is already in use`);
    for (const name of ['daemon.json', 'credentials.json', 'svc.db', 'kek.key', 'sandbox-id'])
      expect(existsSync(join(home, name)), name).toBe(false);
  });

  it("a killed sandbox's locator is removed when its restart finds the port taken", async () => {
    const a = newHome();
    const aAt = await started(a);
    await killAndWait(aAt.pid);
    const b = newHome();
    await started(b, ['--port', String(aAt.port)]);
    const r = await svcAt(a, ['sandbox', 'start', '--port', String(aAt.port)]);
    expect(r.code).toBe(1);
    expect(existsSync(join(a, 'daemon.json'))).toBe(false);
  });

  it('a home started on --port 0 restarts on a free port, not the old recorded one', async () => {
    const a = newHome();
    const first = await started(a);
    expect((await svcAt(a, ['sandbox', 'stop'])).code).toBe(0);
    await holdPort(first.port);
    const again = await started(a, []);
    expect(again.port).not.toBe(first.port);
    expect(again.port).not.toBe(4710);
  });
});

describe('svc sandbox list shows every sandbox on the machine', () => {
  it('up and down homes, with port, pid, clock and seed for the running ones', async () => {
    const up = newHome();
    const down = newHome();
    const [upAt] = await Promise.all([started(up), started(down, ['--port', '0', '--seed', '7'])]);
    expect((await svcAt(down, ['sandbox', 'stop'])).code).toBe(0);
    const r = await runSvc(['sandbox', 'list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows: Array<Record<string, unknown>> = r.json.sandboxes;
    expect(rows.find((s) => s.home === up)).toMatchObject({
      status: 'up',
      port: upAt.port,
      pid: upAt.pid,
      seed: 42,
      clock: START_CLOCK,
      clock_mode: 'frozen',
    });
    expect(rows.find((s) => s.home === down)).toMatchObject({ status: 'down', port: null, pid: null });
    const text = await runSvc(['sandbox', 'list']);
    expect(text.stdout).toMatch(
      new RegExp(
        `^up\\s+${upAt.port}\\s+${upAt.pid}\\s+${START_CLOCK.replace('+', '\\+')} \\(frozen\\)\\s+42\\s+${up}$`,
        'm',
      ),
    );
    expect(text.stdout).toMatch(new RegExp(`^down\\s+-\\s+-\\s+-\\s+-\\s+${down}$`, 'm'));
  });
});

describe('live screens follow a daemon that came back on a new port', () => {
  it("the dashboard's data source reads the clock again after a restart on another port", async () => {
    const a = newHome();
    const first = await started(a);
    const profile = resolveProfile({ home: a });
    const source = apiSource(profile);
    expect((await source.clock()).timestamp).toBe(START_CLOCK);
    expect((await svcAt(a, ['sandbox', 'stop'])).code).toBe(0);
    await holdPort(first.port);
    const again = await started(a, []);
    expect(again.port).not.toBe(first.port);
    // The old port is let go: a read there is refused at once. Held by a listener that never answers, the read
    // would wait out its 10 s timeout before the source looked at the locator (the same path, 10 s later).
    await releasePort(first.port);
    expect((await source.clock()).timestamp).toBe(START_CLOCK);
    expect(profile.base_url).toBe(again.base_url);
  });
});
