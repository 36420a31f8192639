// The answer checker (docs/api.md, "The contract is checked"): with the app option `checkAnswers` (the test
// suite turns it on; a daemon gets it from SVC_CHECK_ANSWERS=1, which only the tests set), every JSON answer
// is parsed, as it leaves, with its route's response schema (2xx) or the error body's schema (4xx, 5xx). An
// answer that does not parse, or carries a field its schema does not declare, is withheld: the request is
// answered 500 ANSWER_OFF_CONTRACT naming the route, the method, the path and the differences, and the
// mismatch is counted. Streams and byte replies (by media type) are not JSON and are skipped.
// The tally (answers checked, mismatches and the first few of them) is written after every answer to a
// file of its own in `countDir` when one is given, so a test run can add up every daemon's, a killed one's
// included (test/helpers/global-setup.ts). The file is opened once and each tally written over the last
// one in place: a new file per answer (open, truncate, write, close) cost 0.15 ms on a quiet machine and
// over 1 ms on a busy disk, more than many answers take, where writing in place costs a few microseconds.
import { closeSync, openSync, writeSync } from 'node:fs';
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

/**
 * Writes each tally over the last at the start of one file, opened at the first write. A tally's JSON never
 * gets shorter (its counts only grow, its examples are only added to), so nothing of an older one is left
 * after it; a shorter text would be padded with spaces, which JSON.parse reads past.
 */
function tallyWriter(file: string): { write(tally: AnswerTally): void; close(): void } {
  let fd: number | null = null;
  let written = 0;
  return {
    write(tally) {
      const text = JSON.stringify(tally).padEnd(written);
      fd ??= openSync(file, 'w', 0o600);
      writeSync(fd, text, 0);
      written = text.length;
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}

/** Adds the checker to an app (before its routes); returns the live tally. */
export function addAnswerChecker(
  app: FastifyInstance,
  schemas: AnswerSchemas,
  opts: AnswerCheckOptions = {},
): AnswerTally {
  const tally: AnswerTally = { checked: 0, mismatches: 0, examples: [] };
  const file = opts.countDir ? tallyWriter(join(opts.countDir, `${process.pid}-${++appsInProcess}.json`)) : null;
  if (file)
    app.addHook('onClose', (_app, done) => {
      file.close();
      done();
    });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!isJsonAnswer(reply, payload)) return done(null, payload);
    const route = routeOf(req);
    const problems = problemsOf(schemas, route, reply.statusCode, payload);
    tally.checked++;
    if (problems.length === 0) {
      file?.write(tally);
      return done(null, payload);
    }
    const message =
      `${req.method} ${req.url.split('?')[0]} (route ${route ?? 'none'}) answered ${reply.statusCode} ` +
      `off its schema: ${problems.join('; ')}`;
    tally.mismatches++;
    if (tally.examples.length < MAX_EXAMPLES) tally.examples.push(message);
    file?.write(tally);
    reply.code(500);
    done(null, JSON.stringify(errorBody('ANSWER_OFF_CONTRACT', message, String(req.id))));
  });
  return tally;
}
