// The answer checker (daemon/http/answer-check.ts): every JSON answer of an app or daemon under test is
// parsed with its route's schema, and one that does not hold to it fails the request that caused it.
// The wrong replies are planted in the data a view reads (the catalog an instrument row is made from), in
// apps whose tally stays out of the suite's sum ('planted'), which counts only real answers.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { z } from 'zod';
import { addAnswerChecker, type AnswerTally } from '../../daemon/http/answer-check.js';
import type { Instrument } from '../../daemon/market/catalog.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { startSandbox } from '../helpers/cli.js';

let t: TestApp;
let abuk: Instrument;
let saved: Instrument;

beforeAll(async () => {
  t = await makeApp({ checkAnswers: 'planted' });
  abuk = t.deps.market.catalog.get('ABUK')!;
  saved = structuredClone(abuk);
});
afterEach(() => Object.assign(abuk, structuredClone(saved)));
afterAll(() => t.close());

describe('an answer off its schema fails the request loudly', () => {
  it('a money field that is not an integer answers 500 ANSWER_OFF_CONTRACT naming route, method, path and field', async () => {
    abuk.fundamentals!.market_cap_micros = 75_712_500_000.5;
    const res = await t.req('GET', '/v1/instruments/ABUK');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('ANSWER_OFF_CONTRACT');
    expect(res.body.request_id).toMatch(/^req_/);
    const message: string = res.body.error.message;
    expect(message).toContain('GET /v1/instruments/ABUK (route GET /v1/instruments/:symbol) answered 200');
    expect(message).toContain('fundamentals.market_cap_micros: expected an integer');
  });

  it('a field the schema does not declare is a mismatch too', async () => {
    Object.assign(abuk.fundamentals!, { internal_note: 'not for clients' });
    const res = await t.req('GET', '/v1/instruments/ABUK');
    expect(res.status).toBe(500);
    expect(res.body.error.message).toContain('fundamentals.internal_note: not declared in the schema');
  });

  it('a date-time where the schema says date (and the reverse) is a mismatch', async () => {
    const bond = t.deps.market.catalog.bonds[0];
    const before = bond.first_coupon_date;
    bond.first_coupon_date = '2027-01-15T00:00:00+02:00';
    try {
      const res = await t.req('GET', '/v1/bonds');
      expect(res.status).toBe(500);
      expect(res.body.error.message).toMatch(/bonds\.\d+\.first_coupon_date: expected YYYY-MM-DD/);
    } finally {
      bond.first_coupon_date = before;
    }
  });

  it('every mismatch is counted, and the answers that hold are counted as checked', async () => {
    const fresh = await makeApp({ checkAnswers: 'planted' });
    try {
      expect((await fresh.req('GET', '/healthz', { as: 'none' })).status).toBe(200);
      abuk.fundamentals!.market_cap_micros = 1.5;
      expect((await fresh.req('GET', '/v1/instruments/ABUK')).status).toBe(500);
      expect(fresh.answers()).toMatchObject({ checked: 2, mismatches: 1 });
      expect(fresh.answers()!.examples[0]).toContain('GET /v1/instruments/ABUK');
    } finally {
      await fresh.close();
    }
  });

  it('without the option the same wrong answer goes out as it is (the checker is what refuses it)', async () => {
    const unchecked = await makeApp({ checkAnswers: false });
    try {
      abuk.fundamentals!.market_cap_micros = 1.5;
      const res = await unchecked.req('GET', '/v1/instruments/ABUK');
      expect(res.status).toBe(200);
      expect(res.body.fundamentals.market_cap_micros).toBe(1.5);
      expect(unchecked.answers()).toBeNull();
    } finally {
      await unchecked.close();
    }
  });
});

describe('answers that hold to their schemas pass', () => {
  it('the instruments answer with market cap and net income above 2^53 as exact integers', async () => {
    const res = await t.req('GET', '/v1/instruments/ABUK');
    expect(res.status).toBe(200);
    // the raw JSON carries the fixture's digits exactly: no exponent, no rounding
    expect(res.text).toContain('"market_cap_micros":75712500000000000');
    expect(BigInt(/"market_cap_micros":(\d+)/.exec(res.text)![1])).toBe(75_712_500_000_000_000n);
  });

  it('errors, 404s and the console calls are checked against the error schema', async () => {
    expect((await t.req('GET', '/v1/nothing-here')).body.error.code).toBe('ROUTE_NOT_FOUND');
    expect((await t.req('GET', '/console/api/me', { as: 'none' })).body.error.code).toBe('UNAUTHENTICATED');
    expect((await t.req('GET', '/v1/instruments/NOPE')).status).toBe(404);
  });
});

describe('the tally file', () => {
  it('holds the tally after every answer, mismatches and their messages included, and only that', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-answer-tally-'));
    const app = Fastify();
    let value: unknown = 1;
    addAnswerChecker(app, new Map([['GET /n', z.object({ n: z.number().int() })]]), { countDir: dir });
    app.get('/n', async (_req, reply) => reply.type('application/json').send(JSON.stringify({ n: value })));
    const onDisk = (): AnswerTally => JSON.parse(readFileSync(join(dir, readdirSync(dir)[0]), 'utf8'));
    try {
      const seen: unknown[] = [];
      for (const v of [1, 2.5, 3, 4.5, 5, 6, 7, 8, 9, 10, 11]) {
        value = v;
        await app.inject({ method: 'GET', url: '/n' });
        seen.push(onDisk());
      }
      expect(seen.map((x) => [(x as AnswerTally).checked, (x as AnswerTally).mismatches])).toEqual([
        [1, 0],
        [2, 1],
        [3, 1],
        [4, 2],
        ...[5, 6, 7, 8, 9, 10, 11].map((n) => [n, 2]),
      ]);
      expect(onDisk().examples).toHaveLength(2);
      expect(onDisk().examples[1]).toContain('GET /n (route GET /n) answered 200 off its schema');
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a daemon started by svc checks its answers', () => {
  it('SVC_CHECK_ANSWERS=1 reaches the daemon svc starts, which writes its tally where SVC_ANSWER_CHECK_DIR says', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-answer-tally-'));
    const prior = { check: process.env.SVC_CHECK_ANSWERS, dir: process.env.SVC_ANSWER_CHECK_DIR };
    process.env.SVC_CHECK_ANSWERS = '1';
    process.env.SVC_ANSWER_CHECK_DIR = dir;
    const sb = await startSandbox();
    try {
      expect((await sb.svc(['market', 'quotes', '--json'])).code).toBe(0);
      const files = readdirSync(dir);
      expect(files.length).toBe(1);
      const tally = JSON.parse(readFileSync(join(dir, files[0]), 'utf8')) as AnswerTally;
      expect(tally.checked).toBeGreaterThan(0);
      expect(tally.mismatches).toBe(0);
    } finally {
      await sb.stop();
      process.env.SVC_CHECK_ANSWERS = prior.check;
      process.env.SVC_ANSWER_CHECK_DIR = prior.dir;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
