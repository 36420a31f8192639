// Feeding the request inspector (docs/inspector.md): every answered request is handed to a recorder
// (onResponse records it with its latency), whatever answered it: a route, a refusal of the pipeline,
// the router's 404, a body parser, a 500. The payload as sent is noted by whoever sends it: the
// pipeline and the server's error and 404 answers note it themselves (notePayload); every other route
// (the console's, /openapi.json) gets an onSend hook of its own, so the pipeline's routes, nearly all
// requests, run without one. The pipeline notes who called (noteCaller) and the signature check notes
// the string it signed when it refuses one (noteSignatureRefused). The recorder is what the daemon
// wires in (daemon/record/inspector.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { RecordedRequest } from '../contract/inspector.js';

export interface RequestRecorder {
  record(r: RecordedRequest): void;
}

const NOTE = Symbol('inspectorNote');

interface Note {
  principal?: string;
  requestId?: string;
  canonical?: string;
  payload?: unknown;
}

function noteOf(req: FastifyRequest): Note {
  const r = req as FastifyRequest & { [NOTE]?: Note };
  return (r[NOTE] ??= {});
}

/** `tenant:<id>` and `operator:<name>`, one string per caller instead of one per request. */
const principals = new Map<string, string>();
function principalOf(prefix: 'tenant:' | 'operator:', name: string): string {
  const key = prefix + name;
  let p = principals.get(key);
  if (p === undefined) {
    if (principals.size >= 10_000) principals.clear();
    principals.set(key, (p = key));
  }
  return p;
}

/** The authenticated caller (as `tenant:...`, `operator:...`, `anonymous`) and the request id it runs under. */
export function noteCaller(
  req: FastifyRequest,
  who: { tenantId: string | null; operator: { name: string } | null },
  requestId: string,
): void {
  const n = noteOf(req);
  n.principal = who.operator
    ? principalOf('operator:', who.operator.name)
    : who.tenantId
      ? principalOf('tenant:', who.tenantId)
      : 'anonymous';
  n.requestId = requestId;
}

/** A refused v1 signature: the string the daemon signed to compare (never a secret), and the tenant of the key. */
export function noteSignatureRefused(req: FastifyRequest, canonical: string, principal: string): void {
  const n = noteOf(req);
  n.canonical = canonical;
  n.principal = principal;
}

/** The payload about to be sent (what an onSend hook would see), by code that sends it itself. */
export function notePayload(req: FastifyRequest, payload: unknown): void {
  noteOf(req).payload = payload;
}

function headerText(reply: FastifyReply, name: string): string | null {
  const v = reply.getHeader(name);
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
}

/** The route config flag of routes whose handlers note their payload themselves (the pipeline's). */
export const NOTES_PAYLOAD = 'notesPayload';

const noteSent: onSendHookHandler = (req, _reply, payload, done) => {
  noteOf(req).payload = payload;
  done(null, payload);
};

/**
 * afterRecord: more work on every answered request (main.ts's access log), in the same onResponse
 * hook, after the recording (one hook instead of two per request).
 */
export function addRequestRecorder(
  app: FastifyInstance,
  recorder: RequestRecorder,
  wallNow: () => number,
  afterRecord?: (req: FastifyRequest, reply: FastifyReply) => void,
): void {
  // Call before any route is added: routes that do not note their payload get the onSend hook, first
  // (where a global hook would run: before the route's own, e.g. the one that empties a HEAD answer).
  app.addHook('onRoute', (opts) => {
    if ((opts.config as Record<string, unknown> | undefined)?.[NOTES_PAYLOAD] === true) return;
    opts.onSend =
      opts.onSend === undefined
        ? [noteSent]
        : [noteSent, ...(Array.isArray(opts.onSend) ? opts.onSend : [opts.onSend])];
  });
  // A callback hook, not an async one: fastify runs it without a promise per request.
  app.addHook('onResponse', (req, reply, done) => {
    const n = noteOf(req);
    recorder.record({
      requestId: n.requestId ?? String(req.id),
      method: req.method,
      url: req.url,
      status: reply.statusCode,
      latencyMs: reply.elapsedTime,
      principal: n.principal ?? null,
      headers: req.headers,
      requestBody: req.rawBody,
      responseBody: n.payload,
      responseType: headerText(reply, 'content-type'),
      canonicalString: n.canonical ?? null,
      wallMs: wallNow(),
    });
    afterRecord?.(req, reply);
    done();
  });
}
