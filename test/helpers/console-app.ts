// The browser console's side of a test: the real app listening on a port (WebAuthn checks the page's
// origin, http://localhost:<port>), a wall clock the test moves, calls as the page makes them (JSON,
// the console's Origin on a POST, the session cookie and CSRF token when given), and the passkey
// ceremonies with a software passkey (soft-passkey.ts): enrol with a one-time code, sign in. restart()
// closes the app and opens it again on the same SQLite file, KEK and port, as a daemon restart would.
import { rmSync } from 'node:fs';
import { Agent, request } from 'undici';
import { makeApp, type TestApp, type TestAppOptions } from './app.js';
import type { SoftPasskey } from './soft-passkey.js';

export interface Call {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

export interface CallOptions {
  body?: unknown;
  cookie?: string;
  csrf?: string;
  /** The Origin of a POST: the console's by default; null sends none. */
  origin?: string | null;
}

export interface SignedIn {
  res: Call;
  status: number;
  /** `svc_console=...` as a Cookie header sends it ('' when the sign-in failed). */
  cookie: string;
  /** The session's CSRF token (GET /console/api/me), undefined when the sign-in failed. */
  csrf: string;
}

export interface ConsoleApp {
  /** The app as it runs now (a new one after restart(); its creds are null then: the home already existed). */
  readonly t: TestApp;
  readonly base: string;
  /** The console's origin: http://localhost:<port>. */
  readonly origin: string;
  /** Moves the wall clock the app reads (challenge, code, session and step-up expiry). */
  moveWall(ms: number): void;
  call(method: 'GET' | 'POST', path: string, o?: CallOptions): Promise<Call>;
  /** Enrols the passkey with the code: the answer of enroll/verify, or of enroll/options when that refuses. */
  enrol(key: SoftPasskey, code: string): Promise<Call>;
  /** Signs in with the passkey (an assertion carrying this signature counter). */
  signIn(key: SoftPasskey, counter?: number): Promise<SignedIn>;
  /** Closes the app keeping its files, and opens it again on the same database, KEK and port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

async function listen(t: TestApp, port = 0): Promise<number> {
  await t.app.listen({ port, host: '127.0.0.1' });
  return (t.app.server.address() as { port: number }).port;
}

export async function consoleApp(opts: Omit<TestAppOptions, 'wallNow' | 'dir' | 'kek'> = {}): Promise<ConsoleApp> {
  let wall = Date.now();
  let t = await makeApp({ ...opts, wallNow: () => wall });
  const port = await listen(t);
  const base = `http://127.0.0.1:${port}`;
  const origin = `http://localhost:${port}`;
  // its own connections: a keep-alive one to the app closed by restart() is not reused
  let agent = new Agent();

  async function call(method: 'GET' | 'POST', path: string, o: CallOptions = {}): Promise<Call> {
    const headers: Record<string, string> = {};
    if (method === 'POST') headers['content-type'] = 'application/json';
    if (o.cookie) headers.cookie = o.cookie;
    if (o.csrf) headers['x-csrf-token'] = o.csrf;
    if (o.origin !== null && method === 'POST') headers.origin = o.origin ?? origin;
    const res = await request(base + path, {
      dispatcher: agent,
      method,
      headers,
      body: method === 'POST' ? JSON.stringify(o.body ?? {}) : undefined,
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : null, headers: res.headers };
  }

  async function enrol(key: SoftPasskey, code: string): Promise<Call> {
    const started = await call('POST', '/console/api/enroll/options', { body: { code } });
    if (started.status !== 200) return started;
    return call('POST', '/console/api/enroll/verify', {
      body: { code, response: key.register(started.body.options, origin) },
    });
  }

  async function signIn(key: SoftPasskey, counter = 0): Promise<SignedIn> {
    const started = await call('POST', '/console/api/login/options');
    const res = await call('POST', '/console/api/login/verify', {
      body: { response: key.assert(started.body.options.challenge, origin, counter) },
    });
    const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0];
    const me = res.status === 200 ? await call('GET', '/console/api/me', { cookie }) : null;
    return { res, status: res.status, cookie, csrf: me?.body.csrf_token };
  }

  return {
    get t() {
      return t;
    },
    base,
    origin,
    moveWall: (ms) => void (wall += ms),
    call,
    enrol,
    signIn,
    async restart() {
      const { dir, kek } = t;
      await t.close({ keepDir: true });
      await agent.close();
      agent = new Agent();
      t = await makeApp({ ...opts, dir, kek, wallNow: () => wall });
      await listen(t, port);
    },
    async close() {
      const { dir } = t;
      await t.close();
      await agent.close();
      rmSync(dir, { recursive: true, force: true }); // a reopened app does not remove a directory it was given
    },
  };
}
