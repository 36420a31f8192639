// svc logs tail|show against a real daemon (the request inspector, docs/inspector.md): the last
// requests one per line, filtered by status class; one request's redacted detail, and for a refused
// signature the string the daemon signed, never the secret.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { stringToSign } from '../../daemon/contract/signing.js';

let sbx: CliSandbox;
const body = JSON.stringify({ investor_id: 'inv_x', direction: 'deposit', amount_micros: 1_000_000 });
let ts = '';
let refusedId = '';

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  expect((await sbx.svc(['clock', 'show'])).code).toBe(0);
  expect((await sbx.svc(['order', 'show', 'ord_missing'])).code).toBe(1);
  // an integrator's request with a wrong signature
  ts = String(Math.floor(Date.now() / 1000));
  const res = await fetch(`${sbx.info.base_url}/v1/transfers?src=test`, {
    method: 'POST',
    body,
    headers: {
      authorization: `Bearer ${sbx.info.api_key}`,
      'content-type': 'application/json',
      'idempotency-key': 'logs-k1',
      'x-svc-timestamp': ts,
      'x-svc-signature': `v1=${'0'.repeat(64)}`,
    },
  });
  expect(res.status).toBe(401);
  refusedId = ((await res.json()) as { request_id: string }).request_id;
});

afterAll(async () => sbx?.stop());

describe('svc logs', () => {
  it('tail --status 4xx prints one line per refused request: method, path, status, code, latency, request id', async () => {
    const res = await sbx.svc(['logs', 'tail', '--status', '4xx']);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} {2}GET +\/v1\/orders\/ord_missing +404 NOT_FOUND +[\d.]+ms {2}req_[0-9a-z]+$/,
    );
    expect(lines[1]).toMatch(
      new RegExp(`POST +/v1/transfers\\?src=test +401 SIGNATURE_INVALID +[\\d.]+ms  ${refusedId}$`),
    );
    expect(res.stdout).not.toContain('/v1/clock');

    const all = await sbx.svc(['logs', 'tail', '--json']);
    expect(all.json.requests.map((r: { path: string }) => r.path)).toContain('/v1/clock');
  });

  it('show of a refused signature prints the canonical string with a hint to diff, and no secret or key', async () => {
    const res = await sbx.svc(['logs', 'show', refusedId]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Signature refused: the daemon signed this string');
    expect(res.stdout).toMatch(/X-Svc-Timestamp +\d+/);
    // the --home in use
    expect(res.stdout).toContain(`diff <(svc --home ${sbx.home} logs show ${refusedId} --canonical)`);
    expect(res.stdout).toContain('"amount_micros": 1000000');
    expect(res.stdout).toContain('authorization: Bearer [redacted:credential]');
    for (const secret of [sbx.info.signing_secret, sbx.info.api_key]) expect(res.stdout).not.toContain(secret);

    const canonical = await sbx.svc(['logs', 'show', refusedId, '--canonical']);
    expect(canonical.stdout).toBe(
      stringToSign({
        timestamp: ts,
        method: 'POST',
        path: '/v1/transfers',
        rawQuery: 'src=test',
        idempotencyKey: 'logs-k1',
        body,
      }),
    );
  });

  it('show of an unknown request id exits 1 with NOT_FOUND', async () => {
    const res = await sbx.svc(['logs', 'show', 'req_nothere']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('NOT_FOUND');
  });

  it('tail -f prints each new request as it is answered, filtered', async () => {
    const follow = spawn(
      process.execPath,
      [SVC, '--home', sbx.home, 'logs', 'tail', '-f', '--path', '/v1/orders', '--interval', '0.2'],
      { env: { ...process.env, NO_COLOR: '1', CI: '1' } },
    );
    let out = '';
    follow.stdout.on('data', (c) => (out += c));
    try {
      const until = async (re: RegExp) => {
        for (let i = 0; i < 200 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 50));
        expect(out).toMatch(re);
      };
      await until(/ord_missing/);
      expect((await sbx.svc(['order', 'show', 'ord_followed'])).code).toBe(1);
      expect((await sbx.svc(['clock', 'show'])).code).toBe(0);
      await until(/GET +\/v1\/orders\/ord_followed +404 NOT_FOUND/);
      expect(out).not.toContain('/v1/clock');
    } finally {
      follow.kill('SIGTERM');
    }
  });

  it('tail refuses a malformed --status with exit 2', async () => {
    const res = await sbx.svc(['logs', 'tail', '--status', 'bad']);
    expect(res.code).toBe(2);
  });
});
