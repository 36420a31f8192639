// Feeding the request inspector (docs/inspector.md): two fastify hooks hand every answered request to
// a recorder (onSend keeps the payload as sent, onResponse records it with its latency), whatever
// answered it: a route, a refusal of the pipeline, the router's 404, a body parser, a 500. The
// pipeline notes who called (noteCaller) and the signature check notes the string it signed when it
// refuses one (noteSignatureRefused). The recorder is what the daemon wires in (daemon/sandbox/inspector.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** The authenticated caller (as `tenant:...`, `operator:...`, `anonymous`) and the request id it runs under. */
export function noteCaller(req: FastifyRequest, who: { tenantId: string | null; operator: { name: string } | null }, requestId: string): void {
  const n = noteOf(req);
  n.principal = who.operator ? `operator:${who.operator.name}` : who.tenantId ? `tenant:${who.tenantId}` : 'anonymous';
  n.requestId = requestId;
}

/** A refused v1 signature: the string the daemon signed to compare (never a secret), and the tenant of the key. */
export function noteSignatureRefused(req: FastifyRequest, canonical: string, principal: string): void {
  const n = noteOf(req);
  n.canonical = canonical;
  n.principal = principal;
}

function headerText(reply: FastifyReply, name: string): string | null {
  const v = reply.getHeader(name);
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
}

export function addRequestRecorder(app: FastifyInstance, recorder: RequestRecorder, wallNow: () => number): void {
  // Callback hooks, not async ones: fastify runs them without a promise per request.
  app.addHook('onSend', (req, _reply, payload, done) => {
    noteOf(req).payload = payload;
    done(null, payload);
  });
  app.addHook('onResponse', (req, reply, done) => {
    const n = noteOf(req);
    recorder.record({
      requestId: n.requestId ?? String(req.id), method: req.method, url: req.url, status: reply.statusCode,
      latencyMs: reply.elapsedTime, principal: n.principal ?? null, headers: req.headers, requestBody: req.rawBody,
      responseBody: n.payload, responseType: headerText(reply, 'content-type'), canonicalString: n.canonical ?? null, wallMs: wallNow(),
    });
    done();
  });
}
