// The request inspector: the last N answered requests of this daemon, in memory only (a ring: the
// oldest is dropped first), for GET /admin/sandbox/requests and `svc logs`. The HTTP layer records
// every answer (daemon/http/inspect.ts); bodies are kept raw, capped, and leave only through the
// redaction of inspector-redact.ts. A refused signature keeps the string the daemon signed, never a
// secret. The inspector's own routes, the event stream and /healthz are not recorded, so reading the
// ring does not fill it. docs/inspector.md.
import type {
  RecordedRequest,
  InspectedRequest,
  InspectedRequestList,
  InspectedRequestSummary,
  InspectorQuery,
} from '../contract/inspector.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { redactBody, redactHeaders } from './inspector-redact.js';

export const DEFAULT_INSPECTOR_CAPACITY = 1000;
/** A body longer than this is kept truncated (and shown as text). */
const BODY_CAP = 64 * 1024;

const NOT_RECORDED = /^\/(healthz$|admin\/sandbox\/(requests|events)(\/|$))/;

type KeptBody =
  | { kind: 'none' }
  | { kind: 'text'; text: string; size: number; truncated: boolean }
  | { kind: 'bytes'; size: number };
const NONE: KeptBody = { kind: 'none' };

/**
 * What an entry keeps of a body: a text of at most BODY_CAP characters is kept as the string itself
 * (the common case: nothing allocated, its KeptBody made when it is shown), anything else as its
 * KeptBody, undefined for none.
 */
type StoredBody = string | KeptBody | undefined;

/**
 * One recorded request, read back from the ring's columns (a view built when shown, never stored).
 * The ring keeps each field in a column of its own, numbers in typed arrays, so that recording a
 * request allocates and retains as few objects as possible: every object the ring keeps is copied
 * by the young generation's garbage collector until it is promoted, which was most of what the
 * inspector cost a request (docs/bench.md, "The fourth pass").
 */
interface Entry {
  seq: number;
  simMs: number;
  rec: Omit<RecordedRequest, 'requestBody' | 'responseBody'>;
  path: string;
  query: string;
  errorCode: string | null;
  request: KeptBody;
  response: KeptBody;
}

export interface InspectorDeps {
  capacity: number;
  /** The simulated clock's now, and its RFC 3339 form. */
  simNow(): number;
  toIso(ms: number): string;
}

export interface Inspector {
  readonly capacity: number;
  record(r: RecordedRequest): void;
  list(q: InspectorQuery): InspectedRequestList;
  get(requestId: string): Outcome<InspectedRequest>;
}

function isTextType(type: string | null): boolean {
  return type === null || /json|^text\/|ndjson/i.test(type);
}

function keep(body: unknown, type: string | null): KeptBody {
  if (body === undefined || body === null) return { kind: 'none' };
  if (typeof body === 'string' || (Buffer.isBuffer(body) && isTextType(type))) {
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    if (size === 0) return { kind: 'none' };
    const full = typeof body === 'string' ? body : body.subarray(0, BODY_CAP + 1).toString('utf8');
    // a truncated body is copied, so the ring does not keep the whole string a slice would point into
    const text = full.length > BODY_CAP ? Buffer.from(full.slice(0, BODY_CAP), 'utf8').toString('utf8') : full;
    return { kind: 'text', text, size, truncated: full.length > BODY_CAP };
  }
  if (Buffer.isBuffer(body)) return { kind: 'bytes', size: body.length };
  return { kind: 'none' };
}

function stored(body: unknown, type: string | null): StoredBody {
  if (typeof body === 'string' && body.length <= BODY_CAP) return body.length === 0 ? undefined : body;
  const kept = keep(body, type);
  return kept.kind === 'none' ? undefined : kept;
}

function kept(b: StoredBody): KeptBody {
  if (b === undefined) return NONE;
  if (typeof b !== 'string') return b;
  return { kind: 'text', text: b, size: Buffer.byteLength(b), truncated: false };
}

function show(b: KeptBody, type: string | null): { content_type: string | null; size_bytes: number; body: unknown } {
  if (b.kind === 'none') return { content_type: type, size_bytes: 0, body: null };
  if (b.kind === 'bytes')
    return {
      content_type: type,
      size_bytes: b.size,
      body: `[redacted:bytes] (${b.size} bytes${type ? `, ${type}` : ''})`,
    };
  return { content_type: type, size_bytes: b.size, body: redactBody(b.text, type, b.truncated) };
}

function errorCodeOf(status: number, body: StoredBody): string | null {
  if (status < 400 || body === undefined) return null;
  const text = typeof body === 'string' ? body : body.kind === 'text' ? body.text : null;
  if (text === null) return null;
  return /"error"\s*:\s*\{\s*"code"\s*:\s*"([A-Z0-9_]+)"/.exec(text.slice(0, 300))?.[1] ?? null;
}

function contentTypeOf(headers: RecordedRequest['headers']): string | null {
  const v = headers['content-type'];
  return (Array.isArray(v) ? v[0] : v) ?? null;
}

function matches(e: Entry, q: InspectorQuery): boolean {
  if (q.after !== undefined && e.seq <= q.after) return false;
  if (q.method && e.rec.method !== q.method) return false;
  if (q.path && !e.path.startsWith(q.path)) return false;
  if (q.code && e.errorCode !== q.code) return false;
  if (q.status) {
    const s = String(e.rec.status);
    if (q.status.endsWith('xx') ? s[0] !== q.status[0] : s !== q.status) return false;
  }
  return true;
}

const SIGNATURE_HINT =
  'This is the v1 string to sign the daemon computed for this request (docs/api.md, "Signing"): ' +
  'print the string your client signed and diff the two; the first differing line is the cause.';

/** Not recorded: /healthz and the inspector's own routes (a cheap prefix test first: most paths are neither). */
function notRecorded(path: string): boolean {
  return (path === '/healthz' || path.startsWith('/admin/sandbox/')) && NOT_RECORDED.test(path);
}

/** The ring: slot seq % capacity of each column holds request seq. */
function createColumns(capacity: number) {
  const arr = <T>() => new Array<T>(capacity).fill(undefined as T);
  return {
    simMs: new Float64Array(capacity),
    wallMs: new Float64Array(capacity),
    latencyMs: new Float64Array(capacity),
    status: new Int32Array(capacity),
    requestId: arr<string>(),
    method: arr<string>(),
    url: arr<string>(),
    principal: arr<string | null>(),
    headers: arr<RecordedRequest['headers']>(),
    responseType: arr<string | null>(),
    canonical: arr<string | null>(),
    request: arr<StoredBody>(),
    response: arr<StoredBody>(),
  };
}

type Columns = ReturnType<typeof createColumns>;

function entryIn(c: Columns, capacity: number, s: number): Entry {
  const i = s % capacity;
  const url = c.url[i];
  const q = url.indexOf('?');
  const rec = {
    requestId: c.requestId[i],
    method: c.method[i],
    url,
    status: c.status[i],
    latencyMs: c.latencyMs[i],
    principal: c.principal[i],
    headers: c.headers[i],
    responseType: c.responseType[i],
    canonicalString: c.canonical[i],
    wallMs: c.wallMs[i],
  };
  return {
    seq: s,
    simMs: c.simMs[i],
    rec,
    path: q < 0 ? url : url.slice(0, q),
    query: q < 0 ? '' : url.slice(q + 1),
    errorCode: errorCodeOf(rec.status, c.response[i]),
    request: kept(c.request[i]),
    response: kept(c.response[i]),
  };
}

function summaryOf(e: Entry, toIso: (ms: number) => string): InspectedRequestSummary {
  return {
    seq: e.seq,
    request_id: e.rec.requestId,
    at: toIso(e.simMs),
    wall_at: new Date(e.rec.wallMs).toISOString(),
    method: e.rec.method,
    path: e.path,
    query: e.query,
    status: e.rec.status,
    error_code: e.errorCode,
    latency_ms: Math.round(e.rec.latencyMs * 100) / 100,
    principal: e.rec.principal,
  };
}

/** Writes a request into column slot i; the columns keep what they show and the raw payloads go. */
function writeEntry(c: Columns, i: number, simMs: number, rec: RecordedRequest): void {
  c.simMs[i] = simMs;
  c.wallMs[i] = rec.wallMs;
  c.latencyMs[i] = rec.latencyMs;
  c.status[i] = rec.status;
  c.requestId[i] = rec.requestId;
  c.method[i] = rec.method;
  c.url[i] = rec.url;
  c.principal[i] = rec.principal;
  c.headers[i] = rec.headers;
  c.responseType[i] = rec.responseType;
  c.canonical[i] = rec.canonicalString;
  c.request[i] = stored(rec.requestBody, contentTypeOf(rec.headers));
  c.response[i] = stored(rec.responseBody, rec.responseType);
  rec.requestBody = undefined;
  rec.responseBody = undefined;
}

export function createInspector(deps: InspectorDeps): Inspector {
  const capacity = Math.max(1, Math.floor(deps.capacity));
  const c = createColumns(capacity);
  let seq = 0;

  const entryAt = (s: number) => entryIn(c, capacity, s);
  const summary = (e: Entry) => summaryOf(e, deps.toIso);

  /** Entries oldest first (after: only those recorded after that seq). */
  function entries(after = 0): Entry[] {
    const out: Entry[] = [];
    for (let s = Math.max(1, seq - capacity + 1, after + 1); s <= seq; s++) out.push(entryAt(s));
    return out;
  }

  return {
    capacity,
    record(rec) {
      const q = rec.url.indexOf('?');
      if (notRecorded(q < 0 ? rec.url : rec.url.slice(0, q))) return;
      seq++;
      writeEntry(c, seq % capacity, deps.simNow(), rec);
    },
    list(q) {
      const found = entries(q.after ?? 0).filter((e) => matches(e, q));
      return { requests: found.slice(-q.limit).map(summary), capacity, last_seq: seq };
    },
    get(requestId) {
      let e: Entry | undefined;
      for (let s = seq; s >= Math.max(1, seq - capacity + 1) && !e; s--)
        if (c.requestId[s % capacity] === requestId) e = entryAt(s);
      if (!e)
        return refuse(
          'NOT_FOUND',
          `No request ${requestId} among the last ${capacity} (the inspector keeps the newest ${capacity} in memory).`,
        );
      return ok({
        ...summary(e),
        request_headers: redactHeaders(e.rec.headers),
        request: show(e.request, contentTypeOf(e.rec.headers)),
        response: show(e.response, e.rec.responseType),
        signature:
          e.rec.canonicalString === null ? null : { canonical_string: e.rec.canonicalString, hint: SIGNATURE_HINT },
      });
    },
  };
}
