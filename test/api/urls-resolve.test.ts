// Every URL the API returns resolves. A sandbox with some activity (an investor who trades, a fund
// subscription, a branding logo, a statement) is read through every GET route of /openapi.json, and
// every answer (the writes of the setup included) is walked: each string that is an http(s) URL, starts
// with /assets/, or sits in a field whose name ends in _url is collected. An image field (a *_url, or a
// path under /assets/) must answer 200 with an image media type (a public /assets/ image without any
// credentials, the branding logo with the tenant's bearer key) or be null. A link to the world outside
// the sandbox (a news article's page at its publisher, a company's website) is not the sandbox's to
// serve: only those two fields may hold one (docs/api.md "URLs in answers").
//
// Why not the scenario runs: the runner's reports keep a step's body only when the step fails, and the
// request journal keeps writes only, so the GET routes are walked here instead (the fallback).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, makeApp, type As, type Res, type TestApp } from '../helpers/app.js';
import { SAMPLE_FRONT } from '../helpers/onboarding.js';
import { order, trader } from '../helpers/trading.js';

interface Found {
  route: string;
  path: string;
  key: string;
  value: string | null;
}

/** The fields that may name a page outside the sandbox, by their JSON path with indices removed. */
const OUTSIDE_LINKS = new Set(['news[].url', 'url', 'fundamentals.website', 'instruments[].fundamentals.website']);

let t: TestApp;
const answers: Array<{ route: string; res: Res }> = [];
const ids: Record<string, string> = {};

async function keep(route: string, res: Res): Promise<Res> {
  answers.push({ route, res });
  return res;
}

async function activity(): Promise<void> {
  await advance(t, { until: 'next_open' });
  const inv = await trader(t, 500_000);
  ids.investor = inv;
  const buy = await keep(
    'POST /v1/orders',
    await order(t, {
      investor_id: inv,
      symbol: 'COMI',
      side: 'buy',
      type: 'market',
      qty: 10,
      time_in_force: 'day',
      client_order_id: 'urls-1',
    }),
  );
  ids.order = buy.body.order_id;
  const sub = await keep(
    'POST /v1/fund-orders',
    await t.req('POST', '/v1/fund-orders', {
      body: { investor_id: inv, fund_code: 'NILLQ', side: 'subscribe', amount_micros: 5_000_000_000 },
    }),
  );
  ids.fundOrder = sub.body.fund_order_id;
  await keep(
    'PUT /v1/branding/logo',
    await t.req('PUT', '/v1/branding/logo', { raw: SAMPLE_FRONT, contentType: 'image/png' }),
  );
  await advance(t, { minutes: 5 });
}

/** A concrete path for a documented route, or null when the sandbox has nothing to name in it. */
function concrete(path: string): string | null {
  const byRoute: Record<string, string | undefined> = {
    '/v1/investors/{id}': ids.investor,
    '/v1/investors/{id}/activities': ids.investor,
    '/v1/investors/{id}/balances': ids.investor,
    '/v1/investors/{id}/portfolio': ids.investor,
    '/v1/investors/{id}/portfolio/exposures': ids.investor,
    '/v1/investors/{id}/portfolio/performance': ids.investor,
    '/v1/investors/{id}/portfolio/risk': ids.investor,
    '/v1/orders/{id}': ids.order,
    '/v1/orders/{id}/contract-note': ids.order,
    '/v1/fund-orders/{id}': ids.fundOrder,
    '/v1/news/{id}': ids.news,
  };
  const named: Record<string, string> = {
    symbol: 'COMI',
    market_id: 'XCAI',
    m: 'XCAI',
    s: 'COMI',
    file: 'COMI.svg',
    term: 'reference-price',
  };
  if (path in byRoute) return byRoute[path] ? path.replace('{id}', byRoute[path]!) : null;
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => named[name] ?? '\u0000');
  return filled.includes('\u0000') ? null : filled;
}

function identityFor(path: string): As {
  if (path.startsWith('/admin')) return 'admin';
  if (path.startsWith('/broker')) return 'dealer';
  if (path.startsWith('/assets')) return 'none';
  return 'tenant';
}

function walk(route: string, value: unknown, path: string, key: string, out: Found[]): void {
  if (Array.isArray(value)) for (const v of value) walk(route, v, `${path}[]`, key, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) walk(route, v, path ? `${path}.${k}` : k, k, out);
  } else if (key.endsWith('_url') && (value === null || typeof value === 'string'))
    out.push({ route, path, key, value: value as string | null });
  else if (typeof value === 'string' && (/^https?:\/\//.test(value) || value.startsWith('/assets/')))
    out.push({ route, path, key, value });
}

beforeAll(async () => {
  t = await makeApp();
  await activity();
  const doc = (await t.req('GET', '/openapi.json', { as: 'none' })).body;
  ids.news = (await t.req('GET', '/v1/news')).body.news[0].id;
  for (const [path, item] of Object.entries(
    doc.paths as Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>>,
  )) {
    const get = item.get;
    // the document itself describes URLs (servers: http://{host}:{port}) rather than returning one
    if (!get || path === '/openapi.json' || !get.responses?.['200']?.content?.['application/json']) continue;
    const url = concrete(path);
    if (url === null) continue;
    await keep(`GET ${path}`, await t.req('GET', url, { as: identityFor(path) }));
  }
}, 120_000);
afterAll(() => t.close());

describe('Every URL the API returns resolves', () => {
  it('the walk reads the catalog, the bonds, the funds, the news and the branding answers', () => {
    const read = new Set(answers.filter((a) => a.res.status === 200).map((a) => a.route));
    for (const r of [
      'GET /v1/instruments',
      'GET /v1/instruments/{symbol}',
      'GET /v1/bonds',
      'GET /v1/funds',
      'GET /v1/news',
      'GET /v1/news/{id}',
      'GET /v1/branding',
      'PUT /v1/branding/logo',
    ]) {
      expect(read, r).toContain(r);
    }
  });

  it('every image URL in every answer is 200 with an image media type, or null', async () => {
    const found: Found[] = [];
    for (const a of answers) if (a.res.status < 300) walk(a.route, a.res.body, '', '', found);
    const images = found.filter((f) => !OUTSIDE_LINKS.has(f.path));
    // instruments, bonds, funds, news and the branding logo all carry one
    for (const field of [
      'instruments[].logo_url',
      'bonds[].logo_url',
      'funds[].logo_url',
      'news[].image_url',
      'image_url',
      'logo_url',
    ]) {
      expect(
        images.some((f) => f.path === field && f.value !== null),
        field,
      ).toBe(true);
    }
    const failures: string[] = [];
    const checked = new Map<string, string>();
    for (const f of images) {
      if (f.value === null) continue;
      const local = f.value.replace(/^http:\/\/localhost(:80)?(?=\/)/, '');
      if (!local.startsWith('/')) {
        failures.push(`${f.route} ${f.path} = ${f.value}: not a URL of the sandbox`);
        continue;
      }
      if (!checked.has(local)) {
        const res = await t.req('GET', local, { as: local.startsWith('/assets/') ? 'none' : 'tenant' });
        const type = String(res.headers['content-type'] ?? '');
        checked.set(
          local,
          res.status === 200 && type.startsWith('image/') ? 'ok' : `${res.status} ${type} ${res.text.slice(0, 120)}`,
        );
      }
      if (checked.get(local) !== 'ok') failures.push(`${f.route} ${f.path} = ${f.value}: ${checked.get(local)}`);
    }
    expect(failures).toEqual([]);
    expect(checked.size).toBeGreaterThan(50);
  });

  it("only a news article's page and a company's website point outside the sandbox, always over https", () => {
    const found: Found[] = [];
    for (const a of answers) if (a.res.status < 300) walk(a.route, a.res.body, '', '', found);
    const outside = found.filter(
      (f) =>
        typeof f.value === 'string' && /^https?:\/\//.test(f.value) && !/^http:\/\/localhost(:80)?\//.test(f.value),
    );
    expect(outside.length).toBeGreaterThan(0);
    for (const f of outside) {
      expect(OUTSIDE_LINKS.has(f.path), `${f.route} ${f.path} = ${f.value}`).toBe(true);
      expect(f.value, `${f.route} ${f.path}`).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}(\/|$)/);
    }
  });
});

describe('The generated images answer only for what exists', () => {
  it('a news image is the same bytes every time, and an id that is not an article is 404 NOT_FOUND with the error body', async () => {
    const id = (await t.req('GET', '/v1/news')).body.news[0].id;
    const one = await t.req('GET', `/assets/news/${id}.svg`, { as: 'none' });
    const two = await t.req('GET', `/assets/news/${id}.svg`, { as: 'none' });
    expect(one.status).toBe(200);
    expect(one.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
    expect(two.text).toBe(one.text);
    const missing = await t.req('GET', '/assets/news/nws_aaaaaaaaaaaa.svg', { as: 'none' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    for (const bad of ['/assets/news/nws_AAAA.svg', '/assets/news/COMI.svg', `/assets/news/${id}.png`]) {
      const res = await t.req('GET', bad, { as: 'none' });
      expect(res.status, bad).toBeGreaterThanOrEqual(400);
      expect(res.status, bad).toBeLessThan(500);
      expect(res.body.error.code, bad).toBeTypeOf('string');
    }
  });

  it("a fund's logo loads like an instrument's, and a name that is neither is 404 UNKNOWN_SYMBOL", async () => {
    const funds = (await t.req('GET', '/v1/funds')).body.funds;
    for (const f of funds) {
      const res = await t.req('GET', `/assets/logos/${f.fund_code}.svg`, { as: 'none' });
      expect(res.status, f.fund_code).toBe(200);
      expect(res.text).toContain(f.fund_code.slice(0, 4));
    }
    const missing = await t.req('GET', '/assets/logos/NOPEX.svg', { as: 'none' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('UNKNOWN_SYMBOL');
  });
});
