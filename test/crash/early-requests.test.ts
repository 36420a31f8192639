// The daemon says it is ready (the ready pipe, the locator file) as soon as it listens, and builds its app
// after (daemon/process/request-gate.ts). A client that sends the moment it is told must get exactly the
// answers it would get later: the app's, in the spec's shape, for a good request, an unknown route and a
// request the HTTP parser refuses. The first case starts a real daemon and sends the instant its ready line
// arrives (its log line says how many waited: on an idle machine the app is usually built before the
// daemon reads them). The second holds the gate shut until the requests have arrived, and proves that
// they wait for the app and are answered by it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { removeHome, tempHome } from '../helpers/crash-daemon.js';
import { requestGate } from '../../daemon/process/request-gate.js';
import { createServer } from '../../daemon/http/server.js';

interface Raw {
  status: number;
  body: unknown;
}

/** One request over its own connection, written as given; the status and the JSON body of the answer. */
function raw(port: number, request: string): Promise<Raw> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
    socket.on('error', fail);
    socket.on('end', () => {
      const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
      const json = head.toLowerCase().includes('transfer-encoding: chunked')
        ? body.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, '')
        : body;
      done({ status: Number(head.split(' ')[1]), body: JSON.parse(json) as unknown });
    });
  });
}

const REQUESTS = {
  healthz: 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  unknownRoute: 'GET /v1/no-such-route HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  unparsable: 'GET /v1/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nthis is not a header\r\n\r\n',
};
type Name = keyof typeof REQUESTS;

/** Answers with what changes from one request to the next left out. */
function stable(a: Raw): Raw {
  const body = JSON.parse(JSON.stringify(a.body)) as Record<string, unknown>;
  delete body.request_id;
  return { status: a.status, body };
}

/** The start's log line (the log is written asynchronously: it may come a moment after the answers). */
async function startLine(home: string): Promise<{ early_requests?: unknown }> {
  for (let i = 0; i < 100; i++) {
    const line = readFileSync(join(home, 'daemon.log'), 'utf8')
      .split('\n')
      .find((l) => l.includes('svc daemon listening'));
    if (line) return JSON.parse(line) as { early_requests?: unknown };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the daemon never logged its start');
}

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) removeHome(h);
});

/** Starts a daemon, sends every request the instant it says it is ready, then again once it has logged its start. */
async function earlyAndLate(): Promise<{ early: Record<Name, Raw>; late: Record<Name, Raw>; waited: unknown }> {
  const home = tempHome('early');
  homes.push(home);
  const child = spawn(
    process.execPath,
    [resolve('dist/daemon/main.js'), '--home', home, '--port', '0', '--clock', 'frozen', '--ready-fd', '3'],
    { stdio: ['ignore', 'ignore', 'inherit', 'pipe'] },
  );
  try {
    const pipe = child.stdio[3] as Readable;
    const line = await new Promise<string>((done) => pipe.once('data', (d: Buffer) => done(d.toString('utf8'))));
    const port = (JSON.parse(line) as { port: number }).port;
    const names = Object.keys(REQUESTS) as Name[];
    const sendAll = () => Promise.all(names.map((n) => raw(port, REQUESTS[n])));
    const early = await sendAll();
    const late = await sendAll();
    const pick = (xs: Raw[]) => Object.fromEntries(names.map((n, i) => [n, stable(xs[i])])) as Record<Name, Raw>;
    return { early: pick(early), late: pick(late), waited: (await startLine(home)).early_requests };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
}

describe('requests sent the moment the daemon says it is ready', () => {
  it('are answered by the app exactly as later ones are: a good request, an unknown route, an unparsable request', async () => {
    const { early, late, waited } = await earlyAndLate();
    expect(waited).toEqual(expect.any(Number));
    expect(early).toEqual(late);
    expect(early.healthz.status).toBe(200);
    expect(early.unknownRoute).toMatchObject({ status: 404, body: { error: { code: 'ROUTE_NOT_FOUND' } } });
    expect(early.unparsable).toMatchObject({ status: 400, body: { error: { code: 'BAD_REQUEST' } } });
  });
});

describe('the request gate', () => {
  it('holds requests that come before the app, then the app answers them, a refused one in the spec’s body too', async () => {
    const gate = requestGate();
    let arrived = 0;
    gate.server.on('request', () => arrived++);
    gate.server.on('clientError', () => arrived++);
    await new Promise<void>((done) => gate.server.listen(0, '127.0.0.1', done));
    const port = (gate.server.address() as { port: number }).port;
    try {
      const answers = Promise.all([raw(port, REQUESTS.healthz), raw(port, REQUESTS.unparsable)]);
      while (arrived < 2) await new Promise((r) => setTimeout(r, 5));
      let n = 0;
      const app = createServer(
        { ids: { requestId: () => `req_${++n}` }, log: { error: () => {} } },
        { serverFactory: (handler) => gate.factory(handler) },
      );
      app.get('/healthz', async () => ({ ok: true }));
      await app.ready();
      gate.open();
      const [healthz, unparsable] = await answers;
      expect(gate.waited).toBe(2);
      expect(healthz).toEqual({ status: 200, body: { ok: true } });
      expect(unparsable).toMatchObject({ status: 400, body: { error: { code: 'BAD_REQUEST' } } });
      await app.close();
    } finally {
      gate.server.close();
    }
  });
});
