// Portfolio reads (docs/portfolio.md): positions with their average-cost basis, exposures, the daily
// value series with its time-weighted return, and descriptive risk statistics. Everything is derived
// on read from the ledger, the fills, the fund orders, the tape and the NAV book; nothing is stored.
//
// Guarantees: reads only (no write, no scheduled event); money stays integer micros and every ratio is
// rounded once (analytics.ts); the cost basis is recomputed from the fills and fund orders it is made
// of, so it cannot drift from them; statistics describe what happened and forecast or rank nothing.
//
// Files: holdings.ts (portfolio, exposures), performance.ts (performance, risk), positions.ts (rows),
// valuation.ts (prices and the value series), cost-basis.ts, analytics.ts (pure formulas), repo.ts,
// statement.ts (a client statement's figures for a period).
import { createLedgerHistory } from '../ledger/history.js';
import type { FundService } from '../funds/service.js';
import type { PortfolioCtx, PortfolioDeps } from './context.js';
import { exposuresReport, portfolioReport } from './holdings.js';
import { performanceReport, riskReport } from './performance.js';
import { createPortfolioRepo } from './repo.js';
import { createValuer } from './valuation.js';
import { statementFigures, type StatementPeriod } from './statement.js';

export type { PortfolioDeps } from './context.js';

export function createPortfolioService(deps: PortfolioDeps, funds: FundService) {
  const ctx: PortfolioCtx = {
    ...deps,
    funds,
    history: createLedgerHistory(deps.db),
    repo: createPortfolioRepo(deps.db),
    valuer: createValuer(deps.market, funds.funds, funds.navBook),
  };
  return {
    portfolio: (tenantId: string, investorId: string) => portfolioReport(ctx, tenantId, investorId),
    exposures: (tenantId: string, investorId: string) => exposuresReport(ctx, tenantId, investorId),
    performance: (tenantId: string, investorId: string, days: number) =>
      performanceReport(ctx, tenantId, investorId, days),
    risk: (tenantId: string, investorId: string, days: number) => riskReport(ctx, tenantId, investorId, days),
    /** A client statement's figures (the investor already looked up by the caller). */
    statement: (tenantId: string, investorId: string, period: StatementPeriod) =>
      statementFigures(ctx, tenantId, investorId, period),
  };
}

export type PortfolioService = ReturnType<typeof createPortfolioService>;
