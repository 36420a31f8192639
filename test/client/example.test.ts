// The runnable example (examples/integration.ts) runs as its own process against a real sandbox on a
// port: it onboards, deposits, buys, settles past T+2, reads the portfolio and writes the statement PDF.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientSandbox, clientSandbox } from '../helpers/client-sandbox.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const dir = mkdtempSync(join(tmpdir(), 'svc-example-'));
let s: ClientSandbox;
beforeAll(async () => {
  s = await clientSandbox();
});
afterAll(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('examples/integration.ts', () => {
  it('runs the whole integration against a real sandbox and writes the statement', async () => {
    const pdfPath = join(dir, 'statement.pdf');
    const { creds } = s.t;
    const { stdout } = await promisify(execFile)(
      join(ROOT, 'node_modules/.bin/tsx'),
      [join(ROOT, 'examples/integration.ts'), pdfPath],
      {
        cwd: ROOT,
        timeout: 240_000,
        env: {
          ...process.env,
          SVC_BASE_URL: s.baseUrl,
          SVC_API_KEY: creds.tenant.api_key,
          SVC_SIGNING_SECRET: creds.tenant.signing_secret,
          SVC_ADMIN_KEY: creds.operators.admin_key,
        },
      },
    );
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ filled_qty: 10, statement: { path: pdfPath } });
    expect(summary.positions).toContain('COMI');
    expect(readFileSync(pdfPath).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const order = await s.client.orders.get(summary.order_id);
    expect(order).toMatchObject({ investor_id: summary.investor_id, status: 'filled' });
  }, 300_000);
});
