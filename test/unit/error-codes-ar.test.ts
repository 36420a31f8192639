// The Arabic text of the API error registry (daemon/assistant/error-codes-ar.ts): every code has its
// message, cause and remedy in Arabic, no entry names a code the registry lacks, and every text
// passes the assistant's firewall (the explainer refuses a whole answer whose text the firewall stops).
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../daemon/contract/errors.js';
import { ERROR_CODES_AR, errorCodeAr } from '../../daemon/assistant/error-codes-ar.js';
import { checkOutput } from '../../daemon/assistant/firewall.js';
import { renderExplained } from '../../daemon/assistant/render.js';
import { explainCode } from '../../daemon/assistant/grounding.js';

const ARABIC_WORD = /[\u0621-\u064A]{3,}/;
const ARABIC_INDIC_DIGIT = /[\u0660-\u0669\u06F0-\u06F9]/;

describe('the Arabic error registry', () => {
  it('has an entry for every code of ERROR_CODES and for no other code', () => {
    expect(Object.keys(ERROR_CODES_AR).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    expect(errorCodeAr('NOPE_NOT_A_CODE')).toBeNull();
  });

  it('writes message, cause and remedy of every code with Arabic words and Western digits', () => {
    for (const [code, t] of Object.entries(ERROR_CODES_AR)) {
      for (const text of [t.message, t.cause, t.remedy]) {
        expect(text, code).toMatch(ARABIC_WORD);
        expect(text, code).not.toMatch(ARABIC_INDIC_DIGIT);
      }
    }
  });

  it('keeps every number of the English entry in the Arabic entry (the same facts)', () => {
    const numbers = (s: string) => (s.match(/\d[\d,.]*\d|\d/g) ?? []).map((n) => n.replace(/[.,]$/, '')).sort();
    for (const [code, en] of Object.entries(ERROR_CODES)) {
      const ar = ERROR_CODES_AR[code as keyof typeof ERROR_CODES];
      expect(numbers(`${ar.message} ${ar.cause} ${ar.remedy}`), code).toEqual(
        numbers(`${en.message} ${en.cause} ${en.remedy}`),
      );
    }
  });

  it('passes the firewall, text by text', () => {
    for (const [code, t] of Object.entries(ERROR_CODES_AR)) {
      for (const text of [t.message, t.cause, t.remedy])
        expect(checkOutput(text), `${code}: ${text}`).toEqual({ ok: true });
    }
  });

  it('is the Arabic the explainer renders for a code that is not an order reject code', () => {
    for (const code of ['STEP_UP_REQUIRED', 'ACTION_ALREADY_DECIDED', 'REPORT_NOT_READY'] as const) {
      const t = renderExplained(explainCode(code)!);
      expect(t.cause.ar).toBe(ERROR_CODES_AR[code].cause);
      expect(t.remedy.ar).toBe(ERROR_CODES_AR[code].remedy);
      expect(t.cause.en).toBe(ERROR_CODES[code].cause);
    }
  });
});
