// The console for the back office against a real daemon (svc sandbox start), in Debian's chromium with a
// virtual passkey authenticator: security proposes a ledger adjustment, the approver approves it in the
// browser (stepping up with the passkey once the session's step-up has lapsed) and the API shows it
// executed; security sees its own proposal without an approve button, and a forged approve from its
// page is refused by the server; security revokes the approver's session from the sessions screen and
// that session's next call is refused; the audit chain verifies; Arabic turns an ops screen
// right-to-left; an admin accepts a reconciliation break and moves a complaint. Screenshots of each
// screen go to test/console/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { auditOf, goToScreen, lapseStepUps, launch, SCREENSHOTS, shot, signedIn as signedInAs } from './browser.js';
import { type Calls, callsOf, type EnrolRole, onboardOverHttp, settledCash as cashOf } from './sandbox-http.js';

// The root tsconfig has no DOM library: what the page's code reads, typed here.
type ErrorJson = { error?: { code?: string; message?: string } };
type PageGlobals = { document: { documentElement: { dir: string; lang: string } } };

let sbx: CliSandbox;
let calls: Calls;
let browser: Browser;
let inv: string;
let actionId: string;

/** Opens the one-time enrolment link of the first identity of a role, registers a passkey and signs in. */
async function signedIn(role: EnrolRole): Promise<Page> {
  const { page } = await signedInAs(browser, { sbx, calls }, role);
  return page;
}

const settledCash = (): Promise<number> => cashOf(calls, inv);

const audit = (action: string) => auditOf(calls, action);

/** A proposal as the API lists it. */
const actionOf = async (id: string) =>
  (await calls.as('security').request('get', '/admin/actions')).actions.find((a) => a.action_id === id);

let security: Page;
let approver: Page;

beforeAll(async () => {
  const launched = launch(); // chromium starts while the sandbox is made
  try {
    await makeSandbox();
  } finally {
    browser = await launched;
  }
  // the maker and the checker sign in at the same time, each in a context of its own
  [security, approver] = await Promise.all([signedIn('security'), signedIn('approver')]);
}, 120_000);

async function makeSandbox(): Promise<void> {
  // the daemon from `svc sandbox start`; its state made over HTTP from here (sandbox-http.ts)
  sbx = await startSandbox(['--clock', 'frozen']);
  calls = callsOf(sbx);
  inv = await onboardOverHttp(calls, { fullName: 'Laila Hassan', depositEgp: 1000 });
  const proposed = await calls.as('security').request('post', '/admin/actions', {
    body: {
      action: 'ledger:adjust',
      params: { tenant_id: sbx.info.tenant_id, investor_id: inv, amount_micros: 12_500_000 },
      reason: 'refund of a duplicated fee',
    },
  });
  actionId = proposed.action_id;
}

afterAll(async () => {
  // closing the browser closes its contexts; the sandbox stops meanwhile
  await Promise.all([browser?.close(), sbx?.stop()]);
});

describe('maker-checker in the console', () => {
  it('security sees its own proposal with the payload but no approve button, and a forged approve from its page is refused', async () => {
    await security.locator('a[data-screen="actions"]').click();
    const card = security.locator(`article[data-action-id="${actionId}"]`);
    await card.waitFor();
    expect(await card.locator('pre').first().textContent()).toContain('"amount_micros": 12500000');
    expect(await card.getByTestId('action-amount').textContent()).toBe('12.50 EGP');
    expect(await card.locator('[data-action="approve"]').count()).toBe(0);
    expect(await card.getByTestId('not-yours').count()).toBe(1);
    await shot(security, 'ops-actions-maker');
    const forged = await security.evaluate(async (id) => {
      const me = (await (await fetch('/console/api/me')).json()) as { csrf_token: string };
      const r = await fetch(`/admin/actions/${id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token },
        body: '{}',
      });
      return { status: r.status, body: (await r.json()) as ErrorJson };
    }, actionId);
    expect([403, 409]).toContain(forged.status);
    expect(forged.body.error?.code).toMatch(/^(FORBIDDEN|MAKER_CANNOT_APPROVE)$/);
    expect(forged.body.error?.message).toBeTruthy();
    expect((await actionOf(actionId))?.state).toBe('proposed');
  });

  it('the approver approves it in the browser, stepping up with the passkey; the API shows it executed and the cash moved', async () => {
    // the sign-in's step-up lasts 5 wall-clock minutes: let it lapse, so approving needs a new passkey assertion
    lapseStepUps(sbx);
    const stepUpsBefore = (await audit('console.stepped_up')).length;
    const before = await settledCash();
    await approver.locator('a[data-screen="actions"]').click();
    const card = approver.locator(`article[data-action-id="${actionId}"]`);
    await card.locator('[data-action="approve"]').waitFor();
    await shot(approver, 'ops-actions-checker');
    await card.locator('[data-action="approve"]').click();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 15_000 }).toBe('approved');
    await card.getByTestId('action-result').waitFor();
    await shot(approver, 'ops-actions-approved');
    const listed = await actionOf(actionId);
    expect(listed).toMatchObject({
      state: 'approved',
      maker: 'security',
      checker: 'approver',
      result: { activity_id: expect.any(String) },
    });
    expect(await settledCash()).toBe(before + 12_500_000);
    const stepUps = await audit('console.stepped_up');
    expect(stepUps.length).toBe(stepUpsBefore + 1);
  });
});

describe('sessions, audit and language', () => {
  it('security revokes the approver session from the sessions screen; that session next call is refused 401', async () => {
    await security.locator('a[data-screen="sessions"]').click();
    const row = security
      .locator('tr[data-identity="approver"]')
      .filter({ has: security.locator('[data-action="revoke-session"]') })
      .first();
    await row.waitFor();
    await shot(security, 'ops-sessions');
    const sessionId = await row.getAttribute('data-session');
    await row.locator('[data-action="revoke-session"]').click();
    await expect
      .poll(() => security.locator(`tr[data-session="${sessionId}"] [data-action="revoke-session"]`).count())
      .toBe(0);
    await shot(security, 'ops-sessions-revoked');
    const next = await approver.evaluate(async () => {
      const r = await fetch('/admin/actions');
      return { status: r.status, body: (await r.json()) as ErrorJson };
    });
    expect(next.status).toBe(401);
    expect(next.body.error?.code).toBe('SESSION_INVALID');
    await expect
      .poll(() => approver.locator('[role="alert"]').getAttribute('data-code'), { timeout: 10_000 })
      .toBe('SESSION_INVALID');
    await shot(approver, 'ops-actions-session-revoked');
  });

  it('the audit log lists the approval and the chain verifies', async () => {
    await security.locator('a[data-screen="audit"]').click();
    await security.locator('tr[data-seq]').first().waitFor();
    await security.locator('[data-action="verify"]').click();
    await expect.poll(() => security.getByTestId('verify-result').getAttribute('data-ok')).toBe('true');
    await security.locator('[data-filter="action"]').fill('admin_action.approved');
    await security.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => security.locator('tr[data-seq]').count()).toBe(1);
    expect(await security.locator('tr[data-seq]').textContent()).toContain(actionId);
    await shot(security, 'ops-audit');
  });

  it('access reviews: security opens a campaign and certifies an item about someone else', async () => {
    await security.locator('a[data-screen="access"]').click();
    await security.locator('[data-action="open-review"]').click();
    const review = security.locator('article[data-review]').first();
    const certify = review.locator('[data-action="certify"]').first();
    await certify.waitFor();
    const item = await review
      .locator('tr[data-item]')
      .filter({ has: security.locator('[data-action="certify"]') })
      .first()
      .getAttribute('data-item');
    await certify.click();
    await expect.poll(() => security.locator(`tr[data-item="${item}"] [data-action="certify"]`).count()).toBe(0);
    expect(await security.locator(`tr[data-item="${item}"]`).textContent()).toContain('certify (security)');
    await shot(security, 'ops-access');
    await security.screenshot({ path: `${SCREENSHOTS}/ops-access-top.png` });
    await security
      .locator('.table-wrap')
      .last()
      .screenshot({ path: `${SCREENSHOTS}/ops-access-snapshot.png` });
  });

  it('switching to Arabic turns an ops screen right-to-left', async () => {
    await security.locator('a[data-screen="actions"]').click();
    await security.getByTestId('lang').click();
    expect(
      await security.evaluate(() => [
        (globalThis as unknown as PageGlobals).document.documentElement.dir,
        (globalThis as unknown as PageGlobals).document.documentElement.lang,
      ]),
    ).toEqual(['rtl', 'ar']);
    expect(await security.locator('a[data-screen="actions"]').textContent()).toBe('الإجراءات المقترحة');
    // states read in Arabic too (the API's value stays on the element)
    const state = security.getByTestId('action-state').first();
    await state.waitFor();
    expect(await state.textContent()).toBe(
      { approved: 'معتمد', proposed: 'مقترح', rejected: 'مرفوض', expired: 'منتهي الصلاحية' }[
        (await state.getAttribute('data-value'))!
      ],
    );
    await shot(security, 'ops-actions-arabic');
    await security.getByTestId('lang').click();
  });
});

describe('cases for the admin', () => {
  it('accepts a reconciliation break with a note, and moves a complaint to investigating then resolved with its note', async () => {
    const office = calls.as('admin');
    await calls.sandbox.injectBreak({ investor_id: inv, kind: 'cash', amount: 125_000_000 });
    const today = (await calls.tenant.request('get', '/v1/clock')).timestamp.slice(0, 10);
    await office.request('post', '/admin/reconciliation/runs', { body: { date: today } });
    const complaint = await office.request('post', '/admin/complaints', {
      body: { investor_id: inv, category: 'fees', channel: 'email', summary: 'Charged twice for one order' },
    });
    const admin = await signedIn('admin');
    await admin.locator('a[data-screen="breaks"]').click();
    const row = admin.locator('tr[data-break][data-state="open"]').first();
    await row.waitFor();
    const breakId = await row.getAttribute('data-break');
    await shot(admin, 'ops-breaks');
    expect(await row.locator('[data-action="accept"]').isDisabled()).toBe(true); // a note is required
    await row.getByLabel('Accept').fill('bank fee credited twice; the bank will correct it');
    await row.locator('[data-action="accept"]').click();
    await expect.poll(() => admin.locator(`tr[data-break="${breakId}"]`).getAttribute('data-state')).toBe('resolved');
    const shown = await office.request('get', '/admin/reconciliation/breaks/{id}', { path: { id: breakId! } });
    expect(shown).toMatchObject({
      state: 'resolved',
      resolution: 'accepted',
      note: 'bank fee credited twice; the bank will correct it',
    });

    await admin.locator('a[data-screen="complaints"]').click();
    const c = admin.locator(`tr[data-complaint="${complaint.complaint_id}"]`);
    await c.waitFor();
    await c.locator('[data-action="move"]').click();
    await expect.poll(() => c.getAttribute('data-state')).toBe('investigating');
    expect(await c.locator('[data-action="move"]').isDisabled()).toBe(true); // resolving needs the resolution note
    await shot(admin, 'ops-complaints');
    await c.getByLabel('Move').fill('Refunded the second fee');
    await c.locator('[data-action="move"]').click();
    await expect.poll(() => c.getAttribute('data-state')).toBe('resolved');
    const resolved = await office.request('get', '/admin/complaints/{complaint_id}', {
      path: { complaint_id: complaint.complaint_id },
    });
    expect(resolved).toMatchObject({ state: 'resolved', resolution_note: 'Refunded the second fee' });
    await goToScreen(admin, 'alerts');
    await shot(admin, 'ops-alerts');
  });
});
