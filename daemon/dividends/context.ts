// What every dividend function works with: the dependencies it uses, the dividend repository, the
// ledger's history (holders at an instant) and the withholding rate, built once per service.
import type { Deps } from '../deps.js';
import type { LedgerHistory } from '../ledger/history.js';
import type { DividendRepo } from './repo.js';

export type DividendDeps = Pick<Deps, 'db' | 'ids' | 'clock' | 'nowIso' | 'ledger' | 'market' | 'scheduler'>;

export interface DividendCtx extends DividendDeps {
  repo: DividendRepo;
  history: LedgerHistory;
  /** fixtures/fees.json dividend_withholding_bps, fixed on each dividend when it is declared. */
  withholdingBps: number;
}

export const DIVIDEND_RECORD_EVENT = 'dividend.record';
export const DIVIDEND_PAY_EVENT = 'dividend.pay';
