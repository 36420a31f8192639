// Zod schemas of the information-only assistant (/v1/ai/*; docs/assistant.md). Every answer carries
// `outcome` and `language`; text comes in the requested language in the plain field and in the other
// language in a twin field suffixed _ar or _en. A refusal, an abstention or a not-found answer is a
// 200 with a neutral `message`: only a missing provider is an error (501 NOT_AVAILABLE).
import { z } from 'zod';

export const AI_PROVIDER_PATTERN = /^(none|registry|openai:https?:\/\/\S+)$/;
export type AiProvider = 'none' | 'registry' | `openai:${string}`;

/**
 * A --ai value as a provider, or null when it is not one: `none`, `registry`, or `openai:` followed by
 * an absolute http or https URL without credentials in it (the URL shows in the sandbox state), a
 * query or a fragment (the chat path is appended to it). The CLI (a usage error), the daemon's flag
 * and the reset route (a 4xx) all check with this.
 */
export function parseAiProvider(value: string): AiProvider | null {
  if (value === 'none' || value === 'registry') return value;
  if (!AI_PROVIDER_PATTERN.test(value) || value.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(value.slice('openai:'.length));
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password || url.search || url.hash) return null;
  return value as AiProvider;
}

/** The provider field of the sandbox state and the reset body. */
export const AiProviderSchema = z
  .string()
  .max(2048)
  .refine((v) => parseAiProvider(v) !== null, { error: 'must be none, registry or openai:<http(s) base URL>' })
  .describe('assistant provider: none, registry or openai:<base_url> (an OpenAI-compatible chat completions endpoint)');

export const AiOutcome = z.enum(['answered', 'refused', 'abstained', 'not_found']).meta({ id: 'AiOutcome' });
export const AiLanguage = z.enum(['en', 'ar']);

/** field, field_ar and field_en: the plain one in the answer's language, one twin in the other. */
function bilingual(name: string): Record<string, z.ZodType> {
  return { [name]: z.string(), [`${name}_ar`]: z.string().optional(), [`${name}_en`]: z.string().optional() };
}

const head = { outcome: AiOutcome, language: AiLanguage };
const message = { message: z.string().optional(), message_ar: z.string().optional(), message_en: z.string().optional() };

export const AiOrderParams = z.strictObject({ id: z.string().min(1).max(64) });
export const AiTermParams = z.strictObject({ term: z.string().max(10_000) });
export const AiCodeParams = z.strictObject({ code: z.string().max(10_000) });
export const AiTermQuery = z.strictObject({ term: z.string().max(10_000).optional() });
export const AiCodeQuery = z.strictObject({ code: z.string().max(10_000) });

export const AiOrderExplanation = z
  .strictObject({
    ...head, ...message,
    order_id: z.string(),
    state: z.string().optional(),
    symbol: z.string().optional(),
    reason_code: z.string().optional(),
    cause: z.string().optional(), cause_ar: z.string().optional(), cause_en: z.string().optional(),
    remedy: z.string().optional(), remedy_ar: z.string().optional(), remedy_en: z.string().optional(),
  })
  .meta({ id: 'AiOrderExplanation' });

export const AiGlossaryItem = z.strictObject({ slug: z.string(), ...bilingual('title') }).meta({ id: 'AiGlossaryItem' });
export const AiGlossaryArticle = z.strictObject({ slug: z.string(), ...bilingual('title'), ...bilingual('body') }).meta({ id: 'AiGlossaryArticle' });

export const AiGlossaryList = z
  .strictObject({ ...head, ...message, articles: z.array(AiGlossaryItem).optional(), article: AiGlossaryArticle.optional() })
  .meta({ id: 'AiGlossaryList' });

export const AiGlossaryAnswer = z.strictObject({ ...head, ...message, article: AiGlossaryArticle.optional() }).meta({ id: 'AiGlossaryAnswer' });

export const AiDisclosures = z
  .strictObject({ ...head, disclosures: z.array(z.strictObject({ key: z.enum(['ai_interaction', 'investment_risk']), ...bilingual('text') })) })
  .meta({ id: 'AiDisclosures' });

export const AiErrorExplanation = z
  .strictObject({
    ...head, ...message,
    code: z.string(),
    http_status: z.number().int().nullable().optional(),
    cause: z.string().optional(), cause_ar: z.string().optional(), cause_en: z.string().optional(),
    remedy: z.string().optional(), remedy_ar: z.string().optional(), remedy_en: z.string().optional(),
  })
  .meta({ id: 'AiErrorExplanation' });
