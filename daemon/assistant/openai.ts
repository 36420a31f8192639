// The openai:<base_url> provider: one POST <base_url>/chat/completions to an OpenAI-compatible
// endpoint (a local model server), bounded by a timeout, that asks the model to CHOOSE how an order is
// narrated, never to write it. The model is given the order's fact sheet (typed fields only, never
// text a person typed) and the service's templates that hold for the order (narration.ts), and
// answers structured choices: { cause: [choice], remedy: [choice] }, each choice { template, slots }.
// The answer is accounted for in full or not used at all: exactly those two keys; each part 1 to 3
// distinct choices; each choice exactly `template` (an offered id) and `slots` (exactly the
// template's facts, each value identical to the fact sheet's). The service then renders the answer
// from its own bilingual templates and the facts, so no model-written character reaches the investor:
// a hostile answer in any script or disguise is not one of the offered ids or values, and is refused
// as a whole. Anything else (an HTTP error, a timeout, garbage) is null too, and the caller answers
// the neutral refusal. Never throws.
import type { OrderFacts } from './grounding.js';
import { outboundFetch } from './outbound.js';
import {
  applicable,
  factSheet,
  MAX_CHOICES,
  renderChoices,
  type FactSheet,
  type Narration,
  type Part,
  type Template,
} from './narration.js';

export interface ChatEndpoint {
  /** The base URL after `openai:`; the request goes to <base_url>/chat/completions. */
  baseUrl: string;
  model: string;
  timeoutMs: number;
}

/** Longest answer body read. */
const MAX_BODY_CHARS = 64_000;

const SYSTEM = [
  'You choose how the status of one brokerage order is told to the investor who placed it. You do not write ' +
    'the text: the service renders it in English and Arabic from its own templates.',
  "The user message holds the order's facts and, for each part (cause: what happened; remedy: what happens " +
    'next), the templates that hold for this order, each with its slots and its English text.',
  `Answer with exactly one JSON object and nothing else: {"cause": [{"template": "<id>", "slots": {...}}], ` +
    `"remedy": [{"template": "<id>", "slots": {...}}]}, 1 to ${MAX_CHOICES} distinct templates per part, each ` +
    `with its slots copied exactly as offered.`,
].join(' ');

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const keysAre = (o: Obj, keys: readonly string[]): boolean => {
  const own = Object.keys(o);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(o, k));
};

function slotValues(t: Template, f: OrderFacts, sheet: FactSheet): Obj {
  return Object.fromEntries(t.slots(f).map((s) => [s, sheet[s]]));
}

/** What the model is offered for each part: the templates that hold, their slots and English text. */
export function offered(f: OrderFacts): Record<Part, Array<{ template: string; slots: Obj; en: string }>> {
  const sheet = factSheet(f);
  const of = (part: Part) =>
    applicable(part, f).map((t) => ({ template: t.id, slots: slotValues(t, f, sheet), en: t.text(f).en }));
  return { cause: of('cause'), remedy: of('remedy') };
}

/** A JSON schema that admits exactly the accepted answers (servers with structured outputs decode within it). */
export function responseFormat(o: ReturnType<typeof offered>): Obj {
  const choice = (c: { template: string; slots: Obj }) => ({
    type: 'object',
    additionalProperties: false,
    required: ['template', 'slots'],
    properties: {
      template: { type: 'string', enum: [c.template] },
      slots: {
        type: 'object',
        additionalProperties: false,
        required: Object.keys(c.slots),
        properties: Object.fromEntries(Object.entries(c.slots).map(([k, v]) => [k, { enum: [v] }])),
      },
    },
  });
  const part = (cs: Array<{ template: string; slots: Obj }>) => ({
    type: 'array',
    minItems: 1,
    maxItems: MAX_CHOICES,
    items: { anyOf: cs.map(choice) },
  });
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['cause', 'remedy'],
    properties: { cause: part(o.cause), remedy: part(o.remedy) },
  };
  return { type: 'json_schema', json_schema: { name: 'order_narration', strict: true, schema } };
}

/** One part's choices as templates, or null unless every element is an offered template with exactly its facts. */
function chosen(value: unknown, part: Part, f: OrderFacts, sheet: FactSheet): Template[] | null {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_CHOICES) return null;
  const out: Template[] = [];
  for (const c of value) {
    if (!isObject(c) || !keysAre(c, ['template', 'slots']) || typeof c.template !== 'string' || !isObject(c.slots))
      return null;
    const t = applicable(part, f).find((x) => x.id === c.template);
    if (!t || out.includes(t)) return null;
    const slots = t.slots(f);
    const given = c.slots;
    if (!keysAre(given, slots) || !slots.every((s) => given[s] === sheet[s])) return null;
    out.push(t);
  }
  return out;
}

/** The model's structured choices rendered from the service's templates, or null unless all of the answer is accounted
 * for. */
export function acceptChoices(value: unknown, f: OrderFacts): Narration | null {
  if (!isObject(value) || !keysAre(value, ['cause', 'remedy'])) return null;
  const sheet = factSheet(f);
  const cause = chosen(value.cause, 'cause', f, sheet);
  const remedy = chosen(value.remedy, 'remedy', f, sheet);
  return cause && remedy ? { cause: renderChoices(cause, f), remedy: renderChoices(remedy, f) } : null;
}

/** The message content of a chat completion, parsed: the whole content is one JSON value, or one inside a Markdown
 * fence. */
export function contentValue(body: string): unknown {
  const outer: unknown = JSON.parse(body);
  const message =
    isObject(outer) && Array.isArray(outer.choices) && isObject(outer.choices[0]) ? outer.choices[0].message : null;
  if (!isObject(message) || typeof message.content !== 'string') return null;
  if (typeof message.refusal === 'string' && message.refusal !== '') return null;
  const text = message.content.trim();
  const fenced = /^```(?:json)?[ \t]*\n([\s\S]*)\n[ \t]*```$/.exec(text);
  return JSON.parse(fenced ? fenced[1] : text);
}

/** Asks the endpoint to choose the order's narration; null on any failure (guaranteed to settle within the timeout). */
export async function phraseWithChat(endpoint: ChatEndpoint, f: OrderFacts): Promise<Narration | null> {
  const templates = offered(f);
  try {
    const res = await outboundFetch(`${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        model: endpoint.model,
        temperature: 0,
        max_tokens: 800,
        stream: false,
        response_format: responseFormat(templates),
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: JSON.stringify({ facts: factSheet(f), templates }) },
        ],
      }),
      signal: AbortSignal.timeout(endpoint.timeoutMs),
      redirect: 'error',
    });
    if (!res.ok) return null;
    const body = await res.text();
    if (body.length > MAX_BODY_CHARS) return null;
    return acceptChoices(contentValue(body), f);
  } catch {
    return null;
  }
}
