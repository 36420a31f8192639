// The answer checker (docs/api.md, "The contract is checked"): with the app option `checkAnswers` (the test
// suite turns it on; a daemon gets it from SVC_CHECK_ANSWERS=1, which only the tests set), every JSON answer
// is parsed, as it leaves, with its route's response schema (2xx) or the error body's schema (4xx, 5xx). An
// answer that does not parse, or carries a field its schema does not declare, is withheld: the request is
// answered 500 ANSWER_OFF_CONTRACT naming the route, the method, the path and the differences, and the
// mismatch is counted. Streams and byte replies (by media type) are not JSON and are skipped.
// The tally (answers checked, mismatches and the first few of them) is written after every answer to a
// file of its own in `countDir` when one is given, so a test run can add up every daemon's, a killed one's
// included (test/helpers/global-setup.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ErrorBodySchema } from '../contract/schemas/error.js';
import { errorBody } from './errors.js';

export interface AnswerCheckOptions {
  /** A directory to write this app's tally to (one file per app, rewritten after each answer). */
  countDir?: string;
}

export interface AnswerTally {
  checked: number;
  mismatches: number;
  /** The first mismatches' messages. */
  examples: string[];
}

const MAX_EXAMPLES = 20;
const MAX_ISSUES = 5;
let appsInProcess = 0;

/** `route: METHOD /url` -> its success schema. */
export type AnswerSchemas = ReadonlyMap<string, z.ZodType>;

/** Paths of the answer's object keys that the parsed value lost: fields the schema does not declare. */
function undeclared(sent: unknown, parsed: unknown, path: string[] = [], out: string[] = []): string[] {
  if (out.length >= MAX_ISSUES || sent === null || typeof sent !== 'object') return out;
  if (parsed === null || typeof parsed !== 'object') return out;
  for (const [key, value] of Object.entries(sent)) {
    if (!Object.hasOwn(parsed, key)) out.push(`${[...path, key].join('.')}: not declared in the schema`);
    else undeclared(value, (parsed as Record<string, unknown>)[key], [...path, key], out);
  }
  return out;
}

/** What is wrong with an answer, in words; empty when it holds to its schema. */
export function answerProblems(schema: z.ZodType, answer: unknown): string[] {
  const r = schema.safeParse(answer);
  if (!r.success) {
    return r.error.issues
      .slice(0, MAX_ISSUES)
      .map((i) => `${i.path.length ? i.path.join('.') : '(body)'}: ${i.message}`);
  }
  return undeclared(answer, r.data);
}

function isJsonAnswer(reply: FastifyReply, payload: unknown): payload is string {
  const type = String(reply.getHeader('content-type') ?? '');
  return typeof payload === 'string' && /^application\/json\b/.test(type) && payload.length > 0;
}

function routeOf(req: FastifyRequest): string | null {
  const url = req.routeOptions?.url;
  if (url === undefined) return null;
  return `${req.method === 'HEAD' ? 'GET' : req.method} ${url}`;
}

/** The schema an answer of this status on this route must parse with; null: none is declared. */
function schemaFor(schemas: AnswerSchemas, route: string | null, status: number): z.ZodType | null {
  if (status >= 400) return ErrorBodySchema;
  return route === null ? null : (schemas.get(route) ?? null);
}

function problemsOf(schemas: AnswerSchemas, route: string | null, status: number, payload: string): string[] {
  const schema = schemaFor(schemas, route, status);
  if (!schema) return [`a ${status} JSON answer, and the route declares no response schema`];
  let answer: unknown;
  try {
    answer = JSON.parse(payload);
  } catch {
    return ['the answer is not JSON'];
  }
  return answerProblems(schema, answer);
}

/** Adds the checker to an app (before its routes); returns the live tally. */
export function addAnswerChecker(
  app: FastifyInstance,
  schemas: AnswerSchemas,
  opts: AnswerCheckOptions = {},
): AnswerTally {
  const tally: AnswerTally = { checked: 0, mismatches: 0, examples: [] };
  const file = opts.countDir ? join(opts.countDir, `${process.pid}-${++appsInProcess}.json`) : null;
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!isJsonAnswer(reply, payload)) return done(null, payload);
    const route = routeOf(req);
    const problems = problemsOf(schemas, route, reply.statusCode, payload);
    tally.checked++;
    if (problems.length === 0) {
      if (file) writeFileSync(file, JSON.stringify(tally));
      return done(null, payload);
    }
    const message =
      `${req.method} ${req.url.split('?')[0]} (route ${route ?? 'none'}) answered ${reply.statusCode} ` +
      `off its schema: ${problems.join('; ')}`;
    tally.mismatches++;
    if (tally.examples.length < MAX_EXAMPLES) tally.examples.push(message);
    if (file) writeFileSync(file, JSON.stringify(tally));
    reply.code(500);
    done(null, JSON.stringify(errorBody('ANSWER_OFF_CONTRACT', message, String(req.id))));
  });
  return tally;
}
