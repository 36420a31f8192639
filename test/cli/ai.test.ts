// svc ai explain|glossary|disclosure|error against a real daemon through the real bin/svc, in English
// and Arabic, with --json; the assistant's remedy under an order rejection; --ai in sandbox start and
// reset. Exit codes: 0 answered, 1 anything else the assistant says (refused, abstained, not_found, 501),
// 2 a usage error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardViaCli, runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { GLOSSARY } from '../../daemon/assistant/glossary.js';
import { DISCLOSURES } from '../../daemon/contract/disclosures.js';
import { NEUTRAL } from '../../daemon/assistant/render.js';
import { rejectCodes } from '../../daemon/trading/reject-codes.js';
import { REJECT_CODES_AR } from '../../daemon/assistant/reject-codes-ar.js';

let sbx: CliSandbox;
let inv: string;
const ARABIC = /[\u0600-\u06FF]/;
const flat = (s: string) => s.replace(/\s+/g, ' ');

beforeAll(async () => {
  // provider none (the default); a running clock, so --wait follows an order to the desk's rejection
  sbx = await startSandbox(['--clock', 'running']);
  inv = await onboardViaCli(sbx, { fullName: 'Mona Adel', suitability: true, depositEgp: '50000' });
});
afterAll(async () => sbx?.stop());

describe('svc ai glossary, disclosure and error (no model needed: they answer with provider none)', () => {
  it('glossary lists every term; one term prints its article in English, and in Arabic with --lang ar', async () => {
    const list = await sbx.svc(['ai', 'glossary']);
    expect(list.code, list.stderr).toBe(0);
    for (const e of GLOSSARY) expect(list.stdout).toContain(e.slug);
    const t2 = GLOSSARY.find((e) => e.slug === 't-plus-2')!;
    const en = await sbx.svc(['ai', 'glossary', 't-plus-2']);
    expect(en.code).toBe(0);
    expect(en.stdout).toContain(t2.title.en);
    expect(flat(en.stdout)).toContain(flat(t2.body.en));
    const ar = await sbx.svc(['ai', 'glossary', 't-plus-2', '--lang', 'ar']);
    expect(ar.stdout).toContain(t2.title.ar);
    expect(flat(ar.stdout)).toContain(flat(t2.body.ar));
    const json = await sbx.svc(['ai', 'glossary', 't-plus-2', '--lang', 'ar', '--json']);
    expect(json.json).toMatchObject({
      outcome: 'answered',
      language: 'ar',
      article: { slug: 't-plus-2', title: t2.title.ar, title_en: t2.title.en },
    });
  });

  it('an unknown term prints the neutral abstention and exits 1; an advice-seeking one the referral to the broker', async () => {
    const unknown = await sbx.svc(['ai', 'glossary', 'not-a-term']);
    expect(unknown.code).toBe(1);
    expect(flat(unknown.stdout)).toContain(NEUTRAL.abstainedTerm.en);
    const advice = await sbx.svc(['ai', 'glossary', 'which stock should I buy', '--lang', 'ar', '--json']);
    expect(advice.code).toBe(1);
    expect(advice.json).toMatchObject({ outcome: 'refused', language: 'ar', message: NEUTRAL.refused.ar });
  });

  it('disclosure prints ai_interaction and investment_risk in the requested language', async () => {
    const en = await sbx.svc(['ai', 'disclosure']);
    expect(en.code).toBe(0);
    expect(flat(en.stdout)).toContain(flat(DISCLOSURES.ai_interaction.en));
    expect(flat(en.stdout)).toContain(flat(DISCLOSURES.investment_risk.en));
    const ar = await sbx.svc(['ai', 'disclosure', '--lang', 'ar']);
    expect(flat(ar.stdout)).toContain(flat(DISCLOSURES.investment_risk.ar));
  });

  it('error CODE prints the code, its HTTP status, cause and remedy; Arabic with --lang ar; an unknown code exits 1', async () => {
    const entry = rejectCodes().find((c) => c.code === 'TICK_VIOLATION')!;
    const en = await sbx.svc(['ai', 'error', 'TICK_VIOLATION']);
    expect(en.code).toBe(0);
    expect(en.stdout).toMatch(/^TICK_VIOLATION \(HTTP 422\)/);
    expect(flat(en.stdout)).toContain(flat(entry.cause));
    const ar = await sbx.svc(['ai', 'error', 'TICK_VIOLATION', '--lang', 'ar', '--json']);
    expect(ar.json).toMatchObject({
      outcome: 'answered',
      language: 'ar',
      code: 'TICK_VIOLATION',
      cause_en: entry.cause,
    });
    expect(ar.json.cause).toMatch(ARABIC);
    const unknown = await sbx.svc(['ai', 'error', 'NOPE_NOT_A_CODE']);
    expect(unknown.code).toBe(1);
    expect(flat(unknown.stdout)).toContain(NEUTRAL.abstainedCode.en);
  });

  it('--lang other than ar or en is a usage error (exit 2)', async () => {
    expect((await sbx.svc(['ai', 'disclosure', '--lang', 'fr'])).code).toBe(2);
  });
});

describe('orders: the explainer, and its remedy under a rejection', () => {
  it('a refused order request: the hint gives the remedy in svc terms, and no English assistant line repeats it (no HTTP route either)', async () => {
    const res = await sbx.svc(['order', 'buy', 'COMI', '10', '--limit', '50.005', '--investor', inv]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('TICK_VIOLATION');
    expect(res.stderr).toContain('hint:');
    expect(res.stderr).not.toContain('assistant:');
    const json = await sbx.svc(['order', 'buy', 'COMI', '10', '--limit', '50.005', '--investor', inv, '--json']);
    expect(json.stderr).not.toContain('assistant:');
  });

  it("svc order buy|sell --lang ar prints the assistant's remedy under a refusal in Arabic; another language is a usage error", async () => {
    const res = await sbx.svc(['order', 'sell', 'COMI', '10', '--limit', '50.005', '--investor', inv, '--lang', 'ar']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('TICK_VIOLATION');
    expect(flat(res.stderr)).toContain(`assistant: ${REJECT_CODES_AR.TICK_VIOLATION.remedy}`);
    expect(res.stderr).not.toContain(`assistant: ${rejectCodes().find((c) => c.code === 'TICK_VIOLATION')!.remedy}`);
    const bad = await sbx.svc(['order', 'buy', 'COMI', '10', '--limit', '50.005', '--investor', inv, '--lang', 'fr']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--lang');
  });

  it('an order the desk rejects while --wait follows it: the remedy under the rejection; svc ai explain gives cause and remedy in both languages', async () => {
    expect((await sbx.svc(['api', 'POST', '/admin/sandbox/auto-fill', '-d', '{"enabled":false}'])).code).toBe(0);
    const buying = sbx.svc(['order', 'buy', 'COMI', '5', '--investor', inv, '--wait', '--timeout', '60']);
    let id: string | undefined;
    for (let i = 0; i < 60 && !id; i++) {
      const queue = await sbx.svc(['order', 'list', '--investor', inv, '--status', 'open', '--json']);
      id = queue.json?.orders?.find((o: { status: string }) => o.status === 'pending_new')?.order_id;
      if (!id) await new Promise((r) => setTimeout(r, 300));
    }
    expect(id).toBeDefined();
    const notYet = await sbx.svc(['ai', 'explain', id!]);
    expect(notYet.code).toBe(1);
    expect(notYet.stderr).toContain('NOT_AVAILABLE');
    expect(notYet.stderr).toContain('sandbox start --ai registry');
    expect(flat(notYet.stderr)).toContain(
      'Only narrating an order that was not rejected needs a provider; with --ai none everything else answers',
    );
    expect((await sbx.svc(['desk', 'reject', id!, '--reason', 'DEALER_REJECTED'])).code).toBe(0);
    const bought = await buying;
    expect(bought.code).toBe(1);
    const entry = rejectCodes().find((c) => c.code === 'DEALER_REJECTED')!;
    expect(bought.stdout).toContain('rejected (DEALER_REJECTED)');
    expect(flat(bought.stdout)).toContain(`assistant: ${entry.remedy}`);

    const en = await sbx.svc(['ai', 'explain', id!]);
    expect(en.code, en.stderr).toBe(0);
    expect(en.stdout).toContain(`${id}  COMI  rejected (DEALER_REJECTED)`);
    expect(flat(en.stdout)).toContain(flat(entry.cause));
    const ar = await sbx.svc(['ai', 'explain', id!, '--lang', 'ar', '--json']);
    expect(ar.json).toMatchObject({
      outcome: 'answered',
      language: 'ar',
      reason_code: 'DEALER_REJECTED',
      remedy_en: entry.remedy,
    });
    expect(ar.json.remedy).toMatch(ARABIC);
    expect((await sbx.svc(['api', 'POST', '/admin/sandbox/auto-fill', '-d', '{"enabled":true}'])).code).toBe(0);
  });

  it('an unknown order id: the not-found answer, exit 1', async () => {
    const res = await sbx.svc(['ai', 'explain', 'ord_zzzzzzzzzz']);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(NEUTRAL.notFound.en);
  });
});

describe('--ai in sandbox start and reset', () => {
  it.each([['bogus'], ['openai:ftp://127.0.0.1/v1'], ['openai:not-a-url']])(
    'sandbox start --ai %s is a usage error (exit 2), nothing started',
    async (ai) => {
      const res = await runSvc(['sandbox', 'start', '--port', '0', '--ai', ai], { home: `${sbx.home}-never` });
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('none, registry or openai:<base_url>');
    },
  );

  it('sandbox reset --ai registry: the state says so and orders are narrated; a bad value is a usage error', async () => {
    expect((await sbx.svc(['sandbox', 'reset', '--ai', 'gpt'])).code).toBe(2);
    const reset = await sbx.svc(['sandbox', 'reset', '--ai', 'registry']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('assistant registry');
    expect((await sbx.svc(['api', 'GET', '/admin/sandbox/state'])).json.ai).toBe('registry');
    const investor = await onboardViaCli(sbx, { fullName: 'Karim Nabil', suitability: true, depositEgp: '50000' });
    const placed = await sbx.svc(['order', 'buy', 'COMI', '3', '--investor', investor, '--json']);
    const res = await sbx.svc(['ai', 'explain', placed.json.order_id, '--lang', 'ar']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(placed.json.order_id);
    expect(res.stdout).toMatch(ARABIC);
  });
});
