// `svc sandbox start` starts the daemon from its V8 startup snapshot when the build left one for this node
// and this folder (dist/daemon/server.blob; daemon/contract/snapshot-blob.ts, docs/architecture.md "The
// daemon's startup snapshot"). The snapshot only saves time: a daemon started from it answers as one started
// without it, and a blob that is damaged or another node's never stops a start. Through the real `bin/svc`;
// the fallback cases run a copy of bin/ and dist/ inside the repository (so node_modules resolves; fixtures/
// is linked).
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SVC } from '../helpers/cli.js';
import { SNAPSHOT_BLOB, SNAPSHOT_META, snapshotMetaFor } from '../../daemon/contract/snapshot-blob.js';

process.env.SVC_REGISTRY_DIR = mkdtempSync(join(tmpdir(), 'svc-registry-'));
mkdirSync(resolve('test/.tmp'), { recursive: true });
const copies = mkdtempSync(resolve('test/.tmp/snapshot-'));
const homes: string[] = [process.env.SVC_REGISTRY_DIR];
afterAll(() => {
  for (const dir of [...homes, copies]) rmSync(dir, { recursive: true, force: true });
});

interface Started {
  how: unknown;
  spawned: unknown;
  apiKey: unknown;
  banner: Record<string, unknown>;
  answers: unknown[];
  logPid: unknown;
  pid: unknown;
}

/** What the daemon's start logged (how it started, its pid) and the locator's pid. */
function startLog(home: string): { how: unknown; spawned: unknown; logPid: unknown } {
  const listening = readFileSync(join(home, 'daemon.log'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('svc daemon listening'))
    .map((l) => JSON.parse(l) as { code_cache?: unknown; spawned?: unknown; pid?: unknown });
  const last = listening.at(-1);
  return { how: last?.code_cache, spawned: last?.spawned, logPid: last?.pid };
}

/** `svc` at `bin` (bin/svc, or a copy's) run against `home`, as the tests' runSvc runs bin/svc. */
function svcAt(bin: string, home: string, env: Record<string, string>) {
  return (args: string[]) =>
    new Promise<{ code: number; json: unknown; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [bin, '--home', home, ...args],
        { env: { ...process.env, NO_COLOR: '1', CI: '1', ...env }, timeout: 60_000 },
        (err, stdout, stderr) => {
          let json: unknown;
          try {
            json = JSON.parse(stdout);
          } catch {
            json = undefined;
          }
          done({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, json, stderr });
        },
      );
    });
}

/** Starts a sandbox (seed 7, frozen clock) through `svc` at `bin`, reads a few answers, and stops it. */
async function startAndAsk(bin: string, env: Record<string, string> = {}): Promise<Started> {
  const home = mkdtempSync(join(tmpdir(), 'svc-snapshot-home-'));
  homes.push(home);
  const run = svcAt(bin, home, env);
  const started = await run(['sandbox', 'start', '--port', '0', '--seed', '7', '--json']);
  expect(started.code, started.stderr).toBe(0);
  try {
    const answers = [];
    for (const args of [
      ['clock', 'show'],
      ['market', 'quotes'],
      ['market', 'calendar'],
    ]) {
      const r = await run([...args, '--json']);
      answers.push({ args, code: r.code, json: r.json });
    }
    const pid = (started.json as { pid?: unknown }).pid;
    const apiKey = (started.json as { api_key?: unknown }).api_key;
    return { ...startLog(home), banner: comparable(started.json), answers, pid, apiKey };
  } finally {
    await run(['sandbox', 'stop']);
  }
}

/** The start's JSON without what differs between any two starts (ports, paths, ids, pids, wall-clock times). */
function comparable(json: unknown): Record<string, unknown> {
  const text = JSON.stringify(json)
    .replace(/"(pid|port|sandbox_id|started_at|home)":("[^"]*"|\d+)/g, '"$1":"*"')
    .replace(/(127\.0\.0\.1|localhost):\d+/g, '$1:*')
    .replace(/"(\w+_key|\w+_step_up|signing_secret)":"[^"]*"/g, '"$1":"*"')
    .replace(/svc-snapshot-home-[A-Za-z0-9]+/g, 'HOME');
  return JSON.parse(text) as Record<string, unknown>;
}

/** A copy of bin/ and dist/ (cli and daemon) whose startup snapshot is `blob` described by `meta`. */
function svcCopy(name: string, blob: Buffer, meta: (dir: string) => object): string {
  const root = join(copies, name);
  cpSync(resolve('bin'), join(root, 'bin'), { recursive: true });
  cpSync(resolve('dist/cli'), join(root, 'dist/cli'), { recursive: true });
  const dir = join(root, 'dist/daemon');
  mkdirSync(dir, { recursive: true });
  for (const f of ['main.js', 'server.cjs', 'server.cjs.cache', 'render-worker.js', 'template.db'])
    copyFileSync(resolve('dist/daemon', f), join(dir, f));
  symlinkSync(resolve('fixtures'), join(root, 'fixtures'));
  writeFileSync(join(dir, SNAPSHOT_BLOB), blob);
  writeFileSync(join(dir, SNAPSHOT_META), JSON.stringify(meta(dir)));
  return join(root, 'bin/svc');
}

describe('svc sandbox start from the daemon’s startup snapshot', () => {
  it('a start from the snapshot answers like a start without it: the same banner and answers for a seed', async () => {
    const fromBlob = await startAndAsk(SVC);
    const without = await startAndAsk(SVC, { SVC_DAEMON_SNAPSHOT: 'off' });
    expect(fromBlob.how).toBe('snapshot');
    expect(without.how).toBe('accepted');
    expect([fromBlob.spawned, without.spawned]).toEqual(['warm', 'warm']);
    // the pid in the log is the daemon's own, not the build's (nothing of the build's process is kept)
    expect(fromBlob.logPid).toBe(fromBlob.pid);
    expect(fromBlob.banner).toEqual(without.banner);
    expect(fromBlob.answers).toEqual(without.answers);
    expect(fromBlob.answers.map((a) => (a as { code: number }).code)).toEqual([0, 0, 0]);
    // keys are minted at run time from fresh randomness, not from a state the build left in the heap
    const again = await startAndAsk(SVC);
    expect(again.how).toBe('snapshot');
    expect(typeof again.apiKey).toBe('string');
    expect(again.apiKey).not.toBe(fromBlob.apiKey);
  });

  it('a damaged blob crashes only the first try: the daemon starts again without it, and answers', async () => {
    const damaged = readFileSync(resolve('dist/daemon', SNAPSHOT_BLOB));
    for (let i = 4096; i < damaged.length; i += 65536) damaged[i] ^= 0xff;
    const started = await startAndAsk(svcCopy('damaged', damaged, snapshotMetaFor));
    expect(started.how).toBe('accepted');
    // the warm daemon restored the same blob and died with it: this one was spawned cold, without it
    expect(started.spawned).toBe('cold');
    expect(started.answers.map((a) => (a as { code: number }).code)).toEqual([0, 0, 0]);
  });

  it('a blob another node built, or one built elsewhere, is not used: the daemon starts as without one', async () => {
    const blob = readFileSync(resolve('dist/daemon', SNAPSHOT_BLOB));
    const otherNode = svcCopy('other-node', blob, (dir) => ({ ...snapshotMetaFor(dir), node: 'v18.20.0' }));
    expect((await startAndAsk(otherNode)).how).toBe('accepted');
    // the build's own blob, beside a copy of the bundle: its heap holds the build's paths, not the copy's
    const elsewhere = svcCopy('elsewhere', blob, () => snapshotMetaFor(resolve('dist/daemon')));
    expect((await startAndAsk(elsewhere)).how).toBe('accepted');
  });
});
