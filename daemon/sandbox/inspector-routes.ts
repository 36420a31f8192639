// The sandbox's development tools under /admin/sandbox (X-Admin-Key with grant sandbox:control):
// the request inspector (the last N requests, redacted) and the push events stream. Parse and
// delegate. docs/inspector.md.
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { InspectedRequest, InspectedRequestList, InspectorQuery, RequestIdParams } from '../contract/inspector.js';
import { EventsQuery } from '../contract/events.js';
import { openEventStream } from './events-stream.js';

const control = { realm: 'admin', grant: 'sandbox:control' } as const;

export function inspectorRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/admin/sandbox/requests',
      auth: control,
      tags: ['sandbox'],
      summary:
        'The request inspector: the newest requests this daemon answered (kept in memory, the last 1,000 by ' +
        'default), oldest first, filtered by status (404 or 4xx), path prefix, method or error code; after= ' +
        "follows new ones. Never the inspector's own reads, the event stream or /healthz.",
      query: InspectorQuery,
      response: InspectedRequestList,
      handler: ({ query }) => deps.inspector.list(query),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/sandbox/requests/:request_id',
      auth: control,
      tags: ['sandbox'],
      summary:
        'One recorded request: headers, request and response bodies with secrets and personal data redacted, ' +
        'and for a refused signature the v1 string to sign the daemon computed (never the secret), to diff ' +
        "against the client's own.",
      params: RequestIdParams,
      response: InspectedRequest,
      errors: ['NOT_FOUND'],
      handler: ({ params }) => deps.inspector.get(params.request_id),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/sandbox/events',
      auth: control,
      tags: ['sandbox'],
      summary:
        'Push events for local development, as server-sent events (text/event-stream): order fills, cancels ' +
        'and expiries, transfer state changes, KYC decisions, fund order state changes (report.ready is ' +
        'reserved). Each event: id (increasing), event (its type), data (JSON: id, type, at, subject, ' +
        'tenant_id, data). Resumes after Last-Event-ID or ?after=; ?types= filters. A sandbox tool: the tenant ' +
        'API stays polling-only.',
      query: EventsQuery,
      produces: ['text/event-stream'],
      errors: ['VALIDATION_FAILED'],
      handler: ({ query, headers }) => {
        const last = headers['last-event-id'];
        return openEventStream(deps.events, query, Array.isArray(last) ? last[0] : last);
      },
    }),
  ];
}
