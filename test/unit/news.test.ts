// News: spec "Resources > News" and "Endpoints > News", plus the neutrality rule.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  NewsArticle,
  NewsHeadline,
  NewsList,
  NewsQuery,
  NewsTag,
  type NewsFixtureArticle,
} from '../../daemon/contract/schemas/news.js';
import {
  createNewsService,
  createNewsServiceFromLoader,
  loadNewsArticles,
  type NewsFilter,
} from '../../daemon/news/service.js';

const FIXTURE_URL = new URL('../../fixtures/news.json', import.meta.url);
const load = (): unknown => JSON.parse(readFileSync(FIXTURE_URL, 'utf8'));
const articles: NewsFixtureArticle[] = loadNewsArticles(load);
const svc = createNewsService(articles);

/** The 30 EGX30 constituents (Feb-2026 review) + 7 extra names, from shared/research/egx-facts.md. */
const EGX_SYMBOLS = [
  'COMI',
  'ADIB',
  'HRHO',
  'BTFH',
  'CCAP',
  'OIH',
  'VLMRA',
  'RAYA',
  'EFIH',
  'FWRY',
  'ETEL',
  'TMGH',
  'PHDC',
  'EMFD',
  'HELI',
  'ORHD',
  'ORAS',
  'EAST',
  'JUFO',
  'EFID',
  'ABUK',
  'EGCH',
  'EGAL',
  'AMOC',
  'ARCC',
  'MCQE',
  'ORWE',
  'ISPH',
  'RMDA',
  'GBCO',
  'SWDY',
  'CIEB',
  'MFPC',
  'SKPC',
  'MASR',
  'ALCN',
  'CLHO',
] as const;
const EGX_SECTORS = [
  'Banks',
  'Non-bank financials',
  'IT / holding',
  'IT / fintech',
  'Telecom',
  'Real estate',
  'Real estate / tourism',
  'Contracting',
  'Food, beverages & tobacco',
  'Food & beverages',
  'Basic resources',
  'Energy',
  'Building materials',
  'Textiles & durables',
  'Healthcare',
  'Industrials / auto',
];
const ASSET_CLASSES = ['equity', 'bond', 'sukuk', 'fund'];
const HEADLINE_KEYS = [
  'headline',
  'headline_ar',
  'id',
  'image_url',
  'language',
  'publisher',
  'published_at',
  'summary',
  'url',
].sort();
const FORBIDDEN_KEY = /sentiment|score|relevance|rank/i;

const instant = (s: string): number => Date.parse(s);
const isNewestFirst = (items: ReadonlyArray<{ id: string; published_at: string }>): boolean =>
  items.every((b, i) => {
    if (i === 0) return true;
    const a = items[i - 1];
    const ta = instant(a.published_at);
    const tb = instant(b.published_at);
    return ta > tb || (ta === tb && a.id < b.id);
  });
const hasTag = (a: NewsFixtureArticle, type: string, value: string): boolean =>
  a.tags.some((t) => t.tag_type === type && t.tag_value.toLowerCase() === value.toLowerCase());
const ids = (items: ReadonlyArray<{ id: string }>): string[] => items.map((x) => x.id);

/** Every key at any depth of a JSON-like value. */
function deepKeys(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) deepKeys(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      deepKeys(v, out);
    }
  }
  return out;
}

const FILTERS: NewsFilter[] = [
  {},
  { language: 'ar' },
  { language: 'en' },
  { tag_type: 'sector', tag_value: 'Banks' },
  { tag_type: 'sector', tag_value: 'Real estate' },
  { tag_type: 'asset_class', tag_value: 'bond' },
  { tag_type: 'asset_class', tag_value: 'sukuk' },
  { tag_type: 'asset_class', tag_value: 'fund' },
  { tag_type: 'market', tag_value: 'EGX' },
  { tag_type: 'instrument', tag_value: 'COMI' },
  { symbol: 'COMI' },
  { symbol: 'comi', language: 'ar' },
  { symbol: 'ADIB' },
  { language: 'en', tag_type: 'sector', tag_value: 'Banks' },
  { language: 'ar', tag_type: 'asset_class', tag_value: 'bond', limit: 2 },
  { limit: 5 },
  { symbol: 'ZZZZ' },
];

function expectedIds(f: NewsFilter): string[] {
  const all = [...articles].sort((a, b) => instant(b.published_at) - instant(a.published_at) || (a.id < b.id ? -1 : 1));
  const kept = all.filter(
    (a) =>
      (f.language === undefined || a.language === f.language) &&
      (f.tag_type === undefined || hasTag(a, f.tag_type, f.tag_value ?? '')) &&
      (f.symbol === undefined || hasTag(a, 'instrument', f.symbol)),
  );
  return ids(kept.slice(0, f.limit ?? 100));
}

describe('news fixture', () => {
  it('fixture has >= 40 articles in both languages (spec: "language (ar | en)")', () => {
    expect(articles.length).toBeGreaterThanOrEqual(40);
    const ar = articles.filter((a) => a.language === 'ar').length;
    const en = articles.filter((a) => a.language === 'en').length;
    expect(ar + en).toBe(articles.length);
    expect(ar).toBeGreaterThanOrEqual(Math.floor(articles.length * 0.4));
    expect(en).toBeGreaterThanOrEqual(Math.floor(articles.length * 0.4));
    // Arabic articles carry Arabic prose in summary and (when licensed) body.
    const arabic = /[\u0600-\u06FF]/;
    for (const a of articles.filter((x) => x.language === 'ar')) {
      expect(a.summary).toMatch(arabic);
      if (a.body !== null) expect(a.body).toMatch(arabic);
    }
    for (const a of articles) expect(a.headline_ar).toMatch(arabic);
  });

  it('every instrument tag is a symbol from the known EGX list (egx-facts.md), sectors and asset classes too', () => {
    const known = new Set<string>(EGX_SYMBOLS);
    expect(known.size).toBe(37);
    for (const a of articles) {
      for (const t of a.tags) {
        if (t.tag_type === 'instrument') expect(known.has(t.tag_value), `${a.id} ${t.tag_value}`).toBe(true);
        if (t.tag_type === 'sector') expect(EGX_SECTORS, `${a.id} ${t.tag_value}`).toContain(t.tag_value);
        if (t.tag_type === 'asset_class') expect(ASSET_CLASSES, `${a.id} ${t.tag_value}`).toContain(t.tag_value);
        if (t.tag_type === 'market') expect(t.tag_value).toBe('EGX');
      }
    }
    expect(articles.filter((a) => hasTag(a, 'instrument', 'COMI')).length).toBeGreaterThanOrEqual(3);
    expect(articles.filter((a) => hasTag(a, 'sector', 'Banks')).length).toBeGreaterThanOrEqual(3);
    expect(articles.filter((a) => hasTag(a, 'asset_class', 'bond')).length).toBeGreaterThanOrEqual(2);
  });

  it('identifiers are `nws_` prefixed and unique; published_at is RFC 3339 with the Cairo offset of its date', () => {
    expect(new Set(ids(articles)).size).toBe(articles.length);
    for (const a of articles) {
      expect(a.id).toMatch(/^nws_[a-z0-9]{12}$/);
      expect(a.image_url).toBe(`/assets/news/${a.id}.svg`);
      expect(a.url.startsWith('https://news.example.eg/')).toBe(true);
      const m = /^(2026-\d\d-\d\d)T\d\d:\d\d:\d\d([+-]\d\d:\d\d)$/.exec(a.published_at);
      expect(m, a.published_at).not.toBeNull();
      const [, date, offset] = m!;
      expect(date >= '2026-01-05' && date <= '2026-11-20').toBe(true);
      // 2026 Africa/Cairo summer time: 24 Apr - 29 Oct (UTC+3), otherwise UTC+2.
      expect(offset).toBe(date >= '2026-04-24' && date <= '2026-10-29' ? '+03:00' : '+02:00');
    }
  });

  it('about a quarter of articles have no redistribution licence and then no stored body', () => {
    const unlicensed = articles.filter((a) => !a.licence_redistribution);
    expect(unlicensed.length / articles.length).toBeGreaterThan(0.15);
    expect(unlicensed.length / articles.length).toBeLessThan(0.35);
    for (const a of articles) expect(a.body === null).toBe(!a.licence_redistribution);
  });

  it('neutrality rule: news content carries no recommendation, ranking or prediction wording', () => {
    const forbidden = [
      /\bbest\b/i,
      /\btop pick/i,
      /\bshould (buy|sell)\b/i,
      /\brecommend/i,
      /\bbullish\b/i,
      /\bbearish\b/i,
      /\boutperform/i,
      /\bunderperform/i,
      /\btarget price\b/i,
      /\bupside\b/i,
      /\bdownside\b/i,
      /\bsentiment\b/i,
      /\bsurge/i,
      /\bplunge/i,
      /\brally/i,
      /\bexpected to (rise|fall)\b/i,
      /ننصح/,
      /توصية/,
      /أفضل/,
      /ارتفاع قوي/,
      /فرصة شراء/,
    ];
    for (const a of articles) {
      const text = [a.headline, a.headline_ar, a.summary, a.body ?? ''].join('\n');
      for (const re of forbidden) expect(re.test(text), `${a.id} matches ${re}`).toBe(false);
    }
  });
});

describe('GET /v1/news', () => {
  it('"newest first always; filters never change ordering" (ordering = published_at_desc)', () => {
    const all = svc.list();
    expect(all.ordering).toBe('published_at_desc');
    expect(all.news.length).toBe(articles.length);
    expect(isNewestFirst(all.news)).toBe(true);
    // The fixture holds an exact tie in published_at, so the id tie-break is exercised.
    const stamps = articles.map((a) => instant(a.published_at));
    expect(new Set(stamps).size).toBeLessThan(stamps.length);

    const allIds = ids(all.news);
    for (const f of FILTERS) {
      const res = svc.list(f);
      expect(res.ordering).toBe('published_at_desc');
      expect(isNewestFirst(res.news)).toBe(true);
      expect(ids(res.news)).toEqual(expectedIds(f));
      // A filtered list is a subsequence of the unfiltered list: filtering only removes items.
      const positions = ids(res.news).map((id) => allIds.indexOf(id));
      expect(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]))).toBe(true);
    }

    // Input order of the articles does not matter.
    const reversed = createNewsService([...articles].reverse());
    const rotated = createNewsService([...articles.slice(17), ...articles.slice(0, 17)]);
    for (const f of FILTERS) {
      expect(reversed.list(f)).toEqual(svc.list(f));
      expect(rotated.list(f)).toEqual(svc.list(f));
    }
  });

  it('"language (ar or en)" filter returns only that language, newest first', () => {
    for (const language of ['ar', 'en'] as const) {
      const res = svc.list({ language });
      expect(res.news.length).toBe(articles.filter((a) => a.language === language).length);
      expect(res.news.every((n) => n.language === language)).toBe(true);
      expect(isNewestFirst(res.news)).toBe(true);
    }
  });

  it('"tag_type with tag_value" filter returns exactly the articles carrying that tag', () => {
    const banks = svc.list({ tag_type: 'sector', tag_value: 'Banks' });
    expect(banks.news.length).toBe(articles.filter((a) => hasTag(a, 'sector', 'Banks')).length);
    expect(banks.news.length).toBeGreaterThanOrEqual(3);
    for (const n of banks.news) {
      expect(svc.get(n.id)!.tags).toContainEqual({ tag_type: 'sector', tag_value: 'Banks' });
    }
    const bonds = svc.list({ tag_type: 'asset_class', tag_value: 'bond' });
    expect(bonds.news.length).toBeGreaterThanOrEqual(2);
    for (const n of bonds.news) {
      expect(svc.get(n.id)!.tags).toContainEqual({ tag_type: 'asset_class', tag_value: 'bond' });
    }
    // tag_type selects the tag kind: "Banks" is a sector value, not an instrument.
    expect(svc.list({ tag_type: 'instrument', tag_value: 'Banks' }).news).toEqual([]);
    // the two parameters come together
    expect(() => svc.list({ tag_type: 'sector' })).toThrow(RangeError);
    expect(() => svc.list({ tag_value: 'Banks' })).toThrow(RangeError);
  });

  it('"symbol (shorthand for an instrument tag)" equals tag_type=instrument&tag_value=SYMBOL, case-insensitive', () => {
    const viaTag = svc.list({ tag_type: 'instrument', tag_value: 'COMI' });
    expect(viaTag.news.length).toBeGreaterThanOrEqual(3);
    expect(svc.list({ symbol: 'COMI' })).toEqual(viaTag);
    expect(svc.list({ symbol: 'comi' })).toEqual(viaTag);
    expect(svc.list({ symbol: 'Comi' })).toEqual(viaTag);
    for (const n of viaTag.news) {
      expect(svc.get(n.id)!.tags).toContainEqual({ tag_type: 'instrument', tag_value: 'COMI' });
    }
    expect(svc.list({ symbol: 'NOPE' }).news).toEqual([]);
  });

  it('"headline-level fields only": list items carry no body and no tags', () => {
    for (const f of FILTERS) {
      const res = svc.list(f);
      expect(NewsList.parse(res)).toEqual(res);
      for (const item of res.news) {
        expect(Object.keys(item).sort()).toEqual(HEADLINE_KEYS);
        expect(item).not.toHaveProperty('body');
        expect(item).not.toHaveProperty('tags');
        expect(item).not.toHaveProperty('licence_redistribution');
      }
    }
  });

  it('limit caps the list after ordering (default 100, max 200)', () => {
    expect(ids(svc.list({ limit: 3 }).news)).toEqual(ids(svc.list().news).slice(0, 3));
    expect(() => svc.list({ limit: 0 })).toThrow(RangeError);
    expect(() => svc.list({ limit: 201 })).toThrow(RangeError);
    expect(() => svc.list({ limit: 1.5 })).toThrow(RangeError);
  });
});

describe('GET /v1/news/{id}', () => {
  it('"Single article adds body (present when the publisher licence permits redistribution) and tags"', () => {
    let withBody = 0;
    let withoutBody = 0;
    for (const a of articles) {
      const got = svc.get(a.id)!;
      expect(got).not.toBeNull();
      expect(NewsArticle.parse(got)).toEqual(got);
      expect(got.tags).toEqual(a.tags);
      expect(got.tags.length).toBeGreaterThan(0);
      const { body, tags, ...headline } = got;
      void tags;
      expect(headline).toEqual(svc.list({ limit: 200 }).news.find((n) => n.id === a.id));
      if (a.licence_redistribution) {
        expect(body).toBe(a.body);
        expect(body!.split('\n\n').length).toBeGreaterThanOrEqual(2);
        withBody++;
      } else {
        expect('body' in got).toBe(false); // key omitted, not null
        withoutBody++;
      }
      expect(got).not.toHaveProperty('licence_redistribution');
    }
    expect(withBody).toBeGreaterThan(0);
    expect(withoutBody).toBeGreaterThan(0);
    expect(svc.get('nws_000000000000')).toBeNull();
    expect(svc.get('')).toBeNull();
  });

  it('returned articles are copies: mutating a response does not change the service', () => {
    const id = articles[0].id;
    const got = svc.get(id)!;
    got.tags.push({ tag_type: 'market', tag_value: 'X' });
    got.headline = 'changed';
    expect(svc.get(id)!.tags).toEqual(articles[0].tags);
    expect(svc.get(id)!.headline).toBe(articles[0].headline);
  });
});

describe('neutrality', () => {
  it('"No sentiment, score or relevance field is ever returned" (deep key scan of every list and article)', () => {
    const responses: unknown[] = FILTERS.map((f) => svc.list(f));
    for (const a of articles) responses.push(svc.get(a.id));
    for (const r of responses) {
      const bad = deepKeys(r).filter((k) => FORBIDDEN_KEY.test(k));
      expect(bad).toEqual([]);
    }
    // The response and query schemas (future OpenAPI components) declare no such property either.
    for (const schema of [NewsList, NewsHeadline, NewsArticle, NewsTag, NewsQuery]) {
      const json = z.toJSONSchema(schema, { io: 'input' });
      const props = deepKeys(json);
      expect(props.filter((k) => FORBIDDEN_KEY.test(k))).toEqual([]);
    }
  });
});

describe('NewsQuery schema', () => {
  it('coerces limit from the query string, defaults it to 100 and bounds it to 1..200', () => {
    expect(NewsQuery.parse({})).toEqual({ limit: 100 });
    expect(NewsQuery.parse({ limit: '20' }).limit).toBe(20);
    expect(NewsQuery.safeParse({ limit: '0' }).success).toBe(false);
    expect(NewsQuery.safeParse({ limit: '201' }).success).toBe(false);
    expect(NewsQuery.safeParse({ limit: '2.5' }).success).toBe(false);
    expect(NewsQuery.safeParse({ limit: 'ten' }).success).toBe(false);
  });

  it('"language (ar or en), tag_type with tag_value, symbol" are validated; tag_type and tag_value come together', () => {
    expect(NewsQuery.parse({ language: 'ar' }).language).toBe('ar');
    expect(NewsQuery.safeParse({ language: 'fr' }).success).toBe(false);
    expect(NewsQuery.parse({ tag_type: 'sector', tag_value: 'Banks' })).toMatchObject({
      tag_type: 'sector',
      tag_value: 'Banks',
    });
    expect(NewsQuery.safeParse({ tag_type: 'sector' }).success).toBe(false);
    expect(NewsQuery.safeParse({ tag_value: 'Banks' }).success).toBe(false);
    expect(NewsQuery.safeParse({ tag_type: 'sentiment', tag_value: 'x' }).success).toBe(false);
    expect(NewsQuery.safeParse({ tag_type: 'sector', tag_value: '' }).success).toBe(false);
    expect(NewsQuery.safeParse({ tag_type: 'sector', tag_value: 'x'.repeat(65) }).success).toBe(false);
    expect(NewsQuery.parse({ symbol: 'comi' }).symbol).toBe('comi');
    expect(NewsQuery.safeParse({ symbol: 'C' }).success).toBe(false);
    expect(NewsQuery.safeParse({ symbol: 'TOOLONGSYM' }).success).toBe(false);
    expect(NewsQuery.safeParse({ symbol: 'CO-MI' }).success).toBe(false);
  });

  it('a parsed query drives the service directly', () => {
    const q = NewsQuery.parse({ symbol: 'comi', language: 'en', limit: '2' });
    const res = svc.list(q);
    expect(res.news.length).toBeLessThanOrEqual(2);
    expect(res.news.every((n) => n.language === 'en')).toBe(true);
  });

  it('schemas carry OpenAPI component ids', () => {
    const json = z.toJSONSchema(NewsList) as { $defs?: Record<string, unknown> };
    expect(Object.keys(json.$defs ?? {})).toEqual(expect.arrayContaining(['NewsHeadline']));
    expect(z.globalRegistry.get(NewsArticle)?.id).toBe('NewsArticle');
    expect(z.globalRegistry.get(NewsQuery)?.id).toBe('NewsQuery');
    expect(z.globalRegistry.get(NewsList)?.id).toBe('NewsList');
  });

  it('createNewsServiceFromLoader validates the fixture through the supplied loader', () => {
    expect(createNewsServiceFromLoader(load).list().news.length).toBe(articles.length);
    expect(() => createNewsServiceFromLoader(() => ({ source: 'x', articles: [{ id: 'bad' }] }))).toThrow();
  });
});
