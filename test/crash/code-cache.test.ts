// The daemon's code is compiled from the V8 code cache the build wrote beside it (daemon/process/code-cache.ts,
// docs/architecture.md "Start-up"). The cache only saves time: a damaged or missing one must never stop a
// daemon from starting or change what it answers. Each case starts a real daemon (node .../main.js) from a
// copy of dist/daemon inside the repository (so better-sqlite3 resolves as from dist/; fixtures/ is linked).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Api, call, removeHome, startDaemon, stopDaemon, tempHome } from '../helpers/crash-daemon.js';

const DIST = resolve('dist/daemon');
const FILES = ['main.js', 'server.cjs', 'render-worker.js', 'template.db'];
mkdirSync(resolve('test/.tmp'), { recursive: true });
const copies = mkdtempSync(resolve('test/.tmp/code-cache-'));
afterAll(() => rmSync(copies, { recursive: true, force: true }));

/** A copy of the built daemon whose code cache is `cache` (the build's bytes, other bytes, or none). */
function daemonCopy(name: string, cache: Buffer | null): string {
  const dir = join(copies, name, 'daemon');
  mkdirSync(dir, { recursive: true });
  for (const f of FILES) copyFileSync(join(DIST, f), join(dir, f));
  symlinkSync(resolve('fixtures'), join(copies, name, 'fixtures'));
  if (cache) writeFileSync(join(dir, 'server.cjs.cache'), cache);
  return join(dir, 'main.js');
}

/** Starts the daemon at `entry` on a fresh home; what its start logged about the cache, and its clock answer. */
async function startFrom(entry: string): Promise<{ cache: unknown; clock: number }> {
  const home = tempHome('code-cache');
  const d = await startDaemon(home, { entry });
  const api = Api.of(d);
  try {
    const answer = await api.send(call('GET', '/v1/clock'));
    const listening = readFileSync(join(home, 'daemon.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('svc daemon listening'))
      .map((l) => JSON.parse(l) as { code_cache?: unknown });
    return { cache: listening.at(-1)?.code_cache, clock: answer.status };
  } finally {
    await api.close();
    await stopDaemon(d);
    removeHome(home);
  }
}

describe('the daemon compiles from the code cache the build wrote, and starts without a usable one', () => {
  it('a start of the built daemon compiles from the build’s code cache (daemon.log: code_cache accepted)', async () => {
    expect(await startFrom(resolve('dist/daemon/main.js'))).toEqual({ cache: 'accepted', clock: 200 });
  });

  it('a damaged code cache is rejected: the daemon compiles from source, starts and answers', async () => {
    const built = readFileSync(join(DIST, 'server.cjs.cache'));
    const damaged = Buffer.from(built);
    for (let i = 0; i < damaged.length; i += 4096) damaged[i] ^= 0xff;
    expect(await startFrom(daemonCopy('damaged', damaged))).toEqual({ cache: 'rejected', clock: 200 });
    const garbage = Buffer.from('not a code cache at all');
    expect(await startFrom(daemonCopy('garbage', garbage))).toEqual({ cache: 'rejected', clock: 200 });
  });

  it('without a code cache the daemon compiles from source, starts and answers (code_cache absent)', async () => {
    expect(await startFrom(daemonCopy('none', null))).toEqual({ cache: 'absent', clock: 200 });
  });
});
