// The `adjusted` resolution (docs/reconciliation.md, "A break's lifecycle"): an approved ledger:adjust
// maker-checker action that names a break fixes the book and resolves that break in the same
// transaction. The executor of ledger:adjust (daemon/backoffice/action-bases.ts) asks `adjustableBreak`
// before it posts and calls `resolveAdjusted` after; a refusal of either rolls the whole approval back.
import type { Deps } from '../deps.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import { createReconRepo, type BreakRow } from './repo.js';

type D = Pick<Deps, 'db'>;

/** What the adjustment changes: the break must be about the same investor and asset. */
export interface AdjustmentTarget {
  tenantId: string;
  investorId: string;
  asset: string;
}

/**
 * The break an adjustment may resolve: it exists, is about the adjustment's investor and asset, and is
 * not resolved yet (a resolved break is BREAK_STATE_CONFLICT: nothing is posted).
 */
export function adjustableBreak(deps: D, breakId: string, target: AdjustmentTarget): Outcome<BreakRow> {
  const b = createReconRepo(deps.db).break(breakId);
  if (!b) return refuse('ACTION_NOT_EXECUTABLE', `No reconciliation break ${breakId}.`);
  if (b.state === 'resolved')
    return refuse(
      'BREAK_STATE_CONFLICT',
      `Break ${breakId} is already resolved (${b.resolution}); the adjustment is not posted.`,
    );
  if (b.tenant_id !== target.tenantId || b.investor_id !== target.investorId || b.asset !== target.asset) {
    return refuse(
      'ACTION_NOT_EXECUTABLE',
      `Break ${breakId} is about ${b.investor_id} ${b.asset}, not ${target.investorId} ${target.asset}.`,
    );
  }
  return ok(b);
}

/** Resolves the break `adjusted` by the action (its id is `resolved_by`); false when it was resolved meanwhile. */
export function resolveAdjusted(deps: D, breakId: string, actionId: string, atIso: string, note: string): boolean {
  return createReconRepo(deps.db).adjust(breakId, atIso, actionId, note);
}
