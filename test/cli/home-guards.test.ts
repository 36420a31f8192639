// A home whose guards were altered does not start (docs/reliability.md, "Threat model"). The attacker
// can write the home but not read kek.key: with the daemon stopped they edit svc.db (a guard trigger
// dropped and CHECKs ignored to store a checker equal to the maker; the trigger put back; an extra
// trigger; a table's CHECK rewritten through writable_schema). `svc sandbox start` and the daemon
// itself must then refuse to start, exit 2, name what differs, and leave every file as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';

let sbx: CliSandbox;
const copies: string[] = [];

beforeAll(async () => {
  sbx = await startSandbox();
  await runSvc(['sandbox', 'stop'], { home: sbx.home });
  const db = new Database(join(sbx.home, 'svc.db'));
  try {
    const security = db.prepare<[], string>("SELECT id FROM operators WHERE name = 'security'").pluck().get()!;
    // a genuine-looking proposal by security (who holds ledger:adjust:propose)
    db.prepare(`INSERT INTO admin_actions (id, action, params, reason, payload_sha256, maker, created_at,
      expires_ms, state)
      VALUES ('act_attack00001', 'ledger:adjust', '{}', 'goodwill', ?, ?, '2026-11-22T09:00:00+02:00',
        9999999999999, 'proposed')`).run('0'.repeat(64), security);
  } finally {
    db.close();
  }
}, 60_000);
afterAll(async () => {
  for (const c of copies) rmSync(c, { recursive: true, force: true });
  rmSync(sbx.home, { recursive: true, force: true });
});

/** A copy of the stopped home, altered by `attack` with its own connection (as the attacker would). */
function alteredHome(attack: (db: Database.Database) => void): string {
  const home = mkdtempSync(join(tmpdir(), 'svc-guards-'));
  copies.push(home);
  cpSync(sbx.home, home, { recursive: true });
  rmSync(join(home, 'daemon.json'), { force: true });
  const db = new Database(join(home, 'svc.db'));
  try {
    attack(db);
  } finally {
    db.close();
  }
  return home;
}

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The checker equal to the maker, as the issue's attacker stored it: CHECKs ignored, the trigger dropped. */
function storeSelfApproval(db: Database.Database): void {
  const security = db.prepare<[], string>("SELECT id FROM operators WHERE name = 'security'").pluck().get()!;
  db.prepare(
    'INSERT INTO operator_grants (operator_id, grant_name, scope, role, granted_at) VALUES (?, ' +
      "'ledger:adjust:approve', 'global', 'security', '2026-11-22T09:00:00+02:00')",
  ).run(security);
  db.pragma('ignore_check_constraints = 1');
  db.exec('DROP TRIGGER admin_actions_checker_not_maker');
  db.prepare(
    "UPDATE admin_actions SET state = 'approved', checker = maker, decided_at = '2026-11-22T09:01:00+02:00', " +
      "result = '{}' WHERE id = 'act_attack00001'",
  ).run();
}

const CHECKER_NOT_MAKER = `CREATE TRIGGER admin_actions_checker_not_maker BEFORE UPDATE ON admin_actions
  WHEN NEW.checker = OLD.maker
  BEGIN SELECT RAISE(ABORT, 'admin_actions: the maker cannot decide their own action'); END`;

function runDaemon(home: string): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [resolve('dist/daemon/main.js'), '--home', home, '--port', '0'],
      { timeout: 30_000 },
      (err, _out, stderr) => {
        done({
          code: err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0,
          stderr,
        });
      },
    );
  });
}

async function expectRefused(home: string, names: RegExp): Promise<void> {
  const before = digest(join(home, 'svc.db'));
  const started = await runSvc(['sandbox', 'start', '--port', '0', '--json'], { home });
  expect(started.code, started.stderr).toBe(2);
  expect(started.stderr).toMatch(names);
  expect(started.stderr).toContain('refusing to start');
  const direct = await runDaemon(home);
  expect(direct.code).toBe(2);
  expect(direct.stderr).toMatch(names);
  expect(existsSync(join(home, 'daemon.json'))).toBe(false);
  expect(digest(join(home, 'svc.db'))).toBe(before);
}

// The five altered homes are refused together (it.concurrent): each test has its own copy of the home and its own
// daemons, and most of a refusal is waiting for processes (svc and the daemon it spawns) to exit. The unaltered home
// starts after them, alone: the copies are made from it, so it must not be running while one is taken.
describe('A home whose guards were altered does not start', () => {
  it.concurrent('a checker equal to the maker, stored with CHECKs ignored and the guard trigger dropped: exit 2, naming the trigger', async () => {
    await expectRefused(
      alteredHome(storeSelfApproval),
      /svc\.db lacks the trigger admin_actions_checker_not_maker of schema version \d+/,
    );
  }, 60_000);

  it.concurrent('the same row with the trigger put back exactly as it was: exit 2, naming the table whose CHECK the row breaks', async () => {
    const home = alteredHome((db) => {
      storeSelfApproval(db);
      db.exec(CHECKER_NOT_MAKER);
    });
    await expectRefused(
      home,
      /svc\.db's table admin_actions fails its checks \(CHECK constraint failed in admin_actions\)/,
    );
  }, 60_000);

  it.concurrent('an extra trigger (deposits x1000): exit 2, naming it', async () => {
    const home = alteredHome((db) =>
      db.exec(
        `CREATE TRIGGER zz_more AFTER INSERT ON transfers BEGIN UPDATE transfers SET amount_micros = ` +
          `NEW.amount_micros * 1000 WHERE id = NEW.id; END`,
      ),
    );
    await expectRefused(home, /svc\.db has a trigger zz_more that schema version \d+ does not/);
  }, 60_000);

  it.concurrent("a table's CHECK rewritten through writable_schema (the maker may check): exit 2, naming the table", async () => {
    const home = alteredHome((db) => {
      db.unsafeMode(true); // better-sqlite3 opens in SQLite's defensive mode; the attacker's sqlite3 would not
      db.pragma('writable_schema = ON');
      db.prepare(
        "UPDATE sqlite_master SET sql = replace(sql, 'checker <> maker', 'checker IS NOT NULL') WHERE type = " +
          "'table' AND name = 'admin_actions'",
      ).run();
    });
    await expectRefused(home, /svc\.db's table admin_actions differs from schema version \d+/);
  }, 60_000);

  it.concurrent('a database whose schema version was set to 0 is not migrated over: exit 2', async () => {
    await expectRefused(
      alteredHome((db) => db.pragma('user_version = 0')),
      /svc\.db has no schema version but holds \d+ schema objects/,
    );
  }, 60_000);

  it('the unaltered home still starts', async () => {
    const started = await runSvc(['sandbox', 'start', '--port', '0', '--json'], { home: sbx.home });
    expect(started.code, started.stderr).toBe(0);
    await runSvc(['sandbox', 'stop'], { home: sbx.home });
  }, 60_000);
});
