// The audit chain against someone who can write svc.db (and its WAL) while the daemon is stopped, but
// cannot read kek.key or the checkpoint kept beside it (docs/reliability.md, "The audit chain against a
// database writer"). Each attack of issue 26 is made on a stopped home, the home is opened again as a
// daemon's restart does, and GET /admin/audit/verify must fail, the daemon must not sign the head it
// found, and a later write must not make the chain verify again. A checkpoint a crash left behind the
// database, a new database beside an old checkpoint, and an adopted home must not be false alarms.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { answerCheck, makeApp, type TestApp } from '../helpers/app.js';
import { EGP, trader } from '../helpers/trading.js';
import { createDeps } from '../../daemon/deps.js';
import { buildApp } from '../../daemon/app.js';
import { rowHash, type AuditRow } from '../../daemon/store/audit-row.js';
import { AUDIT_CHECKPOINT_FILE, readCheckpoint } from '../../daemon/store/audit-checkpoint.js';
import { auditSealKeyOf } from '../../daemon/store/kek-file.js';
import type { BootstrapResult } from '../../daemon/tenancy/bootstrap.js';

const START = Date.parse('2026-11-22T09:00:00+02:00');
const opened: Array<{ close(): Promise<void> }> = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A home with a 500,000 EGP ledger:adjust approved last (its approval among the chain's last entries), then stopped.
 * */
async function homeWithApproval(
  before?: (t: TestApp) => void,
): Promise<{ dir: string; kek: Buffer; creds: BootstrapResult; approvalSeq: number }> {
  const t = await makeApp();
  const inv = await trader(t, 1000);
  before?.(t);
  const p = await t.req('POST', '/admin/actions', {
    as: 'security',
    body: {
      action: 'ledger:adjust',
      params: { tenant_id: t.creds.tenant.tenant_id, investor_id: inv, amount_micros: 500_000 * EGP },
      reason: 'drill',
    },
  });
  expect((await t.req('POST', `/admin/actions/${p.body.action_id}/approve`, { as: 'approver', body: {} })).status).toBe(
    200,
  );
  expect((await t.req('GET', '/admin/audit/verify')).body.ok).toBe(true);
  const approvalSeq = (
    t.deps.db.prepare("SELECT max(seq) AS s FROM audit_log WHERE action = 'admin_action.approved'").get() as {
      s: number;
    }
  ).s;
  await t.close({ keepDir: true });
  dirs.push(t.dir);
  return { dir: t.dir, kek: t.kek, creds: t.creds, approvalSeq };
}

/** The home opened again, as a daemon's restart does; `adopt` as `--adopt-audit-head`. */
async function reopen(home: { dir: string; kek: Buffer; creds: BootstrapResult }, adopt = false) {
  const deps = createDeps({
    dbFile: join(home.dir, 'svc.db'),
    kek: home.kek,
    adoptAuditHead: adopt,
    sandbox: { seed: 42, startMs: START, clockMode: 'frozen', speedMilli: 1000 },
  });
  const app = buildApp(deps, answerCheck());
  await app.ready();
  const o = {
    close: async () => {
      await app.close();
      deps.db.close();
    },
  };
  opened.push(o);
  const admin = { 'x-admin-key': home.creds.operators.admin_key };
  return {
    deps,
    verify: async () => (await app.inject({ method: 'GET', url: '/admin/audit/verify', headers: admin })).json(),
    /** A write that appends to the chain (a halt is audited). */
    write: async () =>
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/admin/sandbox/halt',
            headers: admin,
            payload: { symbol: 'COMI', halted: true },
          })
        ).statusCode,
      ).toBe(200),
    close: async () => {
      opened.splice(opened.indexOf(o), 1);
      await o.close();
    },
  };
}

/** The attacker's handle on the stopped database: triggers dropped, rows and the head theirs to write. */
function tamper(dir: string, fn: (db: Database.Database) => void): void {
  const db = new Database(join(dir, 'svc.db'));
  for (const tr of db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'")
    .all() as Array<{ name: string }>)
    db.exec(`DROP TRIGGER ${tr.name}`);
  fn(db);
  db.close();
}

const seal = (db: Database.Database) =>
  db.prepare('SELECT * FROM audit_seal WHERE id = 1').get() as { count: number; head: string; mac: string } | undefined;

function cutTo(db: Database.Database, n: number): void {
  const keep = db.prepare('SELECT hash FROM audit_log WHERE seq = ?').get(n) as { hash: string };
  db.prepare('DELETE FROM audit_log WHERE seq > ?').run(n);
  db.prepare('UPDATE sandbox_state SET audit_count = ?, audit_head = ? WHERE id = 1').run(n, keep.hash);
}

const checkpointBytes = (dir: string) => readFileSync(join(dir, AUDIT_CHECKPOINT_FILE));

/** After the attack: verify fails, and neither the restart nor a later write signs the head the attacker left. */
async function expectCaught(home: { dir: string; kek: Buffer; creds: BootstrapResult }, reason: RegExp): Promise<void> {
  const cp = checkpointBytes(home.dir);
  const d = await reopen(home);
  const sealAtStart = seal(d.deps.db);
  const v = await d.verify();
  expect(v.ok).toBe(false);
  expect(v.reason).toMatch(reason);
  await d.write();
  const after = await d.verify();
  expect(after.ok).toBe(false);
  expect(after.reason).toMatch(/checkpoint kept with the key/);
  expect(seal(d.deps.db)).toEqual(sealAtStart);
  expect(checkpointBytes(home.dir)).toEqual(cp);
  await d.close();
}

describe('the three attacks of issue 26 are verification failures after a restart', () => {
  it('deleting the last three entries (the approval of a 500,000 EGP ledger:adjust among them), rewriting the head and deleting the signed head is caught', async () => {
    const home = await homeWithApproval();
    tamper(home.dir, (db) => {
      const n = (db.prepare('SELECT max(seq) AS n FROM audit_log').get() as { n: number }).n;
      expect(home.approvalSeq).toBeGreaterThan(n - 3);
      cutTo(db, n - 3);
      db.prepare('DELETE FROM audit_seal').run();
    });
    await expectCaught(
      home,
      /the chain has \d+ entries but the checkpoint kept with the key names \d+: it was cut short or rolled back/,
    );
  });

  it('editing an entry and re-chaining every entry after it (head rewritten, signed head deleted) is caught', async () => {
    const home = await homeWithApproval();
    tamper(home.dir, (db) => {
      const rows = db
        .prepare('SELECT * FROM audit_log WHERE seq >= ? ORDER BY seq')
        .all(home.approvalSeq) as AuditRow[];
      let prev = rows[0].prev_hash;
      for (const r of rows) {
        // the approval now names someone else as its checker
        const edited = { ...r, prev_hash: prev, actor: r.seq === home.approvalSeq ? 'operator:admin' : r.actor };
        edited.hash = rowHash(edited);
        expect(edited.hash === r.hash).toBe(r.seq !== home.approvalSeq && prev === r.prev_hash);
        db.prepare('UPDATE audit_log SET actor = ?, prev_hash = ?, hash = ? WHERE seq = ?').run(
          edited.actor,
          edited.prev_hash,
          edited.hash,
          r.seq,
        );
        prev = edited.hash;
      }
      db.prepare('UPDATE sandbox_state SET audit_head = ? WHERE id = 1').run(prev);
      db.prepare('DELETE FROM audit_seal').run();
    });
    await expectCaught(
      home,
      /entry \d+ is not the one the checkpoint kept with the key names: the chain was rewritten/,
    );
  });

  it('cutting the chain back to an older signed head copied from the database (its MAC valid) is caught', async () => {
    let older: { count: number; head: string; mac: string } | undefined;
    const home = await homeWithApproval((t) => {
      older = seal(t.deps.db);
    });
    tamper(home.dir, (db) => {
      cutTo(db, older!.count);
      db.prepare('INSERT OR REPLACE INTO audit_seal (id, count, head, mac) VALUES (1, ?, ?, ?)').run(
        older!.count,
        older!.head,
        older!.mac,
      );
    });
    await expectCaught(home, /the chain has \d+ entries but the checkpoint kept with the key names \d+/);
  });
});

describe('the checkpoint beside the key', () => {
  it('a checkpoint a crash left behind the database (killed between the COMMIT and its write) is caught up, not a false alarm', async () => {
    let behind: Buffer | undefined;
    const home = await homeWithApproval((t) => {
      behind = checkpointBytes(t.dir);
    });
    writeFileSync(join(home.dir, AUDIT_CHECKPOINT_FILE), behind!);
    const d = await reopen(home);
    expect(await d.verify()).toMatchObject({ ok: true, first_bad_seq: null });
    const cp = readCheckpoint(join(home.dir, AUDIT_CHECKPOINT_FILE), auditSealKeyOf(home.kek));
    expect(cp).toEqual({ state: 'ok', checkpoint: { count: seal(d.deps.db)!.count, head: seal(d.deps.db)!.head } });
  });

  it("entries beyond a checkpoint left behind stand only on a valid signed head naming the chain's end", async () => {
    let behind: Buffer | undefined;
    const home = await homeWithApproval((t) => {
      behind = checkpointBytes(t.dir);
    });
    writeFileSync(join(home.dir, AUDIT_CHECKPOINT_FILE), behind!);
    tamper(home.dir, (db) => db.prepare('DELETE FROM audit_seal').run());
    const v = await (await reopen(home)).verify();
    expect(v.ok).toBe(false);
    expect(v.reason).toMatch(/go beyond the checkpoint kept with the key without a valid signed head/);
  });

  it('a deleted checkpoint is a verification failure; the owner adopting the home (--adopt-audit-head) signs it again', async () => {
    const home = await homeWithApproval();
    rmSync(join(home.dir, AUDIT_CHECKPOINT_FILE));
    const d = await reopen(home);
    expect((await d.verify()).reason).toMatch(/checkpoint kept with the key \(audit.checkpoint\) is missing/);
    await d.close();
    const adopted = await reopen(home, true);
    expect((await adopted.verify()).ok).toBe(true);
    await adopted.write();
    expect((await adopted.verify()).ok).toBe(true);
  });

  it('a checkpoint MACed under another key is a verification failure', async () => {
    const home = await homeWithApproval();
    const other = await homeWithApproval();
    writeFileSync(join(home.dir, AUDIT_CHECKPOINT_FILE), checkpointBytes(other.dir));
    expect((await (await reopen(home)).verify()).reason).toMatch(/was not written under this home's key/);
  });

  it('a new database beside the checkpoint of a deleted one starts clean', async () => {
    const home = await homeWithApproval();
    for (const f of ['svc.db', 'svc.db-wal', 'svc.db-shm']) rmSync(join(home.dir, f), { force: true });
    const t = await makeApp({ dir: home.dir, kek: home.kek });
    opened.push(t);
    expect((await t.req('GET', '/admin/audit/verify')).body.ok).toBe(true);
    expect(existsSync(join(home.dir, AUDIT_CHECKPOINT_FILE))).toBe(true);
  });
});

describe('while the daemon runs', () => {
  it('an entry another writer chains onto the head is never signed: verify fails from the next write on', async () => {
    const t = await makeApp();
    opened.push(t);
    await t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: true } });
    const before = seal(t.deps.db);
    const other = new Database(join(t.dir, 'svc.db'));
    const head = other.prepare('SELECT audit_count AS n, audit_head AS h FROM sandbox_state').get() as {
      n: number;
      h: string;
    };
    const forged = {
      seq: head.n + 1,
      at: '2026-11-22T09:00:00+02:00',
      actor: 'operator:approver',
      action: 'admin_action.approved',
      subject: 'act_forged',
      tenant_id: null,
      detail: '{}',
      prev_hash: head.h,
    };
    const hash = rowHash(forged);
    other
      .prepare(
        'INSERT INTO audit_log (seq, at, actor, action, subject, tenant_id, detail, prev_hash, hash) VALUES ' +
          '(?,?,?,?,?,?,?,?,?)',
      )
      .run(
        forged.seq,
        forged.at,
        forged.actor,
        forged.action,
        forged.subject,
        forged.tenant_id,
        forged.detail,
        forged.prev_hash,
        hash,
      );
    other.prepare('UPDATE sandbox_state SET audit_count = ?, audit_head = ? WHERE id = 1').run(forged.seq, hash);
    other.close();
    expect((await t.req('POST', '/admin/sandbox/halt', { body: { symbol: 'COMI', halted: false } })).status).toBe(200);
    expect(seal(t.deps.db)).toEqual(before);
    const v = (await t.req('GET', '/admin/audit/verify')).body;
    expect(v.ok).toBe(false);
    expect(v.reason).toMatch(/go beyond the checkpoint kept with the key without a valid signed head/);
  });
});
