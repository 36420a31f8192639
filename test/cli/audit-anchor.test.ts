// The audit checkpoint on the real binary (docs/reliability.md, "The audit chain against a database
// writer"): a home whose svc.db was cut back to an older signed head while the daemon was stopped
// starts, says so in daemon.out, and `svc admin audit --verify` reports it (exit 1) however many writes
// follow; the owner's `svc sandbox start --adopt-audit-head` signs it again; and a snapshot imported
// into a home (fresh, or over a running sandbox with its own checkpoint) verifies at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;
const dirs: string[] = [];

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
}, 120_000);

afterAll(async () => {
  // every daemon stopped (together: each stop waits for its own daemon only) before any folder goes: the
  // imported home lies inside the snapshot's folder
  await Promise.all([sbx?.stop(), ...dirs.map((d) => runSvc(['sandbox', 'stop'], { home: d }))]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const advance = async (home: string) =>
  expect((await runSvc(['clock', 'advance', '--minutes', '1'], { home })).code).toBe(0);
const verify = (home: string) => runSvc(['admin', 'audit', '--verify'], { home });

describe('svc admin audit --verify against a database writer', () => {
  it('a chain cut back to an older signed head while the daemon was stopped: reported at start and by --verify, even after more writes', async () => {
    await advance(sbx.home);
    const db0 = new Database(join(sbx.home, 'svc.db'), { readonly: true });
    const older = db0.prepare('SELECT count, head, mac FROM audit_seal WHERE id = 1').get() as {
      count: number;
      head: string;
      mac: string;
    };
    db0.close();
    await advance(sbx.home);
    await advance(sbx.home);
    expect((await verify(sbx.home)).code).toBe(0);
    expect((await runSvc(['sandbox', 'stop'], { home: sbx.home })).code).toBe(0);

    const db = new Database(join(sbx.home, 'svc.db'));
    // The guard triggers are put back exactly as they were, so the start's schema check sees nothing:
    // only the checkpoint beside the key can tell.
    const guards = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'")
      .all() as Array<{ name: string; sql: string }>;
    for (const tr of guards) db.exec(`DROP TRIGGER ${tr.name}`);
    db.prepare('DELETE FROM audit_log WHERE seq > ?').run(older.count);
    db.prepare('UPDATE sandbox_state SET audit_count = ?, audit_head = ? WHERE id = 1').run(older.count, older.head);
    db.prepare('INSERT OR REPLACE INTO audit_seal (id, count, head, mac) VALUES (1, ?, ?, ?)').run(
      older.count,
      older.head,
      older.mac,
    );
    for (const tr of guards) db.exec(tr.sql);
    db.close();

    const started = await runSvc(['sandbox', 'start', '--port', '0', '--json'], { home: sbx.home });
    expect(started.code, started.stderr).toBe(0);
    expect(readFileSync(join(sbx.home, 'daemon.out'), 'utf8')).toMatch(/AUDIT CHAIN NOT VOUCHED FOR \(truncated\)/);
    const res = await verify(sbx.home);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(
      new RegExp(
        `^BROKEN at entry ${older.count + 1}: the chain has ${older.count} entries but the checkpoint kept ` +
          `with the key names \\d+`,
      ),
    );
    expect(res.stdout).toContain(`sandbox start --adopt-audit-head`);
    await advance(sbx.home);
    expect((await verify(sbx.home)).code).toBe(1);
    expect((await runSvc(['admin', 'audit', '--verify', '--json'], { home: sbx.home })).json).toMatchObject({
      ok: false,
    });
  }, 120_000);

  it('the owner adopting the home (svc sandbox start --adopt-audit-head) signs the chain as it is: --verify ok', async () => {
    expect((await runSvc(['sandbox', 'stop'], { home: sbx.home })).code).toBe(0);
    const started = await runSvc(['sandbox', 'start', '--port', '0', '--adopt-audit-head', '--json'], {
      home: sbx.home,
    });
    expect(started.code, started.stderr).toBe(0);
    expect((await verify(sbx.home)).code).toBe(0);
    await advance(sbx.home);
    const res = await verify(sbx.home);
    expect(res.code, res.stdout).toBe(0);
  }, 120_000);
});

describe('snapshots keep a valid checkpoint', () => {
  it('an imported home, fresh or over a running sandbox with its own checkpoint, verifies at once and after writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-anchor-'));
    dirs.push(dir);
    const source = await startSandbox(['--clock', 'frozen']);
    dirs.push(source.home);
    await advance(source.home);
    const snap = join(dir, 'a.svcsnap');
    expect((await runSvc(['sandbox', 'export', snap], { home: source.home })).code).toBe(0);

    const fresh = join(dir, 'fresh');
    dirs.push(fresh);
    const imported = await runSvc(['sandbox', 'import', snap, '--port', '0', '--json'], { home: fresh });
    expect(imported.code, imported.stderr).toBe(0);
    expect(existsSync(join(fresh, 'audit.checkpoint'))).toBe(true);
    expect((await verify(fresh)).code).toBe(0);
    await advance(fresh);
    expect((await verify(fresh)).code).toBe(0);

    // over the running sandbox of the first tests, whose checkpoint names a longer chain of its own
    const over = await runSvc(['sandbox', 'import', snap, '--port', '0', '--json'], { home: sbx.home });
    expect(over.code, over.stderr).toBe(0);
    const res = await verify(sbx.home);
    expect(res.code, res.stdout).toBe(0);
  }, 180_000);
});
