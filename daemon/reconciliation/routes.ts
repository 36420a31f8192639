// Reconciliation routes (X-Admin-Key): the inject-break sandbox control (sandbox:control), the external
// statements, runs and breaks (reads: reconciliation:read; runs and break decisions: reconciliation:manage).
// Parse and delegate to reconciliation/service.ts.
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import {
  AcknowledgeBody,
  BreakListQuery,
  BreakListSchema,
  BreakSchema,
  IdParams,
  InjectBreakBody,
  InjectionSchema,
  ResolveBody,
  RunBody,
  RunListQuery,
  RunListSchema,
  RunSchema,
  StatementQuery,
  StatementSchema,
} from '../contract/schemas/reconciliation.js';
import { createReconciliationService, type ReconciliationService } from './service.js';

const control = { realm: 'admin', grant: 'sandbox:control' } as const;
const read = { realm: 'admin', grant: 'reconciliation:read' } as const;
const manage = { realm: 'admin', grant: 'reconciliation:manage' } as const;
const tags = ['reconciliation'];
const dateCode = (path: readonly PropertyKey[], issue: { code: string }) =>
  (path[0] === 'date' || path[0] === 'through') && issue.code === 'invalid_format'
    ? ('INVALID_DATE' as const)
    : undefined;

export function reconciliationRoutes(deps: Deps): RouteDef[] {
  const recon = createReconciliationService(deps);
  return [...injectBreakRoutes(recon), ...statementAndRunRoutes(recon), ...breakRoutes(recon)];
}

function injectBreakRoutes(recon: ReconciliationService): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/inject-break',
      auth: control,
      tags: ['sandbox'],
      status: 201,
      summary:
        'Corrupt the external side of reconciliation (the custodian or bank statement) from a date on; the ' +
        'ledger is untouched.',
      body: InjectBreakBody,
      response: InjectionSchema,
      issueCode: (path, _w, issue) => dateCode(path, issue),
      errors: [
        'VALIDATION_FAILED',
        'INVALID_DATE',
        'DATE_OUT_OF_RANGE',
        'INVALID_RANGE',
        'NOT_FOUND',
        'UNKNOWN_SYMBOL',
        'RECONCILIATION_DATE_INVALID',
        'BREAK_LINE_ABSENT',
      ],
      handler: ({ body }) => recon.inject(body),
    }),
  ];
}

function statementAndRunRoutes(recon: ReconciliationService): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/admin/reconciliation/statements',
      auth: read,
      tags,
      summary:
        "An external statement of one business day, computed: the custodian's holdings per investor and " +
        "symbol, or the bank's cash per investor, with injected breaks applied.",
      query: StatementQuery,
      response: StatementSchema,
      issueCode: (path, _w, issue) => dateCode(path, issue),
      errors: ['VALIDATION_FAILED', 'INVALID_DATE', 'DATE_OUT_OF_RANGE', 'RECONCILIATION_DATE_INVALID'],
      handler: ({ query }) => recon.statement(query),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/reconciliation/runs',
      auth: manage,
      tags,
      status: 201,
      summary:
        'Reconcile one business day: compare the ledger with the external statements, open breaks for new ' +
        'differences, resolve (auto) the ones that match again.',
      body: RunBody,
      response: RunSchema,
      issueCode: (path, _w, issue) => dateCode(path, issue),
      errors: ['VALIDATION_FAILED', 'INVALID_DATE', 'DATE_OUT_OF_RANGE', 'RECONCILIATION_DATE_INVALID'],
      handler: ({ body, actor }) => recon.run(body.date, actor),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/reconciliation/runs',
      auth: read,
      tags,
      summary: 'Reconciliation runs, newest first.',
      query: RunListQuery,
      response: RunListSchema,
      errors: ['VALIDATION_FAILED'],
      handler: ({ query }) => recon.runs(query),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/reconciliation/runs/:id',
      auth: read,
      tags,
      summary: 'One reconciliation run.',
      params: IdParams,
      response: RunSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params }) => recon.getRun(params.id),
    }),
  ];
}

function breakRoutes(recon: ReconciliationService): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/admin/reconciliation/breaks',
      auth: read,
      tags,
      summary: 'Reconciliation breaks, newest first, filtered by state, kind, investor, asset or run.',
      query: BreakListQuery,
      response: BreakListSchema,
      errors: ['VALIDATION_FAILED'],
      handler: ({ query }) => recon.breaks(query),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/reconciliation/breaks/:id',
      auth: read,
      tags,
      summary: 'One reconciliation break.',
      params: IdParams,
      response: BreakSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params }) => recon.getBreak(params.id),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/reconciliation/breaks/:id/acknowledge',
      auth: manage,
      tags,
      summary: 'Acknowledge an open break (open -> acknowledged), with an optional note.',
      params: IdParams,
      body: AcknowledgeBody,
      response: BreakSchema,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'BREAK_STATE_CONFLICT'],
      handler: ({ params, body, actor }) => recon.acknowledge(params.id, actor, body.note),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/reconciliation/breaks/:id/resolve',
      auth: manage,
      tags,
      summary: 'Resolve an open or acknowledged break as accepted, with a note (the difference is explained and kept).',
      params: IdParams,
      body: ResolveBody,
      response: BreakSchema,
      errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'BREAK_STATE_CONFLICT'],
      handler: ({ params, body, actor }) => recon.accept(params.id, actor, body.note),
    }),
  ];
}
