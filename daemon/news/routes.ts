// News: a fixture set of articles, always newest first; filters never change the ordering.
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { readFixture } from '../fixtures.js';
import { createNewsServiceFromLoader } from './service.js';
import { NewsArticle, NewsList, NewsQuery } from '../contract/schemas/news.js';

export function newsRoutes(_deps: Deps): RouteDef[] {
  const news = createNewsServiceFromLoader(() => readFixture('news.json'));
  return [
    defineRoute({
      method: 'GET', url: '/v1/news', auth: 'B', tags: ['news'],
      summary: 'News headlines, newest first always; language, tag and symbol filters narrow but never reorder.',
      query: NewsQuery, response: NewsList,
      handler: ({ query }) => news.list(query),
    }),
    defineRoute({
      method: 'GET', url: '/v1/news/:id', auth: 'B', tags: ['news'],
      summary: 'One article with its tags, and its body when the publisher licence permits redistribution.',
      params: z.strictObject({ id: z.string().max(64) }), response: NewsArticle,
      errors: ['NOT_FOUND'],
      handler: ({ params }) => news.article(params.id),
    }),
  ];
}
