// The fastify instance every route is mounted on, without routes: content parsing (JSON keeps its raw
// text, since signatures cover the exact bytes; everything else arrives as bytes) and the spec's error
// body for everything refused before a route runs (the HTTP parser, the router, the body parsers) or
// thrown out of one (500 INTERNAL).
import type { Socket } from 'node:net';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { ERROR_CODES } from '../contract/errors.js';
import type { IdGen } from '../sim/ids.js';
import { AppError, errorBody } from './errors.js';
import { nonCanonical } from './canonical-path.js';
import { notePayload } from './inspect.js';
import { lazyChildLogger } from './lazy-logger.js';

const JSON_BODY_LIMIT = 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';

export interface ServerDeps {
  ids: Pick<IdGen, 'requestId'>;
  /** Read when an error happens (the daemon sets its logger once the app exists). */
  log: { error(obj: unknown, msg?: string): void };
}

export interface ServerOptions {
  logger?: FastifyServerOptions['logger'];
  /** The HTTP server to answer on, made before the app (daemon/process/request-gate.ts); else fastify makes one. */
  serverFactory?: FastifyServerOptions['serverFactory'];
}

function mapFastifyError(err: { code?: string; statusCode?: number; message: string }): AppError {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('UNSUPPORTED_CONTENT_TYPE');
    case 'MALFORMED_JSON':
      return new AppError('MALFORMED_JSON', err.message);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('MALFORMED_JSON');
  }
  if (err.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (err.statusCode === 415)
    return new AppError('UNSUPPORTED_CONTENT_TYPE', err.code === 'UNSUPPORTED_CHARSET' ? err.message : undefined);
  if (err.statusCode === 400) return new AppError('MALFORMED_JSON', err.message);
  return new AppError('INTERNAL');
}

/** An error answer; the payload is noted for the request inspector (http/inspect.ts). */
function sendError(reply: FastifyReply, err: AppError, requestId: string): void {
  const payload = JSON.stringify(errorBody(err.code, err.message, requestId));
  notePayload(reply.request, payload);
  reply.code(err.status).type(JSON_TYPE).send(payload);
}

/** Requests the HTTP parser refuses never reach a route: answer them in the spec's error body too. */
function answerClientError(deps: ServerDeps, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) return;
  const code = err.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST';
  const status = ERROR_CODES[code].status;
  const body = JSON.stringify(errorBody(code, ERROR_CODES[code].message, deps.ids.requestId()));
  socket.end(
    `HTTP/1.1 ${status} ${code === 'BAD_REQUEST' ? 'Bad Request' : 'Request Header Fields Too Large'}\r\n` +
      `Content-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Errors raised by the router before any route runs (a path that is not valid percent-encoding, a
 * path segment over 100 characters) get the spec's error body too, not fastify's own.
 */
function answerFrameworkError(err: { code?: string }, req: FastifyRequest, reply: FastifyReply): void {
  const appErr =
    err.code === 'FST_ERR_BAD_URL' || err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError(
          'VALIDATION_FAILED',
          err.code === 'FST_ERR_BAD_URL'
            ? 'path: not valid percent-encoding.'
            : 'path: a path segment is longer than 100 characters.',
        )
      : new AppError('INTERNAL');
  sendError(reply, appErr, String(req.id));
}

/** Strict UTF-8: a byte sequence that is not UTF-8 is refused, never replaced; a BOM is kept (and is not JSON). */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const malformed = (message: string) => Object.assign(new Error(message), { code: 'MALFORMED_JSON', statusCode: 400 });

/** An upload route judges its body by its bytes' signature, whatever the Content-Type says. */
function isUploadRoute(req: FastifyRequest): boolean {
  return (req.routeOptions.config as { rawBody?: boolean } | undefined)?.rawBody === true;
}

/** JSON is parsed from its bytes; its text is kept, and is those bytes exactly (strict UTF-8). */
function parseJson(req: FastifyRequest, bytes: Buffer, done: (err: Error | null, body?: unknown) => void): void {
  if (isUploadRoute(req)) {
    req.rawBody = bytes;
    return done(null, bytes);
  }
  // JSON is UTF-8 (RFC 8259); a body declared in another charset is refused rather than misread
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return done(
      Object.assign(new Error(`Send JSON as UTF-8, not ${charset}.`), { code: 'UNSUPPORTED_CHARSET', statusCode: 415 }),
      undefined,
    );
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return done(malformed('The request body is not valid UTF-8 (JSON is UTF-8).'), undefined);
  }
  req.rawBody = text;
  if (text.length === 0) return done(null, undefined);
  try {
    done(null, JSON.parse(text));
  } catch {
    done(malformed('The request body is not valid JSON.'), undefined);
  }
}

/**
 * JSON keeps its raw text, which is its bytes exactly (signatures and body hashes cover the bytes
 * sent); everything else arrives as bytes.
 */
function addContentParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) =>
    parseJson(req, body as Buffer, done),
  );
  // Upload routes check magic bytes; JSON routes answer 415 (the pipeline checks).
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    req.rawBody = body as Buffer;
    done(null, body);
  });
}

/** A path in any spelling but its canonical one is refused before anything reads it (canonical-path.ts). */
function refuseNonCanonicalPaths(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    const q = req.url.indexOf('?');
    const path = q < 0 ? req.url : req.url.slice(0, q);
    const canonical = nonCanonical(path);
    if (canonical === null) return done();
    sendError(
      reply,
      new AppError('NON_CANONICAL_PATH', `The path ${JSON.stringify(path)} is not canonical: send ${canonical}.`),
      String(req.id),
    );
  });
}

function addErrorHandlers(app: FastifyInstance, deps: ServerDeps): void {
  app.setErrorHandler((err, req, reply) => {
    const appErr = err instanceof AppError ? err : mapFastifyError(err as never);
    if (appErr.code === 'INTERNAL') deps.log.error({ err, reqId: req.id }, 'unhandled error');
    sendError(reply, appErr, String(req.id));
  });
  app.setNotFoundHandler((req, reply) => {
    const payload = JSON.stringify(
      errorBody('ROUTE_NOT_FOUND', `No route for ${req.method} ${req.url.split('?')[0]}.`, String(req.id)),
    );
    notePayload(req, payload);
    reply.code(404).type(JSON_TYPE).send(payload);
  });
}

export function createServer(deps: ServerDeps, opts: ServerOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: opts.logger ?? false,
    ...(opts.serverFactory ? { serverFactory: opts.serverFactory } : {}),
    genReqId: () => deps.ids.requestId(),
    bodyLimit: JSON_BODY_LIMIT,
    // main.ts logs one line per request itself, without headers (keys never reach the log).
    logController: new LogController({ disableRequestLogging: true }),
    // req.log is made when a request first logs, not for every request (http/lazy-logger.ts)
    ...(opts.logger ? { childLoggerFactory: lazyChildLogger } : {}),
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => answerClientError(deps, err, socket),
    frameworkErrors: (err, req, reply) =>
      answerFrameworkError(err, req as FastifyRequest, reply as unknown as FastifyReply),
  });
  // A client that half-closes its side after sending (shutdown(SHUT_WR), `nc -N`, some proxies) still
  // gets its answer: Node's HTTP server otherwise aborts a request whose client ended before the
  // reply was written, and a write's reply waits for its batch's COMMIT.
  (app.server as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  refuseNonCanonicalPaths(app);
  addContentParsers(app);
  addErrorHandlers(app, deps);
  return app;
}
