// The browser console against a real daemon (svc sandbox start), in Debian's chromium with a virtual
// passkey authenticator: a dealer enrols with the one-time link, signs in with the passkey, executes a
// queued order (and the tenant API then shows it filled), switches to Arabic (the document turns
// right-to-left); an identity without the desk grants sees no desk screens, and its forged calls are
// refused by the server; a call without the session's CSRF token is refused. Screenshots of each screen
// go to test/console/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { goToScreen, launch, pageWithAuthenticator, shot } from './browser.js';
import {
  applyKyc,
  type Calls,
  callsOf,
  deposit,
  type EnrolRole,
  enrolLinkOverHttp,
  marketOrder,
  onboardOverHttp,
} from './sandbox-http.js';

// The root tsconfig has no DOM library: what the page's code reads, typed here.
type ErrorJson = { error?: { code?: string } };
type PageGlobals = { document: { documentElement: { dir: string; lang: string } } };

let sbx: CliSandbox;
let calls: Calls;
let browser: Browser;
let inv: string;

/** The one-time enrolment link of `svc console enroll --as ROLE`: the command itself, where the link is what a test
 * proves works. */
async function enrolLink(role: EnrolRole): Promise<string> {
  const res = await sbx.svc(['console', 'enroll', '--as', role, '--json']);
  expect(res.code, res.stderr).toBe(0);
  return res.json.link as string;
}

/** Opens an enrolment link (by default one asked of the daemon over HTTP) and registers a passkey; the page then
 * signs in with it. */
async function enrolAndSignIn(page: Page, role: EnrolRole, link?: string): Promise<void> {
  await page.goto(link ?? (await enrolLinkOverHttp(sbx, calls, role)));
  await page.getByTestId('enrol').click();
  await page.getByTestId('identity').waitFor({ timeout: 15_000 });
}

let shared: Promise<Page> | undefined;
/** A dealer's page for the tests about what a signed-in dealer sees and may do (not about enrolling): signed in
 * once, by the first of them, in a context of its own. */
const dealerPage = (): Promise<Page> =>
  (shared ??= pageWithAuthenticator(browser).then(async ({ page }) => {
    await enrolAndSignIn(page, 'dealer');
    return page;
  }));

beforeAll(async () => {
  const launched = launch(); // chromium starts while the sandbox is made
  try {
    // the daemon from `svc sandbox start`; its state made over HTTP from here (sandbox-http.ts)
    sbx = await startSandbox(['--clock', 'frozen']);
    calls = callsOf(sbx);
    inv = await onboardOverHttp(calls, { fullName: 'Omar Farouk', suitability: true, depositEgp: 50_000 });
    await calls.sandbox.clock.advanceUntil('next_open');
    await calls.sandbox.autoFill({ enabled: false });
  } finally {
    browser = await launched;
  }
}, 120_000);

afterAll(async () => {
  // closing the browser closes its contexts; the sandbox stops meanwhile
  await Promise.all([browser?.close(), sbx?.stop()]);
});

describe('the console for a dealer', () => {
  it('sandbox start prints a console_url on localhost that serves the console page', async () => {
    expect(sbx.info.console_url).toMatch(/^http:\/\/localhost:\d+\/console$/);
    const res = await fetch(sbx.info.console_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await res.text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const js = await fetch(new URL(script!, sbx.info.console_url));
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // a page route of the app is the app; an asset that is not there is a 404 in the error body
    expect((await fetch(`${sbx.info.console_url}/queue`)).headers.get('content-type')).toBe('text/html; charset=utf-8');
    const missing = await fetch(`${sbx.info.console_url}/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as ErrorJson).error?.code).toBe('NOT_FOUND');
  });

  it('enrols a passkey with the one-time link, signs in, and executes a queued order that the tenant API then shows filled', async () => {
    const orderId = (await marketOrder(calls, inv, 'buy', 'COMI', 3)).order_id;
    const { context, page } = await pageWithAuthenticator(browser);
    await enrolAndSignIn(page, 'dealer', await enrolLink('dealer'));
    expect(await page.getByTestId('identity').textContent()).toBe('dealer');
    const row = page.locator(`tr[data-order="${orderId}"]`);
    await row.waitFor();
    await shot(page, 'dealer-queue');
    // a price outside the band: the server's refusal is shown as it came, and the order stays queued
    const tape = await row.locator('input.price').inputValue();
    await row.locator('input.price').fill(String(Math.round(Number(tape) * 2)));
    await row.locator('[data-action="execute"]').click();
    await expect.poll(() => page.locator('[role="alert"]').getAttribute('data-code')).toBe('PRICE_BAND_EXCEEDED');
    expect(await page.locator('[role="alert"]').textContent()).toMatch(/^PRICE_BAND_EXCEEDED .+/);
    await shot(page, 'dealer-queue-refused');
    expect(await row.count()).toBe(1);
    await row.locator('input.price').fill(tape);
    await row.locator('[data-action="execute"]').click();
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    const shown = await calls.tenant.orders.get(orderId);
    expect(shown).toMatchObject({ order_id: orderId, status: 'filled', filled_qty: 3 });
    await page.locator('a[data-screen="blotter"]').click();
    await page.locator(`tr[data-order="${orderId}"]`).waitFor();
    await shot(page, 'dealer-blotter');
    for (const s of ['funding', 'kyc', 'book', 'eod']) {
      await goToScreen(page, s);
      await shot(page, `dealer-${s}`);
    }
    await context.close();
  });

  it('the enrolment link works once', async () => {
    const link = await enrolLink('dealer');
    const first = await pageWithAuthenticator(browser);
    await first.page.goto(link);
    await first.page.getByTestId('enrol').click();
    await first.page.getByTestId('identity').waitFor({ timeout: 15_000 });
    const again = await pageWithAuthenticator(browser);
    await again.page.goto(link);
    await again.page.getByTestId('enrol').click();
    await expect
      .poll(() => again.page.locator('[role="alert"]').getAttribute('data-code'))
      .toBe('ENROLMENT_CODE_INVALID');
    await first.context.close();
    await again.context.close();
  });

  it('switching to Arabic turns the document right-to-left, on a tablet too', async () => {
    const page = await dealerPage();
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.getByTestId('lang').click();
    expect(
      await page.evaluate(() => [
        (globalThis as unknown as PageGlobals).document.documentElement.dir,
        (globalThis as unknown as PageGlobals).document.documentElement.lang,
      ]),
    ).toEqual(['rtl', 'ar']);
    expect(await page.locator('a[data-screen="queue"]').textContent()).toBe('طابور الأوامر');
    await shot(page, 'dealer-queue-arabic-tablet');
    await page.getByTestId('lang').click();
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.dir)).toBe('ltr');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

describe('the dealer decides KYC referrals and funding', () => {
  it('views the decrypted ID images of a referral and clears it; approves a deposit waiting for a decision', async () => {
    const applied = await applyKyc(calls, { fullName: 'Karim Referred', email: 'karim@example.com', suffix: '9999' });
    expect(applied.state).toBe('screening_referred');
    const applicationId = applied.application_id;
    const manualFunding = (enabled: boolean) =>
      calls.sandbox.request('post', '/admin/sandbox/manual-funding', { body: { enabled } });
    await manualFunding(true);
    const transferId = (await deposit(calls, inv, 1234)).transfer_id;

    const page = await dealerPage();
    await page.locator('a[data-screen="kyc"]').click();
    const card = page.locator(`article[data-application="${applicationId}"]`);
    await card.getByRole('button', { name: 'ID images' }).click();
    await expect
      .poll(() =>
        card
          .locator('img')
          .evaluateAll((imgs) => imgs.map((i) => (i as unknown as { naturalWidth: number }).naturalWidth > 0)),
      )
      .toEqual([true, true]);
    await shot(page, 'dealer-kyc-images');
    await card.getByRole('button', { name: 'Clear', exact: true }).click();
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    expect((await calls.tenant.kyc.get(applicationId)).state).toBe('approved');

    await page.locator('a[data-screen="funding"]').click();
    const row = page.locator(`tr[data-transfer="${transferId}"]`);
    await row.waitFor();
    await shot(page, 'dealer-funding');
    await row.getByRole('button', { name: 'Approve' }).click();
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    expect((await calls.tenant.transfers.get(transferId)).approval).toBe('approved');
    await manualFunding(false);
  });
});

describe('authority comes from the server', () => {
  it('an identity without desk grants sees no desk screens, and its forged desk and admin calls are refused', async () => {
    const { context, page } = await pageWithAuthenticator(browser);
    await enrolAndSignIn(page, 'security');
    expect(await page.locator('a[data-screen="queue"]').count()).toBe(0);
    await shot(page, 'security-shell');
    const forged = await page.evaluate(async () => {
      const me = (await (await fetch('/console/api/me')).json()) as { csrf_token: string };
      const headers = { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token };
      const clock = await fetch('/admin/sandbox/auto-fill', {
        method: 'POST',
        headers,
        body: JSON.stringify({ enabled: true }),
      });
      const queue = await fetch('/broker/v1/queue');
      return {
        clock: [clock.status, ((await clock.json()) as ErrorJson).error?.code],
        queue: [queue.status, ((await queue.json()) as ErrorJson).error?.code],
      };
    });
    expect(forged.clock).toEqual([403, 'FORBIDDEN']);
    expect(forged.queue).toEqual([401, 'UNAUTHENTICATED']);
    await context.close();
  });

  it('a state-changing call with the session cookie but without its CSRF token is refused', async () => {
    const placed = await marketOrder(calls, inv, 'buy', 'COMI', 1);
    const page = await dealerPage();
    const status = await page.evaluate(async (id) => {
      const r = await fetch(`/broker/v1/queue/${id}/reject`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reason_code: 'DEALER_REJECTED' }),
      });
      return [r.status, ((await r.json()) as ErrorJson).error?.code];
    }, placed.order_id);
    expect(status).toEqual([403, 'CSRF_REFUSED']);
    expect((await calls.tenant.orders.get(placed.order_id)).status).toBe('pending_new');
  });
});
