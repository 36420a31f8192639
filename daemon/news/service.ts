// The news domain: a fixture set of articles (fixtures/news.json), listed and read. Guarantees:
// - Ordering (spec, neutrality rule): newest first by instant, always; ties broken by id ascending.
//   Filters only remove items; they never change the order of the items that remain.
// - Neutral content: no ranking, score, sentiment or recommendation field is ever added.
// - An article's body is shown only when the publisher licence permits redistribution.
// - Pure: no I/O here; the caller supplies the data (createNewsService) or a loader
//   (loadNewsArticles / createNewsServiceFromLoader). An unknown id is a NOT_FOUND refusal (a value).
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import {
  NEWS_LIMIT_DEFAULT,
  NEWS_LIMIT_MAX,
  NEWS_ORDERING,
  NewsFixture,
  type NewsArticle,
  type NewsFixtureArticle,
  type NewsHeadline,
  type NewsTag,
} from '../contract/schemas/news.js';

export type NewsLanguage = 'ar' | 'en';
export type NewsTagType = NewsTag['tag_type'];

export interface NewsFilter {
  language?: NewsLanguage;
  tag_type?: NewsTagType;
  tag_value?: string;
  /** Shorthand for tag_type=instrument, tag_value=symbol; case-insensitive. */
  symbol?: string;
  /** 1..200; default 100. Applied after filtering and ordering. */
  limit?: number;
}

export interface NewsListResult {
  news: NewsHeadline[];
  ordering: typeof NEWS_ORDERING;
}

export interface NewsService {
  list(filter?: NewsFilter): NewsListResult;
  get(id: string): NewsArticle | null;
  /** The article, or a NOT_FOUND refusal (GET /v1/news/{id}). */
  article(id: string): Outcome<NewsArticle>;
}

/** Validates a parsed fixtures/news.json document and returns its articles. Throws on a bad fixture. */
export function parseNewsFixture(raw: unknown): NewsFixtureArticle[] {
  return NewsFixture.parse(raw).articles;
}

/** Runs the supplied loader (the only I/O, owned by the caller) and validates the result. */
export function loadNewsArticles(load: () => unknown): NewsFixtureArticle[] {
  return parseNewsFixture(load());
}

export function createNewsServiceFromLoader(load: () => unknown): NewsService {
  return createNewsService(loadNewsArticles(load));
}

/** Newest first by instant; equal instants by id ascending. */
export function compareNewsDesc(
  a: Pick<NewsFixtureArticle, 'id' | 'published_at'>,
  b: Pick<NewsFixtureArticle, 'id' | 'published_at'>,
): number {
  const ta = Date.parse(a.published_at);
  const tb = Date.parse(b.published_at);
  if (ta !== tb) return tb - ta;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function toHeadline(a: NewsFixtureArticle): NewsHeadline {
  return {
    id: a.id,
    headline: a.headline,
    headline_ar: a.headline_ar,
    summary: a.summary,
    publisher: a.publisher,
    url: a.url,
    image_url: a.image_url,
    language: a.language,
    published_at: a.published_at,
  };
}

function toArticle(a: NewsFixtureArticle): NewsArticle {
  const tags = a.tags.map((t) => ({ tag_type: t.tag_type, tag_value: t.tag_value }));
  // body only when the publisher licence permits redistribution; otherwise the key is absent.
  if (a.licence_redistribution && typeof a.body === 'string') {
    return { ...toHeadline(a), body: a.body, tags };
  }
  return { ...toHeadline(a), tags };
}

function hasTag(a: NewsFixtureArticle, type: NewsTagType, value: string): boolean {
  const v = value.toLowerCase();
  return a.tags.some((t) => t.tag_type === type && t.tag_value.toLowerCase() === v);
}

export function createNewsService(articles: readonly NewsFixtureArticle[]): NewsService {
  const sorted = [...articles].sort(compareNewsDesc);
  const byId = new Map(sorted.map((a) => [a.id, a] as const));

  return {
    list(filter: NewsFilter = {}): NewsListResult {
      const { language, tag_type, tag_value, symbol } = filter;
      if ((tag_type === undefined) !== (tag_value === undefined)) {
        throw new RangeError('tag_type and tag_value must be given together');
      }
      const limit = filter.limit ?? NEWS_LIMIT_DEFAULT;
      if (!Number.isInteger(limit) || limit < 1 || limit > NEWS_LIMIT_MAX) {
        throw new RangeError(`limit must be an integer from 1 to ${NEWS_LIMIT_MAX}`);
      }
      const news: NewsHeadline[] = [];
      for (const a of sorted) {
        if (news.length >= limit) break;
        if (language !== undefined && a.language !== language) continue;
        if (tag_type !== undefined && tag_value !== undefined && !hasTag(a, tag_type, tag_value)) continue;
        if (symbol !== undefined && !hasTag(a, 'instrument', symbol)) continue;
        news.push(toHeadline(a));
      }
      return { news, ordering: NEWS_ORDERING };
    },

    get(id: string): NewsArticle | null {
      const a = byId.get(id);
      return a === undefined ? null : toArticle(a);
    },

    article(id: string): Outcome<NewsArticle> {
      const a = byId.get(id);
      return a === undefined ? refuse('NOT_FOUND', `No article ${id}.`) : ok(toArticle(a));
    },
  };
}
