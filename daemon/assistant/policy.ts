// Policy, the first stage: what this daemon's provider allows and in which language to answer. It
// decides before anything is read: with provider `none` only the registry-grounded surfaces answer
// (glossary, disclosures, the error explainer, the reject-code path of the order explainer) and
// narrating any other order is 501 NOT_AVAILABLE; the language comes from Accept-Language (ar or en,
// default en); a request text longer than MAX_REQUEST_CHARS is not looked at (abstained).
import type { AiProvider } from '../contract/schemas/assistant.js';

export type Lang = 'en' | 'ar';
export type Surface = 'glossary' | 'disclosure' | 'error' | 'order_reject' | 'order_narration';

/** Longer request texts (a glossary term, an error code) are never matched or scanned: abstained. */
export const MAX_REQUEST_CHARS = 256;

export function allows(provider: AiProvider, surface: Surface): boolean {
  return provider !== 'none' || surface !== 'order_narration';
}

/** The language of the answer: the Accept-Language entry with the highest weight among ar and en. */
export function languageOf(header: string | string[] | undefined): Lang {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  let best: { lang: Lang; q: number } = { lang: 'en', q: 0 };
  for (const part of value.slice(0, 512).split(',')) {
    const [tag, ...params] = part.trim().toLowerCase().split(';');
    const base = tag.split('-')[0];
    if (base !== 'ar' && base !== 'en') continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qp ? Number(qp.slice(2)) : 1;
    if (Number.isFinite(q) && q > best.q) best = { lang: base, q };
  }
  return best.lang;
}

export const other = (lang: Lang): Lang => (lang === 'en' ? 'ar' : 'en');
