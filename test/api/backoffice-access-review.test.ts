// Access reviews: a snapshot of every identity's access; campaigns with one item per identity-grant,
// each certified or revoked (a revocation bites at the next request) by a reviewer who is not the
// item's subject; the campaign closes when its last item is decided; all audited. The database holds
// the rules too: raw SQL cannot decide one's own item, decide twice, change an item's subject, decide
// without the grant, reopen a closed campaign or delete anything.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, proposeAndApprove, type As, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const idOf = (name: string) =>
  t.deps.db.prepare<[string], string>('SELECT id FROM operators WHERE name = ?').pluck().get(name)!;
interface Item {
  item_id: string;
  identity_name: string;
  grant: string;
  scope: string;
  decision: string | null;
}
const open = async (as: As = 'compliance') => t.req('POST', '/admin/access-reviews', { as, body: {} });
const decide = (as: As, reviewId: string, body: Record<string, unknown>) =>
  t.req('POST', `/admin/access-reviews/${reviewId}/decisions`, { as, body });

describe('GET /admin/access-review', () => {
  it('shows every identity with its roles, grants in scope, created_at and last_used_at', async () => {
    await t.req('POST', '/admin/sessions/revoke', { as: 'security', body: { identity_id: idOf('dealer') } });
    const r = await t.req('GET', '/admin/access-review', { as: 'compliance' });
    expect(r.status).toBe(200);
    const byName = new Map(
      (r.body.identities as Array<{ name: string }>).map((i) => [i.name, i as Record<string, any>]),
    );
    expect([...byName.keys()].sort()).toEqual(['admin', 'approver', 'auditor', 'compliance', 'dealer', 'security']);
    const dealer = byName.get('dealer')!;
    expect(dealer.roles).toEqual(['dealer']);
    expect(dealer.grants).toContainEqual(
      expect.objectContaining({ grant: 'orders:execute', scope: `broker:${t.creds.broker_id}`, role: 'dealer' }),
    );
    expect(dealer.created_at).toMatch(/^2026-11-22T/);
    expect(byName.get('security')!.last_used_at).not.toBeNull();
    expect(byName.get('approver')!.last_used_at).toBeNull();
    expect(byName.get('compliance')!.grants.map((g: { grant: string }) => g.grant)).toContain('access-review:decide');
  });

  it("shows each identity's display name and when it was disabled: null until set, cleared again by enabling", async () => {
    const byName = async () =>
      new Map(
        (
          (await t.req('GET', '/admin/access-review', { as: 'auditor' })).body.identities as Array<Record<string, any>>
        ).map((i) => [i.name, i]),
      );
    expect((await byName()).get('dealer')).toMatchObject({ display_name: null, disabled_at: null });
    const decide = (action: string, params: Record<string, unknown>) => proposeAndApprove(t, action, params, 'people');
    await decide('console-users:manage', { identity_id: idOf('dealer'), display_name: 'Head Dealer' });
    const off = await decide('console-users:disable', { identity_id: idOf('dealer') });
    const snap = await byName();
    expect(snap.get('dealer')).toMatchObject({
      display_name: 'Head Dealer',
      disabled_at: off.disabled_at,
      revoked_at: null,
    });
    expect(off.disabled_at).toMatch(/^20\d\d-/);
    expect(snap.get('admin')).toMatchObject({ display_name: null, disabled_at: null });
    await decide('console-users:manage', { identity_id: idOf('dealer'), enable: true });
    expect((await byName()).get('dealer')).toMatchObject({ display_name: 'Head Dealer', disabled_at: null });
  });

  it('needs access-review:read: the approver (without it) is refused', async () => {
    expect((await t.req('GET', '/admin/access-review', { as: 'approver' })).status).toBe(403);
  });
});

describe('campaigns', () => {
  it('opening makes one undecided item per identity-grant held now, and is audited', async () => {
    const r = await open();
    expect(r.status).toBe(201);
    const held = t.deps.db.prepare('SELECT COUNT(*) FROM operator_grants').pluck().get() as number;
    expect(r.body).toMatchObject({
      state: 'open',
      opened_by: 'compliance',
      items_total: held,
      items_open: held,
      closed_at: null,
    });
    expect(new Set(r.body.items.map((i: Item) => `${i.identity_name} ${i.grant} ${i.scope}`)).size).toBe(held);
    const audit = (await t.req('GET', '/admin/audit?action=access_review.opened')).body.entries;
    expect(audit[0]).toMatchObject({ actor: 'operator:compliance', subject: r.body.review_id });
    expect((await t.req('GET', '/admin/access-reviews', { as: 'compliance' })).body.reviews[0].review_id).toBe(
      r.body.review_id,
    );
  });

  it("revoking an item removes the grant at once: the identity's next request needing it is 403", async () => {
    const r = await open();
    const item = r.body.items.find((i: Item) => i.identity_name === 'admin' && i.grant === 'audit:read');
    expect((await t.req('GET', '/admin/audit', { as: 'admin' })).status).toBe(200);
    const d = await decide('compliance', r.body.review_id, {
      item_id: item.item_id,
      decision: 'revoke',
      note: 'not needed by admin',
    });
    expect(d.status).toBe(200);
    expect(d.body.items.find((i: Item) => i.item_id === item.item_id)).toMatchObject({
      decision: 'revoke',
      decided_by: 'compliance',
      note: 'not needed by admin',
    });
    const after = await t.req('GET', '/admin/audit', { as: 'admin' });
    expect([after.status, after.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const audit = (await t.req('GET', '/admin/audit?action=access_review.revoked', { as: 'security' })).body.entries;
    expect(JSON.parse(audit[0].detail)).toMatchObject({
      grant: 'access-review:decide',
      identity: 'admin',
      reviewed_grant: 'audit:read',
    });
  });

  it('a reviewer cannot decide an item about their own access: 403 ACCESS_REVIEW_OWN_ACCESS, and nothing changes', async () => {
    const r = await open();
    const own = r.body.items.find((i: Item) => i.identity_name === 'compliance');
    const d = await decide('compliance', r.body.review_id, { item_id: own.item_id, decision: 'certify' });
    expect([d.status, d.body.error.code]).toEqual([403, 'ACCESS_REVIEW_OWN_ACCESS']);
    const other = await decide('security', r.body.review_id, { item_id: own.item_id, decision: 'certify' });
    expect(other.status).toBe(200);
  });

  it('an item is decided once (409 ACCESS_REVIEW_ITEM_DECIDED); an unknown item or campaign is 404; no decide grant is 403', async () => {
    const r = await open();
    const item = r.body.items.find((i: Item) => i.identity_name === 'dealer');
    expect((await decide('compliance', r.body.review_id, { item_id: item.item_id, decision: 'certify' })).status).toBe(
      200,
    );
    const again = await decide('security', r.body.review_id, { item_id: item.item_id, decision: 'revoke' });
    expect([again.status, again.body.error.code]).toEqual([409, 'ACCESS_REVIEW_ITEM_DECIDED']);
    expect((await decide('compliance', r.body.review_id, { item_id: 'ari_nope', decision: 'certify' })).status).toBe(
      404,
    );
    expect((await decide('compliance', 'arv_nope', { item_id: item.item_id, decision: 'certify' })).status).toBe(404);
    expect((await decide('admin', r.body.review_id, { item_id: item.item_id, decision: 'certify' })).status).toBe(403);
    expect((await decide('compliance', r.body.review_id, { item_id: item.item_id, decision: 'maybe' })).status).toBe(
      422,
    );
  });

  it('the campaign closes when its last item is decided; a closed campaign refuses decisions (409 ACCESS_REVIEW_CLOSED)', async () => {
    const r = await open();
    let last;
    for (const i of r.body.items as Item[]) {
      last = await decide(i.identity_name === 'compliance' ? 'security' : 'compliance', r.body.review_id, {
        item_id: i.item_id,
        decision: 'certify',
      });
      expect(last.status).toBe(200);
    }
    expect(last!.body).toMatchObject({ state: 'closed', items_open: 0 });
    expect(last!.body.closed_at).not.toBeNull();
    const closed = (await t.req('GET', '/admin/audit?action=access_review.closed')).body.entries;
    expect(closed[0]).toMatchObject({ subject: r.body.review_id });
    const d = await decide('compliance', r.body.review_id, { item_id: r.body.items[0].item_id, decision: 'revoke' });
    expect([d.status, d.body.error.code]).toEqual([409, 'ACCESS_REVIEW_CLOSED']);
    expect(
      (await t.req('GET', '/admin/access-reviews?state=closed', { as: 'compliance' })).body.reviews[0].review_id,
    ).toBe(r.body.review_id);
  });
});

describe('the database holds the rules (raw SQL)', () => {
  const at = '2026-11-22T10:00:00.000+02:00';
  const setup = async () => {
    const r = await open();
    const item = (name: string) => (r.body.items as Item[]).find((i) => i.identity_name === name)!.item_id;
    return { review: r.body.review_id as string, item };
  };
  const decideSql = (itemId: string, by: string) => () =>
    t.deps.db
      .prepare("UPDATE access_review_items SET decision = 'certify', decided_by = ?, decided_at = ? WHERE id = ?")
      .run(by, at, itemId);

  it('refuses a reviewer deciding an item about their own access', async () => {
    const { item } = await setup();
    expect(decideSql(item('compliance'), idOf('compliance'))).toThrow(/own access/);
  });

  it('refuses a second decision, a changed subject, and a decider without access-review:decide', async () => {
    const { item } = await setup();
    decideSql(item('dealer'), idOf('compliance'))();
    expect(() =>
      t.deps.db.prepare("UPDATE access_review_items SET decision = 'revoke' WHERE id = ?").run(item('dealer')),
    ).toThrow(/already decided/);
    expect(() =>
      t.deps.db
        .prepare('UPDATE access_review_items SET operator_id = ? WHERE id = ?')
        .run(idOf('admin'), item('approver')),
    ).toThrow(/cannot change/);
    expect(decideSql(item('approver'), idOf('admin'))).toThrow(/does not hold access-review:decide/);
  });

  it('refuses deleting items or campaigns, and any change to a closed campaign', async () => {
    const { review, item } = await setup();
    expect(() => t.deps.db.prepare('DELETE FROM access_review_items WHERE id = ?').run(item('dealer'))).toThrow(
      /never deleted/,
    );
    expect(() => t.deps.db.prepare('DELETE FROM access_reviews WHERE id = ?').run(review)).toThrow(/never deleted/);
    t.deps.db.prepare("UPDATE access_reviews SET state = 'closed', closed_at = ? WHERE id = ?").run(at, review);
    expect(decideSql(item('dealer'), idOf('compliance'))).toThrow(/closed/);
    expect(() =>
      t.deps.db.prepare("UPDATE access_reviews SET state = 'open', closed_at = NULL WHERE id = ?").run(review),
    ).toThrow(/closed campaign/);
  });

  it('closes the campaign itself when the last item is decided', async () => {
    const { review } = await setup();
    const ids = t.deps.db
      .prepare<[string], { id: string; operator_id: string }>(
        'SELECT id, operator_id FROM access_review_items WHERE review_id = ?',
      )
      .all(review);
    for (const i of ids)
      decideSql(i.id, i.operator_id === idOf('compliance') ? idOf('security') : idOf('compliance'))();
    expect(t.deps.db.prepare('SELECT state, closed_at FROM access_reviews WHERE id = ?').get(review)).toEqual({
      state: 'closed',
      closed_at: at,
    });
  });
});
