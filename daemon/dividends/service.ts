// Cash dividends declared through the sandbox (docs/portfolio.md "Dividends").
//
// Record rule: the holders entitled are those holding the shares at the START of the ex-date
// (00:00 Africa/Cairo), counting settled, reserved and unsettled shares alike. A buy executed before
// the ex-date is entitled even while it is unsettled (it settles by the record date T+2 later), and a
// sell executed before the ex-date is not; shares bought on or after the ex-date trade without the
// dividend. This is the ex-date convention of a T+2 market stated on trade dates, so no separate record
// date is kept. Entitlements are fixed at that instant (a stored event, or at once when the ex-date is
// today) from the ledger's history, and paid at the start of the pay date (another stored event):
// the gross from the `corporate_actions` system account into settled cash, then the withholding
// (fixtures/fees.json dividend_withholding_bps, half up to the micro) to the `tax` account, with DIV
// and TAX activities. An amount that cannot be booked exactly fails that entitlement (AMOUNT_TOO_LARGE).
//
// Guarantees: a refused declaration stores and schedules nothing; each dividend is recorded once and
// paid once (declared -> recorded -> paid); no entitlement is ever a rounded amount.
//
// Files: declare.ts (validation, declaring, reading), entitlements.ts (the record and pay steps),
// views.ts (wire shape), repo.ts (SQL).
import { createLedgerHistory } from '../ledger/history.js';
import { readFixture } from '../fixtures.js';
import { DIVIDEND_PAY_EVENT, DIVIDEND_RECORD_EVENT, type DividendCtx, type DividendDeps } from './context.js';
import { declareDividend, getDividend, type DeclareBody } from './declare.js';
import { payDividend, recordDividend } from './entitlements.js';
import { createDividendRepo } from './repo.js';

export type { DividendDeps } from './context.js';

/** Binds the dividend functions and registers the record and pay steps with the scheduler. */
export function createDividendService(deps: DividendDeps) {
  const ctx: DividendCtx = {
    ...deps,
    repo: createDividendRepo(deps.db),
    history: createLedgerHistory(deps.db),
    withholdingBps: readFixture<{ dividend_withholding_bps: number }>('fees.json').dividend_withholding_bps,
  };
  deps.scheduler.on(DIVIDEND_RECORD_EVENT, (payload: { dividend_id: string }) => {
    const d = ctx.repo.byId(payload.dividend_id);
    if (d && d.state === 'declared') recordDividend(ctx, d);
  });
  deps.scheduler.on(DIVIDEND_PAY_EVENT, (payload: { dividend_id: string }) => {
    const d = ctx.repo.byId(payload.dividend_id);
    if (d && d.state === 'recorded') payDividend(ctx, d);
  });
  return {
    declare: (body: DeclareBody) => declareDividend(ctx, body),
    get: (id: string) => getDividend(ctx, id),
  };
}

export type DividendService = ReturnType<typeof createDividendService>;
