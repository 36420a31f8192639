// News: a fixture set of articles, always newest first; filters never change the ordering; each
// article's generated image (image_url, on the host the client called).
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { readFixture } from '../fixtures.js';
import { baseUrl, onBase } from '../contract/base-url.js';
import { ok } from '../contract/outcome.js';
import { newsImage } from './image.js';
import { createNewsServiceFromLoader } from './service.js';
import { NewsArticle, NewsList, NewsQuery } from '../contract/schemas/news.js';

export function newsRoutes(_deps: Deps): RouteDef[] {
  const news = createNewsServiceFromLoader(() => readFixture('news.json'));
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/news',
      auth: 'B',
      tags: ['news'],
      summary: 'News headlines, newest first always; language, tag and symbol filters narrow but never reorder.',
      query: NewsQuery,
      response: NewsList,
      handler: ({ query, headers }) => {
        const list = news.list(query);
        const base = baseUrl(headers);
        return { ...list, news: list.news.map((n) => ({ ...n, image_url: onBase(base, n.image_url) })) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/news/:id',
      auth: 'B',
      tags: ['news'],
      summary: 'One article with its tags, and its body when the publisher licence permits redistribution.',
      params: z.strictObject({ id: z.string().max(64) }),
      response: NewsArticle,
      errors: ['NOT_FOUND'],
      handler: ({ params, headers }) => {
        const article = news.article(params.id);
        return article.ok
          ? ok({ ...article.value, image_url: onBase(baseUrl(headers), article.value.image_url) })
          : article;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/assets/news/:file',
      auth: 'none',
      tags: ['assets'],
      summary:
        'Generated image of a news article (SVG): the image_url of GET /v1/news and /v1/news/{id}. 404 ' +
        'NOT_FOUND for an id that is not an article.',
      params: z.strictObject({ file: z.string().regex(/^nws_[a-z0-9]{12}\.svg$/) }),
      produces: ['image/svg+xml'],
      errors: ['NOT_FOUND'],
      handler: ({ params }) => {
        const image = newsImage(news, params.file);
        return image.ok ? { status: 200, raw: image.value, contentType: 'image/svg+xml' } : image;
      },
    }),
  ];
}
