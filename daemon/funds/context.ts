// What every fund function works with: the dependencies it uses, the fund catalog, the NAV book and the
// fund order repository, built once per service (service.ts).
import type { Deps } from '../deps.js';
import type { FundCatalog } from './catalog.js';
import type { NavBook } from './nav-book.js';
import type { FundRepo } from './repo.js';

export type FundsDeps = Pick<Deps, 'db' | 'ids' | 'clock' | 'nowIso' | 'ledger' | 'investors' | 'market' | 'onReset'>;

export interface FundsCtx extends FundsDeps {
  funds: FundCatalog;
  navBook: NavBook;
  repo: FundRepo;
}
