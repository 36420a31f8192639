// The information-only assistant (docs/assistant.md). Each answer runs the fail-closed pipeline:
//
//   policy.ts     the provider's allowance and the answer's language
//   intent.ts     what the request asks: a lookup, advice (refused), or nothing to look up
//   grounding.ts  the facts: glossary, disclosures, error and reject-code registries, the caller's order
//   render.ts     facts into words, both languages (narration.ts: an order's, from the templates
//                 the provider chose)
//   firewall.ts   every string of the answer checked; any advice-like text refuses the whole answer
//
// Guarantees:
//  1. A failure at any stage (a thrown error included) gives the neutral templated refusal in the
//     requested language: never a 5xx, never a partial answer.
//  2. It books nothing, calls no broker and holds no signing credentials: reads only, scoped to the
//     caller's tenant; another tenant's order answers exactly as an unknown one (not_found, 200).
//  3. With provider `none`, only narrating an order that was not rejected is refused, with 501
//     NOT_AVAILABLE; every registry-grounded surface answers.
//  4. With provider `openai:`, the model only chooses among the service's narration templates
//     (narration.ts); an answer that is not exactly such a choice (an error, a timeout, garbage,
//     prose, an extra field, an untrue template, a fact that is not the order's) is the neutral
//     refusal too, so no model-written text reaches an answer (provider.ts, openai.ts).
import type { Deps } from '../deps.js';
import type { z } from 'zod';
import { isOutcome, refuse, type Refusal } from '../contract/outcome.js';
import type {
  AiDisclosures,
  AiErrorExplanation,
  AiGlossaryAnswer,
  AiGlossaryList,
  AiOrderExplanation,
} from '../contract/schemas/assistant.js';
import { checkOutput, textsOf } from './firewall.js';
import {
  createOrderReader,
  disclosureTexts,
  explainCode,
  glossaryEntry,
  glossaryList,
  type OrderFacts,
} from './grounding.js';
import { orderIntent, termIntent } from './intent.js';
import { allows, type Lang } from './policy.js';
import { createProvider } from './provider.js';
import { NEUTRAL, renderExplained, twin, type Text, type Twin } from './render.js';
import type { GlossaryEntry } from './glossary.js';

/** What each answer is on the wire: the input of its route's response schema. */
type OrderExplanation = z.input<typeof AiOrderExplanation>;
type GlossaryList = z.input<typeof AiGlossaryList>;
type GlossaryAnswer = z.input<typeof AiGlossaryAnswer>;
type Disclosures = z.input<typeof AiDisclosures>;
type ErrorExplanation = z.input<typeof AiErrorExplanation>;

/** The neutral answer of an outcome other than answered, with the fields `extra` adds. */
type Neutral<E> = { outcome: 'refused' | 'abstained' | 'not_found'; language: Lang } & E & Twin<'message'>;

function neutral<E extends object>(
  outcome: 'refused' | 'abstained' | 'not_found',
  text: Text,
  lang: Lang,
  extra: E,
): Neutral<E> {
  return { outcome, language: lang, ...extra, ...twin('message', text, lang) };
}

const isRefusal = (x: unknown): x is Refusal => isOutcome(x) && !x.ok;

/** Runs a stage chain; a throw or a firewall hit becomes the neutral refusal (guarantee 1). */
export function guarded<T extends { outcome: string }, E extends object>(
  lang: Lang,
  extra: E,
  run: () => T | Refusal,
): T | Neutral<E> | Refusal {
  try {
    const out = run();
    if (isRefusal(out)) return out;
    if (out.outcome === 'answered' && !textsOf(out).every((t) => checkOutput(t).ok))
      return neutral('refused', NEUTRAL.refused, lang, extra);
    return out;
  } catch {
    return neutral('refused', NEUTRAL.refused, lang, extra);
  }
}

/** guarded() for a chain that waits (the openai: provider's call); a rejection is a throw. */
export async function guardedAsync<T extends { outcome: string }, E extends object>(
  lang: Lang,
  extra: E,
  run: () => Promise<T | Refusal>,
): Promise<T | Neutral<E> | Refusal> {
  try {
    const out = await run();
    return guarded(lang, extra, () => out);
  } catch {
    return neutral('refused', NEUTRAL.refused, lang, extra);
  }
}

function article(e: GlossaryEntry, lang: Lang) {
  return { slug: e.slug, ...twin('title', e.title, lang), ...twin('body', e.body, lang) };
}

/** One glossary article by its term, or the neutral answer. */
function term(text: string, lang: Lang): GlossaryAnswer {
  const intent = termIntent(text);
  if (intent.kind === 'advice') return neutral('refused', NEUTRAL.refused, lang, {});
  const e = intent.kind === 'lookup' ? glossaryEntry(intent.key) : null;
  return e
    ? { outcome: 'answered', language: lang, article: article(e, lang) }
    : neutral('abstained', NEUTRAL.abstainedTerm, lang, {});
}

/** A rejected order's reject code explained, or the neutral refusal for a code without one. */
function explainRejected(f: OrderFacts, lang: Lang): OrderExplanation {
  const base = { order_id: f.order_id, state: f.state, symbol: f.symbol, reason_code: f.reason_code ?? '' };
  const e = f.reason_code ? explainCode(f.reason_code) : null;
  if (!e) return neutral('refused', NEUTRAL.unknownReject, lang, base);
  const t = renderExplained(e);
  return {
    outcome: 'answered',
    language: lang,
    ...base,
    ...twin('cause', t.cause, lang),
    ...twin('remedy', t.remedy, lang),
  };
}

export function createAssistant(deps: Pick<Deps, 'db' | 'ai' | 'aiTimeoutMs' | 'aiModel'>) {
  // Read per answer: a reset may change the provider (POST /admin/sandbox/reset with `ai`).
  const provider = () => createProvider(deps.ai, { timeoutMs: deps.aiTimeoutMs, model: deps.aiModel });
  const orderFacts = createOrderReader(deps.db);

  return {
    glossary: (lang: Lang, text?: string) =>
      guarded(
        lang,
        {},
        (): GlossaryList =>
          text === undefined
            ? {
                outcome: 'answered',
                language: lang,
                articles: glossaryList().map((e) => ({ slug: e.slug, ...twin('title', e.title, lang) })),
              }
            : term(text, lang),
      ),
    glossaryTerm: (text: string, lang: Lang) => guarded(lang, {}, () => term(text, lang)),
    disclosure: (lang: Lang) =>
      guarded(
        lang,
        {},
        (): Disclosures => ({
          outcome: 'answered',
          language: lang,
          disclosures: disclosureTexts().map((d) => ({ key: d.key, ...twin('text', d.text, lang) })),
        }),
      ),
    explainError(code: string, lang: Lang) {
      return guarded(lang, { code }, (): ErrorExplanation => {
        const intent = termIntent(code);
        if (intent.kind === 'advice') return neutral('refused', NEUTRAL.refused, lang, { code });
        const e = intent.kind === 'lookup' ? explainCode(intent.key) : null;
        if (!e) return neutral('abstained', NEUTRAL.abstainedCode, lang, { code });
        const t = renderExplained(e);
        return {
          outcome: 'answered',
          language: lang,
          code,
          http_status: e.status,
          ...twin('cause', t.cause, lang),
          ...twin('remedy', t.remedy, lang),
        };
      });
    },
    explainOrder(tenantId: string, orderId: string, lang: Lang) {
      return guardedAsync(lang, { order_id: orderId }, async (): Promise<OrderExplanation | Refusal> => {
        const f = orderFacts(tenantId, orderId);
        if (!f) return neutral('not_found', NEUTRAL.notFound, lang, { order_id: orderId });
        if (orderIntent(f.state) === 'reject') return explainRejected(f, lang);
        const p = provider();
        if (!allows(p.name, 'order_narration')) return refuse('NOT_AVAILABLE');
        const t = await p.narrate(f);
        if (!t) return neutral('refused', NEUTRAL.refused, lang, { order_id: f.order_id });
        return {
          outcome: 'answered',
          language: lang,
          order_id: f.order_id,
          state: f.state,
          symbol: f.symbol,
          ...twin('cause', t.cause, lang),
          ...twin('remedy', t.remedy, lang),
        };
      });
    },
  };
}

export type Assistant = ReturnType<typeof createAssistant>;
