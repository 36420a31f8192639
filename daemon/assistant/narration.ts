// The narration of an order that was not rejected: the service's own sentences, in English and in
// Arabic, each a template whose only variables are typed facts of the order (the fact sheet). This is
// the whole vocabulary of a narration, whatever the provider: `registry` takes each part's `summary`
// template; an `openai:` model only chooses among the templates that hold for the order (openai.ts),
// so a narration is always one of finitely many texts, every one of them written here, passed by the
// firewall (a test renders every template for every state) and true of the order.
import { formatPrice } from '../contract/money.js';
import type { OrderFacts } from './grounding.js';

export type Text = { en: string; ar: string };

/** An order's or a code's cause and remedy, in both languages. */
export type Narration = { cause: Text; remedy: Text };

/** The typed facts a template may state; a model naming a slot must give exactly this value. */
export type Slot =
  | 'order_id'
  | 'symbol'
  | 'side'
  | 'type'
  | 'time_in_force'
  | 'state'
  | 'status'
  | 'qty'
  | 'filled_qty'
  | 'remaining_qty'
  | 'fills'
  | 'average_price'
  | 'settlement_date'
  | 'at';
export type FactSheet = Record<Slot, string | number | null>;

export type Part = 'cause' | 'remedy';

export interface Template {
  id: string;
  /** Whether the template is true of this order (a model may choose it only then). */
  applies(f: OrderFacts): boolean;
  /** The facts the rendered text states, each once. */
  slots(f: OrderFacts): readonly Slot[];
  text(f: OrderFacts): Text;
}

/** The most choices a part may hold (each distinct); at least one. */
export const MAX_CHOICES = 3;

export function factSheet(f: OrderFacts): FactSheet {
  return {
    order_id: f.order_id,
    symbol: f.symbol,
    side: f.side,
    type: f.type,
    time_in_force: f.time_in_force,
    state: f.state,
    status: f.status,
    qty: f.qty,
    filled_qty: f.filled_qty,
    remaining_qty: f.qty - f.filled_qty,
    fills: f.fills,
    average_price: f.avg_price_micros === null ? null : `EGP ${formatPrice(f.avg_price_micros)}`,
    settlement_date: f.settlement_date,
    at: f.at,
  };
}

const ENDED = new Set(['filled', 'cancelled', 'expired']);
const NAMED = new Set(['filled', 'partially_filled', 'cancel_requested', 'cancelled', 'expired', 'rejected']);
const ended = (f: OrderFacts) => ENDED.has(f.state);
/** received, transmitted, validated, acked: accepted and waiting, nothing executed. */
const open = (f: OrderFacts) => !NAMED.has(f.state);
const SIDE_AR = { buy: 'شراء', sell: 'بيع' } as const;
const money = (micros: number | null): string => (micros === null ? '-' : `EGP ${formatPrice(micros)}`);
const always = () => true;

const WHAT: readonly Slot[] = ['type', 'side', 'order_id', 'qty', 'symbol'];
const FILLS: readonly Slot[] = ['filled_qty', 'qty', 'fills', 'average_price'];

function what(f: OrderFacts): Text {
  return {
    en: `Your ${f.type} ${f.side} order ${f.order_id} for ${f.qty} ${f.symbol}`,
    ar: `أمر ${SIDE_AR[f.side]} رقم ${f.order_id} على ${f.qty} من ${f.symbol}`,
  };
}
function fills(f: OrderFacts): Text {
  return {
    en:
      `${f.filled_qty} of ${f.qty} executed in ${f.fills} fill(s) at an average price of ` +
      `${money(f.avg_price_micros)}`,
    ar: `تم تنفيذ ${f.filled_qty} من ${f.qty} في ${f.fills} عملية بمتوسط سعر ${money(f.avg_price_micros)}`,
  };
}
function settle(f: OrderFacts): Text {
  return f.settlement_date
    ? {
        en: ` The executed shares and cash settle on ${f.settlement_date} (T+2).`,
        ar: ` تتم تسوية الكمية المنفذة في ${f.settlement_date} (T+2).`,
      }
    : { en: '', ar: '' };
}
const withSettlement = (f: OrderFacts, slots: readonly Slot[]): readonly Slot[] =>
  f.settlement_date ? [...slots, 'settlement_date'] : slots;

/** The registry wording of an order's cause, by state. */
function causeSummary(f: OrderFacts): { slots: readonly Slot[]; text: Text } {
  const w = what(f),
    n = fills(f);
  switch (f.state) {
    case 'filled':
      return {
        slots: [...WHAT, 'at', ...FILLS],
        text: { en: `${w.en} was filled in full at ${f.at}: ${n.en}.`, ar: `${w.ar} نفذ بالكامل في ${f.at}: ${n.ar}.` },
      };
    case 'partially_filled':
      return {
        slots: [...WHAT, ...FILLS],
        text: { en: `${w.en} is partially filled: ${n.en}.`, ar: `${w.ar} نفذ جزئيا: ${n.ar}.` },
      };
    case 'cancel_requested':
      return {
        slots: [...WHAT, 'status', ...FILLS],
        text: {
          en: `${w.en} has a cancellation request pending (status ${f.status}); ${n.en}.`,
          ar: `${w.ar} عليه طلب إلغاء قيد التنفيذ (الحالة ${f.status})؛ ${n.ar}.`,
        },
      };
    case 'cancelled':
      return {
        slots: [...WHAT, 'at', ...FILLS],
        text: { en: `${w.en} was cancelled at ${f.at}; ${n.en}.`, ar: `${w.ar} ألغي في ${f.at}؛ ${n.ar}.` },
      };
    case 'expired':
      return {
        slots: [...WHAT, 'at', ...FILLS],
        text: { en: `${w.en} expired at ${f.at}; ${n.en}.`, ar: `${w.ar} انتهت صلاحيته في ${f.at}؛ ${n.ar}.` },
      };
    default:
      return {
        slots: [...WHAT, 'status'],
        text: {
          en: `${w.en} is open (status ${f.status}) with no fills yet.`,
          ar: `${w.ar} قائم (الحالة ${f.status}) ولم ينفذ منه شيء بعد.`,
        },
      };
  }
}

/** The registry wording of what happens next, by state. */
function remedySummary(f: OrderFacts): { slots: readonly Slot[]; text: Text } {
  const s = settle(f);
  switch (f.state) {
    case 'filled':
      return {
        slots: withSettlement(f, []),
        text: {
          en:
            `Nothing is needed.${s.en} The part of the reservation the order did not use was released when it ` +
            'completed.',
          ar: `لا يلزم أي إجراء.${s.ar} وأفرج عن الجزء غير المستخدم من الحجز عند اكتمال الأمر.`,
        },
      };
    case 'partially_filled':
      return {
        slots: withSettlement(f, ['remaining_qty', 'time_in_force']),
        text: {
          en:
            `The remaining ${f.qty - f.filled_qty} stay open under time in force ${f.time_in_force} until they ` +
            `execute, are cancelled or expire.${s.en}`,
          ar:
            `تبقى الكمية المتبقية ${f.qty - f.filled_qty} قائمة وفق مدة السريان ${f.time_in_force} حتى تنفذ أو ` +
            `تلغى أو تنتهي صلاحيتها.${s.ar}`,
        },
      };
    case 'cancel_requested':
      return {
        slots: [],
        text: {
          en:
            'The cancellation completes at the next simulated minute unless a fill completes the order first; a ' +
            'fill that completes it stands.',
          ar: 'يكتمل الإلغاء في الدقيقة المحاكاة التالية ما لم يكتمل تنفيذ الأمر قبل ذلك، وعندها يبقى التنفيذ قائما.',
        },
      };
    case 'cancelled':
    case 'expired':
      return {
        slots: withSettlement(f, []),
        text: {
          en: `Nothing is needed: the unused reservation was released when the order ended.${s.en}`,
          ar: `لا يلزم أي إجراء: أفرج عن الحجز غير المستخدم عند انتهاء الأمر.${s.ar}`,
        },
      };
    default:
      return {
        slots: ['time_in_force'],
        text: {
          en:
            `It stays open under time in force ${f.time_in_force}; its reservation stays in place until the order ` +
            'ends.',
          ar: `يبقى الأمر قائما وفق مدة السريان ${f.time_in_force}، ويبقى الحجز الخاص به حتى انتهاء الأمر.`,
        },
      };
  }
}

const CAUSES: readonly Template[] = [
  {
    id: 'summary',
    applies: always,
    slots: (f) => [...new Set(causeSummary(f).slots)],
    text: (f) => causeSummary(f).text,
  },
  {
    id: 'executed',
    applies: (f) => f.filled_qty > 0,
    slots: () => ['filled_qty', 'qty', 'symbol', 'fills', 'average_price'],
    text: (f) => ({
      en:
        `${f.filled_qty} of ${f.qty} ${f.symbol} executed in ${f.fills} fill(s) at an average price of ` +
        `${money(f.avg_price_micros)}.`,
      ar:
        `تم تنفيذ ${f.filled_qty} من ${f.qty} من ${f.symbol} في ${f.fills} عملية بمتوسط سعر ` +
        `${money(f.avg_price_micros)}.`,
    }),
  },
  {
    id: 'state',
    applies: always,
    slots: () => ['order_id', 'symbol', 'state', 'status'],
    text: (f) => ({
      en: `Order ${f.order_id} on ${f.symbol} is in state ${f.state} (status ${f.status}).`,
      ar: `الأمر ${f.order_id} على ${f.symbol} في الحالة ${f.state} (${f.status}).`,
    }),
  },
];

const REMEDIES: readonly Template[] = [
  { id: 'summary', applies: always, slots: (f) => remedySummary(f).slots, text: (f) => remedySummary(f).text },
  {
    id: 'settlement',
    applies: (f) => f.settlement_date !== null,
    slots: () => ['settlement_date'],
    text: (f) => ({
      en: `The executed shares and cash settle on ${f.settlement_date} (T+2).`,
      ar: `تتم تسوية الكمية المنفذة في ${f.settlement_date} (T+2).`,
    }),
  },
  {
    id: 'nothing_needed',
    applies: ended,
    slots: () => [],
    text: () => ({ en: 'Nothing is needed.', ar: 'لا يلزم أي إجراء.' }),
  },
  {
    id: 'reservation',
    applies: always,
    slots: () => [],
    text: (f) =>
      ended(f)
        ? {
            en: 'The part of the reservation the order did not use was released when it ended.',
            ar: 'أفرج عن الجزء غير المستخدم من الحجز عند انتهاء الأمر.',
          }
        : {
            en: "The order's reservation stays in place until the order ends.",
            ar: 'يبقى الحجز الخاص بالأمر حتى انتهاء الأمر.',
          },
  },
  {
    id: 'time_in_force',
    applies: (f) => open(f) || f.state === 'partially_filled',
    slots: () => ['time_in_force'],
    text: (f) => ({
      en: `It stays open under time in force ${f.time_in_force} until it executes, is cancelled or expires.`,
      ar: `يبقى قائما وفق مدة السريان ${f.time_in_force} حتى ينفذ أو يلغى أو تنتهي صلاحيته.`,
    }),
  },
];

export const TEMPLATES: Readonly<Record<Part, readonly Template[]>> = { cause: CAUSES, remedy: REMEDIES };

/** The templates of a part that hold for this order, in catalogue order. */
export function applicable(part: Part, f: OrderFacts): readonly Template[] {
  return TEMPLATES[part].filter((t) => t.applies(f));
}

/** The texts of chosen templates, joined: the part of the answer they make. */
export function renderChoices(chosen: readonly Template[], f: OrderFacts): Text {
  const texts = chosen.map((t) => t.text(f));
  return { en: texts.map((t) => t.en).join(' '), ar: texts.map((t) => t.ar).join(' ') };
}

/** The registry provider's narration: each part's summary template. */
export function narrateOrder(f: OrderFacts): Narration {
  return { cause: renderChoices([CAUSES[0]], f), remedy: renderChoices([REMEDIES[0]], f) };
}
