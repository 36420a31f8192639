// Zod schemas for the News resource (spec: Resources > News; Endpoints > News).
// Neutrality rule: no sentiment, score, relevance or rank field exists on any of these shapes, and the
// list ordering is fixed (published_at_desc); nothing here lets a client choose another order.
import { z } from 'zod';

export const NEWS_LANGUAGES = ['ar', 'en'] as const;
export const NEWS_TAG_TYPES = ['market', 'sector', 'instrument', 'asset_class'] as const;
export const NEWS_ASSET_CLASSES = ['equity', 'bond', 'sukuk', 'fund'] as const;
export const NEWS_ORDERING = 'published_at_desc' as const;
export const NEWS_LIMIT_DEFAULT = 100;
export const NEWS_LIMIT_MAX = 200;

export const NEWS_ID_PATTERN = /^nws_[a-z0-9]{12}$/;
export const NEWS_SYMBOL_PATTERN = /^[A-Z0-9]{2,8}$/i;

export const NewsLanguage = z.enum(NEWS_LANGUAGES);
export const NewsTagType = z.enum(NEWS_TAG_TYPES);

/** GET /v1/news query. tag_type and tag_value come together; symbol = instrument tag shorthand. */
export const NewsQuery = z
  .strictObject({
    language: NewsLanguage.optional(),
    tag_type: NewsTagType.optional(),
    tag_value: z.string().min(1).max(64).optional(),
    symbol: z.string().regex(NEWS_SYMBOL_PATTERN).optional(),
    limit: z.coerce.number().int().min(1).max(NEWS_LIMIT_MAX).default(NEWS_LIMIT_DEFAULT),
  })
  .refine((q) => (q.tag_type === undefined) === (q.tag_value === undefined), {
    message: 'tag_type and tag_value must be given together',
    path: ['tag_type'],
  })
  .meta({ id: 'NewsQuery' });
export type NewsQuery = z.output<typeof NewsQuery>;

export const NewsTag = z
  .strictObject({
    tag_type: NewsTagType,
    tag_value: z.string().min(1).max(64),
  })
  .meta({ id: 'NewsTag' });
export type NewsTag = z.output<typeof NewsTag>;

// Built as a plain shape (not .extend of a schema carrying .meta) so each component keeps its own id.
const headlineShape = {
  id: z.string().regex(NEWS_ID_PATTERN),
  headline: z.string().min(1),
  headline_ar: z.string().min(1),
  summary: z.string().min(1),
  publisher: z.string().min(1),
  url: z.url(),
  image_url: z.string().min(1),
  language: NewsLanguage,
  published_at: z.iso.datetime({ offset: true }),
};

/** A list item: headline-level fields only (no body, no tags). */
export const NewsHeadline = z.strictObject(headlineShape).meta({ id: 'NewsHeadline' });
export type NewsHeadline = z.output<typeof NewsHeadline>;

/** GET /v1/news/{id}: headline fields + body (only when the publisher licence permits redistribution) + tags. */
export const NewsArticle = z
  .strictObject({
    ...headlineShape,
    body: z.string().min(1).optional(),
    tags: z.array(NewsTag),
  })
  .meta({ id: 'NewsArticle' });
export type NewsArticle = z.output<typeof NewsArticle>;

/** GET /v1/news response. */
export const NewsList = z
  .strictObject({
    news: z.array(NewsHeadline),
    ordering: z.literal(NEWS_ORDERING),
  })
  .meta({ id: 'NewsList' });
export type NewsList = z.output<typeof NewsList>;

/** One record of fixtures/news.json (internal; never returned as is). */
export const NewsFixtureArticle = z
  .strictObject({
    ...headlineShape,
    body: z.string().min(1).nullable(),
    licence_redistribution: z.boolean(),
    tags: z.array(NewsTag),
  })
  .refine((a) => a.licence_redistribution === (a.body !== null), {
    message: 'body is null exactly when licence_redistribution is false',
    path: ['body'],
  });
export type NewsFixtureArticle = z.output<typeof NewsFixtureArticle>;

export const NewsFixture = z.object({
  source: z.string().min(1),
  articles: z.array(NewsFixtureArticle),
});
export type NewsFixture = z.output<typeof NewsFixture>;
