// An inject that does not wait on a stream that never ends: the sandbox's server-sent events
// (GET /admin/sandbox/events) answer with their status and headers and then stay open, so a test that
// sends every operation (the auth matrix, the fuzzer) reads that answer's status and headers and drops
// it; every other request is injected as it is.
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';

export interface Settled {
  statusCode: number;
  headers: OutgoingHttpHeaders;
  body: string;
}

const STREAMING = /^\/admin\/sandbox\/events(?:[?#]|$)/;

export async function injectSettled(app: FastifyInstance, opts: InjectOptions): Promise<Settled> {
  if (!STREAMING.test(String(opts.url ?? ''))) return app.inject(opts);
  const res = await app.inject({ ...opts, payloadAsStream: true });
  const stream = res.stream();
  if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    stream.destroy();
    return { statusCode: res.statusCode, headers: res.headers, body: '' };
  }
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return { statusCode: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') };
}
