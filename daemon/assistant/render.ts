// Render, the fourth stage: grounded facts into the answer's words, in both languages, from fixed
// templates (the registry provider) or, for an order narration, from the provider's phrasing. The
// answer's language goes in the plain field and the other in its twin (field_ar or field_en). The
// neutral messages of refusals, abstentions and not-found answers live here too, so every stage
// that fails answers the same words.
import { formatPrice } from '../contract/money.js';
import type { Explained, OrderFacts } from './grounding.js';
import { other, type Lang } from './policy.js';
import { errorCodeAr } from './error-codes-ar.js';
import { rejectCodeAr } from './reject-codes-ar.js';

export type Text = { en: string; ar: string };

/** An order's or a code's cause and remedy, in both languages. */
export type Narration = { cause: Text; remedy: Text };

/** { name: text[lang], name_<other>: text[other] }. */
export function twin(name: string, text: Text, lang: Lang): Record<string, string> {
  return { [name]: text[lang], [`${name}_${other(lang)}`]: text[other(lang)] };
}

export const NEUTRAL = {
  refused: {
    en: 'I can give factual information about terms, orders and errors only, and cannot answer this request. For investment advice, please contact your broker.',
    ar: 'يمكنني تقديم معلومات وقائعية عن المصطلحات والأوامر والأخطاء فقط، ولا يمكنني الإجابة على هذا الطلب. للحصول على المشورة الاستثمارية يرجى التواصل مع شركة السمسرة.',
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

const SIDE_AR = { buy: 'شراء', sell: 'بيع' } as const;

function money(micros: number | null): string {
  return micros === null ? '-' : `EGP ${formatPrice(micros)}`;
}

/** The registry provider's factual narration of an order that was not rejected. */
export function narrateOrder(f: OrderFacts): Narration {
  const what = { en: `Your ${f.type} ${f.side} order ${f.order_id} for ${f.qty} ${f.symbol}`, ar: `أمر ${SIDE_AR[f.side]} رقم ${f.order_id} على ${f.qty} من ${f.symbol}` };
  const fills = { en: `${f.filled_qty} of ${f.qty} executed in ${f.fills} fill(s) at an average price of ${money(f.avg_price_micros)}`, ar: `تم تنفيذ ${f.filled_qty} من ${f.qty} في ${f.fills} عملية بمتوسط سعر ${money(f.avg_price_micros)}` };
  const settle = f.settlement_date
    ? { en: ` The executed shares and cash settle on ${f.settlement_date} (T+2).`, ar: ` تتم تسوية الكمية المنفذة في ${f.settlement_date} (T+2).` }
    : { en: '', ar: '' };
  switch (f.state) {
    case 'filled':
      return {
        cause: { en: `${what.en} was filled in full at ${f.at}: ${fills.en}.`, ar: `${what.ar} نفذ بالكامل في ${f.at}: ${fills.ar}.` },
        remedy: { en: `Nothing is needed.${settle.en} The part of the reservation the order did not use was released when it completed.`, ar: `لا يلزم أي إجراء.${settle.ar} وأفرج عن الجزء غير المستخدم من الحجز عند اكتمال الأمر.` },
      };
    case 'partially_filled':
      return {
        cause: { en: `${what.en} is partially filled: ${fills.en}.`, ar: `${what.ar} نفذ جزئيا: ${fills.ar}.` },
        remedy: { en: `The remaining ${f.qty - f.filled_qty} stay open under time in force ${f.time_in_force} until they execute, are cancelled or expire.${settle.en}`, ar: `تبقى الكمية المتبقية ${f.qty - f.filled_qty} قائمة وفق مدة السريان ${f.time_in_force} حتى تنفذ أو تلغى أو تنتهي صلاحيتها.${settle.ar}` },
      };
    case 'cancel_requested':
      return {
        cause: { en: `${what.en} has a cancellation request pending (status ${f.status}); ${fills.en}.`, ar: `${what.ar} عليه طلب إلغاء قيد التنفيذ (الحالة ${f.status})؛ ${fills.ar}.` },
        remedy: { en: 'The cancellation completes at the next simulated minute unless a fill completes the order first; a fill that completes it stands.', ar: 'يكتمل الإلغاء في الدقيقة المحاكاة التالية ما لم يكتمل تنفيذ الأمر قبل ذلك، وعندها يبقى التنفيذ قائما.' },
      };
    case 'cancelled':
    case 'expired': {
      const ended = f.state === 'cancelled' ? { en: 'was cancelled', ar: 'ألغي' } : { en: 'expired', ar: 'انتهت صلاحيته' };
      return {
        cause: { en: `${what.en} ${ended.en} at ${f.at}; ${fills.en}.`, ar: `${what.ar} ${ended.ar} في ${f.at}؛ ${fills.ar}.` },
        remedy: { en: `Nothing is needed: the unused reservation was released when the order ended.${settle.en}`, ar: `لا يلزم أي إجراء: أفرج عن الحجز غير المستخدم عند انتهاء الأمر.${settle.ar}` },
      };
    }
    default:
      return {
        cause: { en: `${what.en} is open (status ${f.status}) with no fills yet.`, ar: `${what.ar} قائم (الحالة ${f.status}) ولم ينفذ منه شيء بعد.` },
        remedy: { en: `It stays open under time in force ${f.time_in_force}; its reservation stays in place until the order ends.`, ar: `يبقى الأمر قائما وفق مدة السريان ${f.time_in_force}، ويبقى الحجز الخاص به حتى انتهاء الأمر.` },
      };
  }
}
