// A news article's image (its image_url, /assets/news/{id}.svg), generated from the article so every
// article has a stable picture without image files in the repository: a 640x360 card in a hue hashed
// from the id, with the publisher's name and the publication date. Deterministic: the same article
// gives the same bytes.
import { hash32 } from '../sim/prng.js';
import { refuse, ok, type Outcome } from '../contract/outcome.js';
import type { NewsService } from './service.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function xmlText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function cardSvg(id: string, publisher: string, date: string, language: 'ar' | 'en'): string {
  const hue = hash32('news-image', id) % 360;
  const anchor = language === 'ar' ? ' text-anchor="end"' : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">` +
    `<rect width="640" height="360" fill="hsl(${hue},45%,30%)"/>` +
    `<rect x="0" y="280" width="640" height="80" fill="hsl(${hue},45%,22%)"/>` +
    `<text x="40" y="150" font-family="sans-serif" font-size="64" font-weight="700" fill="#fff">EGX</text>` +
    `<text x="40" y="200" font-family="sans-serif" font-size="26" fill="#fff" fill-opacity="0.8">${date}</text>` +
    `<text x="${language === 'ar' ? 600 : 40}" y="330" font-family="sans-serif" font-size="28" fill="#fff"` +
    `${anchor}>${xmlText(publisher)}</text>` +
    `</svg>`
  );
}

/** GET /assets/news/{id}.svg: the card of an article, or NOT_FOUND. */
export function newsImage(news: Pick<NewsService, 'get'>, file: string): Outcome<Buffer> {
  const id = file.replace(/\.svg$/, '');
  const a = news.get(id);
  if (a === null) return refuse('NOT_FOUND', `No article ${id}.`);
  return ok(Buffer.from(cardSvg(a.id, a.publisher, a.published_at.slice(0, 10), a.language)));
}
