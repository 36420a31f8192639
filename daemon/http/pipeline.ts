// The generic request pipeline every route runs through: authenticate (B, I, S or operator grant),
// validate with zod, then run the handler — for state changes inside one transaction that also holds
// the idempotency record and the audit entry.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../deps.js';
import type { ErrorCode } from '../contract/errors.js';
import { SIGNATURE_WINDOW_S, sha256Hex, splitUrl, verifySignature } from '../contract/signing.js';
import { AppError, errorBody } from './errors.js';
import { isMutating, type Operator, type Reply, type RouteCtx, type RouteDef } from './route.js';
import { createGroupCommit } from '../store/group-commit.js';

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

function idempotencyKey(req: FastifyRequest): string {
  const key = header(req, 'idempotency-key');
  if (key === undefined || key === '') throw new AppError('IDEMPOTENCY_KEY_REQUIRED');
  if (key.length > 255 || /[\x00-\x1f\x7f]/.test(key)) throw new AppError('IDEMPOTENCY_KEY_INVALID');
  return key;
}

function verifyRequestSignature(deps: Deps, req: FastifyRequest, tenantId: string, key: string): void {
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
  const ok = verifySignature(sig, deps.keys.signingSecrets(tenantId), { timestamp: ts, method: req.method, path, rawQuery, idempotencyKey: key, body });
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

function toReply(def: RouteDef, out: unknown): Reply {
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

  /**
   * Runs a mutating handler as one unit (a savepoint inside the group-commit batch): the state change,
   * the idempotency record and the audit entry stand or fall together. Business errors roll back the
   * change but keep the record.
   */
  function runMutation(def: RouteDef, ctx: RouteCtx, req: FastifyRequest, idemKey: string | null): Reply & { replayed?: boolean } {
    const path = splitUrl(req.url).path;
    const bodyHash = sha256Hex(req.rawBody ?? '');
    return deps.db.transaction((): Reply & { replayed?: boolean } => {
      if (idemKey !== null) {
        const prior = idemGet.get(ctx.tenantId!, req.method, path, idemKey);
        if (prior && prior.created_ms >= deps.clock.now() - IDEMPOTENCY_TTL_MS) {
          if (prior.body_hash !== bodyHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
          return { status: prior.status, body: JSON.parse(prior.response), replayed: true };
        }
      }
      let reply: Reply;
      try {
        reply = deps.db.transaction(() => toReply(def, def.handler(ctx)))();
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        reply = errorReply(err, ctx.requestId);
      }
      if (idemKey !== null) idemPut.run(ctx.tenantId!, req.method, path, idemKey, bodyHash, reply.status, JSON.stringify(reply.body ?? null), deps.clock.now());
      if (reply.status < 400) {
        deps.audit.append({
          actor: ctx.actor,
          action: `${def.method} ${def.url}`,
          subject: path,
          tenantId: ctx.tenantId,
          detail: idemKey ? { status: reply.status, idempotency_key: idemKey } : { status: reply.status },
        });
      }
      return reply;
    })();
  }

  function execute(def: RouteDef, req: FastifyRequest): Reply & { replayed?: boolean } {
    const requestId = String(req.id);
    try {
      let tenantId: string | null = null;
      let operator: Operator | null = null;
      let idemKey: string | null = null;
      const auth = def.auth;
      if (auth === 'B' || auth === 'I' || auth === 'S') {
        tenantId = authenticateTenant(deps, req);
        if (auth !== 'B') idemKey = idempotencyKey(req);
        if (auth === 'S') verifyRequestSignature(deps, req, tenantId, idemKey!);
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
      if (!isMutating(def)) return toReply(def, def.handler(ctx));
      return runMutation(def, ctx, req, idemKey);
    } catch (err) {
      if (err instanceof AppError) return errorReply(err, requestId);
      throw err;
    }
  }

  const group = createGroupCommit(deps.db);

  return async function handle(def: RouteDef, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    // A state-changing request joins the open batch and is answered only after the batch commits; a
    // read waits for an open batch to settle first, so it never sees writes that are not durable.
    const committed = isMutating(def) ? group.join() : null;
    if (!committed && group.isOpen()) await group.settled();
    let out: Reply & { replayed?: boolean };
    try {
      out = execute(def, req);
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
    reply.send(JSON.stringify(out.body));
  };
}
