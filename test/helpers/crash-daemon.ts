// A real daemon in a child process (node dist/daemon/main.js) on a free loopback port, for the crash,
// concurrency and load tests: start it on a home, SIGKILL it, start it again on the same home. Clients
// are undici Clients (one keep-alive connection each, so requests of different clients really
// interleave on the daemon's sockets) that key and sign requests like a partner's backend would. The
// store can be opened read-only (better-sqlite3) to check what a crash left behind, while the daemon is
// dead or alongside it (WAL readers never block the writer).
//
// Every child is killed when the test process exits, however it exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Client, Pool } from 'undici';
import { waitForHealthy } from '../../cli/healthz.js';
import { sign, splitUrl } from '../../daemon/contract/signing.js';
import { tenantAuthFor } from '../../daemon/contract/routes-auth.js';
import { checkLedgerInvariants } from '../../daemon/ledger/invariants.js';
import { applicant, BALANCED } from './onboarding.js';

export const DAEMON_ENTRY = resolve('dist/daemon/main.js');
export const CRASH_START = '2026-11-22T09:00:00+02:00'; // Sunday, before the open
export const EGP = 1_000_000;

export interface Creds {
  tenant_id: string;
  api_key: string;
  signing_secret: string;
  admin_key: string;
  dealer_key: string;
  [k: string]: string;
}

export interface DaemonProc {
  home: string;
  baseUrl: string;
  pid: number;
  creds: Creds;
  child: ChildProcess;
  /** Resolves when the process has exited (any cause). */
  exited: Promise<void>;
}

const live = new Set<ChildProcess>();
const homes = new Set<string>();
let hooked = false;

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const c of live) {
      try {
        c.kill('SIGKILL');
      } catch {
        /* gone */
      }
    }
    for (const h of homes) rmSync(h, { recursive: true, force: true });
  });
}

/** A fresh sandbox home, removed when the process exits (or by removeHome). */
export function tempHome(prefix = 'crash'): string {
  hookExit();
  const home = mkdtempSync(join(tmpdir(), `svc-${prefix}-`));
  homes.add(home);
  return home;
}

export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
  homes.delete(home);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface StartOptions {
  seed?: number;
  start?: string;
  /** Extra daemon arguments (e.g. --log-level warn). */
  args?: string[];
  timeoutMs?: number;
  /** Another build's entry than dist/daemon/main.js (a copy of the daemon's files elsewhere). */
  entry?: string;
}

/**
 * Starts node dist/daemon/main.js on home (creating the sandbox on first start; later starts reopen it,
 * as `svc sandbox start` does) and waits until its locator names this process and /healthz answers.
 */
export async function startDaemon(home: string, opts: StartOptions = {}): Promise<DaemonProc> {
  hookExit();
  const entry = opts.entry ?? DAEMON_ENTRY;
  if (!existsSync(entry)) throw new Error(`${entry} missing: run npm run build`);
  const args = [
    entry,
    '--home',
    home,
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--seed',
    String(opts.seed ?? 42),
    '--start',
    opts.start ?? CRASH_START,
    '--clock',
    'frozen',
    '--ai',
    'none',
    ...(opts.args ?? []),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  live.add(child);
  const exited = new Promise<void>((r) =>
    child.once('exit', () => {
      live.delete(child);
      r();
    }),
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const ready = await waitForHealthy({ home, child, timeoutMs: opts.timeoutMs ?? 30_000, intervalMs: 20 });
  if (ready.ok) {
    const creds = JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8')) as Creds;
    return { home, baseUrl: ready.locator.base_url, pid: child.pid!, creds, child, exited };
  }
  child.kill('SIGKILL');
  await exited;
  throw new Error(`the daemon did not become healthy: ${stderr.trim() || '(no stderr)'}`);
}

/** SIGKILL: no handler runs, nothing is flushed or closed; resolves once the process is gone. */
export async function killDaemon(d: DaemonProc): Promise<void> {
  if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGKILL');
  await d.exited;
}

/** SIGTERM (graceful close), SIGKILL after graceMs. */
export async function stopDaemon(d: DaemonProc, graceMs = 5000): Promise<void> {
  if (d.child.exitCode !== null || d.child.signalCode !== null) return;
  d.child.kill('SIGTERM');
  const t = sleep(graceMs).then(() => 'timeout' as const);
  if ((await Promise.race([d.exited.then(() => 'exited' as const), t])) === 'timeout') d.child.kill('SIGKILL');
  await d.exited;
}

/** VmRSS of a process from /proc/<pid>/status, in KiB (null when not readable). */
export function rssKiB(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

// ---- requests ------------------------------------------------------------------------------------

export type As = 'tenant' | 'admin' | 'dealer' | 'none';

/** One request as sent: the exact body bytes and Idempotency-Key, so it can be sent again identically. */
export interface Call {
  method: string;
  /** Path with its query. */
  url: string;
  body?: string;
  /** Idempotency-Key (I and S routes). */
  key?: string;
  as?: As;
}

export interface Answer {
  status: number;
  text: string;
  json: any;
  replayed: boolean;
  ms: number;
}

/** A call for route+body with a fresh Idempotency-Key when the route takes one. */
export function call(
  method: string,
  url: string,
  body?: unknown,
  as: As = url.startsWith('/admin') ? 'admin' : 'tenant',
): Call {
  const c: Call = { method, url, as };
  if (body !== undefined) c.body = JSON.stringify(body);
  if (as === 'tenant' && tenantAuthFor(method, splitUrl(url).path) !== 'B') c.key = randomUUID();
  return c;
}

function headersFor(creds: Creds, c: Call): Record<string, string> {
  const h: Record<string, string> = {};
  const as = c.as ?? 'tenant';
  if (c.body !== undefined) h['content-type'] = 'application/json';
  if (as === 'admin') h['x-admin-key'] = creds.admin_key;
  else if (as === 'dealer') h['x-console-key'] = creds.dealer_key;
  else if (as === 'tenant') {
    h.authorization = `Bearer ${creds.api_key}`;
    if (c.key !== undefined) {
      h['idempotency-key'] = c.key;
      const { path, rawQuery } = splitUrl(c.url);
      if (tenantAuthFor(c.method, path) === 'S') {
        // a fresh timestamp and signature on every send: the signature covers the time, the
        // idempotency record only the key and the body
        const timestamp = String(Math.floor(Date.now() / 1000));
        h['x-svc-timestamp'] = timestamp;
        h['x-svc-signature'] = sign(creds.signing_secret, {
          timestamp,
          method: c.method,
          path,
          rawQuery,
          idempotencyKey: c.key,
          body: c.body ?? '',
        });
      }
    }
  }
  return h;
}

/** One client: one keep-alive connection to the daemon (or a pool of `connections`). */
export class Api {
  readonly client: Client | Pool;
  constructor(
    readonly baseUrl: string,
    readonly creds: Creds,
    timeoutMs = 30_000,
    connections = 1,
  ) {
    const o = { pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: 5000 } };
    this.client = connections > 1 ? new Pool(baseUrl, { ...o, connections }) : new Client(baseUrl, o);
  }

  static of(d: DaemonProc, timeoutMs?: number): Api {
    return new Api(d.baseUrl, d.creds, timeoutMs);
  }

  /** Sends c; rejects on a transport error (refused, reset, timeout, abort), never on an HTTP status. */
  async send(c: Call, signal?: AbortSignal): Promise<Answer> {
    const t0 = performance.now();
    const res = await this.client.request({
      path: c.url,
      method: c.method as 'GET',
      headers: headersFor(this.creds, c),
      body: c.body,
      signal,
    });
    const text = await res.body.text();
    const ms = performance.now() - t0;
    let json: any = null;
    if (text && String(res.headers['content-type'] ?? '').includes('json')) json = JSON.parse(text);
    return { status: res.statusCode, text, json, replayed: res.headers['idempotent-replayed'] === 'true', ms };
  }

  /** Sends c and requires the status (throws with the answer otherwise). */
  async expect(c: Call, status: number | number[]): Promise<any> {
    const a = await this.send(c);
    const ok = Array.isArray(status) ? status.includes(a.status) : a.status === status;
    if (!ok) throw new Error(`${c.method} ${c.url} answered ${a.status}, expected ${status}: ${a.text.slice(0, 400)}`);
    return a.json;
  }

  get(url: string, as?: As): Promise<any> {
    return this.expect(call('GET', url, undefined, as), 200);
  }

  advance(body: Record<string, unknown>): Promise<any> {
    return this.expect(call('POST', '/admin/sandbox/clock-advance', body, 'admin'), 200);
  }

  close(): Promise<void> {
    return this.client.destroy();
  }
}

/** True when the daemon's /openapi.json has the route (fund orders land while these tests exist). */
export async function hasRoute(api: Api, method: string, path: string): Promise<boolean> {
  const spec = await api.get('/openapi.json', 'none');
  return Boolean(spec.paths?.[path]?.[method.toLowerCase()]);
}

/** An approved investor with suitability on file, through the real routes (dossier path, no images). */
export async function onboard(api: Api): Promise<string> {
  const app = await api.expect(call('POST', '/v1/kyc/applications', applicant()), 201);
  await api.expect(call('POST', `/v1/kyc/applications/${app.application_id}/submit`), 200);
  const got = await api.get(`/v1/kyc/applications/${app.application_id}`);
  if (got.state !== 'approved') throw new Error(`application ${app.application_id} is ${got.state}`);
  await api.expect(
    call('PUT', `/v1/investors/${got.investor_id}/suitability`, { questionnaire: BALANCED, risk_acknowledged: true }),
    200,
  );
  return got.investor_id as string;
}

/** Signed deposits (each at most 70,000 EGP); they complete once the clock has moved 3 minutes. */
export async function deposit(api: Api, investorId: string, egp: number): Promise<void> {
  for (let left = egp; left > 0; left -= 70_000) {
    await api.expect(
      call('POST', '/v1/transfers', {
        investor_id: investorId,
        direction: 'deposit',
        amount_micros: Math.min(left, 70_000) * EGP,
      }),
      201,
    );
  }
}

export interface Quote {
  price: number;
  tick: number;
  lower: number;
  upper: number;
}

export async function quote(api: Api, symbol: string): Promise<Quote> {
  const q = await api.get(`/v1/instruments/${symbol}/quote`);
  return { price: q.price_micros, tick: q.tick_micros, lower: q.band.lower_micros, upper: q.band.upper_micros };
}

/** A limit price `bps` basis points from the price (negative: below), on the grid, inside the band. */
export function limitAt(q: Quote, bps: number): number {
  const raw = (q.price * (10_000 + bps)) / 10_000;
  const onGrid = bps < 0 ? Math.floor(raw / q.tick) * q.tick : Math.ceil(raw / q.tick) * q.tick;
  return Math.min(q.upper, Math.max(q.lower, onGrid));
}

export interface Balances {
  cash: { settled: number; reserved: number; unsettled: number };
  assets: Map<string, { settled: number; reserved: number; unsettled: number }>;
}

export async function balances(api: Api, investorId: string): Promise<Balances> {
  const b = await api.get(`/v1/investors/${investorId}/balances`);
  const cash = b.cash.find((c: any) => c.asset === 'cash:EGP');
  const assets = new Map<string, { settled: number; reserved: number; unsettled: number }>();
  for (const s of [...b.securities, ...(b.funds ?? [])])
    assets.set(s.asset, { settled: s.settled, reserved: s.reserved, unsettled: s.unsettled });
  return { cash: { settled: cash.settled, reserved: cash.reserved, unsettled: cash.unsettled }, assets };
}

// ---- the store, read-only ------------------------------------------------------------------------

/** The daemon's SQLite file, read-only (WAL: safe while the daemon runs, and after a kill). */
export function openStore(home: string): Database.Database {
  return new Database(join(home, 'svc.db'), { readonly: true, fileMustExist: true });
}

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

const TERMINAL = "('filled', 'cancelled', 'rejected', 'expired')";

/**
 * Everything that must hold of a store, whatever moment a crash cut it at: the ledger's invariants
 * (the same checks as deps.ledger.checkInvariants), and "no half-applied request": every business
 * object (order, transfer, fund order) is named by exactly one stored idempotency answer and every
 * stored answer names an existing object; every stored success has exactly one audit entry and every
 * audit entry of a keyed request its stored answer; every ledger posting, hold and activity belongs to
 * an existing object; and each object's holds, postings, fills and activities agree with its state.
 * Returns the violations (empty when all hold).
 */
export function storeViolations(db: Database.Database, tenantId: string): string[] {
  const out: string[] = [];
  const rows = (label: string, sql: string, fmt: (r: any) => string = (r) => JSON.stringify(r)) => {
    for (const r of db.prepare(sql).all({ t: tenantId })) out.push(`${label}: ${fmt(r)}`);
  };
  for (const v of checkLedgerInvariants(db, tenantId).violations) out.push(`ledger: ${v}`);

  const funds = hasTable(db, 'fund_orders');
  const objects: Array<{ table: string; path: string; field: string; prefix: string }> = [
    { table: 'orders', path: '/v1/orders', field: 'order_id', prefix: 'ord_' },
    { table: 'transfers', path: '/v1/transfers', field: 'transfer_id', prefix: 'trf_' },
    ...(funds ? [{ table: 'fund_orders', path: '/v1/fund-orders', field: 'fund_order_id', prefix: 'fo_' }] : []),
  ];
  // the request <-> object <-> audit bijection, in maps (SQLite has no index on these JSON fields)
  const stored = db
    .prepare('SELECT method, path, key, status, response FROM idempotency WHERE tenant_id = ?')
    .all(tenantId) as Array<{ method: string; path: string; key: string; status: number; response: string }>;
  const audited = new Map<string, number>();
  for (const r of db
    .prepare(
      "SELECT json_extract(detail, '$.idempotency_key') AS k FROM audit_log WHERE tenant_id = ? AND k IS NOT NULL",
    )
    .all(tenantId) as Array<{ k: string }>) {
    audited.set(r.k, (audited.get(r.k) ?? 0) + 1);
  }
  const successes = new Set<string>();
  for (const r of stored) {
    if (r.status >= 400) continue;
    successes.add(r.key);
    const n = audited.get(r.key) ?? 0;
    if (n !== 1) out.push(`stored success with ${n} audit entries: ${r.method} ${r.path} ${r.key}`);
  }
  for (const k of audited.keys())
    if (!successes.has(k)) out.push(`audit entry of a keyed request without its stored success: ${k}`);
  for (const o of objects) {
    const named = new Map<string, number>();
    for (const r of stored) {
      if (r.method !== 'POST' || r.path !== o.path || r.status !== 201) continue;
      const id = (JSON.parse(r.response) as Record<string, unknown>)[o.field];
      if (typeof id !== 'string') out.push(`stored 201 of POST ${o.path} without ${o.field}: ${r.key}`);
      else named.set(id, (named.get(id) ?? 0) + 1);
    }
    const ids = new Set(
      (db.prepare(`SELECT id FROM ${o.table} WHERE tenant_id = ?`).all(tenantId) as Array<{ id: string }>).map(
        (r) => r.id,
      ),
    );
    for (const id of ids)
      if (named.get(id) !== 1) out.push(`${o.table} row without exactly one stored 201: ${id} (${named.get(id) ?? 0})`);
    for (const id of named.keys())
      if (!ids.has(id)) out.push(`stored 201 of POST ${o.path} naming a missing ${o.table} row: ${id}`);
    for (const [what, sql] of [
      ['posting', `SELECT DISTINCT ref FROM ledger_entries WHERE tenant_id = ? AND ref LIKE '${o.prefix}%'`],
      ['hold', `SELECT DISTINCT ref FROM ledger_holds WHERE tenant_id = ? AND ref LIKE '${o.prefix}%'`],
      ['activity', `SELECT DISTINCT ref_id AS ref FROM activities WHERE tenant_id = ? AND ref_id LIKE '${o.prefix}%'`],
    ]) {
      for (const r of db.prepare(sql).all(tenantId) as Array<{ ref: string }>)
        if (!ids.has(r.ref)) out.push(`${what} of a missing ${o.table} row: ${r.ref}`);
    }
  }

  // orders: holds, fills and FILL activities agree with the state
  rows(
    'order hold not named by its order',
    `SELECT h.id, h.ref FROM ledger_holds h JOIN orders o ON o.id = h.ref
     WHERE h.tenant_id = @t AND h.id IS NOT o.cash_hold_id AND h.id IS NOT o.shares_hold_id`,
  );
  rows(
    'order names a hold that does not exist',
    `SELECT o.id FROM orders o WHERE o.tenant_id = @t AND (
     (o.cash_hold_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ledger_holds h WHERE h.id = o.cash_hold_id AND h.ref
       = o.id))
     OR (o.shares_hold_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ledger_holds h WHERE h.id = o.shares_hold_id AND
       h.ref = o.id)))`,
  );
  rows(
    'final order with a pending hold',
    `SELECT o.id, o.state, h.id AS hold FROM orders o JOIN ledger_holds h ON h.ref = o.id
     WHERE o.tenant_id = @t AND o.state IN ${TERMINAL} AND h.state = 'pending'`,
  );
  rows(
    'open order whose hold is closed',
    `SELECT o.id, o.state, h.id AS hold, h.state AS hold_state FROM orders o JOIN ledger_holds h ON h.ref = o.id
     WHERE o.tenant_id = @t AND o.state NOT IN ${TERMINAL} AND h.state <> 'pending'`,
  );
  rows(
    'order filled_qty differs from its fills',
    `WITH f AS MATERIALIZED (SELECT order_id, SUM(qty) AS q, COUNT(*) AS n FROM fills WHERE tenant_id = @t GROUP BY
      order_id)
    SELECT o.id, o.filled_qty, COALESCE(f.q, 0) AS fills_qty FROM orders o LEFT JOIN f ON f.order_id = o.id
     WHERE o.tenant_id = @t AND o.filled_qty <> COALESCE(f.q, 0)`,
  );
  rows(
    'fills without exactly one FILL activity each',
    `WITH f AS MATERIALIZED (SELECT order_id, COUNT(*) AS n FROM fills WHERE tenant_id = @t GROUP BY order_id),
      a AS MATERIALIZED (SELECT ref_id, COUNT(*) AS n FROM activities WHERE tenant_id = @t AND activity_type =
        'FILL' GROUP BY ref_id)
    SELECT o.id, COALESCE(f.n, 0) AS fills, COALESCE(a.n, 0) AS fill_activities FROM orders o LEFT JOIN f ON
      f.order_id = o.id LEFT JOIN a ON a.ref_id = o.id
     WHERE o.tenant_id = @t AND COALESCE(f.n, 0) <> COALESCE(a.n, 0)`,
  );

  // transfers: a withdrawal's hold follows its state; money and activity exactly when completed
  rows(
    'withdrawal hold out of step with the transfer',
    `SELECT t.id, t.state, h.state AS hold_state FROM transfers t JOIN ledger_holds h ON h.id = t.hold_id
     WHERE t.tenant_id = @t AND NOT ((t.state = 'completed' AND h.state = 'posted') OR (t.state = 'failed' AND
       h.state = 'voided')
       OR (t.state NOT IN ('completed', 'failed') AND h.state = 'pending'))`,
  );
  rows(
    'transfer postings or activity out of step with its state',
    `WITH e AS MATERIALIZED (SELECT ref, COUNT(*) AS n FROM ledger_entries WHERE tenant_id = @t AND kind IN
      ('deposit', 'withdrawal') GROUP BY ref),
      a AS MATERIALIZED (SELECT ref_id, COUNT(*) AS n FROM activities WHERE tenant_id = @t AND activity_type IN
        ('CSD', 'CSW') GROUP BY ref_id)
    SELECT t.id, t.direction, t.state, COALESCE(e.n, 0) AS postings, COALESCE(a.n, 0) AS activities FROM transfers t
      LEFT JOIN e ON e.ref = t.id LEFT JOIN a ON a.ref_id = t.id
     WHERE t.tenant_id = @t AND (COALESCE(e.n, 0) <> (t.state = 'completed') OR COALESCE(a.n, 0) <> (t.state =
       'completed'))`,
  );
  if (funds) {
    rows(
      'fund order postings or activity out of step with its state',
      `WITH e AS MATERIALIZED (SELECT ref, COUNT(*) AS n FROM ledger_entries WHERE tenant_id = @t AND ref LIKE
        'fo_%' GROUP BY ref),
        a AS MATERIALIZED (SELECT ref_id, COUNT(*) AS n FROM activities WHERE tenant_id = @t AND activity_type IN
          ('SUB', 'RED') GROUP BY ref_id)
      SELECT f.id, f.state, COALESCE(e.n, 0) AS postings, COALESCE(a.n, 0) AS activities FROM fund_orders f LEFT
        JOIN e ON e.ref = f.id LEFT JOIN a ON a.ref_id = f.id
       WHERE f.tenant_id = @t AND NOT ((f.state = 'settled' AND COALESCE(e.n, 0) = 2 AND COALESCE(a.n, 0) = 1) OR
         (f.state <> 'settled' AND COALESCE(e.n, 0) = 0 AND COALESCE(a.n, 0) = 0))`,
    );
  }
  return out;
}

/** The stored idempotency answer of a keyed request, or null when nothing was stored. */
export function storedAnswer(
  db: Database.Database,
  tenantId: string,
  c: Call,
): { status: number; response: string } | null {
  const path = splitUrl(c.url).path;
  const r = db
    .prepare('SELECT status, response FROM idempotency WHERE tenant_id = ? AND method = ? AND path = ? AND key = ?')
    .get(tenantId, c.method, path, c.key) as { status: number; response: string } | undefined;
  return r ?? null;
}
