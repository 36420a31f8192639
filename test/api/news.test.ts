import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(() => t.close());

const newestFirst = (items: any[]) =>
  items.every((n, i) => i === 0 || Date.parse(items[i - 1].published_at) >= Date.parse(n.published_at));

describe('GET /v1/news: { news, ordering } newest first always; filters never change ordering; headline-level fields only', () => {
  it('lists at least 40 articles in Arabic and English, newest first, with ordering published_at_desc', async () => {
    const res = await t.req('GET', '/v1/news?limit=200');
    expect(res.status).toBe(200);
    expect(res.body.ordering).toBe('published_at_desc');
    expect(res.body.news.length).toBeGreaterThanOrEqual(40);
    expect(new Set(res.body.news.map((n: any) => n.language))).toEqual(new Set(['ar', 'en']));
    expect(newestFirst(res.body.news)).toBe(true);
    for (const n of res.body.news) {
      expect(Object.keys(n).sort()).toEqual([
        'headline',
        'headline_ar',
        'id',
        'image_url',
        'language',
        'published_at',
        'publisher',
        'summary',
        'url',
      ]);
    }
  });

  it.each([
    'language=ar',
    'language=en',
    'tag_type=sector&tag_value=Banks',
    'symbol=COMI',
    'symbol=comi',
    'tag_type=asset_class&tag_value=bond',
  ])('filter %s narrows the list and keeps newest-first order', async (qs) => {
    const all = (await t.req('GET', '/v1/news?limit=200')).body.news.map((n: any) => n.id);
    const res = await t.req('GET', `/v1/news?${qs}`);
    expect(res.status).toBe(200);
    const ids = res.body.news.map((n: any) => n.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(all.filter((id: string) => ids.includes(id)));
  });

  it.each([
    'language=fr',
    'tag_type=sector',
    'tag_value=Banks',
    'tag_type=mood&tag_value=x',
    'limit=0',
    'limit=201',
    'symbol=%24%24',
    'sort=score',
  ])('%s is 422', async (qs) => {
    const res = await t.req('GET', `/v1/news?${qs}`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('GET /v1/news/{id}: one article with body (when the licence allows) and tags', () => {
  it('adds body and tags; no sentiment, score or relevance field', async () => {
    const list = (await t.req('GET', '/v1/news?limit=200')).body.news;
    let withBody = 0;
    let withoutBody = 0;
    for (const item of list) {
      const a = (await t.req('GET', `/v1/news/${item.id}`)).body;
      expect(a.tags.length).toBeGreaterThan(0);
      if ('body' in a) withBody++;
      else withoutBody++;
      expect(JSON.stringify(a)).not.toMatch(/"(sentiment|score|relevance|rank)"/);
    }
    expect(withBody).toBeGreaterThan(0);
    expect(withoutBody).toBeGreaterThan(0);
  });

  it('an unknown id is 404 NOT_FOUND', async () => {
    const res = await t.req('GET', '/v1/news/nws_000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
