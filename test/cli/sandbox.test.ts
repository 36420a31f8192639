import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';

let sb: CliSandbox;
beforeAll(async () => {
  sb = await startSandbox(['--seed', '11']);
});
afterAll(() => sb.stop());

describe('svc sandbox start prints base_url, console_url, tenant_id, api_key, signing_secret and the operator keys', () => {
  it('--json prints one JSON object with every credential, and the daemon is healthy', async () => {
    const i = sb.info;
    expect(i.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // the browser console, on localhost (passkeys need a host name), same port as the API
    expect(i.console_url).toBe(`${i.base_url.replace('127.0.0.1', 'localhost')}/console`);
    expect(i.tenant_id).toMatch(/^tnt_/);
    for (const k of [
      'api_key',
      'signing_secret',
      'admin_key',
      'dealer_key',
      'security_key',
      'approver_key',
      'compliance_key',
      'auditor_key',
      'auditor_step_up',
    ])
      expect(typeof i[k]).toBe('string');
    expect(i.seed).toBe(11);
    const health = await fetch(`${i.base_url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('the credentials file in $SVC_HOME is readable only by its owner', () => {
    const mode = statSync(join(sb.home, 'credentials.json')).mode & 0o777;
    expect(mode).toBe(0o600);
  });

  it('starting again on a running home reports the running sandbox instead of a second daemon', async () => {
    const again = await sb.svc(['sandbox', 'start', '--json']);
    expect(again.code).toBe(0);
    expect(again.json.pid).toBe(sb.info.pid);
    expect(again.json.note).toMatch(/already running/);
  });

  it("a human banner shows the keys (every operator identity's) and a working market", async () => {
    const again = await sb.svc(['sandbox', 'start']);
    for (const k of [
      'api_key',
      'admin_key',
      'dealer_key',
      'security_key',
      'approver_key',
      'compliance_key',
      'auditor_key',
    ]) {
      expect(again.stdout).toMatch(new RegExp(`${k}\\s+${sb.info[k]}`));
    }
    expect(again.stdout).toMatch(/COMI\s+[\d,.]+ EGP/);
  });

  it('a fresh start prints the clock and quotes the daemon answers (sent on its ready pipe, not asked for)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'svc-cli-banner-'));
    try {
      const fresh = await runSvc(['sandbox', 'start', '--port', '0', '--seed', '7'], { home });
      expect(fresh.code).toBe(0);
      // the request inspector saw nothing: the fresh start asked the daemon for nothing
      const seen = async () => (await runSvc(['logs', 'tail', '--json'], { home })).json.requests.length;
      expect(await seen()).toBe(0);
      // the running home's banner asks the daemon over HTTP: the same lines, the clock being frozen
      const asked = await runSvc(['sandbox', 'start'], { home });
      expect(await seen()).toBe(4);
      const market = (out: string) => out.split('\n').filter((l) => /^ {2}(clock |COMI|TMGH|FWRY)/.test(l));
      expect(market(fresh.stdout)).toHaveLength(4);
      expect(market(fresh.stdout)).toEqual(market(asked.stdout));
      expect(fresh.stdout).toMatch(/seed 7/);
      const state = await runSvc(['sandbox', 'status', '--json'], { home });
      expect(fresh.stdout).toContain(`clock ${state.json.clock.timestamp} (frozen)`);
    } finally {
      await runSvc(['sandbox', 'stop'], { home });
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('svc sandbox status|env|logs|reset', () => {
  it('status --json reports running, the clock and the seed', async () => {
    const r = await sb.svc(['sandbox', 'status', '--json']);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ running: true, seed: 11, pid: sb.info.pid });
    expect(r.json.clock.mode).toBe('frozen');
  });

  it('env prints export lines a shell can eval', async () => {
    const r = await sb.svc(['sandbox', 'env']);
    expect(r.stdout).toContain(`export SVC_BASE_URL='${sb.info.base_url}'`);
    expect(r.stdout).toContain(`export SVC_API_KEY='${sb.info.api_key}'`);
    expect(r.stdout).toContain(`export SVC_COMPLIANCE_KEY='${sb.info.compliance_key}'`);
    expect(r.stdout).toContain(`export SVC_AUDITOR_KEY='${sb.info.auditor_key}'`);
    const out = execFileSync('bash', ['-c', `${r.stdout}\necho "$SVC_SIGNING_SECRET"`])
      .toString()
      .trim();
    expect(out).toBe(sb.info.signing_secret);
  });

  it('logs prints a line per write and per error (quick successful reads only at --log-level debug), never a key or secret', async () => {
    await sb.svc(['clock', 'show']);
    await sb.svc(['clock', 'advance', '--minutes', '1']);
    await sb.svc(['market', 'quotes', 'NOPE']);
    const r = await sb.svc(['sandbox', 'logs', '-n', '200']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/POST \/admin\/sandbox\/clock-advance 200/);
    expect(r.stdout).toMatch(/GET \/v1\/instruments\/NOPE\/quote 404/);
    expect(r.stdout).not.toMatch(/GET \/v1\/clock 200/);
    const raw = readFileSync(join(sb.home, 'daemon.log'), 'utf8');
    for (const k of ['api_key', 'signing_secret', 'admin_key', 'dealer_key']) expect(raw).not.toContain(sb.info[k]);
  });

  it('reset --seed changes the seed and restarts the clock; credentials keep working', async () => {
    await sb.svc(['clock', 'advance', '--days', '2']);
    const r = await sb.svc(['sandbox', 'reset', '--seed', '12', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.seed).toBe(12);
    expect(r.json.clock.timestamp).toBe('2026-11-22T09:00:00+02:00');
    expect((await sb.svc(['clock', 'show', '--json'])).json.timestamp).toBe('2026-11-22T09:00:00+02:00');
  });
});

describe('svc clock show|advance and svc market quotes|calendar', () => {
  it('clock advance --until next_open opens the session', async () => {
    const r = await sb.svc(['clock', 'advance', '--until', 'next_open', '--json']);
    expect(r.code).toBe(0);
    expect(r.json.is_open).toBe(true);
    expect((await sb.svc(['clock', 'show', '--json'])).json.is_open).toBe(true);
  });

  it('clock advance with no or two units is a usage error (exit 2), and a backwards instant an API error (exit 1)', async () => {
    expect((await sb.svc(['clock', 'advance'])).code).toBe(2);
    expect((await sb.svc(['clock', 'advance', '--hours', '1', '--days', '1'])).code).toBe(2);
    const back = await sb.svc(['clock', 'advance', '--until', '2020-01-01T00:00:00Z']);
    expect(back.code).toBe(1);
    expect(back.stderr).toContain('CLOCK_NOT_ADVANCEABLE');
    expect(back.stderr).toMatch(/request_id req_/);
    expect(back.stderr).toContain('hint:');
  });

  it('market quotes prints a table and --json the quotes', async () => {
    const human = await sb.svc(['market', 'quotes', 'COMI', 'OIH']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/COMI\s+[\d,.]+/);
    expect(human.stdout).toMatch(/OIH\s+0\.\d{3}/);
    const json = await sb.svc(['market', 'quotes', 'COMI', '--json']);
    expect(json.json.quotes[0]).toMatchObject({ symbol: 'COMI', tick_micros: 10_000 });
    const unknown = await sb.svc(['market', 'quotes', 'NOPE']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('UNKNOWN_SYMBOL');
  });

  it('market calendar lists trading days with settlement dates', async () => {
    const r = await sb.svc(['market', 'calendar', '--start', '2027-01-04', '--end', '2027-01-08', '--json']);
    expect(r.json.calendar.map((d: any) => d.date)).toEqual(['2027-01-04', '2027-01-05', '2027-01-06']);
  });
});

describe('svc api METHOD PATH', () => {
  it('sends any request with the right credentials and prints the JSON body', async () => {
    const r = await sb.svc(['api', 'GET', '/v1/markets/XCAI/instruments/COMI/ohlcv?days=3']);
    expect(r.code).toBe(0);
    expect(r.json.candles).toHaveLength(3);
    const admin = await sb.svc(['api', 'POST', '/admin/sandbox/halt', '-d', '{"symbol":"COMI","halted":true}']);
    expect(admin.json).toMatchObject({ symbol: 'COMI', halted: true });
  });

  it('an API error prints the error body on stdout and exits 1; bad --data is a usage error', async () => {
    const r = await sb.svc(['api', 'GET', '/v1/instruments/NOPE/quote']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('UNKNOWN_SYMBOL');
    expect((await sb.svc(['api', 'POST', '/admin/sandbox/halt', '-d', '{nope'])).code).toBe(2);
  });
});

describe('the CLI without a daemon', () => {
  it('fails clearly with exit 3 when nothing answers, names the start command with the --home in use, and status says not running', async () => {
    const home = mkdtempSync(join(tmpdir(), 'svc-empty-'));
    try {
      const r = await runSvc(['clock', 'show'], { home, env: { SVC_BASE_URL: 'http://127.0.0.1:9' } });
      expect(r.code).toBe(3);
      // the line ends with a command that can be pasted as it is: it starts this home, not the default one
      expect(r.stderr.trimEnd().endsWith(`Start it with: svc --home ${home} sandbox start`)).toBe(true);
      const s = await runSvc(['sandbox', 'status', '--json'], { home });
      expect(s.code).toBe(3);
      expect(s.json.running).toBe(false);
      expect(existsSync(join(home, 'daemon.json'))).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('quotes a --home with a space in the start command, and names no --home when the home came from SVC_HOME', async () => {
    const home = mkdtempSync(join(tmpdir(), 'svc empty '));
    try {
      const r = await runSvc(['clock', 'show'], { home });
      expect(r.code).toBe(3);
      expect(r.stderr.trimEnd().endsWith(`Start it with: svc --home '${home}' sandbox start`)).toBe(true);
      const e = await runSvc(['clock', 'show'], { env: { SVC_HOME: home } });
      expect(e.code).toBe(3);
      expect(e.stderr.trimEnd().endsWith('Start it with: svc sandbox start')).toBe(true);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('svc sandbox stop', () => {
  it('stops the daemon gracefully and removes the locator', async () => {
    const other = await startSandbox();
    const pid = other.info.pid;
    const r = await other.svc(['sandbox', 'stop', '--json']);
    expect(r.json).toMatchObject({ stopped: true, pid });
    expect(existsSync(join(other.home, 'daemon.json'))).toBe(false);
    await expect(fetch(`${other.info.base_url}/healthz`)).rejects.toThrow();
    await other.stop();
  });
});

describe('usage errors exit 2', () => {
  it.each([
    [['clock', 'advance', '--bogus']],
    [['api', 'GET']],
    [['nosuch']],
    [['sandbox', 'start', '--clock', 'sideways']],
  ])('svc %j exits 2 and says why on stderr', async (args) => {
    const r = await runSvc(args, { home: sb.home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error/);
    expect(r.stdout).toBe('');
  });

  it('--help exits 0', async () => {
    const r = await runSvc(['clock', 'advance', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
  });
});

describe('svc sandbox start --log-level debug', () => {
  it('also logs every quick successful read', async () => {
    const dbg = await startSandbox(['--log-level', 'debug']);
    try {
      await dbg.svc(['clock', 'show']);
      // the access line is written once the answer has gone out, so it may land a moment after svc has it
      let r = await dbg.svc(['sandbox', 'logs', '-n', '50']);
      for (let i = 0; i < 50 && !/debug\s+request GET \/v1\/clock 200/.test(r.stdout); i++) {
        await new Promise((done) => setTimeout(done, 100));
        r = await dbg.svc(['sandbox', 'logs', '-n', '50']);
      }
      expect(r.stdout).toMatch(/debug\s+request GET \/v1\/clock 200/);
    } finally {
      await dbg.stop();
    }
  });
});
