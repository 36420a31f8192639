// svc on the client library (cli/client/http.ts over client/src/http.ts): a command's GET or keyed write is
// retried by the library after a 503 or a dropped connection, with one Idempotency-Key on every attempt, so
// a deposit whose answer was lost exists once; `svc api` and the scenario runner send once and show
// the answer that came.
// A scripted proxy (test/helpers/fault-proxy.ts) stands between the real svc binary and a real daemon.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { type FaultProxy, faultProxy } from '../helpers/fault-proxy.js';

let sbx: CliSandbox;
let proxy: FaultProxy;
let inv: string;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  inv = await onboardViaCli(sbx, { fullName: 'Karim Adel' });
  proxy = await faultProxy(sbx.info.base_url);
});

afterAll(async () => {
  await proxy?.close();
  await sbx?.stop();
});

/** svc through the proxy, with the home's credentials. */
const viaProxy = (args: string[]) => sbx.svc(['--base-url', proxy.url, ...args]);
const seen = (route: string) => proxy.seen.filter((r) => `${r.method} ${r.url.split('?')[0]}` === route);

describe('svc on the client library: retries', () => {
  it('a deposit met by a 503, then by a connection dropped after the commit, exists once, one key on every try', async () => {
    proxy.script('POST /v1/transfers', { status: 503 }, 'drop-after');
    const res = await viaProxy(['transfer', 'deposit', '250.50', '--investor', inv, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({ direction: 'deposit', amount_micros: 250_500_000 });

    const attempts = seen('POST /v1/transfers');
    expect(attempts.map((a) => a.fault)).toEqual([{ status: 503 }, 'drop-after', 'forward']);
    const keys = new Set(attempts.map((a) => a.headers['idempotency-key']));
    expect([...keys]).toEqual([expect.stringMatching(/^cli-/)]);
    expect(attempts.every((a) => String(a.headers['x-svc-signature']).startsWith('v1='))).toBe(true);
    expect(attempts[2].upstreamHeaders?.['idempotent-replayed']).toBe('true');

    const list = await sbx.svc(['transfer', 'list', '--investor', inv, '--json']);
    expect(list.json.transfers).toEqual([expect.objectContaining({ transfer_id: res.json.transfer_id })]);
  });

  it('a read whose connection drops before it reaches the daemon is read again, and shows the answer', async () => {
    proxy.script('GET /v1/transfers', 'drop-before');
    const before = seen('GET /v1/transfers').length;
    const res = await viaProxy(['transfer', 'list', '--investor', inv, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.transfers).toHaveLength(1);
    expect(seen('GET /v1/transfers').length - before).toBe(2);
  });

  it('svc api shows a 503 as it came, sent once: it prints answers, it does not retry them', async () => {
    proxy.script('GET /v1/clock', { status: 503 });
    const res = await viaProxy(['api', 'GET', '/v1/clock']);
    expect(res.code).toBe(1);
    expect(res.json).toEqual({
      error: { code: 'NOT_AVAILABLE', message: 'the proxy answered 503' },
      request_id: 'req_proxy',
    });
    expect(seen('GET /v1/clock')).toHaveLength(1);
  });

  it('the scenario runner sends a step once: a 503 is the answer its expect: sees, and the next step goes on', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-retries-')), 'once.yaml');
    writeFileSync(
      file,
      [
        'name: one attempt per step',
        'seed: 7',
        "start: '2026-11-22T09:00:00+02:00'",
        'steps:',
        '  - name: refused',
        '    request: { method: GET, path: /v1/clock }',
        '    expect: { status: 503 }',
        '  - name: answered',
        '    request: { method: GET, path: /v1/clock }',
        '    expect: { status: 200 }',
        '',
      ].join('\n'),
    );
    proxy.script('GET /v1/clock', { status: 503 });
    const before = seen('GET /v1/clock').length;
    const res = await sbx.svc(['scenario', 'run', file, '--against', proxy.url, '--json']);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.json.scenarios[0].counts).toEqual({ passed: 2, failed: 0, error: 0, skipped: 0 });
    expect(seen('GET /v1/clock').length - before).toBe(2);
  });
});
