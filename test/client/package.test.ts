// The library installs on its own: `npm pack` in client/ builds it (tsc) and makes a tarball; the tarball
// installs into an empty project with no other package, and a sample program type-checks against it
// with `tsc --strict` and imports it at run time as ESM.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const work = mkdtempSync(join(tmpdir(), 'svc-client-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SAMPLE = `import { SvcClient, Sandbox, isSvcError, egpToMicros, type components } from '@svc/client';

type Order = components['schemas']['Order'];

export async function buy(baseUrl: string, apiKey: string, signingSecret: string, investorId: string): Promise<Order> {
  const client = new SvcClient({ baseUrl, apiKey, signingSecret });
  try {
    const order = await client.orders.create({
      investor_id: investorId,
      symbol: 'COMI',
      side: 'buy',
      type: 'limit',
      qty: 10,
      limit_price_micros: egpToMicros('85.125'),
    });
    return await client.waitFor.order(order.order_id, { until: ['filled', 'partially_filled'] });
  } catch (e) {
    if (isSvcError(e, 'INSUFFICIENT_SETTLED_CASH')) console.error(e.code, e.requestId);
    throw e;
  }
}

export async function advance(baseUrl: string, adminKey: string): Promise<boolean> {
  const sandbox = new Sandbox({ baseUrl, key: adminKey });
  return (await sandbox.clock.advanceUntil('next_open')).is_open;
}
`;

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 });

describe('the packed library', () => {
  it('installs from its tarball into an empty project, alone, and a sample compiles with tsc --strict', () => {
    const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], join(ROOT, 'client')));
    const files: string[] = packed[0].files.map((f: { path: string }) => f.path);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files.filter((f) => !f.startsWith('dist/') && f !== 'package.json')).toEqual([]);

    const project = join(work, 'project');
    run('mkdir', ['-p', project], work);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sample', private: true, type: 'module' }));
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, packed[0].filename)], project);
    expect(readdirSync(join(project, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual(['@svc']);

    writeFileSync(join(project, 'sample.ts'), SAMPLE);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['sample.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    expect(() => run(process.execPath, [tsc, '-p', 'tsconfig.json'], project)).not.toThrow();

    const loaded = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('@svc/client'); console.log(typeof m.SvcClient, m.egpToMicros('85.125'))",
      ],
      project,
    );
    expect(loaded.trim()).toBe('function 85125000');
  }, 300_000);
});
