// Client statements (docs/reports.md): create (I), read, download the PDF (B).
import { defineRoute, type RouteDef } from '../contract/route.js';
import { ReportCreateBody, ReportCreated, ReportParams, ReportSchema } from '../contract/schemas/reports.js';
import type { ReportService } from './service.js';

export function reportRoutes(reports: ReportService): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/reports',
      auth: 'B',
      tags: ['portfolio'],
      status: 201,
      summary:
        'Request a client statement (PDF) for a period: pending now, generating at the next simulated minute, ' +
        'ready (or failed) the minute after.',
      body: ReportCreateBody,
      response: ReportCreated,
      errors: [
        'NOT_FOUND',
        'INVALID_DATE',
        'DATE_OUT_OF_RANGE',
        'INVALID_PERIOD',
        'PERIOD_BEFORE_ACCOUNT',
        'PERIOD_TOO_LONG',
        'UNSUPPORTED_LOCALE',
      ],
      handler: ({ body, tenantId }) => reports.create(tenantId!, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/reports/:id',
      auth: 'B',
      tags: ['portfolio'],
      summary: "A report's state and, once ready, the PDF's size and SHA-256.",
      params: ReportParams,
      response: ReportSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params, tenantId }) => reports.get(tenantId!, params.id),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/reports/:id/download',
      auth: 'B',
      tags: ['portfolio'],
      produces: ['application/pdf'],
      summary:
        'The PDF (Content-Disposition: attachment); 409 REPORT_NOT_READY before ready, 410 REPORT_PURGED after ' +
        'the seven-year retention. Every download is audited.',
      params: ReportParams,
      errors: ['NOT_FOUND', 'REPORT_NOT_READY', 'REPORT_PURGED'],
      handler: ({ params, tenantId, actor }) => reports.download(tenantId!, params.id, actor),
    }),
  ];
}
