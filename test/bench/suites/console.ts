// Issue 17: the browser console's budgets (docs/console.md). A daemon of its own, the built console
// (dist/console) as it serves it:
// - first load: every script the page loads (its <script> and modulepreload links), gzip-compressed
//   as a server would send them. Goal: <= 300 KB;
// - the queue screen interactive: a dealer enrolled and signed in with a passkey (Debian's chromium,
//   a virtual authenticator), then the page loaded afresh at #/queue until the queue has answered and
//   is on screen (its "refreshed" mark), median of 5 loads. Goal: <= 1 s.
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { bench } from '../registry.js';
import { launch, pageWithAuthenticator } from '../../console/browser.js';

const JS_BUDGET_KB = 300;
const INTERACTIVE_GOAL_MS = 1000;
const LOADS = 5;

/** The scripts the console page loads: raw and gzip bytes. */
async function firstLoadScripts(origin: string): Promise<{ files: number; raw: number; gzip: number }> {
  const html = await (await fetch(`${origin}/console`)).text();
  const srcs = [...html.matchAll(/<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map(
    (m) => m[1] ?? m[2],
  );
  let raw = 0,
    gzip = 0;
  for (const src of new Set(srcs)) {
    const res = await fetch(new URL(src, `${origin}/console/`));
    if (res.status !== 200) throw new Error(`${src} answered ${res.status}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  if (srcs.length === 0) throw new Error('the console page loads no script: is dist/console built?');
  return { files: new Set(srcs).size, raw, gzip };
}

async function enrolDealer(baseUrl: string, adminKey: string, origin: string, page: Page): Promise<void> {
  const res = await fetch(`${baseUrl}/admin/console/enrolments`, {
    method: 'POST',
    headers: { 'x-admin-key': adminKey, 'content-type': 'application/json' },
    body: JSON.stringify({ role: 'dealer' }),
  });
  const body = (await res.json()) as { enrolment_token?: string };
  if (res.status !== 201 || !body.enrolment_token)
    throw new Error(`enrolment answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  await page.goto(`${origin}/console/enroll?code=${encodeURIComponent(body.enrolment_token)}`);
  await page.getByTestId('enrol').click();
  await page.getByTestId('identity').waitFor({ timeout: 20_000 });
}

bench('console: first-load JavaScript and the queue screen interactive', async (ctx) => {
  const d = await ctx.startDaemon();
  const origin = d.baseUrl.replace('127.0.0.1', 'localhost'); // passkeys need a host name
  const browser = await launch();
  try {
    const js = await firstLoadScripts(origin);
    const { page } = await pageWithAuthenticator(browser);
    await enrolDealer(d.baseUrl, d.creds.admin_key, origin, page);
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const t0 = performance.now();
      await page.goto(`${origin}/console#/queue`);
      await page.locator('.live').first().waitFor({ timeout: 20_000 });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    return [
      {
        metric: 'first-load JavaScript, gzip',
        value: js.gzip / 1024,
        unit: 'KB',
        goal: { op: '<=', value: JS_BUDGET_KB },
        note: `${js.files} script(s), ${Math.round(js.raw / 1024)} KB raw`,
      },
      {
        metric: 'queue screen interactive (median)',
        value: median,
        unit: 'ms',
        goal: { op: '<=', value: INTERACTIVE_GOAL_MS },
        note: `${LOADS} fresh loads signed in: ${times.map((t) => Math.round(t)).join(', ')} ms`,
      },
    ];
  } finally {
    await browser.close();
    await d.stop();
  }
});
