// Surveillance routes (X-Admin-Key, compliance grants): run the rules on demand, read and filter the
// alerts, escalate and close them, read and override the thresholds. Parse and delegate to service.ts.
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import {
  AlertCloseSchema,
  AlertEscalateSchema,
  AlertListQuerySchema,
  AlertListSchema,
  AlertSchema,
  RunRequestSchema,
  RunSchema,
  ThresholdsPatchSchema,
  ThresholdsViewSchema,
} from '../contract/schemas/surveillance.js';
import { createSurveillanceService, type SurveillanceService } from './service.js';

const tags = ['surveillance'];
const READ = { realm: 'admin', grant: 'surveillance:read' } as const;
const MANAGE = { realm: 'admin', grant: 'surveillance:manage' } as const;
const AlertParams = z.strictObject({ alert_id: z.string().min(1).max(64) });

export function surveillanceRoutes(deps: Deps): RouteDef[] {
  const svc = createSurveillanceService(deps);
  return [...runAndAlertRoutes(svc), ...thresholdRoutes(svc)];
}

function runAndAlertRoutes(svc: SurveillanceService): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/admin/surveillance/runs',
      auth: MANAGE,
      tags,
      status: 201,
      summary:
        'Run the surveillance rules (wash trade, layering-like cancels, concentration) over one session now: ' +
        'date, or the latest session that has opened. Answers the run with the alerts it raised; a pattern ' +
        'already alerted for that session is not raised again.',
      body: RunRequestSchema,
      response: RunSchema,
      errors: ['SURVEILLANCE_DATE_INVALID'],
      handler: ({ body, actor }) => svc.run(body.date, actor),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/surveillance/alerts',
      auth: READ,
      tags,
      summary:
        'The surveillance alerts, oldest first, filtered by state, rule, investor_id, symbol, tenant_id and ' +
        'session_date.',
      query: AlertListQuerySchema,
      response: AlertListSchema,
      handler: ({ query }) => svc.list(query),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/surveillance/alerts/:alert_id',
      auth: READ,
      tags,
      summary: 'One alert with its evidence: rule, investor, symbol, window, order and fill ids.',
      params: AlertParams,
      response: AlertSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params }) => svc.get(params.alert_id),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/surveillance/alerts/:alert_id/escalate',
      auth: MANAGE,
      tags,
      summary: 'Escalate an open alert (an optional note).',
      params: AlertParams,
      body: AlertEscalateSchema,
      response: AlertSchema,
      errors: ['NOT_FOUND', 'ALERT_STATE_CONFLICT'],
      handler: ({ params, body, actor }) => svc.escalate(params.alert_id, body.note, actor),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/surveillance/alerts/:alert_id/close',
      auth: MANAGE,
      tags,
      summary:
        'Close an open or escalated alert with a note (required: 422 ALERT_NOTE_REQUIRED without one). A ' +
        'closed alert is final.',
      params: AlertParams,
      body: AlertCloseSchema,
      response: AlertSchema,
      errors: ['NOT_FOUND', 'ALERT_STATE_CONFLICT', 'ALERT_NOTE_REQUIRED'],
      handler: ({ params, body, actor }) => svc.close(params.alert_id, body.note, actor),
    }),
  ];
}

function thresholdRoutes(svc: SurveillanceService): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/admin/surveillance/thresholds',
      auth: READ,
      tags,
      summary:
        'The thresholds the rules use: in force, the defaults (fixtures/surveillance.json) and which are overridden.',
      response: ThresholdsViewSchema,
      handler: () => svc.thresholds(),
    }),
    defineRoute({
      method: 'PUT',
      url: '/admin/surveillance/thresholds',
      auth: MANAGE,
      tags,
      summary:
        'Override thresholds: a number overrides, null puts the default back, an absent name is kept. Later ' +
        'runs use them; a reset forgets them.',
      body: ThresholdsPatchSchema,
      response: ThresholdsViewSchema,
      handler: ({ body, actor }) => svc.setThresholds(body, actor),
    }),
  ];
}
