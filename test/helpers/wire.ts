// A plain HTTP client over a real socket (fetch), for what inject() cannot show: a connection dropped
// unanswered or held (the fault rules' reset, lost_response and timeout; docs/faults.md). It signs and
// keys money routes like test/helpers/app.ts's req, with the key the caller chooses.
import type { AddressInfo } from 'node:net';
import { sign, splitUrl } from '../../daemon/contract/signing.js';
import { tenantAuthFor } from '../../daemon/contract/routes-auth.js';
import type { TestApp } from './app.js';

export interface WireRes {
  status: number;
  body: any;
  headers: Headers;
}

/** A dropped connection (fetch's "fetch failed"), as a value. */
export const DROPPED = 'dropped' as const;

export interface Wire {
  base: string;
  tenant(
    method: string,
    url: string,
    opts?: { body?: unknown; key?: string; timestamp?: string },
  ): Promise<WireRes | typeof DROPPED>;
  admin(method: string, url: string, body?: unknown): Promise<WireRes>;
}

export async function listen(t: TestApp): Promise<Wire> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  let n = 0;
  async function send(method: string, url: string, headers: Record<string, string>, payload?: string) {
    try {
      const res = await fetch(base + url, { method, headers, body: payload });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
    } catch {
      return DROPPED;
    }
  }
  return {
    base,
    async tenant(method, url, opts = {}) {
      const headers: Record<string, string> = { authorization: `Bearer ${t.creds.tenant.api_key}` };
      const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
      if (payload !== undefined) headers['content-type'] = 'application/json';
      const { path, rawQuery } = splitUrl(url);
      const mode = tenantAuthFor(method, path);
      if (mode !== 'B' || opts.key) headers['idempotency-key'] = opts.key ?? `wire-${++n}`;
      if (mode === 'S') {
        const timestamp = opts.timestamp ?? String(Math.floor(t.deps.wallNow() / 1000));
        headers['x-svc-timestamp'] = timestamp;
        headers['x-svc-signature'] = sign(t.creds.tenant.signing_secret, {
          timestamp,
          method,
          path,
          rawQuery,
          idempotencyKey: headers['idempotency-key'],
          body: payload ?? '',
        });
      }
      return send(method, url, headers, payload);
    },
    async admin(method, url, body) {
      const headers: Record<string, string> = { 'x-admin-key': t.creds.operators.admin_key };
      const payload = body === undefined ? undefined : JSON.stringify(body);
      if (payload !== undefined) headers['content-type'] = 'application/json';
      const res = await send(method, url, headers, payload);
      if (res === DROPPED) throw new Error(`admin ${method} ${url}: connection dropped`);
      return res;
    },
  };
}
