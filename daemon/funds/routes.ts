// Funds (B), fund orders (POST signed and idempotent) and the sandbox NAV control.
import { defineRoute, type RouteDef } from '../contract/route.js';
import { firstOf } from '../contract/list-page.js';
import { baseUrl, onBase } from '../contract/base-url.js';
import type { FundService } from './service.js';
import {
  FundList,
  FundListQuery,
  FundOrderCreateBody,
  FundOrderParams,
  FundOrderSchema,
  FundSchema,
  NavBody,
} from '../contract/schemas/funds.js';

export function fundRoutes(funds: FundService): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/funds',
      auth: 'B',
      tags: ['funds'],
      summary:
        'Money-market funds at the current NAV (after the latest daily sweep), alphabetical by fund_code; ' +
        'shariah=true narrows to compliant funds.',
      query: FundListQuery,
      response: FundList,
      handler: ({ query, headers }) => {
        const list = funds.list({ shariah: query.shariah === undefined ? undefined : query.shariah === 'true' });
        // logo_url on the host the client called, as GET /v1/instruments gives it
        const base = baseUrl(headers);
        return firstOf(
          { ...list, funds: list.funds.map((f) => ({ ...f, logo_url: onBase(base, f.logo_url) })) },
          'funds',
          query.limit,
        );
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/fund-orders',
      auth: 'S',
      tags: ['funds'],
      status: 201,
      summary:
        'Subscribe (amount_micros) or redeem (units_micros): executes at once at the current NAV and settles ' +
        '(received -> validated -> processed -> settled). A refusal books nothing.',
      body: FundOrderCreateBody,
      response: FundOrderSchema,
      issueCode: (path, _where, issue) =>
        (path[0] === 'amount_micros' || path[0] === 'units_micros') && issue.code === 'too_big'
          ? 'AMOUNT_TOO_LARGE'
          : undefined,
      errors: [
        'VALIDATION_FAILED',
        'AMOUNT_TOO_LARGE',
        'UNKNOWN_FUND',
        'NOT_FOUND',
        'INVESTOR_NOT_APPROVED',
        'INVESTOR_CLOSED',
        'INVESTOR_RESTRICTED',
        'SHARIAH_RESTRICTED',
        'BELOW_MINIMUM_SUBSCRIPTION',
        'FUND_ORDER_TOO_SMALL',
        'INSUFFICIENT_SETTLED_CASH',
        'INSUFFICIENT_SETTLED_SECURITIES',
      ],
      handler: ({ body, tenantId }) => funds.place(tenantId!, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/fund-orders/:id',
      auth: 'B',
      tags: ['funds'],
      summary: 'One fund order with its state, the NAV applied and the units and amount that moved.',
      params: FundOrderParams,
      response: FundOrderSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params, tenantId }) => funds.get(tenantId!, params.id),
    }),
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/nav',
      auth: { realm: 'admin', grant: 'sandbox:control' },
      tags: ['sandbox'],
      summary: "Set a fund's NAV after the current sweep, from now on; later daily sweeps accrue from it.",
      body: NavBody,
      response: FundSchema,
      errors: ['UNKNOWN_FUND', 'VALIDATION_FAILED'],
      handler: ({ body }) => funds.setNav(body.fund_code, body.nav_micros),
    }),
  ];
}
