// Crash safety of keys:rotate-kek (docs/backoffice.md "Key rotation"): a real daemon approves a KEK
// rotation and is SIGKILLed in the middle of it, at chosen and at random moments, then restarted on the
// same home. The test hook SVC_TEST_KEY_ROTATION_STALL_MS makes the window observable: the rotation
// holds its transaction that long before committing, and waits that long again after the commit
// before renaming kek.next.key over kek.key. Whatever the moment, every sealed value of the store opens
// under one of the home's key files (never neither), and after the restart under kek.key alone, with
// kek.next.key gone, the audit chain verifying and signed requests working. keys:rotate-dek is one
// transaction and no file: killed before or at a random moment of it, the tenant's data key is the old
// one or the new one and everything sealed under it opens.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, killDaemon, onboard, openStore, removeHome, sleep, startDaemon, stopDaemon, tempHome, type DaemonProc } from '../helpers/crash-daemon.js';
import { openEverySealed } from '../helpers/sealed-store.js';
import { stepOf, stepUpCode } from '../../daemon/contract/grants.js';

const STALL_MS = 700;
const keyFile = (home: string, name: string) => (existsSync(join(home, name)) ? readFileSync(join(home, name)) : null);

let home: string;
let d: DaemonProc;
let lastStep = 0;

/** A step-up code of a step not used yet (the daemon accepts the step before and after now). */
async function freshCode(secret: string): Promise<string> {
  for (;;) {
    const now = stepOf(Date.now());
    const step = Math.max(lastStep + 1, now - 1);
    if (step <= now + 1) {
      lastStep = step;
      return stepUpCode(secret, { step });
    }
    await sleep(1000);
  }
}

async function admin(path: string, key: string, body?: unknown, stepUp?: string): Promise<Response> {
  const headers: Record<string, string> = { 'x-admin-key': key };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (stepUp) headers['x-step-up-code'] = stepUp;
  return fetch(`${d.baseUrl}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

const kekVersion = (): number => {
  const db = openStore(home);
  try {
    return (db.prepare('SELECT kek_version FROM key_state WHERE id = 1').get() as { kek_version: number } | undefined)?.kek_version ?? 1;
  } finally {
    db.close();
  }
};

/** Every sealed value opens under kek.key, or every one under kek.next.key: the name of the key, or null. */
function keyThatOpensAll(): string | null {
  const db = openStore(home);
  try {
    for (const name of ['kek.key', 'kek.next.key']) {
      const kek = keyFile(home, name);
      if (kek && openEverySealed(db, kek).failures.length === 0) return name;
    }
    return null;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  process.env.SVC_TEST_KEY_ROTATION_STALL_MS = String(STALL_MS);
  home = tempHome('kek-rotation');
  d = await startDaemon(home);
  const api = Api.of(d);
  try {
    await onboard(api);
  } finally {
    await api.close();
  }
});
afterAll(async () => {
  delete process.env.SVC_TEST_KEY_ROTATION_STALL_MS;
  await stopDaemon(d);
  removeHome(home);
});

type Moment = 'before-commit' | 'after-commit' | 'random';

/** Proposes and approves a rotation, kills the daemon at `moment`; answers whether the rotation committed. */
async function rotateAndKill(moment: Moment): Promise<{ committed: boolean; killedAfterMs: number }> {
  const before = kekVersion();
  const p = await admin('/admin/actions', d.creds.security_key, { action: 'keys:rotate-kek', params: {}, reason: 'crash test rotation' });
  expect(p.status).toBe(201);
  const id = ((await p.json()) as { action_id: string }).action_id;
  const code = await freshCode(d.creds.approver_step_up);
  const t0 = Date.now();
  const approval = admin(`/admin/actions/${id}/approve`, d.creds.approver_key, {}, code).then((r) => r.status, () => 'cut');
  if (moment === 'before-commit') await sleep(STALL_MS / 3);
  else if (moment === 'after-commit') {
    expect(await approval).toBe(200); // answered: committed; the rename waits STALL_MS more
    await sleep(STALL_MS / 4);
    expect(keyFile(home, 'kek.next.key')).not.toBeNull();
  } else await sleep(Math.floor(Math.random() * STALL_MS * 2.5));
  const killedAfterMs = Date.now() - t0;
  await killDaemon(d);
  await approval;
  return { committed: kekVersion() === before + 1, killedAfterMs };
}

describe('keys:rotate-kek survives SIGKILL at any moment', () => {
  it.each<[Moment]>([['before-commit'], ['after-commit'], ['random'], ['random']])(
    'killed %s: every sealed value opens under one key file, and after the restart under kek.key',
    async (moment) => {
      const oldKek = keyFile(home, 'kek.key')!;
      const { committed, killedAfterMs } = await rotateAndKill(moment);
      const next = keyFile(home, 'kek.next.key');
      console.log(`kek rotation killed ${moment} after ${killedAfterMs} ms: ${committed ? 'committed' : 'not committed'}, kek.next.key ${next ? 'present' : 'absent'}`);
      if (moment === 'before-commit') expect(committed).toBe(false);
      if (moment === 'after-commit') expect(committed).toBe(true);
      // while dead: the store opens entirely under the key its kek_check names, in one of the files
      expect(keyThatOpensAll()).toBe(committed ? (next ? 'kek.next.key' : 'kek.key') : 'kek.key');

      d = await startDaemon(home);
      expect(keyFile(home, 'kek.next.key')).toBeNull();
      const kek = keyFile(home, 'kek.key')!;
      expect(kek.equals(oldKek)).toBe(!committed);
      expect(keyThatOpensAll()).toBe('kek.key');
      const verify = await admin('/admin/audit/verify', d.creds.admin_key);
      expect(await verify.json()).toMatchObject({ ok: true });
      const api = Api.of(d);
      try {
        await onboard(api); // signed requests: the signing secret opens under a data key under the KEK
      } finally {
        await api.close();
      }
    },
    90_000,
  );
});

const wrappedDek = (tenantId: string): Buffer => {
  const db = openStore(home);
  try {
    return (db.prepare('SELECT dek_wrapped FROM tenants WHERE id = ?').get(tenantId) as { dek_wrapped: Buffer }).dek_wrapped;
  } finally {
    db.close();
  }
};

describe('keys:rotate-dek survives SIGKILL at any moment', () => {
  // A home of its own: its approver has used no step yet, so the three approvals below take the
  // steps before, at and after now at once instead of waiting half a minute for the next one each.
  beforeAll(async () => {
    await stopDaemon(d);
    removeHome(home);
    home = tempHome('dek-rotation');
    d = await startDaemon(home);
    lastStep = 0;
    const api = Api.of(d);
    try {
      await onboard(api);
    } finally {
      await api.close();
    }
  });

  it.each<['before-commit' | 'random']>([['before-commit'], ['random'], ['random']])(
    'killed %s: the tenant data key is the old or the new one, every sealed value opens, and signed requests work after the restart',
    async (moment) => {
      const tenant = d.creds.tenant_id;
      const before = wrappedDek(tenant);
      const p = await admin('/admin/actions', d.creds.security_key, { action: 'keys:rotate-dek', params: { tenant_id: tenant }, reason: 'crash test dek rotation' });
      expect(p.status).toBe(201);
      const id = ((await p.json()) as { action_id: string }).action_id;
      const code = await freshCode(d.creds.approver_step_up);
      const approval = admin(`/admin/actions/${id}/approve`, d.creds.approver_key, {}, code).then((r) => r.status, () => 'cut');
      await sleep(moment === 'before-commit' ? STALL_MS / 3 : Math.floor(Math.random() * STALL_MS * 1.5));
      await killDaemon(d);
      const answered = await approval;
      const committed = !wrappedDek(tenant).equals(before);
      console.log(`dek rotation killed ${moment}: ${committed ? 'committed' : 'not committed'} (approval ${answered})`);
      if (moment === 'before-commit') expect(committed).toBe(false);
      if (answered === 200) expect(committed).toBe(true);
      expect(keyThatOpensAll()).toBe('kek.key');

      d = await startDaemon(home);
      expect(keyThatOpensAll()).toBe('kek.key');
      expect(await (await admin('/admin/audit/verify', d.creds.admin_key)).json()).toMatchObject({ ok: true });
      const api = Api.of(d);
      try {
        await onboard(api); // the tenant's signing secret opens under its (old or new) data key
      } finally {
        await api.close();
      }
    },
    90_000,
  );
});
