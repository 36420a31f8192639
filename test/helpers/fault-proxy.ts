// A scripted HTTP proxy in front of a real daemon (a node:http server): each request is forwarded, or
// answered by the script (a status such as 503 or 429), or its connection is dropped before it is
// forwarded or after the daemon has answered (the answer is lost, the change is committed), or it is
// left hanging. Every request is recorded with its headers.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | 'forward'
  | 'drop-before'
  | 'drop-after'
  | 'hang'
  | { status: number; headers?: Record<string, string>; code?: string };

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  fault: Fault;
  /** The daemon's status when it was forwarded. */
  upstreamStatus?: number;
  upstreamHeaders?: IncomingHttpHeaders;
}

export interface FaultProxy {
  url: string;
  seen: Seen[];
  /** The faults of the next requests matching `method path` (path without query), in order; then 'forward'. */
  script(route: string, ...faults: Fault[]): void;
  close(): Promise<void>;
}

export async function faultProxy(target: string): Promise<FaultProxy> {
  const plans = new Map<string, Fault[]>();
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const route = `${req.method} ${(req.url ?? '').split('?')[0]}`;
      const fault = plans.get(route)?.shift() ?? 'forward';
      const entry: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, fault };
      seen.push(entry);
      if (fault === 'hang') return;
      if (fault === 'drop-before') return void req.socket.destroy();
      if (typeof fault === 'object') {
        const body = JSON.stringify({
          error: { code: fault.code ?? 'NOT_AVAILABLE', message: `the proxy answered ${fault.status}` },
          request_id: 'req_proxy',
        });
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        return void res.end(body);
      }
      const up = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          entry.upstreamStatus = answer.statusCode;
          entry.upstreamHeaders = answer.headers;
          if (fault === 'drop-after') return void req.socket.destroy();
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(body));
        });
      });
      up.on('error', () => req.socket.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    script: (route, ...faults) => plans.set(route, [...(plans.get(route) ?? []), ...faults]),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
