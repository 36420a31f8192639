// Serves the browser console (built by Vite into dist/console/, docs/console.md) at /console: files
// with their content types, hashed assets cached for good, and every other path under /console
// answered with index.html (the page routes itself). Nothing is fetched from elsewhere: the page's
// Content-Security-Policy allows only this origin.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from '../http/errors.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const CSP =
  "default-src 'self'; img-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; object-src 'none'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Where the built console is: next to the daemon's bundle (dist/daemon -> dist/console) or, from source, in dist/. */
export function findConsoleDir(): string | null {
  const candidates = [process.env.SVC_CONSOLE_DIR, '../console', '../../dist/console']
    .filter((c): c is string => typeof c === 'string' && c !== '')
    .map((c) => (c.startsWith('/') ? c : fileURLToPath(new URL(`${c}/`, import.meta.url))));
  return candidates.find((d) => existsSync(join(d, 'index.html'))) ?? null;
}

function sendFile(reply: FastifyReply, file: string, immutable: boolean): FastifyReply {
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  reply.header('x-content-type-options', 'nosniff');
  if (type.startsWith('text/html'))
    reply
      .header('content-security-policy', CSP)
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer');
  return reply.type(type).send(readFileSync(file));
}

/** The file a /console path names inside dir, or null (outside dir, or not a file). */
function fileFor(dir: string, rest: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest.split('?')[0]);
  } catch {
    return null;
  }
  const file = normalize(join(dir, decoded));
  if (!file.startsWith(dir.endsWith(sep) ? dir : dir + sep)) return null;
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

export function registerConsoleStatic(app: FastifyInstance, dir: string | null): void {
  const notBuilt = (reply: FastifyReply, id: string) =>
    reply
      .code(404)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(errorBody('NOT_FOUND', 'The console is not built: run npm run build.', id)));
  // /console itself is the page (a trailing slash is not a canonical path here: daemon/http/canonical-path.ts)
  app.get('/console', (req, reply) =>
    dir ? sendFile(reply, join(dir, 'index.html'), false) : notBuilt(reply, String(req.id)),
  );
  app.get('/console/*', (req, reply) => {
    if (!dir) return notBuilt(reply, String(req.id));
    const rest = (req.params as { '*': string })['*'];
    const file = rest === '' ? null : fileFor(dir, rest);
    if (file) return sendFile(reply, file, rest.startsWith('assets/'));
    // An asset that is not there is a 404; any other path is a page of the app.
    if (rest.startsWith('assets/') || extname(rest) !== '') {
      return reply
        .code(404)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(errorBody('NOT_FOUND', 'No such console file.', String(req.id))));
    }
    return sendFile(reply, join(dir, 'index.html'), false);
  });
}
