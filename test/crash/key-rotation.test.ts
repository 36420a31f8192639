// Crash safety of keys:rotate-kek and keys:rotate-dek (docs/backoffice.md "Key rotation"): a real
// daemon approves a rotation and is SIGKILLed in the middle of it, at chosen and at random moments,
// then restarted on the same home. The approval answers at once and the re-sealing runs after it in
// slices; the test hooks make the moments observable: SVC_TEST_KEY_ROTATION_SLICE_ROWS=1 (one row a
// slice) and SVC_TEST_KEY_ROTATION_STALL_MS (a pause of an eighth of it between slices, and all of it
// between the KEK switch-over's commit and the rename of kek.next.key over kek.key). Whatever the
// moment, every sealed value of the store opens under the home's key files (a KEK rotation half done:
// some under kek.key, some under kek.next.key; a data key rotation half done: some under the tenant's
// current data key, some under its next one), the restarted daemon resumes the rotation and finishes
// it, and afterwards everything opens under kek.key alone, kek.next.key is gone, the audit chain
// verifies and signed requests work.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Api,
  killDaemon,
  onboard,
  openStore,
  removeHome,
  sleep,
  startDaemon,
  stopDaemon,
  tempHome,
  type DaemonProc,
} from '../helpers/crash-daemon.js';
import { openEverySealed } from '../helpers/sealed-store.js';
import { stepOf, stepUpCode } from '../../daemon/contract/grants.js';

const STALL_MS = 700;
const keyFile = (home: string, name: string) => (existsSync(join(home, name)) ? readFileSync(join(home, name)) : null);

let home: string;
let d: DaemonProc;
let running = false;
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
  return fetch(`${d.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Reads the stopped (or running) daemon's store read-only. */
function withStore<T>(fn: (db: ReturnType<typeof openStore>) => T): T {
  const db = openStore(home);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const kekVersion = (): number =>
  withStore(
    (db) =>
      (db.prepare('SELECT kek_version FROM key_state WHERE id = 1').get() as { kek_version: number } | undefined)
        ?.kek_version ?? 1,
  );
const rotationRow = (actionId: string) =>
  withStore(
    (db) =>
      db.prepare('SELECT slices, finished_at FROM key_rotations WHERE action_id = ?').get(actionId) as
        | { slices: number; finished_at: string | null }
        | undefined,
  );

/** Every sealed value opens under these key files together (each value under one of them). */
function opensUnder(names: string[]): boolean {
  const keks: Buffer[] = [];
  for (const n of names) {
    const k = keyFile(home, n);
    if (k) keks.push(k);
  }
  return keks.length === names.length && withStore((db) => openEverySealed(db, keks).failures.length === 0);
}

/**
 * A home of its own (the previous one stopped and removed) with an onboarded investor. Its approver
 * has used no step-up step yet, so up to three approvals take the steps before, at and after now at
 * once; a fourth on the same home would wait up to half a minute of wall clock for the next step.
 */
async function freshHome(label: string): Promise<void> {
  if (running) {
    await stopDaemon(d);
    removeHome(home);
  }
  running = true;
  home = tempHome(label);
  d = await startDaemon(home);
  lastStep = 0;
  const api = Api.of(d);
  try {
    await onboard(api);
  } finally {
    await api.close();
  }
}

beforeAll(async () => {
  process.env.SVC_TEST_KEY_ROTATION_STALL_MS = String(STALL_MS);
  process.env.SVC_TEST_KEY_ROTATION_SLICE_ROWS = '1';
  await freshHome('kek-rotation');
});
afterAll(async () => {
  delete process.env.SVC_TEST_KEY_ROTATION_STALL_MS;
  delete process.env.SVC_TEST_KEY_ROTATION_SLICE_ROWS;
  await stopDaemon(d);
  removeHome(home);
});

/** Proposes and approves a rotation; the action id and the approval's status (or 'cut') once it settles. */
async function approveRotation(
  action: string,
  params: Record<string, unknown>,
): Promise<{ id: string; approval: Promise<number | 'cut'> }> {
  const p = await admin('/admin/actions', d.creds.security_key, { action, params, reason: 'crash test rotation' });
  expect(p.status).toBe(201);
  const id = ((await p.json()) as { action_id: string }).action_id;
  const code = await freshCode(d.creds.approver_step_up);
  return {
    id,
    approval: admin(`/admin/actions/${id}/approve`, d.creds.approver_key, {}, code).then(
      (r) => r.status,
      () => 'cut' as const,
    ),
  };
}

/** Waits (reading the store) until `done` holds, for at most 20 s. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await sleep(50);
  expect(done()).toBe(true);
}

/** After a restart: the daemon resumes the rotation and finishes it; then everything is under kek.key alone. */
async function restartAndFinish(id: string, approved: boolean): Promise<void> {
  // The restarted daemon resumes without the stall: no moment of it is observed, only that it finishes.
  delete process.env.SVC_TEST_KEY_ROTATION_STALL_MS;
  try {
    d = await startDaemon(home);
  } finally {
    process.env.SVC_TEST_KEY_ROTATION_STALL_MS = String(STALL_MS);
  }
  if (approved) await until(() => rotationRow(id)?.finished_at != null);
  await until(() => keyFile(home, 'kek.next.key') === null);
  expect(opensUnder(['kek.key'])).toBe(true);
  expect(await (await admin('/admin/audit/verify', d.creds.admin_key)).json()).toMatchObject({ ok: true });
  const api = Api.of(d);
  try {
    await onboard(api); // signed requests: the signing secret opens under a data key under the KEK
  } finally {
    await api.close();
  }
}

type KekMoment = 'mid-reseal' | 'after-switch-over' | 'random';

/** A KEK rotation killed at `moment`: what the store holds while dead, and the restart finishing it. */
async function kekCase(moment: KekMoment): Promise<void> {
  const oldKek = keyFile(home, 'kek.key')!;
  const before = kekVersion();
  const { id, approval } = await approveRotation('keys:rotate-kek', {});
  const t0 = Date.now();
  if (moment === 'mid-reseal') {
    expect(await approval).toBe(200); // answered before the re-sealing
    await until(() => (rotationRow(id)?.slices ?? 0) >= 1);
  } else if (moment === 'after-switch-over') {
    expect(await approval).toBe(200);
    await until(() => kekVersion() === before + 1); // switched over; the rename waits STALL_MS more
  } else await sleep(Math.floor(Math.random() * STALL_MS * 2));
  const killedAfterMs = Date.now() - t0;
  await killDaemon(d);
  const answered = await approval;
  const approved = rotationRow(id) !== undefined;
  const switched = kekVersion() === before + 1;
  const next = keyFile(home, 'kek.next.key');
  console.log(
    `kek rotation killed ${moment} after ${killedAfterMs} ms (approval ${answered}): ` +
      (switched ? 'switched over' : approved ? `re-sealing, ${rotationRow(id)!.slices} slices done` : 'not approved') +
      `, kek.next.key ${next ? 'present' : 'absent'}`,
  );
  if (moment === 'mid-reseal') expect([approved, switched]).toEqual([true, false]);
  if (moment === 'after-switch-over') expect(switched).toBe(true);
  if (answered === 200) expect(approved).toBe(true);
  // while dead: every value opens under the files (half done: some under each), never neither
  if (!approved) expect(opensUnder(['kek.key'])).toBe(true);
  else if (switched) expect(next ? opensUnder(['kek.next.key']) : opensUnder(['kek.key'])).toBe(true);
  else expect(opensUnder(['kek.key', 'kek.next.key'])).toBe(true);

  await restartAndFinish(id, approved);
  expect(keyFile(home, 'kek.key')!.equals(oldKek)).toBe(!approved);
}

const KEK_CASE =
  'killed %s: every sealed value opens under the key files, and after the restart the rotation finishes under kek.key';

describe('keys:rotate-kek survives SIGKILL at any moment', () => {
  it.each<[KekMoment]>([['mid-reseal'], ['after-switch-over'], ['random']])(KEK_CASE, kekCase, 90_000);

  // a fourth approval: on a home of its own rather than waiting for the approver's next step-up step
  describe('a second random moment', () => {
    beforeAll(() => freshHome('kek-rotation-2'));
    it.each<[KekMoment]>([['random']])(KEK_CASE, kekCase, 90_000);
  });
});

const dekRing = (tenantId: string) =>
  withStore(
    (db) =>
      db.prepare('SELECT dek_wrapped, dek_next_wrapped FROM tenants WHERE id = ?').get(tenantId) as {
        dek_wrapped: Buffer;
        dek_next_wrapped: Buffer | null;
      },
  );

describe('keys:rotate-dek survives SIGKILL at any moment', () => {
  // A home of its own: its approver has used no step yet, so the three approvals below take the
  // steps before, at and after now at once instead of waiting half a minute for the next one each.
  beforeAll(() => freshHome('dek-rotation'));

  it.each<['mid-reseal' | 'random']>([['mid-reseal'], ['random'], ['random']])(
    "killed %s: the tenant's values open under its current or next data key, and after the restart the rotation finishes and signed requests work",
    async (moment) => {
      const tenant = d.creds.tenant_id;
      const before = dekRing(tenant).dek_wrapped;
      const { id, approval } = await approveRotation('keys:rotate-dek', { tenant_id: tenant });
      if (moment === 'mid-reseal') {
        expect(await approval).toBe(200);
        await until(() => (rotationRow(id)?.slices ?? 0) >= 2);
      } else await sleep(Math.floor(Math.random() * STALL_MS * 2));
      await killDaemon(d);
      const answered = await approval;
      const approved = rotationRow(id) !== undefined;
      const row = rotationRow(id);
      console.log(
        `dek rotation killed ${moment} (approval ${answered}): ` +
          `${row ? (row.finished_at ? 'finished' : `re-sealing, ${row.slices} slices done`) : 'not approved'}`,
      );
      if (moment === 'mid-reseal') expect(row?.finished_at).toBeNull();
      if (answered === 200) expect(approved).toBe(true);
      expect(dekRing(tenant).dek_next_wrapped !== null).toBe(approved && !row?.finished_at);
      expect(opensUnder(['kek.key'])).toBe(true); // each value under the current or the next data key

      await restartAndFinish(id, approved);
      expect(dekRing(tenant).dek_next_wrapped).toBeNull();
      expect(dekRing(tenant).dek_wrapped.equals(before)).toBe(!approved);
    },
    90_000,
  );
});
