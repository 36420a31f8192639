// The generic request pipeline every route runs through: authenticate (B, I, S or operator grant),
// validate with zod, then run the handler — for state changes inside one transaction that also holds
// the idempotency record, the audit entry and the journal entry.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../deps.js';
import type { ErrorCode } from '../contract/errors.js';
import { SIGNATURE_WINDOW_S, sha256Hex, splitUrl, verifySignature } from '../contract/signing.js';
import { AppError, errorBody } from './errors.js';
import { isOutcome } from '../contract/outcome.js';
import { isMutating, type Operator, type Reply, type RouteCtx, type RouteDef } from './route.js';
import { createGroupCommit } from '../store/group-commit.js';
import { REPLAY_HEADER, type ReplayTicket } from '../sandbox/journal.js';

const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string | Buffer;
  }
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function authenticateTenant(deps: Deps, req: FastifyRequest): string {
  const auth = header(req, 'authorization');
  const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  const tenant = m ? deps.keys.tenantForKey(m[1]) : null;
  if (!tenant) throw new AppError('UNAUTHENTICATED', auth ? 'The bearer key is not known.' : 'Send Authorization: Bearer <api_key>.');
  return tenant;
}

const BODY_SHA256 = Symbol('bodySha256');

/** hex(sha256(raw body)), computed once per request (the signature and the idempotency record use it). */
function bodySha256(req: FastifyRequest): string {
  const r = req as FastifyRequest & { [BODY_SHA256]?: string };
  return (r[BODY_SHA256] ??= sha256Hex(req.rawBody ?? ''));
}

function idempotencyKey(req: FastifyRequest): string {
  const key = header(req, 'idempotency-key');
  if (key === undefined || key === '') throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  if (key.length > 255 || /[\x00-\x1f\x7f]/.test(key)) throw new AppError('IDEMPOTENCY_KEY_INVALID');
  return key;
}

function verifyRequestSignature(deps: Deps, req: FastifyRequest, tenantId: string, key: string, bodySha256: string): void {
  const ts = header(req, 'x-svc-timestamp');
  const sig = header(req, 'x-svc-signature');
  if (!ts || !sig) throw new AppError('SIGNATURE_INVALID', 'Send X-Svc-Timestamp and X-Svc-Signature on money endpoints.');
  if (!/^\d{1,12}$/.test(ts)) throw new AppError('SIGNATURE_INVALID', 'X-Svc-Timestamp must be integer Unix seconds.');
  const serverS = Math.floor(deps.wallNow() / 1000);
  if (Math.abs(serverS - Number(ts)) > SIGNATURE_WINDOW_S) {
    throw new AppError('SIGNATURE_EXPIRED', `X-Svc-Timestamp ${ts} is more than ${SIGNATURE_WINDOW_S} s from server time ${serverS}.`);
  }
  const { path, rawQuery } = splitUrl(req.url);
  const body = req.rawBody ?? '';
  const ok = verifySignature(sig, deps.keys.signingSecrets(tenantId), { timestamp: ts, method: req.method, path, rawQuery, idempotencyKey: key, body, bodySha256 });
  if (!ok) throw new AppError('SIGNATURE_INVALID', 'The signature does not match the request.');
}

function authenticateOperator(deps: Deps, req: FastifyRequest, realm: 'admin' | 'console', grant: string): Operator {
  const name = realm === 'admin' ? 'x-admin-key' : 'x-console-key';
  const key = header(req, name);
  const op = key ? deps.keys.operatorForKey(key) : null;
  if (!op || op.realm !== realm) throw new AppError('UNAUTHENTICATED', `Send a valid ${name === 'x-admin-key' ? 'X-Admin-Key' : 'X-Console-Key'}.`);
  if (!op.grants.has(grant)) throw new AppError('FORBIDDEN', `The identity ${op.name} lacks the grant ${grant}.`);
  return op;
}

function parsePart<T>(def: RouteDef, schema: z.ZodType<T> | undefined, value: unknown, where: 'params' | 'query' | 'body'): T {
  if (!schema) return value as T;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const code: ErrorCode = def.issueCode?.(issue.path, where, issue) ?? 'VALIDATION_FAILED';
  const path = [where, ...issue.path.map(String)].join('.');
  throw new AppError(code, `${path}: ${issue.message}`);
}

/** A handler's answer as a reply: an Outcome is unwrapped (a refusal becomes an AppError here, at the edge). */
function toReply(def: RouteDef, out: unknown): Reply {
  if (isOutcome(out)) {
    if (!out.ok) throw new AppError(out.code, out.message, out.headers);
    return toReply(def, out.value);
  }
  if (out && typeof out === 'object' && 'status' in out && ('body' in out || 'raw' in out)) return out as Reply;
  return { status: def.status ?? 200, body: out };
}

function errorReply(err: AppError, requestId: string): Reply {
  return { status: err.status, body: errorBody(err.code, err.message, requestId), headers: err.headers };
}

export function createPipeline(deps: Deps) {
  const idemGet = deps.db.prepare<[string, string, string, string], { body_hash: string; status: number; response: string; created_ms: number }>(
    'SELECT body_hash, status, response, created_ms FROM idempotency WHERE tenant_id = ? AND method = ? AND path = ? AND key = ?',
  );
  const idemPut = deps.db.prepare(
    'INSERT OR REPLACE INTO idempotency (tenant_id, method, path, key, body_hash, status, response, created_ms) VALUES (?,?,?,?,?,?,?,?)',
  );

  /** After a rollback no unit saw: what memory holds of the database may name what is gone. */
  function forgetCaches(): void {
    deps.reload();
  }

  // One savepoint per request inside the group-commit batch (prepared once, as better-sqlite3's own
  // transaction helper does).
  const savepoint = deps.db.prepare('SAVEPOINT request');
  const rollbackTo = deps.db.prepare('ROLLBACK TO request');
  const release = deps.db.prepare('RELEASE request');

  /**
   * Runs a mutating handler as one unit (a savepoint inside the group-commit batch): the state change,
   * the idempotency record, the audit entry and the journal entry stand or fall together. A business
   * error rolls the change back to the savepoint and keeps the rest; any other error rolls back all.
   */
  function runMutation(def: RouteDef, ctx: RouteCtx, req: FastifyRequest, idemKey: string | null): Reply & { replayed?: boolean; json?: string } {
    const { path, rawQuery } = splitUrl(req.url);
    const bodyHash = bodySha256(req);
    const simMs = deps.clock.now();
    if (idemKey !== null) {
      const prior = idemGet.get(ctx.tenantId!, req.method, path, idemKey);
      if (prior && prior.created_ms >= simMs - IDEMPOTENCY_TTL_MS) {
        if (prior.body_hash !== bodyHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
        return { status: prior.status, body: JSON.parse(prior.response), json: prior.response, replayed: true };
      }
    }
    savepoint.run();
    try {
      let reply: Reply;
      try {
        reply = deps.ids.unit(() => deps.ledger.unit(() => toReply(def, def.handler(ctx))));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        rollbackTo.run();
        reply = errorReply(err, ctx.requestId);
      }
      let json: string | undefined;
      if (idemKey !== null) {
        json = JSON.stringify(reply.body ?? null);
        idemPut.run(ctx.tenantId!, req.method, path, idemKey, bodyHash, reply.status, json, deps.clock.now());
      }
      if (reply.status < 400) {
        deps.audit.append({
          actor: ctx.actor,
          action: `${def.method} ${def.url}`,
          subject: path,
          tenantId: ctx.tenantId,
          detail: idemKey ? { status: reply.status, idempotency_key: idemKey } : { status: reply.status },
        });
      }
      // The journal: every request that reached its handler, refusals included (a business refusal
      // stores its idempotency answer, so a replay must re-run it). Never credentials or signatures.
      deps.journal.record({
        requestId: ctx.requestId, simMs, method: req.method, route: `${def.method} ${def.url}`, path, query: rawQuery,
        principal: ctx.actor, tenantId: ctx.tenantId, idempotencyKey: idemKey, contentType: header(req, 'content-type') ?? null,
        body: req.rawBody, status: reply.status,
      });
      release.run();
      return reply.body === undefined || reply.raw ? reply : { ...reply, json };
    } catch (err) {
      if (deps.db.inTransaction) {
        rollbackTo.run();
        release.run();
      }
      forgetCaches();
      throw err;
    }
  }

  /** A journal replay's internal request: the ticket the replay route issued for it, or null. */
  function replayTicket(req: FastifyRequest): ReplayTicket | null {
    const token = header(req, REPLAY_HEADER);
    if (token === undefined) return null;
    const ticket = deps.journal.takeTicket(token);
    if (!ticket) throw new AppError('UNAUTHENTICATED', 'The replay ticket is not known (tickets are issued by POST /admin/sandbox/replay-entry, once).');
    return ticket;
  }

  /** Runs a replayed request as its recorded principal: no keys or signature, the same grants. */
  function replayPrincipal(def: RouteDef, ticket: ReplayTicket): { tenantId: string | null; operator: Operator | null } {
    const p = ticket.principal;
    const auth = def.auth;
    if (auth === 'B' || auth === 'I' || auth === 'S') {
      if (p.kind !== 'tenant') throw new AppError('UNAUTHENTICATED', `The recorded principal cannot call ${def.method} ${def.url}: it needs a tenant.`);
      return { tenantId: p.tenantId, operator: null };
    }
    if (auth === 'none') return { tenantId: null, operator: null };
    if (p.kind !== 'operator' || p.operator.realm !== auth.realm) throw new AppError('UNAUTHENTICATED', `The recorded principal cannot call ${def.method} ${def.url}: it needs an ${auth.realm} operator.`);
    if (!p.operator.grants.has(auth.grant)) throw new AppError('FORBIDDEN', `The identity ${p.operator.name} lacks the grant ${auth.grant}.`);
    return { tenantId: null, operator: p.operator };
  }

  /** json: the body already serialized (for the idempotency record), sent as is. */
  type Out = Reply & { replayed?: boolean; json?: string };

  function execute(def: RouteDef, req: FastifyRequest): Out | Promise<Out> {
    let requestId = String(req.id);
    try {
      let tenantId: string | null = null;
      let operator: Operator | null = null;
      let idemKey: string | null = null;
      const auth = def.auth;
      const ticket = replayTicket(req);
      if (ticket) {
        requestId = ticket.requestId;
        ({ tenantId, operator } = replayPrincipal(def, ticket));
        if (auth === 'I' || auth === 'S') idemKey = idempotencyKey(req);
      } else if (auth === 'B' || auth === 'I' || auth === 'S') {
        tenantId = authenticateTenant(deps, req);
        if (auth !== 'B') idemKey = idempotencyKey(req);
        if (auth === 'S') verifyRequestSignature(deps, req, tenantId, idemKey!, bodySha256(req));
      } else if (auth !== 'none') {
        operator = authenticateOperator(deps, req, auth.realm, auth.grant);
      }
      if (def.body && !def.rawBody && typeof req.rawBody !== 'string' && req.rawBody !== undefined) {
        throw new AppError('UNSUPPORTED_CONTENT_TYPE', 'Send the body as application/json.');
      }
      deps.scheduler.catchUp();
      const rawBodyValue = def.rawBody ? (Buffer.isBuffer(req.rawBody) ? req.rawBody : Buffer.from(req.rawBody ?? '')) : null;
      const ctx: RouteCtx = {
        params: parsePart(def, def.params, req.params, 'params'),
        query: parsePart(def, def.query, req.query, 'query'),
        body: def.rawBody ? undefined : parsePart(def, def.body, req.body ?? (def.body ? {} : undefined), 'body'),
        raw: rawBodyValue,
        tenantId,
        operator,
        requestId,
        headers: req.headers,
        actor: operator ? `operator:${operator.name}` : tenantId ? `tenant:${tenantId}` : 'anonymous',
      };
      if (def.outsideBatch) {
        ctx.inject = (opts) => req.server.inject(opts);
        const out = def.handler(ctx);
        if (!(out instanceof Promise)) return toReply(def, out);
        return out.then((v) => toReply(def, v)).catch((err: unknown) => {
          if (err instanceof AppError) return errorReply(err, requestId);
          throw err;
        });
      }
      if (!isMutating(def)) return toReply(def, def.handler(ctx));
      return runMutation(def, ctx, req, idemKey);
    } catch (err) {
      if (err instanceof AppError) return errorReply(err, requestId);
      throw err;
    }
  }

  const group = createGroupCommit(deps.db, forgetCaches);

  return async function handle(def: RouteDef, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    // A state-changing request joins the open batch and is answered only after the batch commits; a
    // read waits for an open batch to settle first, so it never sees writes that are not durable.
    // (An outsideBatch route waits like a read and joins nothing: see RouteDef.outsideBatch.)
    const committed = isMutating(def) && !def.outsideBatch ? group.join() : null;
    if (!committed && group.isOpen()) await group.settled();
    let out: Out;
    try {
      const r = execute(def, req);
      out = r instanceof Promise ? await r : r;
    } finally {
      if (committed) await committed;
    }
    reply.code(out.status);
    if (out.headers) reply.headers(out.headers);
    if (out.replayed) reply.header('idempotent-replayed', 'true');
    if (out.raw) {
      reply.type(out.contentType ?? 'application/octet-stream');
      reply.send(out.raw);
      return;
    }
    if (out.status === 204) {
      reply.send();
      return;
    }
    reply.type('application/json; charset=utf-8');
    reply.send(out.json ?? JSON.stringify(out.body));
  };
}
