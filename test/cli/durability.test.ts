import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';

let sb: CliSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.stop());

async function post(base: string, path: string, adminKey: string, body: unknown) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-key': adminKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('The daemon never loses an acknowledged write', () => {
  it('writes acknowledged before a SIGKILL are all there after a restart, and the audit chain verifies', async () => {
    const { base_url, admin_key } = sb.info;
    const tenants = [];
    for (let i = 0; i < 5; i++)
      tenants.push((await post(base_url, '/admin/tenants', admin_key, { name: `crash-${i}` })).body);
    const adv = await post(base_url, '/admin/sandbox/clock-advance', admin_key, { hours: 3 });
    expect(adv.status).toBe(200);

    const pid = JSON.parse(readFileSync(join(sb.home, 'daemon.json'), 'utf8')).pid;
    process.kill(pid, 'SIGKILL');
    // gone once its port refuses connections (kill -0 would not do: an unreaped zombie still answers it)
    await vi.waitFor(() => expect(fetch(`${base_url}/healthz`)).rejects.toThrow(), { timeout: 10_000, interval: 20 });

    const again = await runSvc(['sandbox', 'start', '--port', '0', '--json'], { home: sb.home });
    expect(again.code).toBe(0);
    expect(again.json.pid).not.toBe(pid);
    for (const t of tenants) {
      const res = await fetch(`${again.json.base_url}/v1/clock`, { headers: { authorization: `Bearer ${t.api_key}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).timestamp).toBe(adv.body.timestamp);
    }
    const verify = await fetch(`${again.json.base_url}/admin/audit/verify`, { headers: { 'x-admin-key': admin_key } });
    expect((await verify.json()) as any).toMatchObject({ ok: true });
  });
});
