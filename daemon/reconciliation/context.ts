// What every reconciliation function works with: the dependencies it uses and its repository, built
// once per service.
import type { Deps } from '../deps.js';
import type { ReconRepo } from './repo.js';

export type ReconDeps = Pick<Deps, 'db' | 'ids' | 'clock' | 'nowIso' | 'market'>;

export interface ReconCtx extends ReconDeps {
  repo: ReconRepo;
}
