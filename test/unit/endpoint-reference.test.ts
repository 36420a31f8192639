// docs/endpoints.md and docs/svc.http are generated from the same route definitions as /openapi.json
// (scripts/endpoint-reference.ts); they must be the current rendering, and cover every operation.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authOf,
  openApiDocument,
  operations,
  renderEndpoints,
  renderHttp,
  type OpenApiDoc,
} from '../../scripts/endpoint-reference.js';

let doc: OpenApiDoc;
beforeAll(() => {
  doc = openApiDocument();
});

const read = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');

describe('the endpoint reference', () => {
  it('docs/endpoints.md is the current rendering of the OpenAPI document (run npm run docs after changing a route)', () => {
    expect(read('endpoints.md')).toBe(renderEndpoints(doc));
  });

  it('docs/svc.http is the current rendering of the OpenAPI document (run npm run docs after changing a route)', () => {
    expect(read('svc.http')).toBe(renderHttp(doc));
  });

  it('lists every operation with its auth mode, and every error code of every status', () => {
    const md = renderEndpoints(doc);
    const ops = operations(doc).flatMap((g) => g.ops);
    expect(ops.length).toBeGreaterThan(60);
    for (const o of ops) {
      expect(md).toContain(`| ${o.method} | [\`${o.path}\`]`);
      expect(md).toContain(`### \`${o.method} ${o.path}\``);
      for (const code of (o.op['x-error-codes'] as string[]) ?? []) expect(md).toContain(`\`${code}\``);
    }
    expect(authOf(doc.paths['/v1/orders'].post)).toBe('S');
    expect(authOf(doc.paths['/v1/kyc/applications'].post)).toBe('I');
    expect(authOf(doc.paths['/v1/clock'].get)).toBe('B');
    expect(authOf(doc.paths['/admin/sandbox/reset'].post)).toBe('admin: sandbox:control');
  });

  it('every link inside the page leads to one of its headings (the contents, the schema references)', () => {
    const md = renderEndpoints(doc);
    // GitHub's heading ids: lower case, punctuation other than - and _ dropped, spaces as -
    const slug = (h: string) =>
      h
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-');
    const ids = new Set([...md.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
    const links = [...md.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(100);
    for (const l of links) expect(ids.has(l), l).toBe(true);
  });

  it('the .http file has one request per operation; each signed one says how to sign it, and keyed ones carry an Idempotency-Key', () => {
    const http = renderHttp(doc);
    // the console's own calls need a browser's passkey session: the .http file leaves them out
    const ops = operations(doc)
      .filter((g) => g.tag !== 'console')
      .flatMap((g) => g.ops);
    expect(http.match(/^### /gm)).toHaveLength(ops.length);
    for (const o of ops) {
      const start = http.indexOf(`### ${o.method} ${o.path}:`);
      expect(start, `${o.method} ${o.path}`).toBeGreaterThanOrEqual(0);
      const block = http.slice(start, http.indexOf('\n### ', start + 4) >>> 0 || undefined);
      const auth = authOf(o.op);
      if (auth === 'S') expect(block).toContain(`svc api ${o.method} `);
      if (auth === 'I' || auth === 'S') expect(block).toMatch(/^Idempotency-Key: /m);
      if (auth.startsWith('admin')) expect(block).toMatch(/X-Admin-Key: \{\{(admin|security)Key\}\}/);
    }
    // every variable a request uses is declared at the top
    const declared = new Set([...http.matchAll(/^@(\w+) = /gm)].map((m) => m[1]));
    for (const m of http.matchAll(/\{\{(\w+)\}\}/g)) expect(declared.has(m[1]), m[1]).toBe(true);
  });
});
