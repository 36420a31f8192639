// buildApp(deps) assembles the daemon's HTTP app without listening: tests use inject(), main.ts
// listens. The server (parsers, error bodies) and the pipeline live in daemon/http/; the routes come
// from every capability's module (daemon/routes.ts).
import type { FastifyInstance } from 'fastify';
import type { Deps } from './deps.js';
import type { RouteDef } from './contract/route.js';
import { createServer, type ServerOptions } from './http/server.js';
import { createPipeline } from './http/pipeline.js';
import { buildOpenApi } from './http/openapi.js';
import { ROUTE_MODULES } from './routes.js';

export type AppOptions = ServerOptions;

export function buildApp(deps: Deps, opts: AppOptions = {}): FastifyInstance {
  const app = createServer(deps, opts);
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
