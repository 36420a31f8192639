// Decisions of the ops persona in the browser, against a real daemon (svc sandbox start) in Debian's
// chromium with a virtual passkey authenticator, each then read back through the API: the approver
// rejects a maker's proposal with a reason (stepping up with the passkey) and it is rejected, not run;
// the admin escalates a surveillance alert with a note and then closes it with the required note; a
// reviewer revokes an item of an access review and the revoked identity's next call needing that grant
// is refused, in its own console session and with its key. Screenshots go to test/console/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { isSvcError } from '../../client/src/index.js';
import { auditOf, lapseStepUps, launch, shot, signedIn } from './browser.js';
import { startOpsSandbox, type OpsSandbox } from './ops-sandbox.js';
import { type EnrolRole, settledCash as cashOf } from './sandbox-http.js';

type ErrorJson = { error?: { code?: string; message?: string } };

let o: OpsSandbox;
let browser: Browser;

async function as(role: EnrolRole): Promise<Page> {
  const { page } = await signedIn(browser, o, role);
  return page;
}

let adminPage: Promise<Page> | undefined;
/** The admin's page: signed in once, by the first test that needs it. */
const asAdmin = (): Promise<Page> => (adminPage ??= as('admin'));

const settledCash = (): Promise<number> => cashOf(o.calls, o.inv);

beforeAll(async () => {
  const launched = launch(); // chromium starts while the sandbox is made
  try {
    o = await startOpsSandbox();
  } finally {
    browser = await launched;
  }
}, 300_000);

afterAll(async () => {
  // closing the browser closes its contexts; the sandbox stops meanwhile
  await Promise.all([browser?.close(), o?.sbx.stop()]);
});

/** An alert as the API shows it (read as the admin). */
const alert = (id: string) =>
  o.calls.as('admin').request('get', '/admin/surveillance/alerts/{alert_id}', { path: { alert_id: id } });

describe('proposed actions: approve or reject, stepped up', () => {
  it("the approver rejects a maker's proposal with a reason, stepping up with the passkey; the API shows it rejected and it never ran", async () => {
    const approver = await as('approver');
    // the sign-in's step-up lasts 5 minutes: let it lapse, so rejecting needs a new passkey assertion
    lapseStepUps(o.sbx);
    const stepUpsBefore = (await auditOf(o.calls, 'console.stepped_up')).length;
    const cashBefore = await settledCash();
    await approver.locator('a[data-screen="actions"]').click();
    const card = approver.locator(`article[data-action-id="${o.actionId}"]`);
    const reject = card.locator('[data-action="reject"]');
    await reject.waitFor();
    expect(await reject.isDisabled()).toBe(true); // a rejection needs its reason
    await card.getByLabel('Reject').fill('the fee was charged once; nothing to refund');
    await shot(approver, 'ops-actions-reject-typed');
    await reject.click();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 30_000 }).toBe('rejected');
    expect(await card.getByTestId('action-state').textContent()).toBe('rejected');
    expect(await card.textContent()).toContain('the fee was charged once; nothing to refund');
    expect(await card.locator('[data-action="approve"]').count()).toBe(0);
    await shot(approver, 'ops-actions-rejected');
    const listed = (await o.calls.as('security').request('get', '/admin/actions')).actions.find(
      (a) => a.action_id === o.actionId,
    );
    expect(listed).toMatchObject({
      state: 'rejected',
      maker: 'security',
      checker: 'approver',
      decision_reason: 'the fee was charged once; nothing to refund',
      result: null,
    });
    expect(await settledCash()).toBe(cashBefore);
    expect((await auditOf(o.calls, 'console.stepped_up')).length).toBe(stepUpsBefore + 1);
    const again = await approver.evaluate(async (id) => {
      const me = (await (await fetch('/console/api/me')).json()) as { csrf_token: string };
      const r = await fetch(`/admin/actions/${id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token },
        body: '{}',
      });
      return r.status;
    }, o.actionId);
    expect(again).toBe(409); // a rejected proposal cannot be approved afterwards
    expect(await settledCash()).toBe(cashBefore);
  });
});

describe('surveillance alerts: escalate, close with a note', () => {
  it('the admin escalates an alert with a note, then closes it with the required note; the API shows it escalated, then closed with that note', async () => {
    const admin = await asAdmin();
    await admin.locator('a[data-screen="alerts"]').click();
    const card = admin.locator(`article[data-alert="${o.alertId}"]`);
    await card.locator('[data-action="escalate"]').waitFor();
    await shot(admin, 'ops-alerts-open');
    await card.getByLabel('Escalate').fill('second time this month');
    await card.locator('[data-action="escalate"]').click();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 30_000 }).toBe('escalated');
    const escalated = await alert(o.alertId);
    expect(escalated).toMatchObject({ state: 'escalated', note: 'second time this month' });
    expect(await card.locator('[data-action="escalate"]').count()).toBe(0); // only an open alert is escalated
    const close = card.locator('[data-action="close"]');
    expect(await close.isDisabled()).toBe(true); // closing needs its note
    await card.getByLabel('Close').fill('client rebalanced; no intent to mislead');
    await close.click();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 30_000 }).toBe('closed');
    expect(await card.locator('button').count()).toBe(0);
    expect(await card.textContent()).toContain('client rebalanced; no intent to mislead');
    await shot(admin, 'ops-alerts-closed');
    const closed = await alert(o.alertId);
    expect(closed).toMatchObject({ state: 'closed', note: 'client rebalanced; no intent to mislead' });
    const trail = [
      ...(await auditOf(o.calls, 'surveillance.alert_escalated')),
      ...(await auditOf(o.calls, 'surveillance.alert_closed')),
    ];
    expect(trail.map((e) => [e.actor, e.subject])).toEqual([
      ['operator:admin', o.alertId],
      ['operator:admin', o.alertId],
    ]);
  });
});

describe('access reviews: certify, revoke', () => {
  it("security revokes the admin's audit:read in a review campaign; the admin's next call needing it is refused 403, in its console session and with its key", async () => {
    const [admin, security] = await Promise.all([asAdmin(), as('security')]);
    await admin.locator('a[data-screen="audit"]').click();
    await admin.locator('tr[data-seq]').first().waitFor(); // the admin reads the audit log before
    await security.locator('a[data-screen="access"]').click();
    await security.locator('[data-action="open-review"]').click();
    const item = security.locator('article[data-review] tr[data-identity="admin"][data-grant="audit:read"]').first();
    await item.locator('[data-action="revoke"]').waitFor({ timeout: 30_000 });
    await item.getByLabel('Revoke').fill('admin does not read the audit log');
    await item.locator('[data-action="revoke"]').click();
    await expect.poll(() => item.getAttribute('data-decision'), { timeout: 30_000 }).toBe('revoke');
    expect(await item.textContent()).toContain('security');
    await shot(security, 'ops-access-revoked');
    // the admin's open page: its next poll of the audit log is refused, and the page shows the error body
    const next = await admin.evaluate(async () => {
      const r = await fetch('/admin/audit');
      return { status: r.status, body: (await r.json()) as ErrorJson };
    });
    expect([next.status, next.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    await expect
      .poll(() => admin.locator('[role="alert"]').getAttribute('data-code'), { timeout: 15_000 })
      .toBe('FORBIDDEN');
    expect(await admin.locator('tr[data-seq]').count()).toBe(0); // what it may no longer read is no longer shown
    await shot(admin, 'ops-audit-after-revoke');
    const withKey = await o.calls
      .as('admin')
      .request('get', '/admin/audit')
      .then(
        () => 'read',
        (e: unknown) => (isSvcError(e) ? e.code : String(e)),
      );
    expect(withKey).toBe('FORBIDDEN');
    // its other grants still work: the admin still reads the alerts
    expect((await o.calls.as('admin').request('get', '/admin/surveillance/alerts')).alerts.length).toBeGreaterThan(0);
    const revoked = await auditOf(o.calls, 'access_review.revoked');
    expect(JSON.parse(revoked[0].detail)).toMatchObject({ identity: 'admin', reviewed_grant: 'audit:read' });
  });
});
