// `svc sandbox import` trusts nothing in the file (docs/snapshots.md "Import", docs/reliability.md
// "Threat model"). Each snapshot here is a real export, altered the way an attacker would and
// repacked with valid checksums: an added trigger, a dropped guard trigger, an edited audit row, a
// ledger balance moved without postings, replaced sealed secrets or credentials, a decompression
// bomb. Each is refused with exit 2, the message naming the problem, the running sandbox of the
// target home untouched (same pid, same journal) and the home byte for byte as it was, with no file
// added.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createGzip } from 'node:zlib';
import Database from 'better-sqlite3';
import { onboardViaCli, runSvc, startSandbox, SVC, type CliSandbox } from '../helpers/cli.js';
import {
  packSnapshot,
  sha256Hex,
  SNAPSHOT_MAGIC,
  unpackSnapshot,
  type SnapshotManifest,
} from '../../daemon/contract/snapshot.js';
import { newKey, seal } from '../../daemon/store/crypto.js';

let a: CliSandbox;
let target: CliSandbox;
let good: Buffer;
const dir = mkdtempSync(join(tmpdir(), 'svc-trust-'));

beforeAll(async () => {
  a = await startSandbox(['--seed', '23']);
  await onboardViaCli(a, { fullName: 'Trust Test', documents: false, depositEgp: '5000' });
  const snap = join(dir, 'good.svcsnap');
  const r = await a.svc(['sandbox', 'export', snap, '--json']);
  if (r.code !== 0) throw new Error(r.stderr);
  good = readFileSync(snap);
  target = await startSandbox(['--seed', '7']);
}, 120_000);

afterAll(async () => {
  await a?.stop();
  await target?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Every file under `home` with its mode and SHA-256: what "the home is unchanged" compares. */
function homeState(home: string, sub = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(home, sub)).sort()) {
    const rel = join(sub, name);
    const st = lstatSync(join(home, rel));
    if (st.isDirectory()) Object.assign(out, { [`${rel}/`]: (st.mode & 0o777).toString(8) }, homeState(home, rel));
    else
      out[rel] = `${(st.mode & 0o777).toString(8)} ${createHash('sha256')
        .update(readFileSync(join(home, rel)))
        .digest('hex')}`;
  }
  return out;
}

function infoOf(m: SnapshotManifest) {
  const { format: _f, format_version: _v, files: _files, payload: _p, ...info } = m;
  return info;
}

/** The good export with its database altered by `mutate` (and its files replaced by `replace`), repacked. */
function craft(name: string, mutate: (db: Database.Database) => void, replace: Record<string, Buffer> = {}): string {
  const { manifest, files } = unpackSnapshot(good);
  const dbFile = join(dir, `${name}.db`);
  writeFileSync(dbFile, files.get('svc.db')!);
  const db = new Database(dbFile);
  mutate(db);
  db.close();
  const out = [...files].map(([n, data]) => ({
    name: n,
    data: replace[n] ?? (n === 'svc.db' ? readFileSync(dbFile) : data),
  }));
  const file = join(dir, `${name}.svcsnap`);
  writeFileSync(file, packSnapshot(infoOf(manifest), out).container);
  return file;
}

/** Runs `sql` on an append-only or guarded table: its guard trigger is dropped, then put back as it was. */
function behindTrigger(db: Database.Database, trigger: string, run: () => void): void {
  const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?").get(trigger) as {
    sql: string;
  };
  db.exec(`DROP TRIGGER ${trigger}`);
  run();
  db.exec(sql);
}

/**
 * The running sandbox of the target home: its pid (from its locator, alive and answering /healthz,
 * which is what `svc sandbox status` reports) and its whole journal (what `svc sandbox journal`
 * saves), read over HTTP: two svc processes fewer per reading, 56 in this file.
 */
async function running(): Promise<{ pid: number; journal: string }> {
  const loc = JSON.parse(readFileSync(join(target.home, 'daemon.json'), 'utf8')) as { pid: number; base_url: string };
  const creds = JSON.parse(readFileSync(join(target.home, 'credentials.json'), 'utf8')) as { admin_key: string };
  process.kill(loc.pid, 0); // throws if the process is gone
  expect((await fetch(`${loc.base_url}/healthz`)).status).toBe(200);
  const journal = await fetch(`${loc.base_url}/admin/sandbox/journal?format=ndjson`, {
    headers: { 'x-admin-key': creds.admin_key },
  });
  expect(journal.status).toBe(200);
  return { pid: loc.pid, journal: await journal.text() };
}

let marks = 0;

/**
 * Waits until daemon.log holds the line of every request answered so far. The daemon logs a read slower than 50 ms
 * (a loaded machine), asynchronously; a path no route serves is always logged (404), and the lines are written in
 * order: once that request's line is in the file, the earlier ones are too.
 */
async function logSettled(): Promise<void> {
  const mark = `/log-settled/${++marks}`;
  expect((await fetch(`${target.info.base_url}${mark}`)).status).toBe(404);
  const log = join(target.home, 'daemon.log');
  await vi.waitFor(() => expect(readFileSync(log, 'utf8')).toContain(`"url":"${mark}"`), {
    timeout: 10_000,
    interval: 10,
  });
}

async function expectRefused(file: string, message: RegExp): Promise<void> {
  const was = await running();
  // The lines of those reads land before the home is read, so only the import happens between the two readings.
  await logSettled();
  const before = homeState(target.home);
  const r = await target.svc(['sandbox', 'import', file]);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).toContain('nothing was changed');
  expect(homeState(target.home)).toEqual(before);
  expect(await running()).toEqual(was);
}

describe('a snapshot whose schema is not what the migrations produce', () => {
  it('an added trigger (deposits multiplied by 1,000) is refused', async () => {
    const file = craft('extra-trigger', (db) =>
      db.exec(
        `CREATE TRIGGER deposits_x1000 AFTER INSERT ON transfers WHEN NEW.direction = 'deposit'
       BEGIN UPDATE transfers SET amount_micros = NEW.amount_micros * 1000 WHERE seq = NEW.seq; END`,
      ),
    );
    await expectRefused(file, /svc\.db has a trigger deposits_x1000 that schema version \d+ does not/);
  }, 60_000);

  it('a dropped guard trigger is refused', async () => {
    const file = craft('dropped-trigger', (db) => db.exec('DROP TRIGGER ledger_entries_no_update'));
    await expectRefused(file, /svc\.db lacks the trigger ledger_entries_no_update of schema version \d+/);
  }, 60_000);

  it('an altered guard trigger, or an extra view, is refused', async () => {
    const altered = craft('altered-trigger', (db) => {
      db.exec('DROP TRIGGER audit_log_no_delete');
      db.exec('CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log WHEN 0 BEGIN SELECT 1; END');
    });
    await expectRefused(altered, /svc\.db's trigger audit_log_no_delete differs from schema version \d+/);
    const view = craft('extra-view', (db) => db.exec('CREATE VIEW v AS SELECT 1'));
    await expectRefused(view, /svc\.db has a view v that schema version/);
  }, 60_000);
});

describe('a snapshot whose content does not check out', () => {
  it('an edited audit row (guard trigger put back as it was) is refused', async () => {
    const file = craft('edited-audit', (db) =>
      behindTrigger(db, 'audit_log_no_update', () => {
        db.prepare("UPDATE audit_log SET actor = 'someone-else' WHERE seq = (SELECT MIN(seq) FROM audit_log)").run();
      }),
    );
    await expectRefused(file, /the audit chain does not verify at row 1: row content does not match its hash/);
  }, 60_000);

  it('a balance moved without postings is refused (ledger invariants)', async () => {
    const file = craft('ledger', (db) =>
      behindTrigger(db, 'ledger_accounts_update', () => {
        const moved = db
          .prepare(
            "UPDATE ledger_accounts SET balance = balance * 1000 WHERE bucket = 'settled' AND asset = " +
              "'cash:EGP' AND balance > 0",
          )
          .run();
        expect(moved.changes).toBeGreaterThan(0);
      }),
    );
    await expectRefused(file, /the ledger invariants fail: per-asset sum is zero: .* balances sum to \d+, not 0/);
  }, 60_000);
});

describe('a snapshot whose sealed secrets do not open', () => {
  it('a replaced signing secret, a replaced data key, or credentials naming other keys are refused', async () => {
    const tenant = a.info.tenant_id as string;
    const secret = craft('secret', (db) => {
      db.prepare('UPDATE signing_secrets SET secret_enc = ? WHERE tenant_id = ?').run(
        seal(newKey(), Buffer.from('ss_sbx_attacker'), `secret:${tenant}`),
        tenant,
      );
    });
    await expectRefused(secret, new RegExp(`signing secret \\d+ of tenant ${tenant} does not open under its data key`));
    const dek = craft('dek', (db) => {
      db.prepare('UPDATE tenants SET dek_wrapped = ? WHERE id = ?').run(
        seal(newKey(), newKey(), `dek:${tenant}`),
        tenant,
      );
    });
    await expectRefused(dek, new RegExp(`kek.key does not open the data key of tenant ${tenant}`));
    const creds = JSON.parse(unpackSnapshot(good).files.get('credentials.json')!.toString());
    const other = craft('credentials', () => {}, {
      'credentials.json': Buffer.from(JSON.stringify({ ...creds, signing_secret: 'ss_sbx_attacker' })),
    });
    await expectRefused(other, /credentials\.json: signing_secret is not a signing secret of its tenant/);
    const kek = craft('kek', () => {}, { 'kek.key': randomBytes(32) });
    await expectRefused(kek, /kek\.key does not open the data key of tenant/);
  }, 120_000);
});

/** A container around `payload` with the manifest's declared files as given (checksums of the payload valid). */
function container(files: SnapshotManifest['files'], payload: Buffer): Buffer {
  const { manifest } = unpackSnapshot(good);
  const m = { ...manifest, files, payload: { encoding: 'gzip', bytes: payload.length, sha256: sha256Hex(payload) } };
  return Buffer.concat([Buffer.from(SNAPSHOT_MAGIC), Buffer.from(`${JSON.stringify(m)}\n`), payload]);
}

/** gzip of `bytes` zero bytes, streamed (the test never holds them). */
async function gzipZeros(bytes: number): Promise<Buffer> {
  const gz = createGzip({ level: 1 });
  const out: Buffer[] = [];
  gz.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gz.on('end', resolve));
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < bytes / chunk.length; i++)
    if (!gz.write(chunk)) await new Promise((resolve) => gz.once('drain', resolve));
  gz.end();
  await done;
  return Buffer.concat(out);
}

describe('a decompression bomb', () => {
  it('a payload inflating to 1 GiB behind a manifest declaring a few MB stops at the declared size: refused, under 300 MB of memory', async () => {
    const { manifest } = unpackSnapshot(good);
    const payload = await gzipZeros(1024 * 1024 * 1024);
    const file = join(dir, 'bomb.svcsnap');
    writeFileSync(file, container(manifest.files, payload));
    await expectRefused(file, /the payload decompresses to more than the \d+ bytes its manifest declares/);
    // Peak resident memory of the import (the CLI and the verifier it spawns), by GNU time.
    const timed = spawnSync(
      '/usr/bin/time',
      ['-f', 'maxrss_kb=%M', process.execPath, SVC, '--home', target.home, 'sandbox', 'import', file],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1' } },
    );
    expect(timed.status).toBe(2);
    const kb = Number(/maxrss_kb=(\d+)/.exec(timed.stderr)?.[1]);
    expect(kb).toBeGreaterThan(0);
    expect(kb).toBeLessThan(300 * 1024);
  }, 120_000);

  it('a manifest declaring more than the cap (7 GiB) is refused before anything is decompressed', async () => {
    const { manifest } = unpackSnapshot(good);
    const files = manifest.files.map((f) => (f.name === 'svc.db' ? { ...f, bytes: 7 * 1024 ** 3 } : f));
    const file = join(dir, 'declared.svcsnap');
    writeFileSync(file, container(files, await gzipZeros(1024 * 1024)));
    await expectRefused(file, /the manifest declares svc\.db as \d+ bytes, over the limit of \d+/);
  }, 60_000);
});

describe('a file larger than any snapshot', () => {
  it('is refused before it is read (a sparse 1.1 GB file)', async () => {
    const file = join(dir, 'huge.svcsnap');
    writeFileSync(file, good);
    truncateSync(file, 1100 * 1024 * 1024);
    await expectRefused(file, /the file is larger than a snapshot may be/);
  }, 60_000);
});

describe('the good snapshot', () => {
  it('still imports (exit 0) into the target home', async () => {
    const file = join(dir, 'good-again.svcsnap');
    writeFileSync(file, good);
    const r = await runSvc(['sandbox', 'import', file, '--json'], { home: target.home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ seed: 23, tenant_id: a.info.tenant_id });
    expect(readdirSync(target.home).filter((n) => n.startsWith('.'))).toEqual([]);
  }, 60_000);
});
