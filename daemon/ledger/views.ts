// What the ledger's read routes answer (docs/ledger.md): an investor's balances as of the simulated now,
// and a page of the investor's activity feed. Another tenant's investor is 404 NOT_FOUND.
import { ok, type Outcome } from '../contract/outcome.js';
import type { InvestorRepo } from '../investors/repo.js';
import type { ActivityPage } from './activities.js';
import type { Ledger } from './ledger.js';
import type { Balances } from './model.js';

export interface LedgerViewDeps {
  ledger: Ledger;
  investors: InvestorRepo;
  nowIso(): string;
}

export function investorBalances(
  deps: LedgerViewDeps,
  tenantId: string,
  investorId: string,
): Outcome<Balances & { investor_id: string; as_of: string }> {
  const found = deps.investors.lookup(tenantId, investorId);
  if (!found.ok) return found;
  const investor = found.value;
  return ok({ investor_id: investor.id, as_of: deps.nowIso(), ...deps.ledger.balances(tenantId, investor.id) });
}

export function investorActivities(
  deps: LedgerViewDeps,
  tenantId: string,
  investorId: string,
  page: { limit: number; before?: string },
): Outcome<ActivityPage> {
  const found = deps.investors.lookup(tenantId, investorId);
  if (!found.ok) return found;
  return deps.ledger.activities(tenantId, found.value.id, { limit: page.limit, before: page.before });
}
