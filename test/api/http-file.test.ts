// docs/svc.http is usable as written: every request in it, with its variables filled in from a real
// sandbox's credentials, passes the route's shape checks (no VALIDATION_FAILED, MALFORMED_JSON or
// content-type refusal; ids that name nothing are 404, which is the integrator's to fill in). The
// signed requests go out signed, as `svc api` would send them. The stream of events is left out.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type As, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t?.close());

interface HttpRequest {
  title: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  file?: string;
}

/** The requests of a .http file: `### title`, comment lines, the request line, headers, a blank line, the body. */
function parseHttpFile(text: string, vars: Record<string, string>): HttpRequest[] {
  const declared: Record<string, string> = Object.fromEntries(
    [...text.matchAll(/^@(\w+) = (.*)$/gm)].map((m) => [m[1], m[2]]),
  );
  const all = { ...declared, ...vars };
  const fill = (s: string) => s.replace(/\{\{(\w+)\}\}/g, (_m, v: string) => all[v] ?? `{{${v}}}`);
  return text
    .split(/^### /m)
    .slice(1)
    .map((block) => {
      const [title, ...rest] = block.split('\n');
      const lines = rest.filter((l) => !l.startsWith('#'));
      const [method, url] = fill(lines[0]).split(' ');
      const headers: Record<string, string> = {};
      let i = 1;
      for (; i < lines.length && lines[i].trim() !== ''; i++) {
        const at = lines[i].indexOf(': ');
        headers[lines[i].slice(0, at).toLowerCase()] = fill(lines[i].slice(at + 2));
      }
      const body = lines.slice(i).join('\n').trim();
      return {
        title,
        method,
        url,
        headers,
        ...(body.startsWith('<') ? { file: body.slice(1).trim() } : body ? { body: fill(body) } : {}),
      };
    });
}

const SHAPE_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'UNSUPPORTED_CONTENT_TYPE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'IDEMPOTENCY_KEY_REQUIRED',
  'SIGNATURE_INVALID',
];

describe('docs/svc.http', () => {
  it('every request, its variables filled in, passes authentication and the shape checks of its route', async () => {
    const text = readFileSync(new URL('../../docs/svc.http', import.meta.url), 'utf8');
    const requests = parseHttpFile(text, { baseUrl: '' });
    expect(requests.length).toBeGreaterThan(60);
    const refused: string[] = [];
    for (const r of requests) {
      // a stream that stays open
      if (r.url.startsWith('/admin/sandbox/events')) continue;
      const as: As = r.headers['x-admin-key']
        ? r.headers['x-admin-key'].includes('SVC_SECURITY_KEY')
          ? 'security'
          : 'admin'
        : r.headers['x-console-key']
          ? 'dealer'
          : r.headers.authorization
            ? 'tenant'
            : 'none';
      const raw = r.file ? readFileSync(new URL(`../../docs/${r.file}`, import.meta.url)) : r.body;
      // the client fills in the credentials; the file's Idempotency-Key is kept; signed requests are signed for real
      const res = await t.req(r.method, r.url, {
        raw,
        contentType: r.headers['content-type'],
        as,
        idempotencyKey: r.headers['idempotency-key'],
      });
      const code = res.body?.error?.code as string | undefined;
      if (code && SHAPE_CODES.includes(code))
        refused.push(`${r.title}: ${res.status} ${code} ${res.body.error.message}`);
    }
    expect(refused).toEqual([]);
  });
});
