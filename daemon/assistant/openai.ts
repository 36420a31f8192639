// The openai:<base_url> provider's phrasing: one POST <base_url>/chat/completions to an
// OpenAI-compatible endpoint (a local model server), bounded by a timeout, asking for an order's
// narration in both languages. The model is given the order's grounded facts only (typed fields and
// the registry provider's own wording of them), never text a person typed. Its answer is accepted
// only when it is one JSON object with the four non-empty strings asked for, each in its language,
// each passing the firewall, and stating no number the facts do not hold; anything else (an HTTP
// error, a timeout, garbage, an empty or advising answer) is null, and the caller answers the
// neutral refusal. Never throws.
import { formatPrice } from '../contract/money.js';
import { checkOutput } from './firewall.js';
import type { OrderFacts } from './grounding.js';
import type { Narration } from './render.js';

export interface ChatEndpoint {
  /** The base URL after `openai:`; the request goes to <base_url>/chat/completions. */
  baseUrl: string;
  model: string;
  timeoutMs: number;
}

/** Longest answer body read, and longest accepted narration field. */
const MAX_BODY_CHARS = 64_000;
const MAX_FIELD_CHARS = 1_200;

const SYSTEM = [
  'You phrase the status of one brokerage order for the investor who placed it, in English and in Arabic.',
  'Use only the facts in the user message. State facts only: never recommend, rank, compare, evaluate, time or predict securities, and never give investment advice.',
  'Answer with exactly one JSON object and nothing else: {"cause_en": "...", "remedy_en": "...", "cause_ar": "...", "remedy_ar": "..."}.',
  'cause: what happened to the order. remedy: what happens next or what is needed, factually.',
].join(' ');

/** The facts the model may state: typed fields of the order and the registry wording of them. */
export function factSheet(f: OrderFacts, reference: Narration): Record<string, unknown> {
  return {
    order_id: f.order_id, state: f.state, status: f.status, symbol: f.symbol, side: f.side, type: f.type, time_in_force: f.time_in_force,
    qty: f.qty, filled_qty: f.filled_qty, remaining_qty: f.qty - f.filled_qty, fills: f.fills,
    average_price: f.avg_price_micros === null ? null : `EGP ${formatPrice(f.avg_price_micros)}`,
    settlement_date: f.settlement_date, at: f.at,
    reference_wording: { cause_en: reference.cause.en, remedy_en: reference.remedy.en, cause_ar: reference.cause.ar, remedy_ar: reference.remedy.ar },
  };
}

const ARABIC_LETTER = /[\u0600-\u06FF]/;
const foldDigits = (s: string): string =>
  s.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660)).replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0));
const numbersOf = (s: string): string[] => foldDigits(s).match(/\d+/g) ?? [];

/** The model's JSON content, unwrapped from a Markdown fence if it sent one; null when it is not an object. */
function contentObject(body: string): Record<string, unknown> | null {
  const outer = JSON.parse(body) as { choices?: Array<{ message?: { content?: unknown } }> };
  const content = outer?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') return null;
  const text = content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  const value: unknown = JSON.parse(text);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The model's four fields as a narration, or null when any is missing, empty, too long, in the wrong script, advises or states an unknown number. */
export function acceptNarration(obj: Record<string, unknown>, facts: Record<string, unknown>): Narration | null {
  const known = new Set(numbersOf(JSON.stringify(facts)));
  const field = (name: string, arabic: boolean): string | null => {
    const v = obj[name];
    if (typeof v !== 'string') return null;
    const t = v.trim();
    if (!t || t.length > MAX_FIELD_CHARS || ARABIC_LETTER.test(t) !== arabic) return null;
    if (!checkOutput(t).ok || !numbersOf(t).every((n) => known.has(n))) return null;
    return t;
  };
  const [ce, re, ca, ra] = [field('cause_en', false), field('remedy_en', false), field('cause_ar', true), field('remedy_ar', true)];
  return ce && re && ca && ra ? { cause: { en: ce, ar: ca }, remedy: { en: re, ar: ra } } : null;
}

/** Asks the endpoint to phrase the order; null on any failure (guaranteed to settle within the timeout). */
export async function phraseWithChat(endpoint: ChatEndpoint, f: OrderFacts, reference: Narration): Promise<Narration | null> {
  const facts = factSheet(f, reference);
  try {
    const res = await fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        model: endpoint.model, temperature: 0, max_tokens: 800, stream: false,
        messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: JSON.stringify(facts) }],
      }),
      signal: AbortSignal.timeout(endpoint.timeoutMs),
      redirect: 'error',
    });
    if (!res.ok) return null;
    const body = await res.text();
    if (body.length > MAX_BODY_CHARS) return null;
    const obj = contentObject(body);
    return obj ? acceptNarration(obj, facts) : null;
  } catch {
    return null;
  }
}
