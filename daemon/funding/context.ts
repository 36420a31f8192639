// What every funding function works with: the dependencies it uses and the transfer repository, built
// once per service (service.ts).
import type { Deps } from '../deps.js';
import type { TransferRepo } from './repo.js';

export type FundingDeps = Pick<
  Deps,
  'db' | 'ids' | 'clock' | 'nowIso' | 'ledger' | 'investors' | 'scheduler' | 'market'
>;

export interface FundingCtx extends FundingDeps {
  repo: TransferRepo;
}
