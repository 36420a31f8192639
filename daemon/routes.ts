// Every capability's routes, in one list. A module is (deps) => RouteDef[].
import type { Deps } from './deps.js';
import type { RouteDef } from './contract/route.js';
import { marketRoutes } from './market/routes.js';
import { newsRoutes } from './news/routes.js';
import { sandboxRoutes } from './sandbox/routes.js';
import { inspectorRoutes } from './sandbox/inspector-routes.js';
import { backofficeRoutes } from './backoffice/routes.js';
import { onboardingRoutes } from './onboarding/routes.js';
import { ledgerRoutes } from './ledger/routes.js';
import { fundingRoutes } from './funding/routes.js';
import { tradingRoutes } from './trading/routes.js';
import { deskReportRoutes } from './trading/desk-report-routes.js';
import { portfolioRoutes } from './portfolio/routes.js';
import { brandingRoutes } from './branding/routes.js';
import { reconciliationRoutes } from './reconciliation/routes.js';
import { surveillanceRoutes } from './surveillance/routes.js';
import { complaintsRoutes } from './complaints/routes.js';
import { assistantRoutes } from './assistant/routes.js';
import { consoleRoutes } from './backoffice/console-routes.js';

export const ROUTE_MODULES: Array<(deps: Deps) => RouteDef[]> = [marketRoutes, newsRoutes, sandboxRoutes, inspectorRoutes, backofficeRoutes, onboardingRoutes, ledgerRoutes, fundingRoutes, tradingRoutes, deskReportRoutes, portfolioRoutes, brandingRoutes, reconciliationRoutes, assistantRoutes, surveillanceRoutes, complaintsRoutes, consoleRoutes];
