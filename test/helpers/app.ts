// Test harness: a real app (buildApp + inject) on a real SQLite file in a temp directory, with the
// bootstrap credentials and a request helper that signs and keys money routes like a client would.
import { chmodSync, constants, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../daemon/app.js';
import type { AnswerTally } from '../../daemon/http/answer-check.js';
import { createDeps, type Deps } from '../../daemon/deps.js';
import { sign, splitUrl } from '../../daemon/contract/signing.js';
import { tenantAuthFor } from '../../daemon/contract/routes-auth.js';
import type { BootstrapResult } from '../../daemon/tenancy/bootstrap.js';
import type { AiProvider } from '../../daemon/contract/schemas/assistant.js';
import { needsStepUp, stepOf, stepUpCode } from '../../daemon/contract/grants.js';
import { templateProblem } from '../../daemon/store/template.js';

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
  ai?: AiProvider;
  /** Bound on one call to an openai: provider (default 5,000 ms). */
  aiTimeoutMs?: number;
  /**
   * false: build the app without the answer checker; 'planted': with it, but its tally is kept out of the
   * suite's sum (the checker's own test plants wrong answers). Only test/api/answer-checker.test.ts sets it.
   */
  checkAnswers?: false | 'planted';
}

export type As = 'tenant' | 'admin' | 'dealer' | 'security' | 'approver' | 'compliance' | 'auditor' | 'none';

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
  /** false: send no X-Step-Up-Code even on a route that needs one. */
  stepUp?: boolean;
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
  /** The step-up secret of an operator key (bootstrap identities and addConsoleOperator ones). */
  stepUpSecrets: Map<string, string>;
  /** What the answer checker checked so far (null without it). */
  answers(): AnswerTally | null;
  /** The next unused step-up code of an operator key (moves the test's wall clock a step when needed). */
  stepUpCodeFor(operatorKey: string): string;
  close(opts?: { keepDir?: boolean }): Promise<void>;
}

let keyCounter = 0;

/**
 * Every app a test builds checks its answers against their schemas (daemon/http/answer-check.ts): an
 * answer off its schema fails the request that caused it. The tally goes where vitest's global setup
 * adds them up (SVC_ANSWER_CHECK_DIR).
 */
export function answerCheck(): { checkAnswers: { countDir?: string } } {
  return { checkAnswers: { countDir: tallyDir() } };
}

let fileTallyDir: string | undefined;

/**
 * This test file's own directory under SVC_ANSWER_CHECK_DIR: the checker names a tally by pid and a count
 * it keeps in its module, and a worker runs many files (test/helpers/file-setup.ts), each with the
 * checker's module loaded again, so two files' tallies named alike in one directory would overwrite.
 */
function tallyDir(): string | undefined {
  const dir = process.env.SVC_ANSWER_CHECK_DIR;
  if (!dir) return undefined;
  fileTallyDir ??= mkdtempSync(join(dir, 'file-'));
  return fileTallyDir;
}

/**
 * A test's wall clock. Each step-up code is accepted once and a new one comes every 30 s, so when a
 * test takes more step-up actions than the current and next steps allow, the clock the app and the
 * helper share moves on to the next step (only then: a test that takes none sees the real time).
 */
function stepUpClock(base: () => number) {
  let skewMs = 0;
  const lastStep = new Map<string, number>();
  const now = () => base() + skewMs;
  return {
    now,
    code(secret: string): string {
      let step = Math.max(stepOf(now()), (lastStep.get(secret) ?? -1) + 1);
      if (step > stepOf(now()) + 1) skewMs += (step - 1) * 30_000 - now() + 1;
      step = Math.max(step, stepOf(now()));
      lastStep.set(secret, step);
      return stepUpCode(secret, { step });
    },
  };
}

/** The migrated database the build writes (the global setup builds before any file runs). */
const TEMPLATE = fileURLToPath(new URL('../../dist/daemon/template.db', import.meta.url));
let templateUsable: boolean | undefined;

/**
 * A new temp directory whose svc.db is a copy of the build's template, as a daemon's first start makes
 * it (daemon/store/template.ts): 70-90 ms of migrations saved for every app a test makes, hundreds in
 * the suite. Only when the template is exactly these sources' schema (its version and digest, checked
 * once per file); otherwise, and for a `dir` the caller gives, createDeps runs the migrations.
 */
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  templateUsable ??= templateProblem(TEMPLATE) === null;
  if (templateUsable) {
    copyFileSync(TEMPLATE, join(dir, 'svc.db'), constants.COPYFILE_EXCL);
    chmodSync(join(dir, 'svc.db'), 0o600);
  }
  return dir;
}

export async function makeApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dir = opts.dir ?? freshDir();
  const kek = opts.kek ?? randomBytes(32);
  const wall = stepUpClock(opts.wallNow ?? Date.now);
  const deps = createDeps({
    dbFile: join(dir, 'svc.db'),
    kek,
    wallNow: wall.now,
    ai: opts.ai,
    aiTimeoutMs: opts.aiTimeoutMs,
    sandbox: {
      seed: opts.seed ?? 42,
      startMs: Date.parse(opts.start ?? DEFAULT_START),
      clockMode: opts.clock ?? 'frozen',
      speedMilli: opts.speedMilli ?? 1000,
    },
  });
  let answers: AnswerTally | null = null;
  const app = buildApp(deps, {
    ...(opts.checkAnswers === false ? {} : opts.checkAnswers === 'planted' ? { checkAnswers: true } : answerCheck()),
    answerTally: (tally) => (answers = tally),
  });
  await app.ready();
  // null when the app reopens an existing home (the credentials were handed out at its first start)
  const creds = deps.bootstrap!;
  const o = creds?.operators;
  const stepUpSecrets = new Map<string, string>(
    o
      ? [
          [o.admin_key, creds.step_up.admin],
          [o.dealer_key, creds.step_up.dealer],
          [o.security_key, creds.step_up.security],
          [o.approver_key, creds.step_up.approver],
          [o.compliance_key, creds.step_up.compliance],
          [o.auditor_key, creds.step_up.auditor],
        ]
      : [],
  );
  const stepUpCodeFor = (key: string) => wall.code(stepUpSecrets.get(key) ?? '');

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
          const timestamp = String(Math.floor(wall.now() / 1000));
          headers['x-svc-timestamp'] ??= timestamp;
          headers['x-svc-signature'] ??= sign(tenant.signing_secret, {
            timestamp,
            method,
            path,
            rawQuery,
            idempotencyKey: headers['idempotency-key'],
            body: payload ?? '',
          });
        }
      }
    } else if (as === 'dealer') headers['x-console-key'] ??= creds.operators.dealer_key;
    else if (as !== 'none') headers['x-admin-key'] ??= creds.operators[`${as}_key` as 'admin_key'];
    const operatorKey = headers['x-admin-key'] ?? headers['x-console-key'];
    if (
      operatorKey &&
      o.stepUp !== false &&
      needsStepUp(method, splitUrl(url).path) &&
      stepUpSecrets.has(operatorKey)
    ) {
      headers['x-step-up-code'] ??= stepUpCodeFor(operatorKey);
    }
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
    stepUpSecrets,
    answers: () => answers,
    stepUpCodeFor,
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

/** security proposes `action` with `params`, the approver approves it (stepped up); returns the result. */
export async function proposeAndApprove(
  t: TestApp,
  action: string,
  params: Record<string, unknown>,
  reason = 'test',
): Promise<Record<string, unknown>> {
  const p = await t.req('POST', '/admin/actions', { as: 'security', body: { action, params, reason } });
  if (p.status !== 201) throw new Error(`propose ${action} failed: ${p.status} ${p.text}`);
  const a = await t.req('POST', `/admin/actions/${p.body.action_id}/approve`, { as: 'approver', body: {} });
  if (a.status !== 200) throw new Error(`approve ${action} failed: ${a.status} ${a.text}`);
  return a.body.result;
}

/**
 * A console (dealer-desk) identity with exactly these grants, scoped to brokerId (null: every broker),
 * with a step-up secret the request helper uses; returns its key.
 */
export function addConsoleOperator(
  t: TestApp,
  name: string,
  grants: string[],
  brokerId: string | null = t.creds.broker_id,
): string {
  return addOperator(t, name, {
    realm: 'console',
    grants,
    scope: brokerId ? `broker:${brokerId}` : 'global',
    brokerId,
  });
}

/** An operator identity of either realm holding exactly these grants in one scope; returns its key. */
export function addOperator(
  t: TestApp,
  name: string,
  o: { realm: 'admin' | 'console'; grants: string[]; scope: string; brokerId?: string | null },
): string {
  const key = `${o.realm === 'admin' ? 'ak' : 'ck'}_test_${name}`;
  const id = `opr_test_${name}`;
  const role = o.realm === 'admin' ? 'admin' : 'dealer';
  t.deps.db
    .prepare(
      'INSERT INTO operators (id, name, role, realm, key_hash, grants, broker_id, created_at) VALUES (?, ?, ?, ' +
        "?, ?, ?, ?, '2026-11-22T09:00:00+02:00')",
    )
    .run(
      id,
      name,
      role,
      o.realm,
      createHash('sha256').update(key).digest('hex'),
      JSON.stringify(o.grants),
      o.brokerId ?? null,
    );
  const ins = t.deps.db.prepare(
    "INSERT INTO operator_grants (operator_id, grant_name, scope, role, granted_at) VALUES (?, ?, ?, 'test', " +
      "'2026-11-22T09:00:00+02:00')",
  );
  for (const g of o.grants) ins.run(id, g, o.scope);
  t.stepUpSecrets.set(key, t.deps.keys.identities.issueStepUpSecret(id));
  return key;
}
