// An attempt's deadline (retry.timeoutMs, or a call's timeoutMs) really ends the attempt: with the
// default fetch transport, undici's own headers and body timeouts close the connection (no AbortSignal,
// no timer per request: docs/client.md, "Retries"); with a transport that cannot keep a deadline, the
// library's AbortSignal does. A scripted HTTP server stands in for the daemon: each request takes the
// next behaviour of its script (answer, never answer, or send the headers and part of the body, then stop).
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient, SvcConnectionError, type Transport } from '../../client/src/index.js';

type Behaviour = 'answer' | 'hang' | 'stall-body';

let server: Server;
let baseUrl: string;
let script: Behaviour[];
let requests: number;
/** Connections the server saw closed (by the client: the server never closes one itself). */
let closed: number;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    const behaviour = script.shift() ?? 'answer';
    if (behaviour === 'hang') return;
    res.writeHead(200, { 'content-type': 'application/json' });
    if (behaviour === 'stall-body') return void res.write('{"timestamp":');
    res.end('{"timestamp":"2026-11-28T09:00:00+02:00"}');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closed++;
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  script = [];
  requests = 0;
  closed = 0;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  server.close();
});

const noSleep = { sleep: async () => {} };
/**
 * Past 1 s the default transport keeps the deadline with undici's timeouts; up to 1 s, with a timer. The
 * least deadline past 1 s: each test that waits one out takes no longer than the undici path needs.
 */
const UNDICI_MS = 1_001;
const clientOf = (o: { maxAttempts: number; timeoutMs?: number; transport?: Transport }) =>
  new SvcClient({
    baseUrl,
    apiKey: 'sk_test',
    retry: { maxAttempts: o.maxAttempts, timeoutMs: o.timeoutMs ?? UNDICI_MS },
    clock: noSleep,
    transport: o.transport,
  });
const clock = (c: SvcClient, signal?: AbortSignal) =>
  c.core.call({ method: 'GET', path: '/v1/clock', signal }, c.credentials('GET', '/v1/clock'));

describe('the deadline of an attempt', () => {
  it('an answer that never comes is ended at the deadline, its connection closed, and the retry answers', async () => {
    script = ['hang', 'answer'];
    const answer = await clock(clientOf({ maxAttempts: 2 }));
    expect(answer.data).toEqual({ timestamp: '2026-11-28T09:00:00+02:00' });
    expect(requests).toBe(2);
    expect(closed).toBe(1);
  });

  it('an answer whose body stops coming is ended at the deadline too, and retried', async () => {
    script = ['stall-body', 'answer'];
    const answer = await clock(clientOf({ maxAttempts: 2 }));
    expect(answer.status).toBe(200);
    expect(requests).toBe(2);
    expect(closed).toBe(1);
  });

  it('past the last attempt the call throws an SvcConnectionError saying the attempt timed out', async () => {
    script = ['hang'];
    const e = await clock(clientOf({ maxAttempts: 1 })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SvcConnectionError);
    expect((e as SvcConnectionError).message).toContain(`the attempt timed out (${UNDICI_MS} ms)`);
    expect(closed).toBe(1);
  });

  it('a deadline of 1 s or less is kept exactly, by a timer, and ends the attempt the same way', async () => {
    script = ['hang', 'stall-body'];
    const e = await clock(clientOf({ maxAttempts: 2, timeoutMs: 200 })).catch((x: unknown) => x);
    expect((e as SvcConnectionError).message).toContain('the attempt timed out (200 ms)');
    expect(requests).toBe(2);
    while (closed < 2) await new Promise((r) => setTimeout(r, 5));
  });

  it("a caller's signal still ends an attempt: the call rejects with its reason and the connection is closed", async () => {
    script = ['hang'];
    const stop = new AbortController();
    const call = clock(clientOf({ maxAttempts: 4 }), stop.signal);
    while (requests === 0) await new Promise((r) => setTimeout(r, 5));
    stop.abort(new Error('the caller gave up'));
    await expect(call).rejects.toThrow('the caller gave up');
    expect(requests).toBe(1);
    while (closed === 0) await new Promise((r) => setTimeout(r, 5));
  });

  it('a transport that does not keep deadlines is handed a signal that aborts at the deadline', async () => {
    const reasons: unknown[] = [];
    const never: Transport = (req) =>
      new Promise((_, reject) =>
        req.signal?.addEventListener('abort', () => {
          reasons.push(req.signal?.reason);
          reject(req.signal?.reason);
        }),
      );
    const e = await clock(clientOf({ maxAttempts: 2, timeoutMs: 200, transport: never })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SvcConnectionError);
    expect((e as SvcConnectionError).attempts).toBe(2);
    expect(reasons.map((r) => (r as Error).message)).toEqual([
      'the attempt timed out (200 ms)',
      'the attempt timed out (200 ms)',
    ]);
  });
});
