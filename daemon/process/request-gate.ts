// The daemon listens, and tells the CLI so, before it builds its app (240 routes, their schemas and the
// router: a fifth of a start): the HTTP server is made here and handed to fastify through its
// serverFactory. A request that arrives in between waits in the gate and is answered once the app is ready,
// by the app, like any other; so is a request the HTTP parser refuses (fastify's clientError handler
// answers it in the spec's error body). Nothing is refused or answered differently because it came early.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RequestGate {
  /** The server to listen on now. */
  server: Server;
  /** fastify's serverFactory: keeps fastify's request handler and gives it this server. */
  factory(handler: Handler): Server;
  /** Once the app is ready: the requests that waited go to it, in the order they came, and so does every later one. */
  open(): void;
  /** How many requests (and refused ones) waited for the app: the start's log line says. */
  readonly waited: number;
}

export function requestGate(): RequestGate {
  let handler: Handler | undefined;
  const waiting: Array<[IncomingMessage, ServerResponse]> = [];
  const refused: Array<[Error, Duplex]> = [];
  const server = createServer((req, res) => {
    if (handler) handler(req, res);
    else waiting.push([req, res]);
  });
  // what fastify sets on a server it makes itself (its defaults: no request or socket timeout)
  server.keepAliveTimeout = 72_000;
  server.requestTimeout = 0;
  server.setTimeout(0);
  const early = (err: Error, socket: Duplex) => refused.push([err, socket]);
  server.on('clientError', early);
  let factoryHandler: Handler | undefined;
  let waited = 0;
  return {
    server,
    get waited() {
      return waited;
    },
    factory(h) {
      factoryHandler = h;
      return server;
    },
    open() {
      if (!factoryHandler) throw new Error('request gate: the app was not built on this server');
      server.off('clientError', early);
      waited = waiting.length + refused.length;
      for (const [err, socket] of refused.splice(0)) server.emit('clientError', err, socket);
      handler = factoryHandler;
      for (const [req, res] of waiting.splice(0)) handler(req, res);
    },
  };
}

/** Stops accepting, closes idle connections and resolves once every open request has been answered. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    server.closeIdleConnections();
  });
}
