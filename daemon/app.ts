// buildApp(deps) assembles the daemon's HTTP app without listening: tests use inject(), main.ts
// listens. The server (parsers, error bodies) and the pipeline live in daemon/http/; the routes come
// from every capability's module (daemon/routes.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from './deps.js';
import type { RouteDef } from './contract/route.js';
import type { Health } from './contract/schemas/health.js';
import { createServer, type ServerOptions } from './http/server.js';
import { createPipeline } from './http/pipeline.js';
import { isTenantRoute } from './http/faults.js';
import { buildOpenApi } from './http/openapi.js';
import { addRequestRecorder, NOTES_PAYLOAD } from './http/inspect.js';
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
}

export function buildApp(deps: Deps, opts: AppOptions = {}): FastifyInstance {
  const app = createServer(deps, { logger: opts.logger });
  const sandboxId = opts.sandboxId ?? null;
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
      handler: (req, reply) => handle(def, req, reply),
    });
  }
  // Built on first request: converting every schema costs tens of milliseconds of start-up otherwise.
  let openapi: string | undefined;
  app.get('/openapi.json', async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send((openapi ??= buildOpenApi(routes, deps.version))),
  );
  return app;
}
