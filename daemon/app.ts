// buildApp(deps) assembles the fastify app without listening: tests use inject(), main.ts listens.
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Deps } from './deps.js';
import { AppError, errorBody } from './http/errors.js';
import { ERROR_CODES } from './contract/errors.js';
import { createPipeline } from './http/pipeline.js';
import type { RouteDef } from './http/route.js';
import { buildOpenApi } from './http/openapi.js';
import { ROUTE_MODULES } from './routes.js';

const JSON_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
}

function mapFastifyError(err: { code?: string; statusCode?: number; message: string }): AppError {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('UNSUPPORTED_CONTENT_TYPE');
    case 'MALFORMED_JSON':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('MALFORMED_JSON');
  }
  if (err.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (err.statusCode === 415) return new AppError('UNSUPPORTED_CONTENT_TYPE', err.code === 'UNSUPPORTED_CHARSET' ? err.message : undefined);
  if (err.statusCode === 400) return new AppError('MALFORMED_JSON', err.message);
  return new AppError('INTERNAL');
}

export function buildApp(deps: Deps, opts: AppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: opts.logger ?? false,
    genReqId: () => deps.ids.requestId(),
    bodyLimit: JSON_BODY_LIMIT,
    // main.ts logs one line per request itself, without headers (keys never reach the log).
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
    // Requests the HTTP parser refuses never reach a route: answer them in the spec's error body too.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (err.code === 'ECONNRESET' || !socket.writable) return;
      const code = err.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST';
      const status = ERROR_CODES[code].status;
      const body = JSON.stringify(errorBody(code, ERROR_CODES[code].message, deps.ids.requestId()));
      socket.end(
        `HTTP/1.1 ${status} ${code === 'BAD_REQUEST' ? 'Bad Request' : 'Request Header Fields Too Large'}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    // Errors raised by the router before any route runs (a path that is not valid percent-encoding, a
    // path segment over 100 characters) get the spec's error body too, not fastify's own.
    frameworkErrors: (err, req, reply) => {
      const appErr = err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new AppError('VALIDATION_FAILED', err.code === 'FST_ERR_BAD_URL' ? 'path: not valid percent-encoding.' : 'path: a path segment is longer than 100 characters.')
        : new AppError('INTERNAL');
      (reply as unknown as FastifyReply).code(appErr.status).type('application/json; charset=utf-8').send(JSON.stringify(errorBody(appErr.code, appErr.message, String(req.id))));
    },
  });
  // A client that half-closes its side after sending (shutdown(SHUT_WR), `nc -N`, some proxies) still
  // gets its answer: Node's HTTP server otherwise aborts a request whose client ended before the
  // reply was written, and a write's reply waits for its batch's COMMIT.
  (app.server as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;

  // JSON keeps its raw text: signatures cover the exact bytes sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // JSON is UTF-8 (RFC 8259); a body declared in another charset is refused rather than misread
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return done(Object.assign(new Error(`Send JSON as UTF-8, not ${charset}.`), { code: 'UNSUPPORTED_CHARSET', statusCode: 415 }), undefined);
    }
    const text = body as string;
    req.rawBody = text;
    if (text.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('The request body is not valid JSON.'), { code: 'MALFORMED_JSON', statusCode: 400 }), undefined);
    }
  });
  // Everything else arrives as bytes; upload routes check magic bytes, JSON routes answer 415.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    req.rawBody = body as Buffer;
    done(null, body);
  });

  app.setErrorHandler((err, req, reply) => {
    const appErr = err instanceof AppError ? err : mapFastifyError(err as never);
    if (appErr.code === 'INTERNAL') deps.log.error({ err, reqId: req.id }, 'unhandled error');
    reply.code(appErr.status).type('application/json; charset=utf-8').send(JSON.stringify(errorBody(appErr.code, appErr.message, String(req.id))));
  });
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).type('application/json; charset=utf-8').send(JSON.stringify(errorBody('ROUTE_NOT_FOUND', `No route for ${req.method} ${req.url.split('?')[0]}.`, String(req.id))));
  });

  app.get('/healthz', async () => ({ status: 'ok', version: deps.version, sim_time: deps.nowIso() }));

  const routes: RouteDef[] = ROUTE_MODULES.flatMap((m) => m(deps));
  const handle = createPipeline(deps);
  for (const def of routes) {
    app.route({
      method: def.method,
      url: def.url,
      bodyLimit: def.rawBody?.maxBytes,
      handler: (req, reply) => handle(def, req, reply),
    });
  }
  // Built on first request: converting every schema costs tens of milliseconds of start-up otherwise.
  let openapi: string | undefined;
  app.get('/openapi.json', async (_req, reply) => reply.type('application/json; charset=utf-8').send((openapi ??= buildOpenApi(routes, deps.version))));
  return app;
}
