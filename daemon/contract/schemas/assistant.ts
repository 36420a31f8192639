// Zod schemas of the information-only assistant (/v1/ai/*; docs/assistant.md). Every answer carries
// `outcome` and `language`; text comes in the requested language in the plain field and in the other
// language in a twin field suffixed _ar or _en. A refusal, an abstention or a not-found answer is a
// 200 with a neutral `message`: only a missing provider is an error (501 NOT_AVAILABLE).
import { z } from 'zod';
import { parseAiProvider } from '../ai-provider.js';

export { AI_PROVIDER_PATTERN, parseAiProvider, type AiProvider } from '../ai-provider.js';

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
const message = {
  message: z.string().optional(),
  message_ar: z.string().optional(),
  message_en: z.string().optional(),
};

export const AiOrderParams = z.strictObject({ id: z.string().min(1).max(64) });
export const AiTermParams = z.strictObject({ term: z.string().max(10_000) });
export const AiCodeParams = z.strictObject({ code: z.string().max(10_000) });
export const AiTermQuery = z.strictObject({ term: z.string().max(10_000).optional() });
export const AiCodeQuery = z.strictObject({ code: z.string().max(10_000) });

export const AiOrderExplanation = z
  .strictObject({
    ...head,
    ...message,
    order_id: z.string(),
    state: z.string().optional(),
    symbol: z.string().optional(),
    reason_code: z.string().optional(),
    cause: z.string().optional(),
    cause_ar: z.string().optional(),
    cause_en: z.string().optional(),
    remedy: z.string().optional(),
    remedy_ar: z.string().optional(),
    remedy_en: z.string().optional(),
  })
  .meta({ id: 'AiOrderExplanation' });

export const AiGlossaryItem = z
  .strictObject({ slug: z.string(), ...bilingual('title') })
  .meta({ id: 'AiGlossaryItem' });
export const AiGlossaryArticle = z
  .strictObject({ slug: z.string(), ...bilingual('title'), ...bilingual('body') })
  .meta({ id: 'AiGlossaryArticle' });

export const AiGlossaryList = z
  .strictObject({
    ...head,
    ...message,
    articles: z.array(AiGlossaryItem).optional(),
    article: AiGlossaryArticle.optional(),
  })
  .meta({ id: 'AiGlossaryList' });

export const AiGlossaryAnswer = z
  .strictObject({ ...head, ...message, article: AiGlossaryArticle.optional() })
  .meta({ id: 'AiGlossaryAnswer' });

export const AiDisclosures = z
  .strictObject({
    ...head,
    ...message,
    // absent only from the neutral refusal (an answer the firewall stopped)
    disclosures: z
      .array(z.strictObject({ key: z.enum(['ai_interaction', 'investment_risk']), ...bilingual('text') }))
      .optional(),
  })
  .meta({ id: 'AiDisclosures' });

export const AiErrorExplanation = z
  .strictObject({
    ...head,
    ...message,
    code: z.string(),
    http_status: z.number().int().nullable().optional(),
    cause: z.string().optional(),
    cause_ar: z.string().optional(),
    cause_en: z.string().optional(),
    remedy: z.string().optional(),
    remedy_ar: z.string().optional(),
    remedy_en: z.string().optional(),
  })
  .meta({ id: 'AiErrorExplanation' });
