// The `adjusted` resolution (docs/reconciliation.md): a ledger:adjust proposal that names a break, once
// approved, posts the adjustment and resolves the break `adjusted` in the same transaction; a later run
// matches and opens nothing. A break that is already resolved refuses the approval and nothing is posted.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { cash, EGP, trader } from '../helpers/trading.js';

// Sunday 2026-11-22 09:00 Cairo, a business day.
const DAY = '2026-11-22';
let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(async () => t.close());

const run = async () => {
  const res = await t.req('POST', '/admin/reconciliation/runs', { body: { date: DAY } });
  expect(res.status, res.text).toBe(201);
  return res.body;
};
const breakOf = async (id: string) => (await t.req('GET', `/admin/reconciliation/breaks/${id}`)).body;
const propose = async (params: Record<string, unknown>, reason = 'bank statement shows a deposit the book missed') => {
  const res = await t.req('POST', '/admin/actions', {
    as: 'security',
    body: { action: 'ledger:adjust', params, reason },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
};
const approve = (id: string) => t.req('POST', `/admin/actions/${id}/approve`, { as: 'approver', body: {} });
const postings = () => (t.deps.db.prepare('SELECT COUNT(*) AS n FROM ledger_entries').get() as { n: number }).n;

/** An investor whose bank statement shows 125 EGP more than the book, and the open break a run found. */
async function cashBreak() {
  const inv = await trader(t, 1_000);
  const inj = await t.req('POST', '/admin/sandbox/inject-break', {
    body: { kind: 'cash', investor_id: inv, amount: 125 * EGP },
  });
  expect(inj.status, inj.text).toBe(201);
  const first = await run();
  expect(first.breaks_opened).toBe(1);
  const [b] = (await t.req('GET', `/admin/reconciliation/breaks?investor_id=${inv}`)).body.breaks;
  expect(b).toMatchObject({ kind: 'cash', state: 'open', difference: -125 * EGP });
  return { inv, b };
}

describe('a ledger:adjust that names a break resolves it `adjusted`', () => {
  it('inject a cash break, run, propose ledger:adjust with break_id, approve: the adjustment is posted, the break resolved adjusted by the action, and the next run finds nothing', async () => {
    const { inv, b } = await cashBreak();
    const before = cash(t, inv).settled;
    const p = await propose({
      tenant_id: t.creds.tenant.tenant_id,
      investor_id: inv,
      amount_micros: -b.difference,
      break_id: b.break_id,
    });
    expect(p.params).toMatchObject({ break_id: b.break_id, amount_micros: 125 * EGP });
    const a = await approve(p.action_id);
    expect(a.status, a.text).toBe(200);
    expect(a.body.result).toMatchObject({ break_id: b.break_id, break_resolution: 'adjusted' });
    expect(cash(t, inv).settled).toBe(before + 125 * EGP);
    expect(await breakOf(b.break_id)).toMatchObject({
      state: 'resolved',
      resolution: 'adjusted',
      resolved_by: p.action_id,
    });
    const again = await run();
    expect(again).toMatchObject({ breaks_found: 0, breaks_opened: 0, breaks_auto_resolved: 0 });
    expect((await t.req('GET', '/admin/reconciliation/breaks?state=open')).body.breaks).toEqual([]);
  });

  it('a break_id of a resolved break: the approval is 409 BREAK_STATE_CONFLICT, nothing is posted and the proposal stays open', async () => {
    const { inv, b } = await cashBreak();
    const accepted = await t.req('POST', `/admin/reconciliation/breaks/${b.break_id}/resolve`, {
      body: { resolution: 'accepted', note: 'timing difference' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    const p = await propose({
      tenant_id: t.creds.tenant.tenant_id,
      investor_id: inv,
      amount_micros: 125 * EGP,
      break_id: b.break_id,
    });
    const [entries, settled] = [postings(), cash(t, inv).settled];
    const a = await approve(p.action_id);
    expect([a.status, a.body.error?.code]).toEqual([409, 'BREAK_STATE_CONFLICT']);
    expect([postings(), cash(t, inv).settled]).toEqual([entries, settled]);
    expect(await breakOf(b.break_id)).toMatchObject({ resolution: 'accepted' });
    expect(
      (await t.req('GET', '/admin/actions?state=proposed')).body.actions.map((x: { action_id: string }) => x.action_id),
    ).toContain(p.action_id);
  });

  it('a break of another investor, or an unknown break: 422 ACTION_NOT_EXECUTABLE and nothing is posted', async () => {
    const { b } = await cashBreak();
    const other = await trader(t, 10);
    const entries = postings();
    for (const break_id of [b.break_id, 'rbk_nothere']) {
      const p = await propose({
        tenant_id: t.creds.tenant.tenant_id,
        investor_id: other,
        amount_micros: 125 * EGP,
        break_id,
      });
      const a = await approve(p.action_id);
      expect([a.status, a.body.error?.code]).toEqual([422, 'ACTION_NOT_EXECUTABLE']);
    }
    expect(postings()).toBe(entries);
    expect(await breakOf(b.break_id)).toMatchObject({ state: 'open' });
  });
});
