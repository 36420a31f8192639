// An integrator adds the sandbox to their own project as one dev dependency: the packed tarball
// (`npm pack`), installed into an empty folder with only production dependencies, and `npx svc sandbox
// start` works there (README, "In your CI"). dist/ is built by the global setup, as `prepack` builds
// it for a real pack, so the pack here skips scripts.
//
// better-sqlite3 is a native addon: its install fetches a prebuilt binary from GitHub, else compiles
// (about a minute, and this machine reaches only the npm registry). The test hands prebuild-install the
// binary this checkout already has, as a local prebuild of the same version, Node ABI and platform,
// through its documented `npm_config_<package>_local_prebuilds` setting; packages come from npm's cache
// first (--prefer-offline).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve('.');
const work = mkdtempSync(join(tmpdir(), 'svc-pack-'));
const project = join(work, 'integrator');
const home = join(work, 'home');
let tarball = '';
let packed: string[] = [];

/** A prebuild-install archive of the checkout's own better-sqlite3 binary, or null when it has none. */
async function localPrebuilds(): Promise<string | null> {
  const pkgDir = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
  const binary = join(pkgDir, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(binary)) return null;
  const { version } = createRequire(import.meta.url)('better-sqlite3/package.json') as { version: string };
  const dir = join(work, 'prebuilds');
  mkdirSync(join(dir, 'stage', 'build', 'Release'), { recursive: true });
  await run('cp', [binary, join(dir, 'stage', 'build', 'Release')]);
  const abi = `node-v${process.versions.modules}-${process.platform}-${process.arch}`;
  const name = `better-sqlite3-v${version}-${abi}.tar.gz`;
  await run('tar', ['-czf', join(dir, name), '-C', join(dir, 'stage'), 'build']);
  return dir;
}

const npx = (args: string[]) => run('npx', ['--no-install', 'svc', ...args], { cwd: project, timeout: 60_000 });

beforeAll(async () => {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: root,
    timeout: 120_000,
  });
  const [info] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info.filename);
  packed = info.files.map((f) => f.path);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'integrator', version: '1.0.0', private: true }));
  const prebuilds = await localPrebuilds();
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', tarball], {
    cwd: project,
    timeout: 600_000,
    env: { ...process.env, ...(prebuilds ? { npm_config_better_sqlite3_local_prebuilds: prebuilds } : {}) },
  });
}, 720_000);

afterAll(async () => {
  await npx(['sandbox', 'stop', '--home', home]).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball installs into another project as a dev dependency', () => {
  it('packs the built CLI, daemon, console, template database and fixtures, and no sources or source maps', () => {
    for (const f of [
      'bin/svc',
      'dist/cli/main.js',
      'dist/daemon/main.js',
      'dist/daemon/server.cjs',
      'dist/daemon/server.cjs.cache',
      'dist/daemon/render-worker.js',
      'dist/daemon/template.db',
      'dist/console/index.html',
      'fixtures/instruments.json',
      'package.json',
    ])
      expect(packed).toContain(f);
    expect(packed.filter((f) => f.endsWith('.map') || f.endsWith('.ts') || f.startsWith('test/'))).toEqual([]);
  });

  it('installs only production dependencies: no build or test tool lands in the project', () => {
    const installed = readdirSync(join(project, 'node_modules'));
    expect(installed).toContain('svc');
    expect(installed).toContain('better-sqlite3');
    for (const dev of ['esbuild', 'vite', 'vitest', 'typescript', 'tsx']) expect(installed).not.toContain(dev);
  });

  it('npx svc sandbox start --home <tmp> --port 0 starts a sandbox that answers; sandbox stop stops it', async () => {
    const started = await npx(['sandbox', 'start', '--home', home, '--port', '0', '--json']);
    const info = JSON.parse(started.stdout) as { base_url: string; console_url: string; api_key: string };
    expect(info.api_key).toMatch(/^sk_sbx_/);
    const clock = JSON.parse((await npx(['clock', 'show', '--home', home, '--json'])).stdout) as { timestamp: string };
    expect(clock.timestamp).toBe('2026-11-22T09:00:00+02:00');
    const page = await fetch(info.console_url.replace('localhost', '127.0.0.1'));
    expect(page.status).toBe(200);
    const stopped = await npx(['sandbox', 'stop', '--home', home, '--json']);
    expect(JSON.parse(stopped.stdout)).toMatchObject({ stopped: true });
    expect(existsSync(join(home, 'daemon.json'))).toBe(false);
  });
});
