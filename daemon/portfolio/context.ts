// What every portfolio function works with: the dependencies it uses, the fund service (its catalog,
// NAV book and settled fund orders), the ledger's history, the fills and the valuer, built once.
import type { Deps } from '../deps.js';
import type { LedgerHistory } from '../ledger/history.js';
import type { FundService } from '../funds/service.js';
import type { PortfolioRepo } from './repo.js';
import type { Valuer } from './valuation.js';

export type PortfolioDeps = Pick<Deps, 'db' | 'clock' | 'nowIso' | 'investors' | 'market'>;

export interface PortfolioCtx extends PortfolioDeps {
  funds: FundService;
  history: LedgerHistory;
  repo: PortfolioRepo;
  valuer: Valuer;
}
