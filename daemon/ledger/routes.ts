// Ledger reads: an investor's balances and activity feed (B). Another tenant's investor is 404.
import { defineRoute, type RouteDef } from '../contract/route.js';
import { investorActivities, investorBalances, type LedgerViewDeps } from './views.js';
import { ActivitiesQuery, ActivitiesSchema, BalancesSchema, InvestorParams } from '../contract/schemas/ledger.js';

export function ledgerRoutes(deps: LedgerViewDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/investors/:id/balances',
      auth: 'B',
      tags: ['ledger'],
      summary:
        'Settled, reserved and unsettled balances per asset: cash (micros), securities (shares), funds (unit micros).',
      params: InvestorParams,
      response: BalancesSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params, tenantId }) => investorBalances(deps, tenantId!, params.id),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/investors/:id/activities',
      auth: 'B',
      tags: ['ledger'],
      summary:
        'Ledger-backed activity feed (deposits, withdrawals, executions, fees, dividends), newest first; limit ' +
        '1-200 (default 100), before = an activity id.',
      params: InvestorParams,
      query: ActivitiesQuery,
      response: ActivitiesSchema,
      errors: ['NOT_FOUND', 'INVALID_CURSOR'],
      handler: ({ params, query, tenantId }) => investorActivities(deps, tenantId!, params.id, query),
    }),
  ];
}
