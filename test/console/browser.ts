// Drives Debian's chromium with playwright-core (no browser download) for the console tests, with a
// virtual WebAuthn authenticator over the Chrome DevTools Protocol: the page's passkey ceremonies run
// for real (ES256 keys, user verification) without a person at the browser.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { CliSandbox } from '../helpers/cli.js';
import { sessionMac } from '../../daemon/backoffice/sessions.js';
import { type Calls, type EnrolRole, enrolLinkOverHttp } from './sandbox-http.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = 'test/console/screenshots';

export function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does)`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true });
}

/** A fresh browser context (its own cookies) whose page has a passkey authenticator that verifies the user. */
export async function pageWithAuthenticator(
  browser: Browser,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page };
}

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
/** What the window shows, without scrolling: the screen as a person first sees it. */
export const shotWindow = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });

/** The one-time enrolment link for the first identity of a role (`svc console enroll --as ROLE`). */
export async function enrolLink(sbx: CliSandbox, role: string): Promise<string> {
  const res = await sbx.svc(['console', 'enroll', '--as', role, '--json']);
  if (res.code !== 0) throw new Error(`svc console enroll --as ${role}: ${res.stderr}`);
  return res.json.link as string;
}

/** A fresh context for a role: opens its enrolment link (asked of the daemon over HTTP, sandbox-http.ts), registers a
 * passkey, and waits until the page has signed in. */
export async function signedIn(
  browser: Browser,
  o: { sbx: CliSandbox; calls: Calls },
  role: EnrolRole,
  viewport?: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const [link, opened] = await Promise.all([
    enrolLinkOverHttp(o.sbx, o.calls, role),
    pageWithAuthenticator(browser, viewport),
  ]);
  await opened.page.goto(link);
  await opened.page.getByTestId('enrol').click();
  await opened.page.getByTestId('identity').waitFor({ timeout: 30_000 });
  return opened;
}

/** Opens a screen from the menu and waits until it is the one shown and its list has been read (its "refreshed" mark).
 * The link turns active in the render that replaces the screen before, whose mark goes with it. */
export async function goToScreen(page: Page, id: string, timeout = 30_000): Promise<void> {
  await page.locator(`a[data-screen="${id}"]`).click();
  await page.locator(`a[data-screen="${id}"].active`).waitFor({ timeout });
  await page.locator('.live').waitFor({ timeout });
}

/** Puts every live console session's step-up deadline in the past, so the next money or approval call needs a new
 * passkey assertion. */
export function lapseStepUps(sbx: CliSandbox): void {
  const db = new Database(join(sbx.home, 'svc.db'));
  // as the daemon would write it: with the row's MAC under the home's KEK (an edit without it is refused)
  const kek = readFileSync(join(sbx.home, 'kek.key'));
  try {
    type Row = Parameters<typeof sessionMac>[1];
    // read and write in one write transaction, so that a request the daemon answers meanwhile (which
    // moves last_seen_at) cannot come between them and leave a row whose MAC covers the older read
    db.transaction(() => {
      const open = db
        .prepare<[], Row>(
          'SELECT id, operator_id, token_sha256, created_at, last_seen_at, stepped_up_until, revoked_at, ' +
            'revoked_by FROM console_sessions WHERE revoked_at IS NULL',
        )
        .all();
      for (const r of open) {
        const lapsed = { ...r, stepped_up_until: '2000-01-01T00:00:00.000Z' };
        db.prepare('UPDATE console_sessions SET stepped_up_until = ?, mac = ? WHERE id = ?').run(
          lapsed.stepped_up_until,
          sessionMac(kek, lapsed),
          r.id,
        );
      }
    }).immediate();
  } finally {
    db.close();
  }
}

/** Audit entries of one action (newest first), read with security's key (it keeps audit:read in every test). */
export const auditOf = async (
  calls: Calls,
  action: string,
): Promise<Array<{ actor: string; subject: string; detail: string }>> =>
  (await calls.as('security').request('get', '/admin/audit', { query: { action, limit: 200 } })).entries;

/** True when the page does not scroll sideways: the document is no wider than the window, and the screen's area no
 * wider than itself. */
export const fitsWidth = (page: Page): Promise<boolean> =>
  page.evaluate(
    'document.documentElement.scrollWidth <= window.innerWidth && ' +
      "[...document.querySelectorAll('.main')].every((m) => m.scrollWidth <= m.clientWidth)",
  );

// The root tsconfig has no DOM library: what the page's code below reads, typed here.
type Box = { left: number; right: number; width: number; height: number };
type El = { getBoundingClientRect(): Box; closest(selector: string): El | null };

/** The tables of the screen that scroll sideways inside their box (their index on the page). */
export const tablesScrollingSideways = (page: Page): Promise<number[]> =>
  page.evaluate(
    "[...document.querySelectorAll('.table-wrap')].map((w, i) => (w.scrollWidth > w.clientWidth + 1 ? i : " +
      '-1)).filter((i) => i >= 0)',
  );

/** Whether an element is on screen across: inside the window and inside the box of the table that holds it (not
 * scrolled out of it sideways). */
export const inViewAcross = (page: Page, selector: string): Promise<boolean> =>
  page
    .locator(selector)
    .first()
    .evaluate((node) => {
      const el = node as unknown as El;
      const innerWidth = (globalThis as unknown as { innerWidth: number }).innerWidth;
      const r = el.getBoundingClientRect();
      const wrap = el.closest('.table-wrap');
      const clip = wrap ? wrap.getBoundingClientRect() : { left: 0, right: innerWidth };
      return (
        r.width > 0 &&
        r.height > 0 &&
        r.left >= Math.max(0, clip.left) - 1 &&
        r.right <= Math.min(innerWidth, clip.right) + 1
      );
    });

// Runs in the page: every piece of text a reader sees (text outside pre and code, placeholders, the
// options of a select, accessible names), each with the element it sits in.
const VISIBLE_TEXT = `(() => {
  const out = [];
  const seen = (el) => el.checkVisibility({ visibilityProperty: true });
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('pre, code, select, script, style') || !seen(el)) continue;
    if (n.textContent.trim()) out.push(n.textContent.trim());
  }
  for (const el of document.querySelectorAll('input, textarea')) {
    if (seen(el) && el.placeholder) out.push(el.placeholder);
  }
  for (const el of document.querySelectorAll('select')) if (seen(el)) for (const o of el.options) out.push(o.text);
  for (const el of document.querySelectorAll('[aria-label]')) if (seen(el)) out.push(el.getAttribute('aria-label'));
  return out;
})()`;

/** An id, a code, a symbol, an amount, a date or a grant: a token with a digit, _, :, @, /, . or -, or all capitals. */
const CODE_LIKE = /[\d_:@/.-]|^[A-Z]{2,}$/;

/** The English words on the page that are not codes (see CODE_LIKE) and not inside one of the allowed strings (data
 * people typed, names, the product's name). */
export async function englishWords(page: Page, allowed: string[]): Promise<string[]> {
  const texts = (await page.evaluate(VISIBLE_TEXT)) as string[];
  const words = new Set<string>();
  for (let text of texts) {
    for (const a of allowed)
      text = text.replace(new RegExp(`(?<![A-Za-z])${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z])`, 'g'), ' ');
    for (const token of text.split(/[\s·,;()،؛…—–|]+/)) {
      if (/[A-Za-z]/.test(token) && !CODE_LIKE.test(token)) words.add(token);
    }
  }
  return [...words].sort();
}
