// Every capability's routes, in one list. A module is (deps) => RouteDef[].
import type { Deps } from './deps.js';
import type { RouteDef } from './contract/route.js';
import { marketRoutes } from './market/routes.js';
import { newsRoutes } from './news/routes.js';
import { sandboxRoutes } from './sandbox/routes.js';
import { inspectorRoutes } from './sandbox/inspector-routes.js';
import { faultRoutes } from './sandbox/fault-routes.js';
import { backofficeRoutes } from './backoffice/routes.js';
import { onboardingRoutes } from './onboarding/routes.js';
import { ledgerRoutes } from './ledger/routes.js';
import { fundingRoutes } from './funding/routes.js';
import { tradingRoutes } from './trading/routes.js';
import { deskReportRoutes } from './trading/desk-report-routes.js';
import { createFundService } from './funds/service.js';
import { loadFunds } from './funds/catalog.js';
import { fundRoutes } from './funds/routes.js';
import { createDividendService } from './dividends/service.js';
import { dividendRoutes } from './dividends/routes.js';
import { createPortfolioService } from './portfolio/service.js';
import { createReportService } from './reports/service.js';
import { reportRoutes } from './reports/routes.js';
import { portfolioRoutes } from './portfolio/routes.js';
import { brandingRoutes } from './branding/routes.js';
import { reconciliationRoutes } from './reconciliation/routes.js';
import { surveillanceRoutes } from './surveillance/routes.js';
import { complaintsRoutes } from './complaints/routes.js';
import { assistantRoutes } from './assistant/routes.js';
import { consoleRoutes } from './backoffice/console-routes.js';

/**
 * Funds, dividends, the portfolio's reads and the client statements share one set of services: the
 * portfolio values fund units with the fund service's NAV book, and a statement reads the portfolio.
 * They are made here, above all four, so none of those folders imports another's routes.
 */
function holdingsRoutes(deps: Deps): RouteDef[] {
  const funds = createFundService(deps);
  const dividends = createDividendService(deps);
  const portfolio = createPortfolioService(deps, funds);
  return [
    ...fundRoutes(funds),
    ...dividendRoutes(dividends),
    ...reportRoutes(createReportService(deps, portfolio)),
    ...portfolioRoutes(portfolio),
  ];
}

/** The market's routes; its logo route draws the funds' logos too (the logo_url of GET /v1/funds). */
function marketAndLogoRoutes(deps: Deps): RouteDef[] {
  return marketRoutes(deps, new Set(loadFunds().all.map((f) => f.fund_code)));
}

export const ROUTE_MODULES: Array<(deps: Deps) => RouteDef[]> = [
  marketAndLogoRoutes,
  newsRoutes,
  sandboxRoutes,
  inspectorRoutes,
  faultRoutes,
  backofficeRoutes,
  onboardingRoutes,
  ledgerRoutes,
  fundingRoutes,
  tradingRoutes,
  deskReportRoutes,
  holdingsRoutes,
  brandingRoutes,
  reconciliationRoutes,
  assistantRoutes,
  surveillanceRoutes,
  complaintsRoutes,
  consoleRoutes,
];
