// The openai: provider's acceptance of a model's answer (daemon/assistant/openai.ts): structured
// choices among the templates offered for the order, accounted for in full, or nothing. The API test
// (test/api/assistant-hostile.test.ts) runs the hostile corpus through a real endpoint; these are the
// edges of "exactly" that a corpus of prose does not reach.
import { describe, expect, it } from 'vitest';
import { acceptChoices, contentValue, offered, responseFormat } from '../../daemon/assistant/openai.js';
import { narrateOrder } from '../../daemon/assistant/narration.js';
import type { OrderFacts } from '../../daemon/assistant/grounding.js';

const open: OrderFacts = {
  order_id: 'ord_1y000004dc',
  state: 'validated',
  status: 'accepted',
  symbol: 'COMI',
  side: 'buy',
  type: 'limit',
  time_in_force: 'day',
  qty: 10,
  filled_qty: 0,
  avg_price_micros: null,
  reason_code: null,
  fills: 0,
  settlement_date: null,
  at: '2026-11-22T07:00:00.000Z',
};
const cancelled: OrderFacts = { ...open, state: 'cancelled', status: 'canceled' };

type Choice = { template: string; slots: Record<string, unknown> };
const summary = (f: OrderFacts): { cause: Choice[]; remedy: Choice[] } => {
  const o = offered(f);
  return {
    cause: [{ template: 'summary', slots: { ...o.cause[0].slots } }],
    remedy: [{ template: 'summary', slots: { ...o.remedy[0].slots } }],
  };
};
const chat = (content: string, message: Record<string, unknown> = {}) =>
  JSON.stringify({ choices: [{ message: { role: 'assistant', content, ...message } }] });

describe('a model answer is used only when all of it is an offered choice', () => {
  it("each part summary, slots as offered: exactly the registry provider's narration", () => {
    expect(acceptChoices(summary(open), open)).toEqual(narrateOrder(open));
  });

  it('a slot given as a string where the fact is a number is refused', () => {
    const v = summary(open);
    v.cause[0].slots.qty = '10';
    expect(acceptChoices(v, open)).toBeNull();
  });

  it('a null fact (no average price yet) must be given as null, not as a text', () => {
    const v = summary(cancelled);
    expect(v.cause[0].slots.average_price).toBeNull();
    expect(acceptChoices(v, cancelled)).not.toBeNull();
    v.cause[0].slots.average_price = 'EGP 0.00';
    expect(acceptChoices(v, cancelled)).toBeNull();
  });

  it('a template id in another case, padded, or with an invisible character in it is refused', () => {
    for (const id of ['Summary', ' summary', 'summary ', 'sum\u200Bmary', 'summary\uFE0F', 'ｓｕｍｍａｒｙ']) {
      const v = summary(open);
      v.remedy[0].template = id;
      expect(acceptChoices(v, open), JSON.stringify(id)).toBeNull();
    }
  });

  it('a __proto__ key, beside the parts or in the slots, is refused', () => {
    expect(
      acceptChoices(JSON.parse(`{"__proto__": {"x": 1}, ${JSON.stringify(summary(open)).slice(1)}`), open),
    ).toBeNull();
    const v = JSON.stringify(summary(open)).replace('"slots":{', '"slots":{"__proto__":"buy",');
    expect(acceptChoices(JSON.parse(v), open)).toBeNull();
  });

  it('a template that does not hold for the order is refused even with no slots (nothing needed, for an open order)', () => {
    expect(acceptChoices({ ...summary(open), remedy: [{ template: 'nothing_needed', slots: {} }] }, open)).toBeNull();
    expect(
      acceptChoices({ ...summary(cancelled), remedy: [{ template: 'nothing_needed', slots: {} }] }, cancelled),
    ).not.toBeNull();
  });

  it('the content is one JSON value: prose around it, a second value, or a refusal beside it is not read', () => {
    const json = JSON.stringify(summary(open));
    expect(contentValue(chat(json))).toEqual(summary(open));
    expect(contentValue(chat(`\`\`\`json\n${json}\n\`\`\``))).toEqual(summary(open));
    expect(() => contentValue(chat(`Sure! ${json}`))).toThrow();
    expect(() => contentValue(chat(`${json}\n${json}`))).toThrow();
    expect(contentValue(chat(json, { refusal: 'no' }))).toBeNull();
    expect(
      contentValue(JSON.stringify({ choices: [{ message: { content: [{ type: 'text', text: json }] } }] })),
    ).toBeNull();
  });

  it('the schema sent as response_format admits the offered templates only, each slot its one value', () => {
    const rf = responseFormat(offered(open)) as {
      json_schema: {
        schema: {
          properties: {
            cause: {
              items: {
                anyOf: Array<{
                  properties: {
                    template: { enum: string[] };
                    slots: { properties: Record<string, { enum: unknown[] }> };
                  };
                }>;
              };
            };
          };
        };
      };
    };
    const choices = rf.json_schema.schema.properties.cause.items.anyOf;
    expect(choices.map((c) => c.properties.template.enum)).toEqual([['summary'], ['state']]);
    expect(choices[0].properties.slots.properties.qty).toEqual({ enum: [10] });
  });
});
