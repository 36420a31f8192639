// Render, the fourth stage: grounded facts into the answer's words, in both languages, from fixed
// templates; an order's narration from the templates of narration.ts (whichever the provider chose). The
// answer's language goes in the plain field and the other in its twin (field_ar or field_en). The
// neutral messages of refusals, abstentions and not-found answers live here too, so every stage
// that fails answers the same words.
import type { Explained } from './grounding.js';
import type { Narration, Text } from './narration.js';
import { other, type Lang } from './policy.js';
import { errorCodeAr } from './error-codes-ar.js';
import { rejectCodeAr } from './reject-codes-ar.js';

export type { Narration, Text };

/** A text field of an answer: `name` in the answer's language, `name_ar` or `name_en` in the other. */
export type Twin<N extends string> = Record<N, string> & Partial<Record<`${N}_ar` | `${N}_en`, string>>;

/** { name: text[lang], name_<other>: text[other] }. */
export function twin<N extends string>(name: N, text: Text, lang: Lang): Twin<N> {
  // computed keys type as an index signature; the two keys are exactly Twin's
  return { [name]: text[lang], [`${name}_${other(lang)}`]: text[other(lang)] } as Twin<N>;
}

export const NEUTRAL = {
  refused: {
    en:
      'I can give factual information about terms, orders and errors only, and cannot answer this request. For ' +
      'investment advice, please contact your broker.',
    ar:
      'يمكنني تقديم معلومات وقائعية عن المصطلحات والأوامر والأخطاء فقط، ولا يمكنني الإجابة على هذا الطلب. للحصول ' +
      'على المشورة الاستثمارية يرجى التواصل مع شركة السمسرة.',
  },
  abstainedTerm: {
    en: 'I have no glossary article for this term. GET /v1/ai/glossary lists the terms I can explain.',
    ar: 'لا يوجد لدي مقال في المسرد لهذا المصطلح. يعرض GET /v1/ai/glossary المصطلحات التي يمكنني شرحها.',
  },
  abstainedCode: {
    en: 'I have no entry for this error code. docs/errors.md lists every code the API answers.',
    ar: 'لا يوجد لدي شرح لرمز الخطأ هذا. يعرض docs/errors.md جميع الرموز التي تجيب بها الواجهة.',
  },
  notFound: {
    en: 'I found no order with this id for your account.',
    ar: 'لم أجد أمرا بهذا المعرف في حسابك.',
  },
  unknownReject: {
    en: 'This order was rejected for a reason I have no explanation for. Please contact your broker.',
    ar: 'تم رفض هذا الأمر لسبب لا يتوفر لدي شرح له. يرجى التواصل مع شركة السمسرة.',
  },
} as const satisfies Record<string, Text>;

/**
 * An error or reject code's cause and remedy. Reject codes have Arabic text of their own
 * (reject-codes-ar.ts), preferred because their English comes from the reject-code registry too;
 * every code of the API error registry has its Arabic in error-codes-ar.ts. A code in neither (none
 * today) names the code in Arabic around the English text.
 */
export function renderExplained(e: Explained): Narration {
  const ar = rejectCodeAr(e.code) ?? errorCodeAr(e.code);
  return {
    cause: { en: e.cause, ar: ar ? ar.cause : `الرمز ${e.code}${e.status ? ` (HTTP ${e.status})` : ''}: ${e.cause}` },
    remedy: { en: e.remedy, ar: ar ? ar.remedy : `طريقة المعالجة للرمز ${e.code}: ${e.remedy}` },
  };
}
