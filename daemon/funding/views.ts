// The wire shapes of a transfer: as its tenant sees it, and as the dealer desk sees it (with the
// investor's account and the funding decision).
import type { DeskRow, TransferRow } from './repo.js';

export function transferView(r: TransferRow) {
  return {
    transfer_id: r.id,
    investor_id: r.investor_id,
    direction: r.direction,
    amount_micros: r.amount_micros,
    state: r.state,
    approval: r.approval,
    rail_ref: r.rail_ref,
    reason_code: r.reason_code,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export type Transfer = ReturnType<typeof transferView>;

export function deskView(r: DeskRow) {
  return {
    ...transferView(r),
    tenant_id: r.tenant_id,
    account_number: r.account_number,
    investor_name: r.full_name,
    decided_by: r.decided_by,
    decided_at: r.decided_at,
  };
}

export type DeskTransfer = ReturnType<typeof deskView>;
