// Money-market funds: the fund list at the current NAV, fund orders executed at once at that NAV, and
// the sandbox NAV control (docs/portfolio.md "Money-market funds").
//
// A fund order goes received -> validated -> processed -> settled inside its own request: the
// spec's "execute immediately at the current NAV with no approval wait", and settlement_days 0. A
// refusal is decided before anything is booked and answered as a 4xx (validate.ts), as for orders.
// Money (ledger): a subscription moves the charged cash from settled cash to the `fund` system
// account and credits the units to settled units from it; a redemption moves the units back and
// credits the amount to settled cash. Each books an activity (SUB / RED) in the same transaction.
//
// Guarantees: the NAV at an instant is a function of the fund, the date and the NAV controls set
// before it (nav-book.ts), so every read and order at that instant sees the same NAV; rounding goes
// against the transacting investor and never creates money (nav.ts); an order moves units and cash
// together or not at all.
//
// Files: orders.ts (place, read), validate.ts (the refusal chain), nav.ts (the arithmetic),
// nav-book.ts (the NAV at an instant), catalog.ts (fixtures), views.ts (wire shapes), repo.ts (SQL).
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { loadFunds } from './catalog.js';
import type { FundsCtx, FundsDeps } from './context.js';
import { createNavBook } from './nav-book.js';
import { getFundOrder, placeFundOrder } from './orders.js';
import { createFundRepo } from './repo.js';
import type { FundOrderBody } from './validate.js';
import { fundView, type FundRowView } from './views.js';

export type { FundsDeps } from './context.js';

function listFunds(ctx: FundsCtx, filter: { shariah?: boolean }) {
  const now = ctx.clock.now();
  const rows = ctx.funds.all.filter((f) => filter.shariah === undefined || f.shariah_compliant === filter.shariah);
  return {
    funds: rows.map((f) => fundView(f, ctx.navBook.navAt(f, now))),
    ordering: 'alphabetical' as const,
    as_of: ctx.nowIso(),
  };
}

/** Sandbox control: the NAV after the current sweep, from now on. */
function setNav(ctx: FundsCtx, code: string, navMicros: number): Outcome<FundRowView> {
  const fund = ctx.funds.get(code);
  if (!fund) return refuse('UNKNOWN_FUND', `No fund ${code}.`);
  return ok(fundView(fund, ctx.navBook.override(fund, ctx.clock.now(), navMicros)));
}

export function createFundService(deps: FundsDeps) {
  const ctx: FundsCtx = { ...deps, funds: loadFunds(), navBook: createNavBook(deps), repo: createFundRepo(deps.db) };
  return {
    funds: ctx.funds,
    navBook: ctx.navBook,
    repo: ctx.repo,
    list: (filter: { shariah?: boolean }) => listFunds(ctx, filter),
    place: (tenantId: string, body: FundOrderBody) => placeFundOrder(ctx, tenantId, body),
    get: (tenantId: string, id: string) => getFundOrder(ctx, tenantId, id),
    setNav: (code: string, navMicros: number) => setNav(ctx, code, navMicros),
  };
}

export type FundService = ReturnType<typeof createFundService>;
