// GET /admin/sandbox/events as server-sent events (text/event-stream): each event is written as
// `id:`, `event:` (its type) and one `data:` line of JSON (daemon/contract/events.ts); a comment line
// every 15 seconds keeps idle connections alive. Resumes after the Last-Event-ID header (or ?after=),
// and takes only ?types= when given. docs/inspector.md, "Events".
import { PassThrough } from 'node:stream';
import { EVENT_TYPES, isEventType, type EventsQuery, type SandboxEvent } from '../contract/events.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { BytesReply } from '../contract/route.js';
import type { EventFeed, TypeFilter } from '../record/events-feed.js';

const PING_MS = 15_000;
const FAMILIES = new Set(EVENT_TYPES.map((t) => t.slice(0, t.indexOf('.'))));

/** `order.filled,transfer.*` as a filter; an unknown type or family is refused (a typo would match nothing, silently).
 * */
export function parseTypes(types: string | undefined): Outcome<TypeFilter> {
  if (types === undefined || types === '') return ok(null);
  const set = new Set<string>();
  for (const t of types.split(',')) {
    const family = t.endsWith('.*') ? t.slice(0, -2) : t.includes('.') ? null : t;
    if (family !== null ? !FAMILIES.has(family) : !isEventType(t)) {
      return refuse(
        'VALIDATION_FAILED',
        `query.types: ${t} is not an event type (${EVENT_TYPES.join(', ')}; or a family such as order.*).`,
      );
    }
    set.add(t);
  }
  return ok(set);
}

function frame(e: SandboxEvent): string {
  return `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
}

function resumeAfter(query: EventsQuery, lastEventId: string | undefined): number | null {
  if (query.after !== undefined) return query.after;
  if (lastEventId !== undefined && /^\d{1,16}$/.test(lastEventId.trim())) return Number(lastEventId.trim());
  return null;
}

export function openEventStream(
  feed: EventFeed,
  query: EventsQuery,
  lastEventId: string | undefined,
): Outcome<BytesReply<'text/event-stream'>> {
  const types = parseTypes(query.types);
  if (!types.ok) return types;
  const stream = new PassThrough();
  // retry: how long an EventSource waits before it reconnects (with Last-Event-ID)
  stream.write(`: svc sandbox events\nretry: 2000\n\n`);
  const sub = feed.subscribe(resumeAfter(query, lastEventId), types.value, {
    send: (e) => void stream.write(frame(e)),
    // the daemon is closing: drop the connection (a client reconnects with Last-Event-ID); a plain end
    // could wait on a client that half-closed its side
    end: () => void stream.destroy(),
  });
  const ping = setInterval(() => stream.write(': ping\n\n'), PING_MS).unref();
  stream.on('close', () => {
    clearInterval(ping);
    sub.close();
  });
  return ok({
    status: 200,
    stream,
    contentType: 'text/event-stream; charset=utf-8',
    headers: { 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
  });
}
