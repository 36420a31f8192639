// Sandbox dividends (X-Admin-Key, sandbox:control): declare, and read one with its entitlements.
import { defineRoute, type RouteDef } from '../contract/route.js';
import type { DividendService } from './service.js';
import { DeclareDividendBody, DividendParams, DividendSchema } from '../contract/schemas/dividends.js';

const control = { realm: 'admin', grant: 'sandbox:control' } as const;

export function dividendRoutes(dividends: DividendService): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/declare-dividend',
      auth: control,
      tags: ['sandbox'],
      status: 201,
      summary:
        'Declare a cash dividend: holders at the start of ex_date (settled, reserved and unsettled shares) are ' +
        'paid at the start of pay_date, net of withholding, as ledger postings and DIV and TAX activities.',
      body: DeclareDividendBody,
      response: DividendSchema,
      issueCode: (path, _where, issue) =>
        path[0] === 'amount_per_share_micros' && issue.code === 'too_big'
          ? 'AMOUNT_TOO_LARGE'
          : (path[0] === 'ex_date' || path[0] === 'pay_date') && issue.code === 'invalid_format'
            ? 'INVALID_DATE'
            : undefined,
      errors: [
        'VALIDATION_FAILED',
        'AMOUNT_TOO_LARGE',
        'UNKNOWN_SYMBOL',
        'INVALID_DATE',
        'DATE_OUT_OF_RANGE',
        'DATE_IN_PAST',
        'INVALID_RANGE',
      ],
      handler: ({ body }) => dividends.declare(body),
    }),
    defineRoute({
      method: 'GET',
      url: '/admin/sandbox/dividends/:id',
      auth: control,
      tags: ['sandbox'],
      summary: "A declared dividend: its state (declared, recorded, paid) and each holder's entitlement.",
      params: DividendParams,
      response: DividendSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params }) => dividends.get(params.id),
    }),
  ];
}
