// Every error code a route really answers is one /openapi.json lists for it. The suite's fuzzer
// (test/helpers/fuzz.ts) drives every operation with valid and malformed requests; each code it meets
// must be among the operation's documented codes (test/api/openapi.test.ts checks each is under the
// status the registry gives it), or be a transport refusal that comes before any route is chosen
// (the document's `default` response).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFuzzWorld, fuzzSeed, runFuzz, type FuzzWorld } from '../helpers/fuzz-world.js';
import { loadOpenApi } from '../helpers/fuzz.js';

const TRANSPORT = new Set(['ROUTE_NOT_FOUND', 'METHOD_NOT_ALLOWED', 'BAD_REQUEST', 'HEADERS_TOO_LARGE']);
const REQUESTS = Number(process.env.SVC_DOCUMENTED_ERRORS_REQUESTS ?? 3000);
/** A fixed seed, so a failure here is a failure every time (SVC_FUZZ_SEED explores others). */
const SEED = process.env.SVC_FUZZ_SEED ? fuzzSeed() : 20261123;

let world: FuzzWorld;
beforeAll(async () => {
  world = await buildFuzzWorld();
});
afterAll(() => world?.t.close());

describe('the codes routes answer are the codes /openapi.json documents', () => {
  it(`${REQUESTS} fuzzed requests: every error code answered is listed on its operation`, async () => {
    const doc = await loadOpenApi(world.t);
    const stats = await runFuzz(world, REQUESTS, SEED);
    const undocumented: string[] = [];
    for (const [key, answers] of Object.entries(stats.byOp)) {
      const [method, path] = key.split(' ');
      // The fuzzer also appends segments to a path ('/x', '/..'), which can reach a route further down
      // or up the same path: their codes count too.
      const reachable = Object.keys(doc.paths).filter(
        (p) => p === path || p.startsWith(`${path}/`) || path.startsWith(`${p}/`),
      );
      const listed = new Set<string>(
        reachable.flatMap((p) => doc.paths[p][method.toLowerCase()]?.['x-error-codes'] ?? []),
      );
      for (const code of Object.keys(answers).filter((k) => !/^\d+$/.test(k))) {
        if (!listed.has(code) && !TRANSPORT.has(code)) undocumented.push(`${key}: ${code}`);
      }
    }
    expect(undocumented.sort()).toEqual([]);
  }, 300_000);
});
