// The information-only assistant under /v1/ai (bearer key, no signature): parse and delegate to
// service.ts. The order explainer is a POST that writes nothing, so it runs outside the write batch.
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import {
  AiCodeParams,
  AiCodeQuery,
  AiDisclosures,
  AiErrorExplanation,
  AiGlossaryAnswer,
  AiGlossaryList,
  AiOrderExplanation,
  AiOrderParams,
  AiTermParams,
  AiTermQuery,
} from '../contract/schemas/assistant.js';
import { createAssistant } from './service.js';
import { languageOf } from './policy.js';

const tags = ['assistant'];

export function assistantRoutes(deps: Deps): RouteDef[] {
  const ai = createAssistant(deps);
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/ai/explain/order/:id',
      auth: 'B',
      tags,
      outsideBatch: true,
      summary:
        "Explain an order: a rejected order gets its reject code's cause and remedy; other states are narrated " +
        "from the order's facts (501 NOT_AVAILABLE for those with --ai none; with --ai openai: the model " +
        "chooses among the service's narration templates, outcome refused when its answer is not exactly such " +
        "a choice). Another tenant's or an unknown id: outcome not_found. Books nothing.",
      params: AiOrderParams,
      response: AiOrderExplanation,
      errors: ['NOT_AVAILABLE'],
      handler: ({ params, tenantId, headers }) =>
        ai.explainOrder(tenantId!, params.id, languageOf(headers['accept-language'])),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/ai/glossary',
      auth: 'B',
      tags,
      summary:
        "The glossary: every article's slug and title, or with ?term= one article (exact slug; unmatched: " +
        'outcome abstained).',
      query: AiTermQuery,
      response: AiGlossaryList,
      handler: ({ query, headers }) => ai.glossary(languageOf(headers['accept-language']), query.term),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/ai/glossary/:term',
      auth: 'B',
      tags,
      summary:
        'One glossary article by exact slug, in both languages; an unmatched term gives outcome abstained, an ' +
        'advice-seeking one outcome refused.',
      params: AiTermParams,
      response: AiGlossaryAnswer,
      handler: ({ params, headers }) => ai.glossaryTerm(params.term, languageOf(headers['accept-language'])),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/ai/disclosure',
      auth: 'B',
      tags,
      summary: 'The canonical disclosures ai_interaction and investment_risk, in both languages.',
      response: AiDisclosures,
      handler: ({ headers }) => ai.disclosure(languageOf(headers['accept-language'])),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/ai/dev/explain-error/:code',
      auth: 'B',
      tags,
      summary:
        'Cause and remedy of an error or reject code from the registries; an unknown code gives outcome abstained.',
      params: AiCodeParams,
      response: AiErrorExplanation,
      handler: ({ params, headers }) => ai.explainError(params.code, languageOf(headers['accept-language'])),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/ai/dev/explain-error',
      auth: 'B',
      tags,
      summary: 'The error explainer with the code as a query parameter (?code=).',
      query: AiCodeQuery,
      response: AiErrorExplanation,
      handler: ({ query, headers }) => ai.explainError(query.code, languageOf(headers['accept-language'])),
    }),
  ];
}
