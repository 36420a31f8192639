// svc faults add|list|clear|report and svc sandbox start --rate-limit against the real binary and a real
// daemon (docs/faults.md): a rule fires on a tenant route, the report names what the client did next,
// and --fail-on-findings fails a CI step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen', '--rate-limit', '50/min']);
});

afterAll(async () => sbx?.stop());

const orders = () =>
  fetch(`${sbx.info.base_url}/v1/orders`, { headers: { authorization: `Bearer ${sbx.info.api_key}` } });

describe('svc faults', () => {
  it('adds a rule, fires it, and the report fails CI on a client that ignored Retry-After', async () => {
    const add = await sbx.svc([
      'faults',
      'add',
      '--route',
      'GET /v1/orders',
      '--effect',
      'status',
      '--status',
      '503',
      '--retry-after',
      '30',
      '--times',
      '1',
      '--json',
    ]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.json).toMatchObject({ id: 'flt_1', route: 'GET /v1/orders', times: 1, fired: 0 });
    const first = await orders();
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('30');
    expect((await orders()).status).toBe(200);
    const list = await sbx.svc(['faults', 'list']);
    expect(list.stdout).toMatch(/flt_1\s+GET \/v1\/orders.*fired 1\/2/);
    const report = await sbx.svc(['faults', 'report', '--json', '--fail-on-findings']);
    expect(report.code).toBe(1);
    expect(report.json.findings).toMatchObject([{ kind: 'retry_after_ignored' }]);
    expect(report.json.events).toMatchObject([{ effect: 'status 503', next: 'came_early' }]);
    const text = await sbx.svc(['faults', 'report']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('retry_after_ignored');
    expect((await sbx.svc(['faults', 'clear'])).code).toBe(0);
    expect((await sbx.svc(['faults', 'list', '--json'])).json).toEqual({ data: [] });
  });

  it('a bad rule exits 1 with the code naming the field', async () => {
    const bad = await sbx.svc(['faults', 'add', '--route', 'POST /v1/nowhere', '--effect', 'reset']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('FAULT_ROUTE_UNKNOWN');
  });

  it('svc sandbox start --rate-limit sends the rate limit headers on every tenant answer', async () => {
    const res = await orders();
    expect(res.headers.get('x-ratelimit-limit')).toBe('50');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(50);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
  });
});
