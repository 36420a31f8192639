// `svc admin --as IDENTITY` on the real binary and daemon: the auditor the first start mints reads and
// verifies the audit log, keeps working after a sandbox reset and in a home its snapshot was imported
// into; and a refusal about who is asking (the dealer's console key on a back-office command, an
// identity lacking the grant) gets a hint saying so and naming who holds the grant, as an svc command,
// never the "keys do not match" hint or an HTTP route. The access snapshot and the sessions list show
// an identity's display name and, while it is disabled, that it is.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { openSession } from '../../daemon/backoffice/sessions.js';

let sbx: CliSandbox;
const dir = mkdtempSync(join(tmpdir(), 'svc-admin-id-'));
beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
}, 120_000);
afterAll(async () => {
  // both stop together: each stop waits for its own daemon only
  await Promise.all([runSvc(['sandbox', 'stop'], { home: join(dir, 'b') }), sbx?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const credsOf = (home: string) =>
  JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8')) as Record<string, string>;
/** A hint line must not send people to an HTTP route (only `svc api GET /...` may name one). */
const noRoute = (text: string) =>
  expect(text.replace(/svc api GET \/\S+/g, '')).not.toMatch(/\b(GET|POST|PUT|PATCH|DELETE) \/|\/(v1|admin|broker)\//);

describe('svc admin --as auditor', () => {
  it('the first start writes auditor_key and auditor_step_up into credentials.json (0600), its own', () => {
    const c = credsOf(sbx.home);
    expect(c.auditor_key).toMatch(/^ak_sbx_/);
    expect(c.auditor_step_up).toMatch(/^[A-Z2-7]{32}$/);
    for (const other of ['admin', 'dealer', 'security', 'approver', 'compliance'])
      expect(c[`${other}_key`]).not.toBe(c.auditor_key);
    expect(statSync(join(sbx.home, 'credentials.json')).mode & 0o777).toBe(0o600);
  });

  it('reads the audit log and verifies the chain', async () => {
    const audit = await sbx.svc(['admin', '--as', 'auditor', 'audit', '--json']);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.json.entries.map((e: { action: string }) => e.action)).toContain('sandbox.bootstrap');
    const verify = await sbx.svc(['admin', 'audit', '--verify', '--as', 'auditor']);
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/every hash recomputes/);
  });

  it('proposing is refused FORBIDDEN; the hint says auditor lacks the grant and gives the command as security', async () => {
    const r = await sbx.svc([
      'admin',
      '--as',
      'auditor',
      'propose',
      'broker:create',
      '--param',
      'name=Nile',
      '--reason',
      'new broker',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('FORBIDDEN (HTTP 403)');
    const hint = r.stderr.split('\n').find((l) => l.includes('hint:'))!;
    expect(hint).toContain('auditor does not hold the grant broker:create:propose; security holds it (by its role)');
    expect(hint).toContain(
      `svc --home ${sbx.home} admin --as security propose broker:create --param name=Nile --reason 'new broker'`,
    );
    noRoute(hint);
  });

  it('survives svc sandbox reset', async () => {
    const reset = await sbx.svc(['sandbox', 'reset', '--seed', '9', '--json']);
    expect(reset.code, reset.stderr).toBe(0);
    const audit = await sbx.svc(['admin', '--as', 'auditor', 'audit', '--limit', '1', '--json']);
    expect(audit.code, audit.stderr).toBe(0);
  });

  it('is carried by a snapshot: after import into a fresh home the same auditor key reads and verifies there', async () => {
    const snap = join(dir, 'a.svcsnap');
    expect((await sbx.svc(['sandbox', 'export', snap, '--json'])).code).toBe(0);
    const homeB = join(dir, 'b');
    const imported = await runSvc(['sandbox', 'import', snap, '--port', '0', '--json'], { home: homeB });
    expect(imported.code, imported.stderr).toBe(0);
    expect(credsOf(homeB).auditor_key).toBe(credsOf(sbx.home).auditor_key);
    expect(credsOf(homeB).auditor_step_up).toBe(credsOf(sbx.home).auditor_step_up);
    expect(statSync(join(homeB, 'credentials.json')).mode & 0o777).toBe(0o600);
    const verify = await runSvc(['admin', '--as', 'auditor', 'audit', '--verify'], { home: homeB });
    expect(verify.code, verify.stderr).toBe(0);
  }, 60_000);
});

describe('svc admin --as dealer', () => {
  it('a back-office read is refused, and the hint says the dealer lacks the grant and who holds it, not that keys mismatch', async () => {
    const r = await sbx.svc(['admin', '--as', 'dealer', 'audit', '--limit', '3']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('UNAUTHENTICATED (HTTP 401)');
    const hint = r.stderr.split('\n').find((l) => l.includes('hint:'))!;
    expect(hint).not.toMatch(/do not match|sandbox env/);
    expect(hint).toContain("dealer (the dealer desk's console identity) does not hold the grant audit:read");
    expect(hint).toMatch(/security, approver, admin, compliance and auditor hold it/);
    // the command's own identity (admin, for audit) is the one suggested
    expect(hint).toContain(`svc --home ${sbx.home} admin --as admin audit --limit 3`);
    noRoute(hint);
  });

  it('the same for a command of the security identity: sessions names security and admin', async () => {
    const r = await sbx.svc(['admin', 'sessions', '--as', 'dealer']);
    expect(r.code).toBe(1);
    const hint = r.stderr.split('\n').find((l) => l.includes('hint:'))!;
    expect(hint).toContain('does not hold the grant sessions:read; security and admin hold it (by their roles)');
    expect(hint).toContain(`svc --home ${sbx.home} admin --as security sessions`);
  });

  it('--json prints the error body alone (no hint text on stdout), exit 1', async () => {
    const r = await sbx.svc(['admin', '--as', 'dealer', 'actions', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('UNAUTHENTICATED');
  });
});

describe('svc admin access-review and sessions show display names and disabled identities', () => {
  it('a display name shows next to the login name; a disabled identity and its sessions say so until it is enabled', async () => {
    const db = new Database(join(sbx.home, 'svc.db'));
    const id = db.prepare("SELECT id FROM operators WHERE name = 'compliance'").pluck().get() as string;
    const s = openSession({ db, kek: readFileSync(join(sbx.home, 'kek.key')) }, id, Date.now());
    db.close();
    const decide = async (params: string[]) => {
      const p = await sbx.svc(['admin', 'propose', ...params, '--reason', 'people', '--json']);
      expect(p.code, p.stderr).toBe(0);
      const a = await sbx.svc(['admin', 'approve', p.json.action_id, '--json']);
      expect(a.code, a.stderr).toBe(0);
    };
    await decide(['console-users:manage', '--param', `identity_id=${id}`, '--param', 'display_name=Mona Compliance']);
    const named = await sbx.svc(['admin', 'access-review', '--as', 'auditor']);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toContain('compliance (Mona Compliance)');
    expect((await sbx.svc(['admin', 'sessions'])).stdout).toMatch(
      new RegExp(`${s.session_id}\\s+compliance \\(Mona Compliance\\).*active`),
    );

    await decide(['console-users:disable', '--param', `identity_id=${id}`]);
    const off = await sbx.svc(['admin', 'access-review', '--as', 'auditor', '--json']);
    const row = off.json.identities.find((i: { name: string }) => i.name === 'compliance');
    expect(row).toMatchObject({ display_name: 'Mona Compliance', disabled_at: expect.any(String) });
    const shown = await sbx.svc(['admin', 'access-review', '--as', 'auditor']);
    expect(shown.stdout).toMatch(/compliance \(Mona Compliance\).*disabled \d{4}-\d\d-\d\d \d\d:\d\d/);
    const listed = await sbx.svc(['admin', 'sessions', '--json']);
    expect(listed.json.sessions.find((x: { session_id: string }) => x.session_id === s.session_id)).toMatchObject({
      identity_display_name: 'Mona Compliance',
      identity_disabled_at: row.disabled_at,
      revoked_at: expect.any(String),
    });

    await decide(['console-users:manage', '--param', `identity_id=${id}`, '--param', 'enable:=true']);
    const back = await sbx.svc(['admin', 'access-review', '--as', 'auditor']);
    expect(back.stdout).toMatch(/compliance \(Mona Compliance\)\s+compliance\s+8\s+\S+\s+active\n/);
  }, 60_000);
});

describe('a sandbox whose credentials hold no auditor (first started by an older svc)', () => {
  it('--as auditor is a usage error (exit 2) naming the credentials file, and nothing is sent', async () => {
    for (const file of ['credentials.json', 'profiles.json']) {
      const path = join(sbx.home, file);
      if (!existsSync(path)) continue; // (profiles.json: not written under NODE_ENV=test)
      const doc = JSON.parse(readFileSync(path, 'utf8'));
      const strip = (o: Record<string, unknown>) => {
        delete o.auditor_key;
        delete o.auditor_step_up;
      };
      if (file === 'profiles.json')
        for (const p of Object.values(doc.profiles as Record<string, Record<string, unknown>>)) strip(p);
      else strip(doc);
      writeFileSync(path, JSON.stringify(doc, null, 2), { mode: 0o600 });
    }
    const journal = (await sbx.svc(['sandbox', 'journal'])).stdout;
    const r = await sbx.svc(['admin', '--as', 'auditor', 'audit']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `this sandbox has no auditor identity: its credentials (${join(sbx.home, 'credentials.json')}) ` +
        'hold no auditor_key',
    );
    expect((await sbx.svc(['sandbox', 'journal'])).stdout).toBe(journal);
  });
});
