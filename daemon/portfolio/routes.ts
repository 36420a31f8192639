// Portfolio reads (B): value and positions, exposures, performance and risk. The services they share
// with funds, dividends and the client statements are made once by daemon/routes.ts.
import { defineRoute, type RouteDef } from '../contract/route.js';
import type { PortfolioService } from './service.js';
import {
  ExposuresSchema,
  InvestorParams,
  PerformanceQuery,
  PerformanceSchema,
  PortfolioSchema,
  RiskQuery,
  RiskSchema,
} from '../contract/schemas/portfolio.js';

export function portfolioRoutes(portfolio: PortfolioService): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/investors/:id/portfolio',
      auth: 'B',
      tags: ['portfolio'],
      summary:
        'Total value, cash and positions (equity, fund, cash) with price, market value, average-cost basis, ' +
        'unrealized P/L and weight. Descriptive only.',
      params: InvestorParams,
      response: PortfolioSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params, tenantId }) => portfolio.portfolio(tenantId!, params.id),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/investors/:id/portfolio/exposures',
      auth: 'B',
      tags: ['portfolio'],
      summary:
        "Sector and asset-class exposures (alphabetical), HHI concentration and the top holding's share. Fractions.",
      params: InvestorParams,
      response: ExposuresSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params, tenantId }) => portfolio.exposures(tenantId!, params.id),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/investors/:id/portfolio/performance',
      auth: 'B',
      tags: ['portfolio'],
      summary:
        'Daily value series over the last `days` trading days (default 90, 1-365) and its time-weighted ' +
        'return, deposits and withdrawals neutralised. Fractions.',
      params: InvestorParams,
      query: PerformanceQuery,
      response: PerformanceSchema,
      errors: ['NOT_FOUND', 'VALIDATION_FAILED'],
      handler: ({ params, query, tenantId }) => portfolio.performance(tenantId!, params.id, query.days),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/investors/:id/portfolio/risk',
      auth: 'B',
      tags: ['portfolio'],
      summary:
        'Annualized volatility, maximum drawdown, 1-day historical VaR(95) and beta against EGX30 over the ' +
        'last `days` daily returns (default 60, 1-365). Descriptive only; fractions.',
      params: InvestorParams,
      query: RiskQuery,
      response: RiskSchema,
      errors: ['NOT_FOUND', 'VALIDATION_FAILED'],
      handler: ({ params, query, tenantId }) => portfolio.risk(tenantId!, params.id, query.days),
    }),
  ];
}
