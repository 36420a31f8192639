// The library is typed from the contract and covers it: client/src/generated/api.ts is what
// openapi-typescript generates from today's /openapi.json (SVC_UPDATE_CONTRACT=1 rewrites it;
// test/contract/generated-types.ts), and every tenant route (/v1) of the document has exactly one
// resource method, with its body or query where the method takes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_ROUTES } from '../../client/src/index.js';
import { committedTypesAre, generateTypes, STALE } from '../contract/generated-types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

interface Operation {
  requestBody?: unknown;
  parameters?: Array<{ in: string; name: string }>;
}

let t: TestApp;
let doc: { paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  t = await makeApp();
  doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/openapi.json' })).body);
});
afterAll(async () => t.close());

/** `verb path shape` of each /v1 operation: b a body, q a query, - neither. */
function documentedRoutes(): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const [verb, op] of Object.entries(item)) {
      const shape = op.requestBody ? 'b' : (op.parameters ?? []).some((p) => p.in === 'query') ? 'q' : '-';
      out.push(`${verb} ${path} ${shape}`);
    }
  }
  return out.sort();
}

describe('the client library against the contract', () => {
  it('its generated types are what /openapi.json generates today (comments aside)', async () => {
    expect(committedTypesAre(await generateTypes(doc)), STALE).toBe(true);
  });

  it('every /v1 route of /openapi.json has exactly one resource method, taking its body or query', () => {
    const methods = Object.entries(TENANT_ROUTES).flatMap(([resource, entries]) =>
      Object.entries(entries).map(([name, [verb, path, shape]]) => ({
        name: `${resource}.${name}`,
        route: `${verb} ${path} ${shape}`,
      })),
    );
    const documented = documentedRoutes();
    expect(documented.length).toBeGreaterThan(40);
    expect(methods.map((m) => m.route).sort()).toEqual(documented);
  });
});
