// buildApp(deps) assembles the daemon's HTTP app without listening: tests use inject(), main.ts
// listens. The server (parsers, error bodies) and the pipeline live in daemon/http/; the routes come
// from every capability's module (daemon/routes.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Deps } from './deps.js';
import type { RouteDef } from './contract/route.js';
import { HealthSchema, type Health } from './contract/schemas/health.js';
import { CONSOLE_API_ANSWERS } from './contract/schemas/console.js';
import { OpenApiDocumentSchema } from './contract/schemas/openapi-document.js';
import { createServer, type ServerOptions } from './http/server.js';
import { createPipeline } from './http/pipeline.js';
import { isTenantRoute } from './http/faults.js';
import { buildOpenApi } from './http/openapi.js';
import { addRequestRecorder, NOTES_PAYLOAD } from './http/inspect.js';
import { addAnswerChecker, type AnswerCheckOptions, type AnswerTally } from './http/answer-check.js';
import { ROUTE_MODULES } from './routes.js';
import * as sessions from './backoffice/sessions.js';
import { createPasskeyStore } from './backoffice/passkeys.js';
import { createSessionAuth } from './console/session-auth.js';
import { registerConsoleApi } from './console/routes.js';
import { findConsoleDir, registerConsoleStatic } from './console/static.js';

export interface AppOptions extends ServerOptions {
  /** The home's sandbox id, echoed by /healthz (daemon/contract/home-files.ts); null without a home. */
  sandboxId?: string;
  /** Run for every answered request after the inspector records it (main.ts's access log line). */
  onAnswered?: (req: FastifyRequest, reply: FastifyReply) => void;
  /**
   * Check every JSON answer against its schema (daemon/http/answer-check.ts): the tests turn it on, a
   * daemon with SVC_CHECK_ANSWERS=1. `answerTally` is then filled with what was checked.
   */
  checkAnswers?: boolean | AnswerCheckOptions;
  answerTally?: (tally: AnswerTally) => void;
}

/** Every JSON route's success schema, by `METHOD /url`: the capabilities', the console's and the app's own. */
function answerSchemas(routes: RouteDef[]): Map<string, z.ZodType> {
  const out = new Map<string, z.ZodType>(Object.entries(CONSOLE_API_ANSWERS));
  out.set('GET /healthz', HealthSchema);
  out.set('GET /openapi.json', OpenApiDocumentSchema);
  for (const def of routes) if (def.response) out.set(`${def.method} ${def.url}`, def.response);
  return out;
}

export function buildApp(deps: Deps, opts: AppOptions = {}): FastifyInstance {
  const app = createServer(deps, { logger: opts.logger, serverFactory: opts.serverFactory });
  const sandboxId = opts.sandboxId ?? null;
  const schemas = new Map<string, z.ZodType>();
  if (opts.checkAnswers) {
    const tally = addAnswerChecker(app, schemas, opts.checkAnswers === true ? {} : opts.checkAnswers);
    opts.answerTally?.(tally);
  }
  // the request inspector records every answer; open event streams end when the app closes
  addRequestRecorder(app, deps.inspector, deps.wallNow, opts.onAnswered);
  app.addHook('preClose', (done) => {
    deps.events.closeAll();
    Promise.all(deps.onClose.map((hook) => hook())).then(() => done(), done);
  });
  app.get(
    '/healthz',
    async (): Promise<Health> => ({
      status: 'ok',
      version: deps.version,
      sim_time: deps.nowIso(),
      sandbox_id: sandboxId,
    }),
  );

  const routes: RouteDef[] = ROUTE_MODULES.flatMap((m) => m(deps));
  for (const [route, schema] of answerSchemas(routes)) schemas.set(route, schema);
  // The browser console (docs/console.md): its page, its passkey and session calls, and its session
  // cookie as another way in for operator routes (the pipeline's deps see the live Deps underneath).
  const passkeys = createPasskeyStore(deps.db, deps.kek);
  const sessionOf = createSessionAuth({
    db: deps.db,
    kek: deps.kek,
    wallNow: () => deps.wallNow(),
    passkeys,
    scopesOf: (id) => deps.keys.identities.scopesOf(id),
    sessions,
  });
  registerConsoleStatic(app, findConsoleDir());
  registerConsoleApi(app, {
    db: deps.db,
    kek: deps.kek,
    wallNow: () => deps.wallNow(),
    nowIso: () => deps.nowIso(),
    audit: deps.audit,
    passkeys,
    sessions,
    sessionOf,
  });
  const handle = createPipeline(Object.assign(Object.create(deps) as Deps, { consoleSession: sessionOf }));
  // the tenant routes a fault rule may name; a connection a timeout fault holds ends with the app
  deps.faults.setRoutes(new Set(routes.filter(isTenantRoute).map((d) => `${d.method} ${d.url}`)));
  app.addHook('preClose', (done) => {
    handle.closeFaults();
    done();
  });
  for (const def of routes) {
    app.route({
      method: def.method,
      url: def.url,
      bodyLimit: def.rawBody?.maxBytes,
      // read by the content parsers: an upload is judged by its bytes whatever its Content-Type
      // and the pipeline notes its payload for the request inspector itself (http/inspect.ts)
      config: { rawBody: def.rawBody !== undefined, [NOTES_PAYLOAD]: true },
      // the handler answers through reply itself; returning the reply tells fastify so (a promise that
      // resolves with nothing before a stream's first byte would otherwise be sent as an empty body)
      handler: async (req, reply) => {
        await handle(def, req, reply);
        return reply;
      },
    });
  }
  // Built on first request: converting every schema costs tens of milliseconds of start-up otherwise.
  let openapi: string | undefined;
  app.get('/openapi.json', async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send((openapi ??= buildOpenApi(routes, deps.version))),
  );
  return app;
}
