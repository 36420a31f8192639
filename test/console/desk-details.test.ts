// What a first-time dealer ran into (issue 28, item 7), against a real daemon in Debian's chromium:
// the console opened on 127.0.0.1 (the host of base_url) says to open it on localhost, with the same
// link, instead of failing at passkey registration; End of day names every fee line in English, breaks
// the settlement obligations down per investor and lists each cash movement; the order queue shows
// each order's id, when it was placed and its time in force. Screenshots of each changed screen in
// English and Arabic at 1280x800 and 820x1180 go to test/console/screenshots/ (details-*.png).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  enrolLink,
  fitsWidth,
  goToScreen,
  launch,
  pageWithAuthenticator,
  shot,
  signedIn,
  tablesScrollingSideways,
} from './browser.js';
import { deskWork, startOpsSandbox, type OpsSandbox } from './ops-sandbox.js';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 820, height: 1180 },
];

interface EodWire {
  fees_by_line: Record<string, number>;
  cash: { movements: Array<{ activity_id: string; activity_type: string; amount_micros: number }> };
  settlements_due: { investors: Array<{ investor_id: string; account_number: string; net_cash_micros: number }> };
}

let o: OpsSandbox;
let browser: Browser;
let dealer: { context: BrowserContext; page: Page };

beforeAll(async () => {
  const launched = launch(); // chromium starts while the sandbox is made
  try {
    o = await startOpsSandbox();
    await deskWork(o);
  } finally {
    browser = await launched;
  }
  dealer = await signedIn(browser, o, 'dealer');
}, 400_000);

afterAll(async () => {
  // closing the browser closes its contexts; the sandbox stops meanwhile
  await Promise.all([browser?.close(), o?.sbx.stop()]);
});

async function inLanguage(page: Page, lang: 'en' | 'ar'): Promise<void> {
  if ((await page.evaluate('document.documentElement.lang')) !== lang) await page.getByTestId('lang').click();
  await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe(lang);
}

/** Screenshots of the screen now open at both sizes in both languages, each checked to fit the width (no
 *  sideways scrolling, of the page or of a table); back to English on a laptop after. */
async function shotsEverywhere(page: Page, name: string): Promise<void> {
  const problems: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const lang of ['en', 'ar'] as const) {
      await inLanguage(page, lang);
      const at = `${lang} ${size.width}x${size.height}`;
      if (!(await fitsWidth(page))) problems.push(`${at}: the page scrolls sideways`);
      for (const i of await tablesScrollingSideways(page)) problems.push(`${at}: table ${i} scrolls sideways`);
      await shot(page, `details-${name}-${lang}-${size.width}x${size.height}`);
    }
  }
  await page.setViewportSize(SIZES[0]);
  await inLanguage(page, 'en');
  expect(problems).toEqual([]);
}

describe('the console on an IP address', () => {
  it('an enrolment link opened on 127.0.0.1 says to open the same link on localhost instead of failing at passkey registration', async () => {
    const link = await enrolLink(o.sbx, 'compliance');
    expect(new URL(link).hostname).toBe('localhost');
    const onIp = link.replace('//localhost:', '//127.0.0.1:');
    const { context, page } = await pageWithAuthenticator(browser);
    await page.goto(onIp);
    const go = page.getByTestId('use-localhost');
    await go.waitFor();
    expect(await go.getAttribute('href')).toBe(link);
    expect(await page.getByTestId('enrol').count()).toBe(0);
    await shotsEverywhere(page, 'ip-enrol');
    // the link it gives works: the passkey registers and the page signs in
    await go.click();
    await page.getByTestId('enrol').click();
    await expect.poll(() => page.getByTestId('identity').textContent(), { timeout: 30_000 }).toBe('compliance');
    await context.close();
  });

  it('the sign-in page opened on 127.0.0.1 points to console_url on localhost', async () => {
    const { context, page } = await pageWithAuthenticator(browser);
    await page.goto(o.sbx.info.console_url.replace('//localhost:', '//127.0.0.1:'));
    const go = page.getByTestId('use-localhost');
    await go.waitFor();
    expect(await go.getAttribute('href')).toBe(o.sbx.info.console_url);
    expect(await page.getByTestId('sign-in').count()).toBe(0);
    await context.close();
  });
});

describe('End of day for a dealer', () => {
  it('names every fee line in English, breaks settlement obligations down per investor and lists each cash movement', async () => {
    const { page } = dealer;
    const eod = (await page.evaluate("fetch('/broker/v1/eod').then((r) => r.json())")) as EodWire;
    expect(eod.settlements_due.investors.length).toBeGreaterThan(0);
    expect(eod.cash.movements.length).toBeGreaterThan(0);
    await goToScreen(page, 'eod');
    const labels = await page.locator('[data-fee-line] dt').allTextContents();
    expect(labels).toEqual([
      'Commission',
      'EGX fee',
      'MCDR fee',
      'Investor Protection Fund',
      'FRA fee',
      'Stamp duty',
      'Fees',
      'Total',
    ]);
    for (const inv of eod.settlements_due.investors) {
      const row = page.locator(`tr[data-obligation="${inv.investor_id}"]`);
      expect(await row.locator('td').first().textContent()).toContain(inv.account_number);
      expect(await row.locator('[data-net]').getAttribute('data-net')).toBe(String(inv.net_cash_micros));
    }
    const shown = await page
      .locator('tr[data-activity]')
      .evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { activity: string } }).dataset.activity));
    expect(shown).toEqual(eod.cash.movements.map((m) => m.activity_id));
    await shotsEverywhere(page, 'eod');
  });
});

describe('the order queue', () => {
  it("shows each order's id, when it was placed and its time in force", async () => {
    const { page } = dealer;
    const queue = (await page.evaluate("fetch('/broker/v1/queue').then((r) => r.json())")) as {
      orders: Array<{ order_id: string; created_at: string; time_in_force: string }>;
    };
    expect(queue.orders.length).toBeGreaterThan(0);
    await page.locator('a[data-screen="queue"]').click();
    for (const q of queue.orders) {
      const row = page.locator(`tr[data-order="${q.order_id}"]`);
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      expect(text).toContain(q.order_id);
      // placed: the date and the minute, as the API wrote them (the exchange's time, Cairo)
      const placed = row.locator('[data-placed]');
      expect(await placed.getAttribute('data-placed')).toBe(q.created_at);
      expect(await placed.textContent()).toBe(
        `${q.created_at.slice(0, 10)} ${q.created_at.slice(11, 16)}` +
          { day: 'Day', gtc: 'Good till cancelled', ioc: 'Immediate or cancel', fok: 'Fill or kill' }[q.time_in_force],
      );
      expect(await row.locator('[data-tif]').getAttribute('data-tif')).toBe(q.time_in_force);
      expect(await row.locator('[data-tif]').textContent()).toBe(
        { day: 'Day', gtc: 'Good till cancelled', ioc: 'Immediate or cancel', fok: 'Fill or kill' }[q.time_in_force],
      );
    }
    await shotsEverywhere(page, 'queue');
  });
});
