// The generic request pipeline every route runs through: authenticate (B, I, S or operator grant;
// http/auth.ts), catch the scheduler up, validate with the route's zod schemas, then run the handler —
// for state changes as one unit with the idempotency record, the audit entry and the journal entry
// (http/mutation.ts), inside the group-commit batch (daemon/store/group-commit.ts). The pipeline knows
// routes only as daemon/contract/route.ts describes them, and declares what it needs of the rest of
// the daemon (PipelineDeps) instead of importing it. docs/architecture.md, "Request path".
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../store/db.js';
import { createGroupCommit } from '../store/group-commit.js';
import type { Scheduler } from '../sim/scheduler.js';
import { isMutating, type RouteCtx, type RouteDef } from '../contract/route.js';
import { REPLAY_HEADER, type RequestJournal } from '../contract/request-journal.js';
import type { Audit } from '../store/audit.js';
import { mayHoldBadText } from '../contract/text.js';
import { AppError } from './errors.js';
import { authenticate, replayTicket, type AuthDeps, type Principal } from './auth.js';
import { createMutationRunner, type MutationDeps } from './mutation.js';
import { errorReply, parsePart, refuseBadText, toReply, type Out } from './reply.js';
import { noteCaller, notePayload } from './inspect.js';
import { createFaultGate, isTenantRoute, type FaultGateDeps } from './faults.js';

export interface PipelineDeps
  extends Omit<AuthDeps, 'journal'>,
    Omit<MutationDeps, 'journal' | 'keys'>,
    Omit<FaultGateDeps, 'keys'> {
  db: Db;
  scheduler: Pick<Scheduler, 'catchUp'>;
  journal: RequestJournal;
  audit: Pick<Audit, 'append' | 'actingFor' | 'openBatch' | 'closeBatch' | 'afterCommit'>;
}

function buildCtx(def: RouteDef, req: FastifyRequest, who: Principal, requestId: string): RouteCtx {
  const { tenantId, operator } = who;
  // text first, in every part the route reads, before its schema (daemon/contract/text.ts); a part the
  // route has no schema for is never read, so nothing in it is refused (its documented codes hold)
  if (def.params) refuseBadText(def, 'params', req.params);
  if (def.query) refuseBadText(def, 'query', req.query);
  if (def.body && !def.rawBody && mayHoldBadText(req.rawBody)) refuseBadText(def, 'body', req.body);
  return {
    params: parsePart(def, def.params, req.params, 'params'),
    query: parsePart(def, def.query, req.query, 'query'),
    body: def.rawBody ? undefined : parsePart(def, def.body, req.body ?? (def.body ? {} : undefined), 'body'),
    raw: def.rawBody ? (Buffer.isBuffer(req.rawBody) ? req.rawBody : Buffer.from(req.rawBody ?? '')) : null,
    tenantId,
    operator,
    requestId,
    headers: req.headers,
    actor: operator ? `operator:${operator.name}` : tenantId ? `tenant:${tenantId}` : 'anonymous',
    ...(who.stepUp ? { stepUp: who.stepUp } : {}),
  };
}

/** An outsideBatch route: runs like a read and may answer later (a Promise). */
function runOutsideBatch(def: RouteDef, ctx: RouteCtx): Out | Promise<Out> {
  const out = def.handler(ctx);
  if (!(out instanceof Promise)) return toReply(def, out);
  return out
    .then((v) => toReply(def, v))
    .catch((err: unknown) => {
      if (err instanceof AppError) return errorReply(err, ctx.requestId);
      throw err;
    });
}

/** The answer; its payload is noted for the request inspector (its routes have no onSend hook: http/inspect.ts). */
function send(reply: FastifyReply, out: Out): void {
  reply.code(out.status);
  if (out.headers) reply.headers(out.headers);
  if (out.replayed) reply.header('idempotent-replayed', 'true');
  if (out.stream) {
    // a stream (the sandbox's server-sent events): fastify pipes it and destroys it when the client goes
    reply.type(out.contentType ?? 'application/octet-stream');
    notePayload(reply.request, out.stream);
    reply.send(out.stream);
    return;
  }
  if (out.raw) {
    reply.type(out.contentType ?? 'application/octet-stream');
    notePayload(reply.request, out.raw);
    reply.send(out.raw);
    return;
  }
  if (out.status === 204) {
    reply.send();
    return;
  }
  reply.type('application/json; charset=utf-8');
  const payload = out.json ?? JSON.stringify(out.body);
  notePayload(reply.request, payload);
  reply.send(payload);
}

export function createPipeline(deps: PipelineDeps) {
  const runMutation = createMutationRunner(deps);
  // the audit chain's signed head is written once per batch, just before its COMMIT (store/audit.ts)
  const group = createGroupCommit(deps.db, () => deps.reload(), {
    onOpen: () => deps.audit.openBatch(),
    beforeCommit: () => deps.audit.closeBatch(),
    afterCommit: () => deps.audit.afterCommit(),
  });

  function execute(def: RouteDef, req: FastifyRequest): Out | Promise<Out> {
    let requestId = String(req.id);
    try {
      const ticket = replayTicket(deps, req);
      if (ticket) requestId = ticket.requestId;
      const who = authenticate(deps, def, req, ticket);
      noteCaller(req, who, requestId);
      if (def.body && !def.rawBody && typeof req.rawBody !== 'string' && req.rawBody !== undefined) {
        throw new AppError('UNSUPPORTED_CONTENT_TYPE', 'Send the body as application/json.');
      }
      deps.scheduler.catchUp();
      const ctx = buildCtx(def, req, who, requestId);
      if (def.outsideBatch) return runOutsideBatch(def, ctx);
      if (!isMutating(def)) return toReply(def, def.handler(ctx));
      // A replayed entry is audited as the operator replaying it, on the recorded principal's behalf.
      const mutate = ticket
        ? () => deps.audit.actingFor(ticket.replayedBy, () => runMutation(def, ctx, req, who.idemKey))
        : () => runMutation(def, ctx, req, who.idemKey);
      return def.alone ? group.alone(mutate) : mutate();
    } catch (err) {
      if (err instanceof AppError) return errorReply(err, requestId);
      throw err;
    }
  }

  /** The request run to its answer: for a write, once its batch has committed. */
  async function answer(def: RouteDef, req: FastifyRequest): Promise<Out> {
    // A state-changing request joins the open batch and is answered only after the batch commits; a
    // read waits for an open batch to settle first, so it never sees writes that are not durable.
    // (An outsideBatch route waits like a read and joins nothing: see RouteDef.outsideBatch.)
    // (An alone route waits until no batch is open, then runs as a transaction of its own.)
    const alone = isMutating(def) && def.alone === true;
    const committed = isMutating(def) && !def.outsideBatch && !alone ? group.join() : null;
    if (!committed && group.isOpen()) await group.settled();
    while (alone && group.isOpen()) await group.settled();
    let out: Out;
    try {
      const r = execute(def, req);
      out = r instanceof Promise ? await r : r;
    } finally {
      if (committed) await committed;
    }
    if (def.answerAfter) await def.answerAfter();
    return out;
  }

  const faults = createFaultGate(deps);
  async function handle(def: RouteDef, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    // faults and the rate limit (docs/faults.md): one check when there is no rule, limit or report;
    // a journal replay's entry passes (a fault that stopped a request left no entry to replay)
    if (deps.faults.armed && isTenantRoute(def) && req.headers[REPLAY_HEADER] === undefined)
      return faults.handle(
        def,
        req,
        reply,
        () => answer(def, req),
        (out) => send(reply, out),
      );
    send(reply, await answer(def, req));
  }
  return Object.assign(handle, { closeFaults: () => faults.closeAll() });
}
