// The fault rules' effects and the rate limit, on tenant routes only (docs/faults.md). The engine
// (daemon/record/faults.ts) decides, before the request does anything, whether a fault fires; this
// file carries it out: an error answer (status), a delay (latency), a dropped connection before the
// request runs (reset) or after it is applied and COMMITTED (lost_response), or a connection held
// and then dropped (timeout). Every tenant request seen while the engine is armed goes to the fault
// log the report reads. With no rule, no rate limit and no report open, the pipeline never comes here.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDef } from '../contract/route.js';
import type { ErrorCode } from '../contract/errors.js';
import { sha256Hex } from '../contract/signing.js';
import type { FaultEngine, FiredFault } from '../record/faults.js';
import type { Seen, SeenFault } from '../record/fault-log.js';
import type { JournalFault } from '../contract/journal.js';
import { AppError } from './errors.js';
import { markFault } from './fault-mark.js';
import { errorReply, type Out } from './reply.js';
import { bodySha256, header } from './request.js';

export interface FaultGateDeps {
  faults: FaultEngine;
  wallNow(): number;
  keys: { tenantForKey(apiKey: string): string | null };
}

const STATUS_CODES: Record<number, ErrorCode> = {
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** A tenant route (B, I or S): the only routes faults and the rate limit touch. */
export function isTenantRoute(def: RouteDef): boolean {
  return (def.auth === 'B' || def.auth === 'I' || def.auth === 'S') && def.url.startsWith('/v1/');
}

function bearer(req: FastifyRequest): string {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
  return m ? m[1] : '';
}

/** The request as the fault log keeps it, before it is answered. */
function observe(deps: FaultGateDeps, def: RouteDef, req: FastifyRequest): Seen {
  const q = req.url.indexOf('?');
  const key = bearer(req);
  return {
    requestId: String(req.id),
    wallMs: deps.wallNow(),
    method: def.method,
    route: `${def.method} ${def.url}`,
    path: q < 0 ? req.url : req.url.slice(0, q),
    caller: key ? `key_${sha256Hex(key).slice(0, 12)}` : 'anonymous',
    idemKey: header(req, 'idempotency-key') ?? null,
    bodyHash: bodySha256(req),
    timestamp: header(req, 'x-svc-timestamp') ?? null,
    money: def.auth === 'I' || def.auth === 'S',
    status: null,
    resourceId: null,
    applied: false,
    fault: null,
  };
}

/** The answer's own resource id: its first field named id or *_id (transfer_id, order_id, ...). */
function resourceIdOf(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  for (const [k, v] of Object.entries(body)) if ((k === 'id' || k.endsWith('_id')) && typeof v === 'string') return v;
  return null;
}

function ended(seen: Seen, out: Out | null, fault: SeenFault | null): Seen {
  const ok = out !== null && out.status < 400;
  return {
    ...seen,
    status: out && fault?.effect !== 'lost_response' ? out.status : null,
    resourceId: ok ? resourceIdOf(out.body) : null,
    applied: ok && seen.method !== 'GET',
    fault,
  };
}

function withHeaders(out: Out, headers: Record<string, string> | null): Out {
  return headers ? { ...out, headers: { ...out.headers, ...headers } } : out;
}

function statusOut(status: number, retryAfterS: number | null, requestId: string): Out {
  const headers = retryAfterS !== null ? { 'retry-after': String(retryAfterS) } : undefined;
  return errorReply(new AppError(STATUS_CODES[status], undefined, headers), requestId);
}

function seenFault(f: FiredFault): SeenFault {
  const e = f.effect;
  const retryAfterS = e.type === 'status' && (e.status === 429 || e.status === 503) ? (e.retry_after_s ?? 1) : null;
  return { ruleId: f.ruleId, effect: e.type === 'status' ? `status ${e.status}` : e.type, retryAfterS };
}

/** A fault that lets the request run, as its journal entry records it. */
function journalFault(f: FiredFault): JournalFault {
  const effect = f.effect.type === 'latency' ? 'latency' : 'lost_response';
  return { rule_id: f.ruleId, effect, delay_ms: effect === 'latency' ? f.delayMs : null };
}

export function createFaultGate(deps: FaultGateDeps) {
  const held = new Set<{ destroy(): void }>();
  const log = (s: Seen) => deps.faults.log.add(s);

  /** The connection closes unanswered (the reply is never written). */
  function drop(req: FastifyRequest, reply: FastifyReply, afterMs = 0): void {
    reply.hijack();
    const sock = req.raw.socket ?? reply.raw;
    if (afterMs === 0) return void sock.destroy();
    held.add(sock);
    setTimeout(() => {
      held.delete(sock);
      sock.destroy();
    }, afterMs).unref();
  }

  /** The rate limit's verdict as headers, or a 429 answer when the key is over its limit. */
  function rateLimit(seen: Seen): { headers: Record<string, string> | null; refused: Out | null } {
    if (deps.faults.rateLimit.spec() === null) return { headers: null, refused: null };
    const v = deps.faults.rateLimit.take(seen.caller, seen.wallMs);
    const headers = {
      'x-ratelimit-limit': String(v.limit),
      'x-ratelimit-remaining': String(v.remaining),
      'x-ratelimit-reset': String(v.resetS),
    };
    if (v.allowed) return { headers, refused: null };
    return { headers, refused: withHeaders(statusOut(429, v.resetS, seen.requestId), headers) };
  }

  async function handle(
    def: RouteDef,
    req: FastifyRequest,
    reply: FastifyReply,
    answer: () => Promise<Out>,
    send: (out: Out) => void,
  ): Promise<void> {
    const seen = observe(deps, def, req);
    const limit = rateLimit(seen);
    if (limit.refused) {
      log(
        ended(seen, limit.refused, {
          ruleId: null,
          effect: 'rate_limit',
          retryAfterS: Number(limit.headers!['x-ratelimit-reset']),
        }),
      );
      return send(limit.refused);
    }
    const fired = deps.faults.decide(def.method, def.url, deps.keys.tenantForKey(bearer(req)));
    const fault = fired ? seenFault(fired) : null;
    const e = fired?.effect;
    if (e?.type === 'status') {
      const out = statusOut(e.status!, fault!.retryAfterS, seen.requestId);
      log(ended(seen, out, fault));
      return send(withHeaders(out, limit.headers));
    }
    if (e?.type === 'reset' || e?.type === 'timeout') {
      log(ended(seen, null, fault));
      return drop(req, reply, e.type === 'timeout' ? e.seconds! * 1000 : 0);
    }
    if (e?.type === 'latency' || e?.type === 'lost_response') markFault(req, journalFault(fired!));
    if (e?.type === 'latency' && fired!.delayMs > 0) await new Promise((r) => setTimeout(r, fired!.delayMs));
    const out = await answer();
    log(ended(seen, out, fault));
    if (e?.type === 'lost_response') return drop(req, reply);
    send(withHeaders(out, limit.headers));
  }

  return {
    handle,
    /** Ends every held connection (the app is closing). */
    closeAll(): void {
      for (const s of held) s.destroy();
      held.clear();
    },
  };
}
