// A transfer's life after creation: one stored scheduler event per rail step, one simulated minute
// apart (received -> pending_rail -> at_broker -> completed), the sandbox's 666 EGP failure, and the
// money moving at completion (docs/funding.md "States and transitions").
import { CASH_EGP } from '../ledger/assets.js';
import { RAIL_FAILURE_MICROS, RAIL_STEP_MS } from '../contract/funding.js';
import type { FundingCtx } from './context.js';
import type { TransferChange, TransferRow } from './repo.js';

export const TRANSFER_STEP_EVENT = 'transfer.step';

export type Decision = Pick<TransferChange, 'approval' | 'decided_by' | 'decided_at'>;

/** Writes a transfer's new state (the database refuses a transition migration 005 does not allow). */
export function change(
  ctx: Pick<FundingCtx, 'repo' | 'nowIso'>,
  r: TransferRow,
  next: Partial<TransferChange>,
): TransferRow {
  const merged: TransferRow = { ...r, ...next, updated_at: ctx.nowIso() };
  ctx.repo.update(r.id, merged);
  return merged;
}

export function scheduleStep(ctx: Pick<FundingCtx, 'scheduler' | 'clock'>, r: TransferRow): void {
  ctx.scheduler.schedule(TRANSFER_STEP_EVENT, ctx.clock.now() + RAIL_STEP_MS, { transfer_id: r.id });
}

/** Ends a transfer as failed; a withdrawal's hold goes back to settled cash. */
export function failTransfer(ctx: FundingCtx, r: TransferRow, reasonCode: string, decision?: Decision): TransferRow {
  if (r.hold_id) ctx.ledger.voidHold(r.hold_id);
  return change(ctx, r, { state: 'failed', reason_code: reasonCode, ...decision });
}

/** at_broker -> completed: the money moves and the activity feed says so, in one transaction. */
function complete(ctx: FundingCtx, r: TransferRow): void {
  const cash = { investorId: r.investor_id, asset: CASH_EGP, bucket: 'settled' as const };
  const rail = { system: 'rail' as const, asset: CASH_EGP };
  const deposit = r.direction === 'deposit';
  const posted = deposit
    ? ctx.ledger.transfer({
        tenantId: r.tenant_id,
        debit: rail,
        credit: cash,
        amount: r.amount_micros,
        kind: 'deposit',
        ref: r.id,
      })
    : ctx.ledger.postHold(r.hold_id!, r.amount_micros, rail, 'withdrawal', r.id);
  if (!posted.ok) {
    // A refusal here (a balance that would pass 2^53 - 1) fails the transfer: it is an event, not a request.
    failTransfer(ctx, r, posted.code);
    return;
  }
  change(ctx, r, { state: 'completed' });
  ctx.ledger.recordActivity({
    tenantId: r.tenant_id,
    investorId: r.investor_id,
    type: deposit ? 'CSD' : 'CSW',
    netAmountMicros: deposit ? r.amount_micros : -r.amount_micros,
    description: deposit
      ? `Cash deposit via payment rail ${r.rail_ref}`
      : `Cash withdrawal via payment rail ${r.rail_ref}`,
    ref: { type: 'transfer', id: r.id },
  });
}

/** One rail step of a transfer; runs in the scheduler's transaction with the clock pinned. */
export function step(ctx: FundingCtx, transferId: string): void {
  const r = ctx.repo.byId(transferId);
  if (!r) return;
  switch (r.state) {
    case 'received':
      if (r.approval === 'pending') return;
      scheduleStep(ctx, change(ctx, r, { state: 'pending_rail', rail_ref: ctx.ids.next('rail') }));
      return;
    case 'pending_rail':
      if (r.amount_micros === RAIL_FAILURE_MICROS) failTransfer(ctx, r, 'RAIL_REJECTED');
      else scheduleStep(ctx, change(ctx, r, { state: 'at_broker' }));
      return;
    case 'at_broker':
      complete(ctx, r);
      return;
    default:
      return;
  }
}
