// The dealer funding desk (docs/funding.md "The dealer funding desk"): with manual funding approval on,
// a new transfer waits in received (approval pending) until a dealer of the investor's broker approves
// it (its rail steps start) or rejects it (it fails with the dealer's reason and any hold is released).
import type { Operator } from '../contract/route.js';
import { ok, refuse, type Outcome } from '../contract/outcome.js';
import type { FundingCtx } from './context.js';
import { change, failTransfer, scheduleStep } from './rail.js';
import type { DeskRow, TransferApproval, TransferState } from './repo.js';
import { deskView, type DeskTransfer } from './views.js';

export interface DeskFilter {
  approval: TransferApproval | 'any';
  state?: TransferState;
  limit: number;
}

export function deskList(ctx: FundingCtx, op: Operator, f: DeskFilter): { funding: DeskTransfer[] } {
  const rows = ctx.repo.deskList({
    brokerId: op.brokerId,
    approval: f.approval === 'any' ? undefined : f.approval,
    state: f.state,
    limit: f.limit,
  });
  return { funding: rows.map(deskView) };
}

/** The transfer as the dealer's broker sees it; another broker's is unknown (404). */
function deskTransfer(ctx: FundingCtx, op: Operator, id: string): Outcome<DeskRow> {
  const r = ctx.repo.deskById(op.brokerId, id);
  return r ? ok(r) : refuse('NOT_FOUND', `No transfer ${id}.`);
}

/** Approves (reasonCode absent) or rejects a transfer waiting for a funding decision. */
export function decide(
  ctx: FundingCtx,
  op: Operator,
  id: string,
  decision: 'approved' | 'rejected',
  reasonCode?: string,
): Outcome<DeskTransfer> {
  const found = deskTransfer(ctx, op, id);
  if (!found.ok) return found;
  const r = found.value;
  if (r.approval !== 'pending') {
    return refuse('TRANSFER_NOT_PENDING_APPROVAL', `Transfer ${id} is ${r.state} with approval ${r.approval}.`);
  }
  const stamp = { approval: decision, decided_by: op.id, decided_at: ctx.nowIso() } as const;
  if (decision === 'approved') scheduleStep(ctx, change(ctx, r, stamp));
  else failTransfer(ctx, r, reasonCode!, stamp);
  return ok(deskView(ctx.repo.deskById(op.brokerId, id)!));
}

/** The sandbox switch; it applies to transfers created while it is on. */
export function setManualFunding(ctx: FundingCtx, enabled: boolean): { manual_funding: boolean } {
  ctx.repo.setManualFunding(enabled);
  return { manual_funding: enabled };
}
