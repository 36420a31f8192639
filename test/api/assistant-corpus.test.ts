// The adversarial corpus's requests (test/assistant-corpus/corpus.json) through the real routes, in
// both languages: each gets its expected outcome, a neutral message when it is not answered, and
// never a 5xx.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';

interface Entry {
  kind: 'output' | 'request';
  lang: 'en' | 'ar';
  category: string;
  text: string;
  expect: string;
}
const requests = (
  JSON.parse(readFileSync(new URL('../assistant-corpus/corpus.json', import.meta.url), 'utf8')) as { entries: Entry[] }
).entries.filter((e) => e.kind === 'request');

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ ai: 'registry' });
});
afterAll(() => t.close());

describe('every corpus request through GET /v1/ai/glossary?term= and /v1/ai/glossary/{term}', () => {
  it.each(requests.map((e) => [e.lang, e.category, e.text, e.expect] as const))(
    '%s %s: %s -> %s',
    async (lang, _c, text, expected) => {
      const headers = { 'accept-language': lang };
      const viaQuery = await t.req('GET', `/v1/ai/glossary?term=${encodeURIComponent(text)}`, { headers });
      expect(viaQuery.status).toBe(200);
      expect(viaQuery.body).toMatchObject({ outcome: expected, language: lang });
      if (expected !== 'answered') expect(viaQuery.body.message.length).toBeGreaterThan(0);
      if (text === '') return;
      const viaPath = await t.req('GET', `/v1/ai/glossary/${encodeURIComponent(text)}`, { headers });
      expect(viaPath.status).toBe(200);
      expect(viaPath.body).toEqual(viaQuery.body);
      const viaError = await t.req('GET', `/v1/ai/dev/explain-error?code=${encodeURIComponent(text)}`, { headers });
      expect(viaError.status).toBe(200);
      expect(viaError.body.outcome).toBe(expected === 'answered' ? 'abstained' : expected);
    },
  );
});
