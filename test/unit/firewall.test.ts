// The assistant's firewall and normalisation (daemon/assistant/firewall.ts, normalise.ts): the
// adversarial corpus (test/assistant-corpus/corpus.json) gives every advice-giving output blocked and
// every factual one passed; the glossary, the disclosures and the registries pass untouched.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkOutput, checkRequest } from '../../daemon/assistant/firewall.js';
import { normalise } from '../../daemon/assistant/normalise.js';
import { GLOSSARY } from '../../daemon/assistant/glossary.js';
import { DISCLOSURES } from '../../daemon/contract/disclosures.js';
import { ERROR_CODES } from '../../daemon/contract/errors.js';
import { rejectCodes } from '../../daemon/trading/reject-codes.js';
import { NEUTRAL } from '../../daemon/assistant/render.js';
import { REJECT_CODES_AR } from '../../daemon/assistant/reject-codes-ar.js';
import { TEMPLATES, factSheet } from '../../daemon/assistant/narration.js';
import { ORDER_STATES, STATUS_OF } from '../../daemon/trading/matcher.js';
import type { OrderFacts } from '../../daemon/assistant/grounding.js';

interface Entry {
  kind: 'output' | 'request';
  lang: 'en' | 'ar';
  category: string;
  text: string;
  expect: 'refused' | 'answered' | 'abstained';
}
const corpus = (
  JSON.parse(readFileSync(new URL('../assistant-corpus/corpus.json', import.meta.url), 'utf8')) as { entries: Entry[] }
).entries;

describe('normalise: one spelling per phrase', () => {
  it.each([
    ['أَنْصَحُكَ بِشِرَاءِ', 'انصحك بشراء'],
    ['انـــصحك', 'انصحك'],
    ['إستثمار آمن', 'استثمار امن'],
    ['مدرسة على', 'مدرسه علي'],
    ['٤٠ ۱۲', '40 12'],
    ['Yоu ЅHOULD', 'you should'],
    ['y0u sh0uld b3st', 'you should best'],
    ['ｂｕｙ　ｎｏｗ', 'buy now'],
    ['bu\u200By n\u200Dow', 'buy now'],
    ['T+2, 10th', 't+2 10th'],
    ['b\u{E0062}\u{E0075}u\uFE0Fy\u{E0100} n\u2060ow', 'buy now'],
    ['𝟏𝟐𝟎 १२० ١٢٠ ১২০ １２０', '120 120 120 120 120'],
    ['sհօսlժ', 'should'],
  ])('%s -> %s', (input, out) => {
    expect(normalise(input)).toBe(out);
  });
});

describe('the adversarial corpus', () => {
  it('has at least 200 entries, half of them Arabic, each with an expected outcome', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    expect(corpus.filter((e) => e.lang === 'ar').length * 2).toBeGreaterThanOrEqual(corpus.length);
    for (const e of corpus) expect(['refused', 'answered', 'abstained']).toContain(e.expect);
  });

  it.each(corpus.filter((e) => e.kind === 'output').map((e) => [e.lang, e.category, e.text, e.expect] as const))(
    'output %s %s: %s -> %s',
    (_l, _c, text, expected) => {
      expect(checkOutput(text).ok ? 'answered' : 'refused').toBe(expected);
    },
  );

  it.each(corpus.filter((e) => e.kind === 'request').map((e) => [e.lang, e.category, e.text, e.expect] as const))(
    'request %s %s: %s -> %s',
    (_l, _c, text, expected) => {
      expect(checkRequest(text).ok ? 'looked up' : 'refused').toBe(expected === 'refused' ? 'refused' : 'looked up');
    },
  );
});

describe("the assistant's own words pass the firewall (no false refusal of what it is built to say)", () => {
  it('every glossary title and body, both languages', () => {
    for (const e of GLOSSARY)
      for (const t of [e.title.en, e.title.ar, e.body.en, e.body.ar])
        expect(checkOutput(t), `${e.slug}: ${t}`).toEqual({ ok: true });
  });

  it('the disclosures, the neutral messages and every registry cause and remedy', () => {
    const texts = [
      ...Object.values(DISCLOSURES).flatMap((d) => [d.en, d.ar]),
      ...Object.values(NEUTRAL).flatMap((d) => [d.en, d.ar]),
      ...Object.values(ERROR_CODES).flatMap((e) => [e.cause, e.remedy]),
      ...rejectCodes().flatMap((c) => [c.cause, c.remedy]),
    ];
    for (const t of texts) expect(checkOutput(t), t).toEqual({ ok: true });
  });

  it('every order reject code has an Arabic cause and remedy of its own, and they pass', () => {
    expect(Object.keys(REJECT_CODES_AR).sort()).toEqual(
      rejectCodes()
        .map((c) => c.code)
        .sort(),
    );
    for (const [code, t] of Object.entries(REJECT_CODES_AR)) {
      for (const text of [t.cause, t.remedy]) {
        expect(text, code).toMatch(/[\u0600-\u06FF]{3,}/);
        expect(checkOutput(text), `${code}: ${text}`).toEqual({ ok: true });
      }
    }
  });

  it('every narration template, for every order state with and without fills, both languages: passes, states distinct facts, each language in its script', () => {
    for (const state of ORDER_STATES) {
      for (const filled of [0, 4]) {
        const f: OrderFacts = {
          order_id: 'ord_1y000004dc',
          state,
          status: STATUS_OF[state],
          symbol: 'COMI',
          side: filled ? 'sell' : 'buy',
          type: 'limit',
          time_in_force: 'gtc',
          qty: 10,
          filled_qty: filled,
          avg_price_micros: filled ? 81_230_000 : null,
          reason_code: null,
          fills: filled ? 2 : 0,
          settlement_date: filled ? '2026-11-24' : null,
          at: '2026-11-22T08:05:00.000Z',
        };
        const sheet = factSheet(f);
        for (const t of [...TEMPLATES.cause, ...TEMPLATES.remedy]) {
          const slots = t.slots(f);
          expect(new Set(slots).size, `${state} ${t.id}`).toBe(slots.length);
          for (const s of slots) expect(Object.hasOwn(sheet, s)).toBe(true);
          const x = t.text(f);
          expect(checkOutput(x.en), `${state} ${t.id}: ${x.en}`).toEqual({ ok: true });
          expect(checkOutput(x.ar), `${state} ${t.id}: ${x.ar}`).toEqual({ ok: true });
          expect(x.en).not.toMatch(/[\u0600-\u06FF]/);
          expect(x.ar).toMatch(/[\u0621-\u064A]{3,}/);
        }
      }
    }
  });
});
