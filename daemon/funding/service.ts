// Transfers and the dealer funding desk (docs/funding.md).
//
// A transfer moves through received -> pending_rail -> at_broker -> completed, one simulated minute
// per step, driven by stored scheduler events; exactly 666 EGP fails at the rail (RAIL_REJECTED).
// Money moves only in the ledger: a withdrawal holds settled cash at creation, posts the hold to the
// rail on completion and voids it on failure; a deposit credits settled cash on completion. With
// manual funding approval on, a new transfer waits in received (approval: pending) until a dealer
// approves it (the steps start then) or rejects it (failed with the dealer's reason, hold released).
//
// Guarantees: a refusal (every business rule answers an Outcome) writes nothing, holds nothing and
// schedules nothing; a transfer's money moves exactly once, at completion, with its activity; a failed
// transfer releases its hold and counts against no limit.
//
// Files: transfers.ts (create, read, list), rail.ts (the scheduled steps), desk.ts (the dealer's
// decisions, the manual-funding switch), views.ts (wire shapes), repo.ts (SQL).
import type { Operator } from '../contract/route.js';
import type { FundingCtx, FundingDeps } from './context.js';
import { createTransferRepo } from './repo.js';
import { step, TRANSFER_STEP_EVENT } from './rail.js';
import { createTransfer, getTransfer, listTransfers, type TransferFilter, type TransferInput } from './transfers.js';
import { decide, deskList, setManualFunding, type DeskFilter } from './desk.js';

/** Binds the funding functions to one repository and registers the rail step with the scheduler. */
export function createFundingService(deps: FundingDeps) {
  const ctx: FundingCtx = { ...deps, repo: createTransferRepo(deps.db) };
  deps.scheduler.on(TRANSFER_STEP_EVENT, (payload: { transfer_id: string }) => step(ctx, payload.transfer_id));
  return {
    create: (tenantId: string, input: TransferInput) => createTransfer(ctx, tenantId, input),
    get: (tenantId: string, id: string) => getTransfer(ctx, tenantId, id),
    list: (tenantId: string, f: TransferFilter) => listTransfers(ctx, tenantId, f),
    step: (transferId: string) => step(ctx, transferId),
    setManualFunding: (enabled: boolean) => setManualFunding(ctx, enabled),
    deskList: (op: Operator, f: DeskFilter) => deskList(ctx, op, f),
    approve: (op: Operator, id: string) => decide(ctx, op, id, 'approved'),
    reject: (op: Operator, id: string, reasonCode: string) => decide(ctx, op, id, 'rejected', reasonCode),
  };
}

export type FundingService = ReturnType<typeof createFundingService>;
