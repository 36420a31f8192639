// The audit log of the back office: every maker-checker step is an entry naming the actor, the grant
// used and the payload digest; the log is filtered by actor, action and time and paged by seq; and
// verify catches a tail cut off the chain even when the recorded head is rewritten to match.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advance, makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

async function proposeAndApprove(minutes: number): Promise<string> {
  const p = await t.req('POST', '/admin/actions', {
    as: 'security',
    body: { action: 'break-glass', params: { identity_id: 'opr_x00', minutes }, reason: 'drill' },
  });
  await t.req('POST', `/admin/actions/${p.body.action_id}/reject`, { as: 'approver', body: { reason: 'drill over' } });
  return p.body.action_id;
}

describe('GET /admin/audit', () => {
  it('each maker-checker step is audited with its actor, grant and payload digest; filters by actor and action', async () => {
    const id = await proposeAndApprove(5);
    const proposed = (await t.req('GET', '/admin/audit?action=admin_action.proposed')).body.entries;
    expect(proposed).toHaveLength(1);
    expect(proposed[0]).toMatchObject({ actor: 'operator:security', subject: id });
    const detail = JSON.parse(proposed[0].detail);
    expect(detail).toMatchObject({ base: 'break-glass', grant: 'break-glass:propose' });
    expect(detail.payload_sha256).toMatch(/^[0-9a-f]{64}$/);
    const byApprover = (await t.req('GET', '/admin/audit?actor=operator:approver')).body.entries;
    expect(byApprover.map((e: { action: string }) => e.action)).toContain('admin_action.rejected');
    expect(byApprover.every((e: { actor: string }) => e.actor === 'operator:approver')).toBe(true);
    expect(
      JSON.parse(byApprover.find((e: { action: string }) => e.action === 'admin_action.rejected').detail),
    ).toMatchObject({ grant: 'break-glass:approve', maker: 'security', payload_sha256: detail.payload_sha256 });
  });

  it('filters by time range and pages newest first with before_seq', async () => {
    await proposeAndApprove(1);
    await advance(t, { hours: 1 });
    const mid = t.deps.market.calendar.toIso(t.deps.clock.now());
    await proposeAndApprove(2);
    const later = (await t.req('GET', `/admin/audit?action=admin_action.proposed&from=${encodeURIComponent(mid)}`)).body
      .entries;
    expect(later).toHaveLength(1);
    const justBefore = t.deps.market.calendar.toIso(t.deps.clock.now() - 60_000);
    const earlier = (
      await t.req('GET', `/admin/audit?action=admin_action.proposed&to=${encodeURIComponent(justBefore)}`)
    ).body.entries;
    expect(earlier).toHaveLength(1);
    const page1 = (await t.req('GET', '/admin/audit?limit=2')).body.entries;
    const page2 = (await t.req('GET', `/admin/audit?limit=2&before_seq=${page1[1].seq}`)).body.entries;
    expect(page2[0].seq).toBe(page1[1].seq - 1);
  });
});

describe('GET /admin/audit/verify', () => {
  it('catches a tail cut off the chain even when the recorded head is rewritten to match the shorter chain', async () => {
    await proposeAndApprove(3);
    expect((await t.req('GET', '/admin/audit/verify')).body.ok).toBe(true);
    const db = t.deps.db;
    const { n } = db.prepare('SELECT max(seq) AS n FROM audit_log').get() as { n: number };
    const keep = db.prepare('SELECT hash FROM audit_log WHERE seq = ?').get(n - 2) as { hash: string };
    db.exec('DROP TRIGGER IF EXISTS audit_log_no_delete');
    for (const tr of db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'")
      .all() as Array<{ name: string }>)
      db.exec(`DROP TRIGGER ${tr.name}`);
    db.prepare('DELETE FROM audit_log WHERE seq > ?').run(n - 2);
    db.prepare('UPDATE sandbox_state SET audit_count = ?, audit_head = ? WHERE id = 1').run(n - 2, keep.hash);
    const v = (await t.req('GET', '/admin/audit/verify')).body;
    expect(v.ok).toBe(false);
    expect(v.reason).toContain('signed head');
    // Rewriting the seal too does not help without the key it is signed with.
    db.prepare('UPDATE audit_seal SET count = ?, head = ? WHERE id = 1').run(n - 2, keep.hash);
    const forged = (await t.req('GET', '/admin/audit/verify')).body;
    expect(forged.ok).toBe(false);
    expect(forged.reason).toContain('the signed head does not verify');
    // and the checkpoint kept beside the key still names the longer chain
    expect(forged.reason).toContain(`the chain has ${n - 2} entries but the checkpoint kept with the key names ${n}`);
  });
});
