// Fault rules and their report under /admin/sandbox/faults (X-Admin-Key with grant sandbox:control):
// parse and delegate to the engine (daemon/record/faults.ts). docs/faults.md.
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { ok, refuse } from '../contract/outcome.js';
import type { ErrorCode } from '../contract/errors.js';
import {
  FaultReportSchema,
  FaultRuleBody,
  FaultRuleList,
  FaultRuleSchema,
  FaultsRemoved,
} from '../contract/schemas/faults.js';
import { faultReport } from '../record/fault-report.js';

const control = { realm: 'admin', grant: 'sandbox:control' } as const;

/** A schema issue in a field of a rule as the code naming that field. */
function ruleIssueCode(path: ReadonlyArray<PropertyKey>): ErrorCode | undefined {
  const field = path[0];
  if (field === 'route') return 'FAULT_ROUTE_UNKNOWN';
  if (field === 'every' || field === 'probability' || field === 'times') return 'FAULT_TRIGGER_INVALID';
  if (field === 'effect') return 'FAULT_EFFECT_INVALID';
  return undefined;
}

export function faultRoutes(deps: Deps): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/faults',
      auth: control,
      tags: ['sandbox'],
      summary:
        'Add a fault rule: a tenant route ("POST /v1/orders", "GET /v1/orders/{id}" or "*"), optionally one ' +
        'tenant, fired every N matching requests, with a probability (the seeded stream) or for the next K; ' +
        'the effect a status (429, 500, 502, 503), latency, reset, lost_response or timeout. Never the sandbox ' +
        'controls or operator routes.',
      body: FaultRuleBody,
      response: FaultRuleSchema,
      status: 201,
      errors: ['FAULT_ROUTE_UNKNOWN', 'FAULT_TRIGGER_INVALID', 'FAULT_EFFECT_INVALID'],
      issueCode: (path, where) => (where === 'body' ? ruleIssueCode(path) : undefined),
      handler: ({ body }) => {
        const rule = deps.faults.add(body);
        return 'code' in rule ? refuse(rule.code, rule.message) : ok(rule);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/sandbox/faults',
      auth: control,
      tags: ['sandbox'],
      summary: 'The fault rules, each with how many requests it matched and how often it fired.',
      response: FaultRuleList,
      handler: () => ({ data: deps.faults.list() }),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/admin/sandbox/faults',
      auth: control,
      tags: ['sandbox'],
      summary: 'Remove every fault rule (the report keeps what happened; a sandbox reset empties it).',
      response: FaultsRemoved,
      handler: () => ({ removed: deps.faults.remove() }),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/sandbox/faults/report',
      auth: control,
      tags: ['sandbox'],
      summary:
        'The verdict: for every fault fired (and every 429 of the rate limit), what the client did next, and ' +
        'the findings (a retry with a new Idempotency-Key, a Retry-After not honoured, polling too fast, a ' +
        'signed request re-sent with a stale timestamp) with the request and resource ids involved.',
      response: FaultReportSchema,
      handler: () => faultReport(deps.faults.log.all()),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/admin/sandbox/faults/:id',
      auth: control,
      tags: ['sandbox'],
      summary: 'Remove one fault rule.',
      params: z.strictObject({ id: z.string().min(1).max(64) }),
      response: FaultsRemoved,
      errors: ['NOT_FOUND'],
      handler: ({ params }) =>
        deps.faults.remove(params.id) > 0 ? ok({ removed: 1 }) : refuse('NOT_FOUND', `No fault rule ${params.id}.`),
    }),
  ];
}
