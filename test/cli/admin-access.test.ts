// svc admin access-review [open|decide], svc admin sessions [revoke] and svc admin keys rotate|revoke
// against a real daemon, without a TTY: the snapshot for people and --json, a revocation that bites at
// the identity's next command, one's own item refused, console sessions ended, a rotated key saved
// where the home keeps it (and the old one refused), a revoked key refused with KEY_REVOKED.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { openSession } from '../../daemon/backoffice/sessions.js';

let sbx: CliSandbox;
beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
}, 120_000);
afterAll(async () => sbx?.stop());

const creds = () => JSON.parse(readFileSync(join(sbx.home, 'credentials.json'), 'utf8')) as Record<string, string>;

describe('svc admin access-review', () => {
  it('shows every identity with its roles, grant count, creation and last use; --json is the snapshot', async () => {
    const res = await sbx.svc(['admin', 'access-review']);
    expect(res.code, res.stderr).toBe(0);
    for (const name of ['admin', 'dealer', 'security', 'approver', 'compliance', 'auditor'])
      expect(res.stdout).toContain(name);
    expect(res.stdout).toContain('No open access review');
    const json = await sbx.svc(['admin', 'access-review', '--json']);
    expect(json.json.identities.map((i: { name: string }) => i.name).sort()).toEqual([
      'admin',
      'approver',
      'auditor',
      'compliance',
      'dealer',
      'security',
    ]);
  });

  it("open, then revoke an item: the grant goes at the identity's next command; one's own item is refused, another reviewer decides it", async () => {
    const opened = await sbx.svc(['admin', 'access-review', 'open', '--json']);
    expect(opened.code, opened.stderr).toBe(0);
    const items = opened.json.items as Array<{ item_id: string; identity_name: string; grant: string }>;
    const adminAudit = items.find((i) => i.identity_name === 'admin' && i.grant === 'audit:read')!;
    expect((await sbx.svc(['admin', 'audit', '--limit', '1', '--json'])).code).toBe(0);
    const revoked = await sbx.svc([
      'admin',
      'access-review',
      'decide',
      adminAudit.item_id,
      '--revoke',
      '--note',
      'admin does not read the audit',
    ]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain("admin's audit:read (global) revoked by compliance");
    const refused = await sbx.svc(['admin', 'audit', '--limit', '1']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('FORBIDDEN');

    const own = items.find((i) => i.identity_name === 'compliance')!;
    const mine = await sbx.svc(['admin', 'access-review', 'decide', own.item_id, '--certify']);
    expect(mine.code).toBe(1);
    expect(mine.stderr).toContain('ACCESS_REVIEW_OWN_ACCESS');
    const other = await sbx.svc(['admin', '--as', 'security', 'access-review', 'decide', own.item_id, '--certify']);
    expect(other.code, other.stderr).toBe(0);
    const shown = await sbx.svc(['admin', 'access-review']);
    expect(shown.stdout).toMatch(/2 of \d+ decided/);
  });

  it('--certify and --revoke together, or neither, is a usage error (exit 2); an item of no open campaign too', async () => {
    expect((await sbx.svc(['admin', 'access-review', 'decide', 'ari_x', '--certify', '--revoke'])).code).toBe(2);
    expect((await sbx.svc(['admin', 'access-review', 'decide', 'ari_x'])).code).toBe(2);
    expect((await sbx.svc(['admin', 'access-review', 'decide', 'ari_x', '--certify'])).code).toBe(2);
  });
});

describe('svc admin sessions and svc admin keys', () => {
  it('lists console sessions and revokes every session of an identity', async () => {
    const db = new Database(join(sbx.home, 'svc.db'));
    const dealerId = db.prepare("SELECT id FROM operators WHERE name = 'dealer'").pluck().get() as string;
    const s = openSession({ db, kek: readFileSync(join(sbx.home, 'kek.key')) }, dealerId, Date.now());
    db.close();
    const list = await sbx.svc(['admin', 'sessions']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(s.session_id);
    expect(list.stdout).toContain('active');
    const res = await sbx.svc(['admin', 'sessions', 'revoke', '--identity', 'dealer']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`Revoked ${s.session_id}`);
    const after = await sbx.svc(['admin', 'sessions', '--json']);
    expect(after.json.sessions[0]).toMatchObject({
      session_id: s.session_id,
      revoked_by: expect.stringMatching(/^opr_/),
    });
    expect((await sbx.svc(['admin', 'sessions', 'revoke'])).code).toBe(2);
  });

  it('rotating the dealer key saves the new key in credentials.json (0600) and the profile: svc keeps working, the old key is refused', async () => {
    const old = creds().dealer_key;
    const res = await sbx.svc(['admin', 'keys', 'rotate', 'dealer', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.operator_key).toMatch(/^ck_sbx_/);
    expect(creds().dealer_key).toBe(res.json.operator_key);
    expect(statSync(join(sbx.home, 'credentials.json')).mode & 0o777).toBe(0o600);
    // profiles.json holds a copy of the keys: rewritten too
    const profiles = join(sbx.home, 'profiles.json');
    expect(JSON.parse(readFileSync(profiles, 'utf8')).profiles.default.dealer_key).toBe(res.json.operator_key);
    expect(statSync(profiles).mode & 0o777).toBe(0o600);
    expect((await sbx.svc(['desk', 'queue', '--json'])).code).toBe(0);
    const oldRefused = await fetch(`${sbx.info.base_url}/broker/v1/queue`, { headers: { 'x-console-key': old } });
    expect(oldRefused.status).toBe(401);
    expect(((await oldRefused.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
  });

  it('revoking the dealer key: its next command is refused with KEY_REVOKED', async () => {
    const res = await sbx.svc(['admin', 'keys', 'revoke', 'dealer']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Revoked the key of dealer');
    const next = await sbx.svc(['desk', 'queue']);
    expect(next.code).toBe(1);
    expect(next.stderr).toContain('KEY_REVOKED');
  });
});
