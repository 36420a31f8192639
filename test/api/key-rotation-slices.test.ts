// A key rotation does not stop the daemon (docs/backoffice.md "Key rotation", docs/reliability.md
// "Key rotation in slices"). With tens of thousands of journal entries, the approval of
// keys:rotate-dek / keys:rotate-kek answers while the re-sealing is still running, the re-sealing
// spans many event-loop turns (slices), and reads and writes are answered between them; whatever the
// slice, every value opens, and duplicate detection of national ids keeps working. Counted, never
// timed: the event loop's longest delay is printed for the record.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { applicant } from '../helpers/onboarding.js';
import { openEverySealed } from '../helpers/sealed-store.js';
import { open } from '../../daemon/store/crypto.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => {
  delete process.env.SVC_TEST_KEY_ROTATION_SLICE_ROWS;
  await t.close();
});

const tenantId = () => t.creds.tenant.tenant_id;
const propose = (action: string, params: Record<string, unknown>) =>
  t.req('POST', '/admin/actions', { as: 'security', body: { action, params, reason: 'scheduled key rotation' } });
const approve = (id: string) => t.req('POST', `/admin/actions/${id}/approve`, { as: 'approver', body: {} });

/** A deposit's request and answer as the pipeline journals them (about 400 bytes sealed). */
function seedJournal(n: number, principal: string, tenant: string | null): void {
  const body = JSON.stringify({
    investor_id: 'inv_0000000000',
    direction: 'deposit',
    amount_micros: 25_000_000_000,
    reference: 'seeded',
  });
  const answer = JSON.stringify({
    transfer_id: 'trf_0000000000',
    investor_id: 'inv_0000000000',
    direction: 'deposit',
    state: 'pending',
    amount_micros: 25_000_000_000,
    created_at: '2026-11-22T09:00:00+02:00',
  });
  t.deps.db.transaction(() => {
    for (let i = 0; i < n; i++) {
      t.deps.journal.record({
        requestId: `req_seed_${principal}_${i}`,
        simMs: t.deps.clock.now(),
        method: 'POST',
        route: 'POST /v1/transfers',
        path: '/v1/transfers',
        query: '',
        principal,
        tenantId: tenant,
        idempotencyKey: `seed-${principal}-${i}`,
        contentType: 'application/json',
        body,
        status: 201,
        response: answer,
      });
    }
  })();
}

interface Watch {
  state: string;
  slices: number;
  resealed: Record<string, number>;
}

const rotationOf = async (actionId: string): Promise<Watch> => {
  const all = (await t.req('GET', '/admin/actions?state=approved')).body.actions as Array<{
    action_id: string;
    result: { rotation?: Watch };
  }>;
  return all.find((a) => a.action_id === actionId)!.result.rotation ?? { state: 'absent', slices: 0, resealed: {} };
};

/**
 * Polls the rotation while making reads (and `during` each time) until it is done; what was answered
 * while it ran. /healthz goes over a real socket to the listening app, so each answer is a trip
 * through the event loop, as a client's is; the injected requests yield a turn each (an injected
 * request alone never leaves the microtask queue, where no socket's request could ever wait).
 */
async function whileRotating(actionId: string, during: () => Promise<void> = async () => {}) {
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  let healthz = 0;
  let reads = 0;
  const slicesSeen = new Set<number>();
  for (;;) {
    const r = await rotationOf(actionId);
    if (r.state !== 'running') return { healthz, reads, slicesSeen: slicesSeen.size, final: r };
    slicesSeen.add(r.slices);
    if ((await fetch(`${base}/healthz`)).status === 200) healthz++;
    if ((await t.req('GET', '/v1/news')).status === 200) reads++;
    await during();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('a key rotation re-seals in slices while the daemon answers', () => {
  it('keys:rotate-dek over 40,000 journal entries: the approval answers while it runs, /healthz and reads are answered between slices, and everything opens under the new key after', async () => {
    seedJournal(40_000, `tenant:${tenantId()}`, tenantId());
    const oldDek = Buffer.from(t.deps.keys.tenantDek(tenantId()));
    const loop = monitorEventLoopDelay({ resolution: 1 });
    const approval = await approve((await propose('keys:rotate-dek', { tenant_id: tenantId() })).body.action_id);
    loop.enable();
    expect(approval.status).toBe(200);
    expect(approval.body.result.rotation.state).toBe('running');
    const seen = await whileRotating(approval.body.action_id);
    loop.disable();
    console.log(
      `rotate-dek over 40,000 entries: ${seen.final.slices} slices, ${seen.healthz} /healthz and ${seen.reads}` +
        ` reads answered while it ran, ${seen.slicesSeen} distinct progress values seen; event loop delay max ` +
        `${(loop.max / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms`,
    );
    expect(seen.final.state).toBe('done');
    expect(seen.final.resealed.journal_bodies).toBeGreaterThanOrEqual(40_000);
    expect(seen.final.slices).toBeGreaterThanOrEqual(100); // 40,000 entries, at most 400 a slice
    expect(seen.healthz).toBeGreaterThanOrEqual(10);
    expect(seen.reads).toBeGreaterThanOrEqual(10);
    expect(seen.slicesSeen).toBeGreaterThanOrEqual(5); // reads interleaved with the slices, not after them

    expect(openEverySealed(t.deps.db, t.deps.kek).failures).toEqual([]);
    const sealed = t.deps.db
      .prepare(`SELECT body_sealed, principal FROM journal WHERE request_id = 'req_seed_tenant:${tenantId()}_0'`)
      .get() as { body_sealed: Buffer; principal: string };
    expect(() => open(oldDek, sealed.body_sealed, `journal+response:${sealed.principal}`)).toThrow();
    expect(t.deps.db.prepare("SELECT subject FROM audit_log WHERE action = 'keys.rotation.completed'").all()).toEqual([
      { subject: approval.body.action_id },
    ]);
    expect((await t.req('GET', '/admin/audit/verify')).body).toMatchObject({ ok: true });
  }, 120_000);

  it('keys:rotate-kek over 20,000 operator journal entries: the approval answers while it runs, reads interleave, and the switch-over leaves everything under the new KEK', async () => {
    seedJournal(20_000, 'operator:admin', null);
    const oldKek = Buffer.from(t.deps.kek);
    const approval = await approve((await propose('keys:rotate-kek', {})).body.action_id);
    expect(approval.status).toBe(200);
    expect(approval.body.result.rotation.state).toBe('running');
    const seen = await whileRotating(approval.body.action_id);
    console.log(
      `rotate-kek over 20,000 entries: ${seen.final.slices} slices, ${seen.healthz} /healthz answered while it ran`,
    );
    expect(seen.final.state).toBe('done');
    expect(seen.final.resealed).toMatchObject({ data_keys: 1, step_up_secrets: 6 });
    expect(seen.final.resealed.journal_bodies).toBeGreaterThanOrEqual(20_000);
    expect(seen.healthz).toBeGreaterThanOrEqual(10);
    expect(t.deps.kek.equals(oldKek)).toBe(false);
    expect(openEverySealed(t.deps.db, t.deps.kek).failures).toEqual([]);
    expect(openEverySealed(t.deps.db, oldKek).failures.length).toBeGreaterThan(20_000);
    expect((await t.req('GET', '/admin/audit/verify')).body).toMatchObject({ ok: true });
  }, 120_000);

  it('while a data key rotation is half done, writes seal under the new key, every value opens, and a duplicate national id is refused under either key', async () => {
    process.env.SVC_TEST_KEY_ROTATION_SLICE_ROWS = '1'; // one row a slice: the KYC columns span many turns
    const people = [applicant(), applicant(), applicant()];
    for (const body of people) {
      const created = await t.req('POST', '/v1/kyc/applications', { body });
      expect(created.status).toBe(201);
      expect((await t.req('POST', `/v1/kyc/applications/${created.body.application_id}/submit`)).status).toBe(200);
    }
    seedJournal(200, `tenant:${tenantId()}`, tenantId());
    const approval = await approve((await propose('keys:rotate-dek', { tenant_id: tenantId() })).body.action_id);
    let duplicatesRefused = 0;
    let created = 0;
    const seen = await whileRotating(approval.body.action_id, async () => {
      const dup = await t.req('POST', '/v1/kyc/applications', { body: people[duplicatesRefused % people.length] });
      expect([dup.status, dup.body.error?.code]).toEqual([409, 'DUPLICATE_NATIONAL_ID']);
      duplicatesRefused++;
      if ((await t.req('POST', '/v1/kyc/applications', { body: applicant() })).status === 201) created++;
      expect(openEverySealed(t.deps.db, t.deps.kek).failures).toEqual([]);
    });
    expect(seen.final.state).toBe('done');
    expect(duplicatesRefused).toBeGreaterThanOrEqual(5);
    expect(created).toBe(duplicatesRefused);
    expect(openEverySealed(t.deps.db, t.deps.kek).failures).toEqual([]);
    for (const body of people) expect((await t.req('POST', '/v1/kyc/applications', { body })).status).toBe(409);
  }, 120_000);
});
