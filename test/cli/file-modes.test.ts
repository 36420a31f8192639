// Secrets and personal data at rest are private to the user (docs/reliability.md, "Threat model"):
// the home is 0700 and every file in it 0600 (the database and its WAL and shared memory, the log,
// the profiles with every key, the credentials, the KEK, the locator), after a start, after an
// import, and after a start over a home an older svc (or a hand) left readable by others.
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSvc } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-modes-'));
// lowdb keeps profiles.json in memory when NODE_ENV is test: run the CLI as a user would.
const env = { NODE_ENV: 'production' };
const svcIn = (home: string, args: string[]) => runSvc(args, { home, env, timeoutMs: 60_000 });

const EXPECTED = [
  'svc.db',
  'svc.db-wal',
  'svc.db-shm',
  'daemon.log',
  'profiles.json',
  'credentials.json',
  'kek.key',
  'daemon.json',
];

afterAll(async () => {
  for (const h of ['a', 'b']) await svcIn(join(dir, h), ['sandbox', 'stop']);
  rmSync(dir, { recursive: true, force: true });
});

/** The mode of `home` and of every entry in it, octal. */
function modes(home: string): Record<string, string> {
  const out: Record<string, string> = { '.': (lstatSync(home).mode & 0o777).toString(8) };
  for (const name of readdirSync(home)) out[name] = (lstatSync(join(home, name)).mode & 0o777).toString(8);
  return out;
}

/**
 * The home once its daemon answers: the daemon says it is ready before it builds its app and opens its log
 * (docs/architecture.md), so a start or an import may return before daemon.log exists; it appears as the app is
 * built, which an answered request proves done.
 */
async function answered(home: string): Promise<void> {
  expect((await svcIn(home, ['sandbox', 'status'])).code).toBe(0);
  for (let i = 0; i < 500 && !existsSync(join(home, 'daemon.log')); i++) await sleep(20);
}

async function expectPrivate(home: string): Promise<void> {
  await answered(home);
  const m = modes(home);
  for (const name of EXPECTED) expect(m[name], `${name} exists`).toBeDefined();
  expect(m['.']).toBe('700');
  for (const [name, mode] of Object.entries(m)) if (name !== '.') expect(`${name} ${mode}`).toBe(`${name} 600`);
}

describe('file modes of a home', () => {
  const home = join(dir, 'a');

  it('a new home after start: 0700, every file 0600', async () => {
    const r = await svcIn(home, ['sandbox', 'start', '--port', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    await expectPrivate(home);
  }, 60_000);

  it('after an import into a new home: 0700, every file 0600', async () => {
    const snap = join(dir, 'a.svcsnap');
    expect((await svcIn(home, ['sandbox', 'export', snap])).code).toBe(0);
    const homeB = join(dir, 'b');
    const r = await svcIn(homeB, ['sandbox', 'import', snap, '--port', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    await expectPrivate(homeB);
  }, 60_000);

  it('a pre-existing home with 0755 and 0644 files is tightened on start', async () => {
    expect((await svcIn(home, ['sandbox', 'stop'])).code).toBe(0);
    chmodSync(home, 0o755);
    for (const name of readdirSync(home)) chmodSync(join(home, name), 0o644);
    expect(modes(home)['kek.key']).toBe('644');
    const r = await svcIn(home, ['sandbox', 'start', '--port', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    await expectPrivate(home);
  }, 60_000);
});
