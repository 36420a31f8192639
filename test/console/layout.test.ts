// The console on a tablet (820x1180) and on a laptop (1280x800), in English and in Arabic, against a
// real daemon with work waiting on every screen (test/console/ops-sandbox.ts): every screen of both
// personas fits the window's width (the page never scrolls sideways) with its main action controls in
// view, and in Arabic no English word is left on any screen but ids, codes, symbols, amounts and the
// data people typed. Screenshots of every screen at both widths in both languages go to
// test/console/screenshots/ (layout-<width>-<lang>-<screen>.png, the window as first seen). 'English' is
// allowed: it is the language switch, which names the other language in that language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  englishWords,
  enrolLink,
  fitsWidth,
  goToScreen,
  inViewAcross,
  launch,
  pageWithAuthenticator,
  shotWindow,
  signedIn,
  tablesScrollingSideways,
} from './browser.js';
import { deskWork, startOpsSandbox, type OpsSandbox } from './ops-sandbox.js';
import type { EnrolRole } from './sandbox-http.js';

/** Each screen, who sees its decisions, and the controls of those decisions that must be in view. */
const SCREENS: Array<{ id: string; role: EnrolRole; controls: string[] }> = [
  {
    id: 'actions',
    role: 'approver',
    controls: ['[data-action="approve"]', '[data-action="reject"]', 'input[aria-label]'],
  },
  {
    id: 'audit',
    role: 'security',
    controls: [
      '[data-action="verify"]',
      '[data-filter="actor"]',
      '[data-filter="tenant_id"]',
      'form button[type="submit"]',
    ],
  },
  {
    id: 'access',
    role: 'security',
    controls: ['[data-action="open-review"]', '[data-action="certify"]', '[data-action="revoke"]'],
  },
  { id: 'sessions', role: 'security', controls: ['[data-action="revoke-session"]'] },
  { id: 'breaks', role: 'admin', controls: ['[data-action="acknowledge"]', '[data-action="accept"]'] },
  { id: 'alerts', role: 'admin', controls: ['[data-action="escalate"]', '[data-action="close"]'] },
  { id: 'complaints', role: 'admin', controls: ['tr[data-complaint] select', '[data-action="move"]'] },
  { id: 'queue', role: 'dealer', controls: ['input.price', '[data-action="execute"]', 'tr[data-order] select'] },
  { id: 'funding', role: 'dealer', controls: ['tr[data-transfer] button.primary', 'tr[data-transfer] select'] },
  {
    id: 'kyc',
    role: 'dealer',
    controls: ['article[data-application] button.primary', 'article[data-application] select'],
  },
  { id: 'blotter', role: 'dealer', controls: ['input[type="date"]'] },
  { id: 'book', role: 'dealer', controls: ['form input', 'form button[type="submit"]'] },
  { id: 'eod', role: 'dealer', controls: ['dl.grid'] },
];
const WIDTHS = [
  { name: 'tablet', width: 820, height: 1180 },
  { name: 'laptop', width: 1280, height: 800 },
];

let o: OpsSandbox;
let browser: Browser;
let referred: string;
const pages = new Map<EnrolRole, Page>();

beforeAll(async () => {
  // chromium starts while the sandbox is made; each role signs in in a context of its own, all at once
  const launched = launch();
  try {
    o = await startOpsSandbox();
    referred = await deskWork(o);
    // an open access review, so that its items wait for a decision
    await o.calls.as('security').request('post', '/admin/access-reviews', { body: {} });
  } finally {
    browser = await launched;
  }
  const roles = [...new Set(SCREENS.map((s) => s.role))];
  const signed = await Promise.all(roles.map((role) => signedIn(browser, o, role, WIDTHS[0])));
  for (const [i, r] of signed.entries()) pages.set(roles[i], r.page);
}, 400_000);

afterAll(async () => {
  // closing the browser closes its contexts; the sandbox stops meanwhile
  await Promise.all([browser?.close(), o?.sbx.stop()]);
});

async function inLanguage(page: Page, lang: 'en' | 'ar'): Promise<void> {
  if ((await page.evaluate('document.documentElement.lang')) !== lang) await page.getByTestId('lang').click();
  await expect.poll(() => page.evaluate('document.documentElement.dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
}

/** Runs `check` on every screen, each role's screens in order on its own page, the roles' pages at the same time (each
 * is a context of its own: what one page does cannot move another). */
async function everyScreen(check: (page: Page, s: (typeof SCREENS)[number]) => Promise<void>): Promise<void> {
  await Promise.all(
    [...pages].map(async ([role, page]) => {
      for (const s of SCREENS) if (s.role === role) await check(page, s);
    }),
  );
}

/** Opens a screen and waits until its list has been read and its decision controls are there. */
async function openScreen(page: Page, s: (typeof SCREENS)[number]): Promise<void> {
  await goToScreen(page, s.id);
  for (const c of s.controls) await page.locator(c).first().waitFor({ timeout: 30_000 });
}

describe('usable on a laptop screen and a tablet, in English and in Arabic', () => {
  for (const w of WIDTHS) {
    for (const lang of ['en', 'ar'] as const) {
      it(`on a ${w.name} (${w.width}x${w.height}) in ${lang === 'en' ? 'English' : 'Arabic'}, every screen fits the width and shows its main actions in view`, async () => {
        const problems: string[] = [];
        await everyScreen(async (page, s) => {
          if (page.viewportSize()?.width !== w.width) await page.setViewportSize({ width: w.width, height: w.height });
          await inLanguage(page, lang);
          await openScreen(page, s);
          if (!(await fitsWidth(page))) problems.push(`${s.id}: the page scrolls sideways`);
          for (const i of await tablesScrollingSideways(page)) problems.push(`${s.id}: table ${i} scrolls sideways`);
          for (const c of s.controls)
            if (!(await inViewAcross(page, c))) problems.push(`${s.id}: ${c} is not in view across`);
          await shotWindow(page, `layout-${w.name}-${lang}-${s.id}`);
        });
        expect(problems.sort()).toEqual([]);
      });
    }
  }
});

describe('English and Arabic', () => {
  it('in Arabic, no screen of either persona shows an English word but ids, codes, symbols, amounts, names and the notes people typed', async () => {
    const allowed = [
      'svc',
      'English',
      o.investorName,
      referred,
      o.complaintSummary,
      o.proposalReason,
      'admin',
      'security',
      'approver',
      'dealer',
      'compliance',
      'auditor', // the identities' names
    ];
    const found: string[] = [];
    await everyScreen(async (page, s) => {
      await inLanguage(page, 'ar');
      await openScreen(page, s);
      for (const word of await englishWords(page, allowed)) found.push(`${s.id}: ${word}`);
    });
    expect(found.sort()).toEqual([]);
  });

  it('in Arabic, the sign-in and enrolment pages read in Arabic too (the enrol command stays as typed, in code), and fit a tablet', async () => {
    const { page } = await pageWithAuthenticator(browser, WIDTHS[0]);
    await page.goto(o.sbx.info.console_url);
    await page.getByTestId('sign-in').waitFor();
    await inLanguage(page, 'ar');
    expect(await englishWords(page, ['svc', 'English'])).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await shotWindow(page, 'layout-tablet-ar-sign-in');
    await page.goto(await enrolLink(o.sbx, 'compliance')); // the language choice is kept for the next page
    await page.getByTestId('enrol').waitFor();
    expect(await page.evaluate('document.documentElement.dir')).toBe('rtl');
    expect(await englishWords(page, ['svc', 'English'])).toEqual([]);
    await shotWindow(page, 'layout-tablet-ar-enrol');
  });
});
