// docs/api.md's "With nothing but a shell" block is what a newcomer pastes first. It runs here as it is
// written (bash, date, openssl, curl and the kernel's uuid: nothing a stock Debian lacks), against a
// real daemon listening on a port, with only the investor id filled in.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { seedInvestor } from '../helpers/investors.js';

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await makeApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

function shellExample(): string {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const after = doc.slice(doc.indexOf('With nothing but a shell:'));
  const block = /```sh\n([\s\S]*?)```/.exec(after);
  if (!block) throw new Error('docs/api.md has no shell signing example');
  return block[1];
}

describe('docs/api.md: the shell signing example works as written on a stock machine', () => {
  it('makes a signed, keyed deposit with date, openssl and curl alone (no uuidgen)', async () => {
    const script = shellExample();
    expect(script).not.toMatch(/uuidgen/);
    const investorId = seedInvestor(t);
    // Asynchronously: the daemon answering curl runs in this process.
    const { stdout: out } = await promisify(execFile)(
      'bash',
      ['-euo', 'pipefail', '-c', script.replace('inv_...', investorId)],
      {
        env: {
          PATH: '/usr/bin:/bin',
          SVC_BASE_URL: baseUrl,
          SVC_API_KEY: t.creds.tenant.api_key,
          SVC_SIGNING_SECRET: t.creds.tenant.signing_secret,
        },
        encoding: 'utf8',
      },
    );
    const transfer = JSON.parse(out) as { transfer_id: string; investor_id: string; amount_micros: number };
    expect(transfer).toMatchObject({ investor_id: investorId, amount_micros: 5_000_000_000 });
    expect(transfer.transfer_id).toMatch(/^trf_/);
  });
});
