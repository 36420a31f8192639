// Test harness: a real app (buildApp + inject) on a real SQLite file in a temp directory, with the
// bootstrap credentials and a request helper that signs and keys money routes like a client would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../daemon/app.js';
import { createDeps, type Deps } from '../../daemon/deps.js';
import { sign, splitUrl } from '../../daemon/contract/signing.js';
import { tenantAuthFor } from '../../daemon/contract/routes-auth.js';
import type { BootstrapResult } from '../../daemon/sandbox/bootstrap.js';

export const DEFAULT_START = '2026-11-22T09:00:00+02:00';

export interface TestAppOptions {
  seed?: number;
  start?: string;
  clock?: 'frozen' | 'running';
  /** A running clock's speed in thousandths (1000 = real time). */
  speedMilli?: number;
  wallNow?: () => number;
  dir?: string;
  kek?: Buffer;
  /** The assistant's provider (--ai); default none. */
  ai?: 'none' | 'registry';
}

export type As = 'tenant' | 'admin' | 'dealer' | 'security' | 'approver' | 'none';

export interface Req {
  body?: unknown;
  /** Raw payload (uploads); sent with contentType. */
  raw?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
  as?: As;
  /** Tenant credentials to use instead of the bootstrap tenant's. */
  tenant?: { api_key: string; signing_secret: string };
  idempotencyKey?: string;
  /** false: send no signature even on a signed route. */
  sign?: boolean;
}

export interface Res {
  status: number;
  body: any;
  headers: Record<string, unknown>;
  text: string;
}

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  creds: BootstrapResult;
  dir: string;
  kek: Buffer;
  req(method: string, url: string, opts?: Req): Promise<Res>;
  close(opts?: { keepDir?: boolean }): Promise<void>;
}

let keyCounter = 0;

export async function makeApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const kek = opts.kek ?? randomBytes(32);
  const deps = createDeps({
    dbFile: join(dir, 'svc.db'),
    kek,
    wallNow: opts.wallNow,
    ai: opts.ai,
    sandbox: { seed: opts.seed ?? 42, startMs: Date.parse(opts.start ?? DEFAULT_START), clockMode: opts.clock ?? 'frozen', speedMilli: opts.speedMilli ?? 1000 },
  });
  const app = buildApp(deps);
  await app.ready();
  const creds = deps.bootstrap!;

  async function req(method: string, url: string, o: Req = {}): Promise<Res> {
    const as = o.as ?? (url.startsWith('/admin') ? 'admin' : url.startsWith('/broker') ? 'dealer' : 'tenant');
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    let payload: string | Buffer | undefined;
    if (o.raw !== undefined) {
      payload = o.raw;
      headers['content-type'] ??= o.contentType ?? 'application/octet-stream';
    } else if (o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const tenant = o.tenant ?? creds.tenant;
    if (as === 'tenant') {
      headers.authorization ??= `Bearer ${tenant.api_key}`;
      const { path, rawQuery } = splitUrl(url);
      const mode = tenantAuthFor(method, path);
      if (mode !== 'B' || o.idempotencyKey !== undefined) {
        const key = o.idempotencyKey ?? `test-${++keyCounter}`;
        headers['idempotency-key'] ??= key;
        if (mode === 'S' && o.sign !== false) {
          const timestamp = String(Math.floor((opts.wallNow ?? Date.now)() / 1000));
          headers['x-svc-timestamp'] ??= timestamp;
          headers['x-svc-signature'] ??= sign(tenant.signing_secret, { timestamp, method, path, rawQuery, idempotencyKey: headers['idempotency-key'], body: payload ?? '' });
        }
      }
    } else if (as === 'dealer') headers['x-console-key'] ??= creds.operators.dealer_key;
    else if (as !== 'none') headers['x-admin-key'] ??= creds.operators[`${as}_key` as 'admin_key'];
    const res = await app.inject({ method: method as 'GET', url, headers, payload });
    let body: any = res.body;
    if (String(res.headers['content-type'] ?? '').includes('json') && res.body.length) body = JSON.parse(res.body);
    return { status: res.statusCode, body, headers: res.headers, text: res.body };
  }

  return {
    app,
    deps,
    creds,
    dir,
    kek,
    req,
    async close(o = {}) {
      await app.close();
      deps.db.close();
      if (!o.keepDir && !opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Advances the sandbox clock through the admin control. */
export async function advance(t: TestApp, body: Record<string, unknown>): Promise<Res> {
  const res = await t.req('POST', '/admin/sandbox/clock-advance', { body });
  if (res.status !== 200) throw new Error(`advance failed: ${res.status} ${res.text}`);
  return res;
}

/** A console (dealer-desk) identity with exactly these grants, for grant tests; returns its key. */
export function addConsoleOperator(t: TestApp, name: string, grants: string[], brokerId: string = t.creds.broker_id): string {
  const key = `ck_test_${name}`;
  t.deps.db
    .prepare("INSERT INTO operators (id, name, role, realm, key_hash, grants, broker_id, created_at) VALUES (?, ?, 'dealer', 'console', ?, ?, ?, '2026-11-22T09:00:00+02:00')")
    .run(`opr_test_${name}`, name, createHash('sha256').update(key).digest('hex'), JSON.stringify(grants), brokerId);
  return key;
}
