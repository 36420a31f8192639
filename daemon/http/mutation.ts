// A state-changing request as one unit: a savepoint inside the group-commit batch holding the state
// change, the idempotency record, the audit entry and the journal entry, which stand or fall together.
// A business refusal rolls the change back to the savepoint and keeps the rest (the refusal is the
// stored idempotent answer and a journal entry); any other error rolls back all of it, and the
// in-memory views of the database are rebuilt (reload) since they may name rows that are gone.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../store/db.js';
import type { Audit } from '../store/audit.js';
import type { Clock } from '../sim/clock.js';
import type { IdGen } from '../sim/ids.js';
import { SIGNATURE_WINDOW_S, splitUrl } from '../contract/signing.js';
import type { RouteCtx, RouteDef, StepUpUse } from '../contract/route.js';
import type { RequestJournal } from '../contract/request-journal.js';
import type { KeyLookup } from './auth.js';
import { AppError } from './errors.js';
import { faultOf } from './fault-mark.js';
import { bodySha256, header } from './request.js';
import { errorReply, toReply, type Out } from './reply.js';

/** A record answers its key for 24 simulated hours... */
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * ...and, whatever the simulated clock did, for as long as its request could still pass the signature
 * check: a request accepted at wall time W carries a timestamp of at most W + 300 s, which passes until
 * W + 600 s. A minute of margin on top.
 */
export const IDEMPOTENCY_WALL_TTL_MS = (2 * SIGNATURE_WINDOW_S + 60) * 1000;

export interface MutationDeps {
  db: Db;
  clock: Pick<Clock, 'now'>;
  /** Wall-clock ms: an idempotency record also lives by it (IDEMPOTENCY_WALL_TTL_MS). */
  wallNow(): number;
  ids: Pick<IdGen, 'unit'>;
  /** The ledger's account-id cache runs per unit too (daemon/ledger: ids it opened are forgotten on a refusal). */
  ledger: { unit<T>(fn: () => T): T };
  /** The investor-row cache runs per unit too (daemon/investors: rows read after a write of the unit are not kept). */
  investors: { unit<T>(fn: () => T): T };
  audit: Pick<Audit, 'append'>;
  journal: Pick<RequestJournal, 'record'>;
  /** Rebuilds every in-memory view of the database after a rollback no unit saw. */
  reload(): void;
  /** A step-up code accepted opens its key's step-up window (docs/backoffice.md, "Step-up"). */
  keys: Pick<KeyLookup, 'stepUpWindow'>;
}

interface StoredAnswer {
  body_hash: string;
  status: number;
  response: string;
  created_ms: number;
  created_wall_ms: number;
}

/** The request's identity in the idempotency table and the journal. */
interface Target {
  req: FastifyRequest;
  path: string;
  rawQuery: string;
  simMs: number;
  wallMs: number;
  idemKey: string | null;
}

function prepare(db: Db) {
  return {
    idemGet: db.prepare<[string, string, string, string], StoredAnswer>(
      'SELECT body_hash, status, response, created_ms, created_wall_ms FROM idempotency WHERE tenant_id = ? ' +
        'AND method = ? AND path = ? AND key = ?',
    ),
    idemPut: db.prepare(
      'INSERT OR REPLACE INTO idempotency (tenant_id, method, path, key, body_hash, status, response, ' +
        'created_ms, created_wall_ms) VALUES (?,?,?,?,?,?,?,?,?)',
    ),
    // One savepoint per request inside the group-commit batch (prepared once, as better-sqlite3's own
    // transaction helper does).
    savepoint: db.prepare('SAVEPOINT request'),
    // rows written so far on this connection: an alone route (no savepoint) may refuse only before it writes
    changes: db.prepare<[], number>('SELECT total_changes()').pluck(),
    rollbackTo: db.prepare('ROLLBACK TO request'),
    release: db.prepare('RELEASE request'),
  };
}

type Statements = ReturnType<typeof prepare>;

/** A record is live while either clock says it is young: 24 simulated hours, or the signature's wall window. */
export function isLive(prior: { created_ms: number; created_wall_ms: number }, simMs: number, wallMs: number): boolean {
  return simMs - prior.created_ms <= IDEMPOTENCY_TTL_MS || wallMs - prior.created_wall_ms <= IDEMPOTENCY_WALL_TTL_MS;
}

/** The answer stored for this key while it is live, replayed; a different body under the key is refused. */
function storedAnswer(st: Statements, ctx: RouteCtx, t: Target): Out | null {
  if (t.idemKey === null) return null;
  const prior = st.idemGet.get(ctx.tenantId!, t.req.method, t.path, t.idemKey);
  if (!prior || !isLive(prior, t.simMs, t.wallMs)) return null;
  if (prior.body_hash !== bodySha256(t.req)) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return { status: prior.status, body: JSON.parse(prior.response), json: prior.response, replayed: true };
}

/**
 * The handler as one id unit and one ledger unit; a refusal rolls its writes back to the savepoint. An
 * alone route has no savepoint (RouteDef.alone): its refusal must come before any write.
 */
function runHandler(deps: MutationDeps, st: Statements, def: RouteDef, ctx: RouteCtx): Out {
  const before = def.alone ? st.changes.get()! : 0;
  try {
    return deps.ids.unit(() => deps.ledger.unit(() => deps.investors.unit(() => toReply(def, def.handler(ctx)))));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (!def.alone) st.rollbackTo.run();
    else if (st.changes.get()! !== before) throw new Error(`${def.method} ${def.url} refused after it wrote`);
    return errorReply(err, ctx.requestId);
  }
}

/**
 * A step-up code the request carried (auth.ts checked and used it up) opens the key's window for 5
 * minutes, audited as `step_up`: also when the action itself was refused on its merits (the code
 * proved the person all the same), not when it was refused as unauthorised (401, 403).
 */
function recordStepUp(
  deps: MutationDeps,
  ctx: RouteCtx,
  def: RouteDef,
  reply: Out,
  wallMs: number,
): StepUpUse | undefined {
  if (ctx.stepUp?.via !== 'code' || !ctx.operator || reply.status === 401 || reply.status === 403) return ctx.stepUp;
  const until = deps.keys.stepUpWindow.open(ctx.operator.id, wallMs);
  if (until === null) return ctx.stepUp;
  deps.audit.append({
    actor: ctx.actor,
    action: 'step_up',
    subject: ctx.operator.id,
    detail: { identity: ctx.operator.name, route: `${def.method} ${def.url}`, fresh_until: until },
  });
  return { via: 'code', fresh_until: until };
}

/** The idempotency record, the audit entry (successes only) and the journal entry (every answer). */
function recordAnswer(
  deps: MutationDeps,
  st: Statements,
  def: RouteDef,
  ctx: RouteCtx,
  t: Target,
  reply: Out,
): string | undefined {
  let json: string | undefined;
  if (t.idemKey !== null) {
    json = JSON.stringify(reply.body ?? null);
    st.idemPut.run(
      ctx.tenantId!,
      t.req.method,
      t.path,
      t.idemKey,
      bodySha256(t.req),
      reply.status,
      json,
      deps.clock.now(),
      t.wallMs,
    );
  }
  if (reply.status < 400) {
    deps.audit.append({
      actor: ctx.actor,
      action: `${def.method} ${def.url}`,
      subject: t.path,
      tenantId: ctx.tenantId,
      detail: {
        status: reply.status,
        ...(t.idemKey ? { idempotency_key: t.idemKey } : {}),
        // a money or approval action says how it stepped up: a code, the key's open window, a passkey
        ...(ctx.stepUp ? { step_up: ctx.stepUp } : {}),
      },
    });
  }
  // The JSON answer goes to the journal too, so a replay compares bodies (docs/snapshots.md).
  const response = json ?? (reply.body === undefined || reply.raw ? undefined : JSON.stringify(reply.body));
  // The journal: every request that reached its handler, refusals included (a business refusal
  // stores its idempotency answer, so a replay must re-run it). Never credentials or signatures.
  deps.journal.record({
    requestId: ctx.requestId,
    simMs: t.simMs,
    method: t.req.method,
    route: `${def.method} ${def.url}`,
    path: t.path,
    query: t.rawQuery,
    principal: ctx.actor,
    tenantId: ctx.tenantId,
    idempotencyKey: t.idemKey,
    contentType: header(t.req, 'content-type') ?? null,
    body: t.req.rawBody,
    status: reply.status,
    response,
    fault: faultOf(t.req),
  });
  return json ?? response;
}

export function createMutationRunner(
  deps: MutationDeps,
): (def: RouteDef, ctx: RouteCtx, req: FastifyRequest, idemKey: string | null) => Out {
  const st = prepare(deps.db);
  return function runMutation(def, ctx, req, idemKey) {
    const { path, rawQuery } = splitUrl(req.url);
    const target: Target = { req, path, rawQuery, simMs: deps.clock.now(), wallMs: deps.wallNow(), idemKey };
    const stored = storedAnswer(st, ctx, target);
    if (stored) return stored;
    // an alone route is the whole of its transaction (group-commit.ts): a throw rolls all of it back
    if (!def.alone) st.savepoint.run();
    try {
      const reply = runHandler(deps, st, def, ctx);
      const stepUp = recordStepUp(deps, ctx, def, reply, target.wallMs);
      const json = recordAnswer(deps, st, def, stepUp ? { ...ctx, stepUp } : ctx, target, reply);
      if (!def.alone) st.release.run();
      return reply.body === undefined || reply.raw ? reply : { ...reply, json };
    } catch (err) {
      if (deps.db.inTransaction && !def.alone) {
        st.rollbackTo.run();
        st.release.run();
      }
      deps.reload();
      throw err;
    }
  };
}
